package variants

import (
	"io/fs"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// The essay's two optional rules: the partner pawn swap
// (essay-partners-swap) and the alternate rule (essay-partners-alternate).
// Seats: the essay's White, Red, Yellow, Black sit on boardd's Red, Green,
// Yellow, Blue; partners White+Yellow (red+yellow) and Red+Black
// (green+blue); turn order red, green, yellow, blue.

// lookup resolves variant names through the catalog, as boardd does.
func lookup(t *testing.T) pgn4.Lookup {
	cat := catalog(t)
	return func(name, start string) (*rules.Variant, error) {
		d, err := Find(cat, name)
		if err != nil {
			return nil, err
		}
		return d.Variant(start)
	}
}

// findMoves returns the legal moves of the game from one square to another.
func findMoves(g *rules.Game, from, to string) []rules.Move {
	var out []rules.Move
	for _, m := range g.LegalMoves() {
		if m.From().String() == from && m.To().String() == to {
			out = append(out, m)
		}
	}
	return out
}

// "What I would suggest is this: a Pawn may move in the manner it would
// normally move in to capture a Pawn belonging to its partner's team, but
// instead of being captured, that Pawn will either exchange places with the
// "capturing" Pawn, being placed on the square from which it started its
// move, or, in the case of en passant capture, simply remain undisturbed
// without moving."
func TestEssayPawnSwap(t *testing.T) {
	const kings = "bK:a8 yK:j14 gK:n7 "
	tests := []struct {
		name    string
		variant string
		turn    string
		pieces  string
		pre     []string // moves played first, "h13-h11"
		from    string
		to      string
		legal   int               // legal moves from→to (promotions count one each)
		after   map[string]string // squares after the first of them, "" empty
		text    string            // its PGN4 token
	}{
		{"a White pawn exchanges places with its partner Yellow's pawn", "essay-partners-swap", "R", kings + "rK:e1 rP:h5 yP:i6", nil,
			"h5", "i6", 1, map[string]string{"h5": "yP", "i6": "rP"}, "h5~i6"},
		{"Yellow's pawn, moving south, exchanges with White's", "essay-partners-swap", "Y", kings + "rK:e1 rP:h5 yP:i6", nil,
			"i6", "h5", 1, map[string]string{"h5": "yP", "i6": "rP"}, "i6~h5"},
		{"Black's pawn (east) exchanges with its partner Red's", "essay-partners-swap", "B", kings + "rK:e1 bP:e7 gP:f8", nil,
			"e7", "f8", 1, map[string]string{"e7": "gP", "f8": "bP"}, "e7~f8"},
		{"an opponent's pawn is captured, not exchanged", "essay-partners-swap", "R", kings + "rK:e1 rP:h5 bP:i6", nil,
			"h5", "i6", 1, map[string]string{"h5": "", "i6": "rP"}, "h5xi6"},
		{"only a partner's pawn: a partner's knight still blocks", "essay-partners-swap", "R", kings + "rK:e1 rP:h5 yN:i6", nil,
			"h5", "i6", 0, nil, ""},
		{"the option off (essay-partners): partners' pawns block", "essay-partners", "R", kings + "rK:e1 rP:h5 yP:i6", nil,
			"h5", "i6", 0, nil, ""},
		{"a pinned pawn may exchange: the partner's pawn takes its place on the line", "essay-partners-swap", "R", kings + "rK:h1 rP:h3 bR:h9 yP:g4 bP:i4", nil,
			"h3", "g4", 1, map[string]string{"h3": "yP", "g4": "rP"}, "h3~g4"},
		{"… but may not capture off the line", "essay-partners-swap", "R", kings + "rK:h1 rP:h3 bR:h9 yP:g4 bP:i4", nil,
			"h3", "i4", 0, nil, ""},
		{"in check, an exchange does not help", "essay-partners-swap", "R", kings + "rK:h1 bR:h9 rP:e5 yP:f6", nil,
			"e5", "f6", 0, nil, ""},
		{"a pawn exchanging onto its promotion square promotes", "essay-partners-swap", "R", kings + "rK:e1 rP:d10 yP:c11", nil,
			"d10", "c11", 4, map[string]string{"d10": "yP", "c11": "rQ"}, "d10~c11=Q"},
		{"never onto the partner's own promotion square (c4 is Yellow's)", "essay-partners-swap", "R", kings + "rK:e1 rP:c4 yP:d5", nil,
			"c4", "d5", 0, nil, ""},
		{"en passant form: the partner's pawn double-stepped past, and stays", "essay-partners-swap", "Y", kings + "rK:e1 rP:g11 yP:h13", []string{"h13-h11", "a8-a9"},
			"g11", "h12", 1, map[string]string{"g11": "", "h12": "rP", "h11": "yP"}, "g11~h12"},
		{"en passant form off: no move", "essay-partners", "Y", kings + "rK:e1 rP:g11 yP:h13", []string{"h13-h11", "a8-a9"},
			"g11", "h12", 0, nil, ""},
		{"the en passant form can expose the king: a pinned pawn may not", "essay-partners-swap", "Y", kings + "rK:g5 bR:g13 rP:g11 yP:h13", []string{"h13-h11", "a8-a9"},
			"g11", "h12", 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := variantNamed(t, tt.variant)
			g := crossGame(t, v, tt.turn, "0,0,0,0", tt.pieces)
			for _, mv := range tt.pre {
				playCross(t, g, mv[:strings.IndexByte(mv, '-')], mv[strings.IndexByte(mv, '-')+1:])
			}
			moves := findMoves(g, tt.from, tt.to)
			if len(moves) != tt.legal {
				t.Fatalf("%d legal moves %s-%s (%v), want %d", len(moves), tt.from, tt.to, moves, tt.legal)
			}
			if tt.legal == 0 {
				return
			}
			before := g.Position().FEN4()
			rec, err := g.Play(moves[0])
			if err != nil {
				t.Fatal(err)
			}
			if rec.Text != tt.text {
				t.Errorf("written %q, want %q", rec.Text, tt.text)
			}
			p := g.Position()
			for name, want := range tt.after {
				if got := p.At(sqr(t, name)).String(); got != want {
					t.Errorf("%s holds %q after the move, want %q", name, got, want)
				}
			}
			if fen := p.FEN4(); fen != mustFEN(t, v, fen) {
				t.Errorf("FEN4 does not read back: %s", fen)
			}
			// Takeback restores the position exactly.
			if err := g.Takeback(); err != nil {
				t.Fatal(err)
			}
			if got := g.Position().FEN4(); got != before {
				t.Errorf("after takeback\n%s\nwant\n%s", got, before)
			}
		})
	}
}

func mustFEN(t *testing.T, v *rules.Variant, fen string) string {
	t.Helper()
	p, err := rules.ParseFEN4(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return p.FEN4()
}

// A game with both forms of the swap writes as PGN4 with '~' and replays
// to the same position.
func TestEssayPawnSwapPGN4RoundTrip(t *testing.T) {
	v := variantNamed(t, "essay-partners-swap")
	g := crossGame(t, v, "Y", "0,0,0,0", "bK:a8 yK:j14 gK:n7 rK:e1 rP:g11 yP:h13 rP:h5 yP:i6 bP:e7 gP:f8")
	playCross(t, g, "h13", "h11") // Yellow double-steps past White's g11 pawn
	playCross(t, g, "e7", "f8")   // Black exchanges with Red's pawn
	playCross(t, g, "g11", "h12") // White: the en passant form
	playCross(t, g, "n7", "n6")   // Red
	playCross(t, g, "i6", "h5")   // Yellow exchanges with White's pawn
	out, err := pgn4.FromGame(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, tok := range []string{"e7~f8", "g11~h12", "i6~h5"} {
		if !strings.Contains(text, tok) {
			t.Errorf("PGN4 lacks %s:\n%s", tok, text)
		}
	}
	pg, _, err := pgn4.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	back, notes, err := pgn4.ReplayWith(pg, "", lookup(t))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if len(notes) > 0 {
		t.Errorf("notes %v", notes)
	}
	if back.Position().FEN4() != g.Position().FEN4() {
		t.Errorf("replayed to\n%s\nwant\n%s", back.Position().FEN4(), g.Position().FEN4())
	}
	// A '-' token does not name a swap, nor '~' a plain move.
	if _, err := pgn4.ParseMove("h5~h6"); err != nil {
		t.Errorf("ParseMove(h5~h6): %v", err)
	}
}

// inheritGame starts with Black (boardd's blue seat) to move and White's
// king (red seat) en prise, as when a mated White had to move into check,
// and lets Black take it: "when the first player of a partnership is
// defeated by the capture of the King in the turn following an unrelieved
// checkmate or stalemate …". Yellow, White's partner, plays on from f14.
func inheritGame(t *testing.T, variant, extra string) *rules.Game {
	t.Helper()
	g := crossGame(t, variantNamed(t, variant), "B", "0,0,0,0", "rK:h1 rN:d1 rR:e2 rP:f3 bK:a8 bR:h9 yK:f14 gK:n7 "+extra)
	if rec := playCross(t, g, "h9", "h1"); len(rec.Out) != 1 || rec.Out[0] != rules.Red || !strings.HasSuffix(rec.Text, "#") {
		t.Fatalf("capture of White's king recorded as %+v", rec)
	}
	return g
}

// The alternate rule: "only the King is removed from the board, and the
// remaining pieces of that player are added to the forces of the other
// player of the partnership. Subsequently, the remaining players play in
// their turns, and defeated players do not have a turn; therefore, when
// one player's King is removed from the board, the other player of that
// partnership may either move one of his own pieces, or one of those of
// his defeated partner."
func TestEssayAlternateRule(t *testing.T) {
	t.Run("only the King is removed; the army stays, live", func(t *testing.T) {
		g := inheritGame(t, "essay-partners-alternate", "")
		p := g.Position()
		if g.Status(rules.Red) != rules.KingCaptured || !p.Eliminated(rules.Red) {
			t.Fatalf("White: %v, eliminated %v", g.Status(rules.Red), p.Eliminated(rules.Red))
		}
		if h, ok := p.Heir(rules.Red); !ok || h != rules.Yellow {
			t.Fatalf("White's army goes to %v %v, want Yellow", h, ok)
		}
		for sq, want := range map[string]string{"d1": "rN", "e2": "rR", "f3": "rP", "h1": "bR"} {
			if got := p.At(sqr(t, sq)).String(); got != want {
				t.Errorf("%s holds %q, want %q", sq, got, want)
			}
		}
		if _, over := g.Result(); over {
			t.Fatal("the game ended; Yellow plays on with both armies")
		}
	})
	t.Run("without the option the army is removed (essay-partners)", func(t *testing.T) {
		g := inheritGame(t, "essay-partners", "")
		if pc := g.Position().At(sqr(t, "d1")); pc != rules.NoPiece {
			t.Errorf("d1 holds %v", pc)
		}
		if _, ok := g.Position().Heir(rules.Red); ok {
			t.Error("an heir without the option")
		}
	})
	t.Run("defeated players do not have a turn", func(t *testing.T) {
		g := inheritGame(t, "essay-partners-alternate", "")
		var seen []rules.Seat
		for i := 0; i < 6; i++ {
			seen = append(seen, g.Turn())
			p := g.Position()
			played := false
			for _, m := range g.LegalMoves() { // a quiet king move, to keep the position as it is
				if p.At(m.From()).Kind() == rules.King && !p.At(m.To()).IsPiece() {
					if _, err := g.Play(m); err != nil {
						t.Fatal(err)
					}
					played = true
					break
				}
			}
			if !played {
				t.Fatalf("%s has no quiet king move", g.Turn())
			}
		}
		if want := []rules.Seat{rules.Green, rules.Yellow, rules.Blue, rules.Green, rules.Yellow, rules.Blue}; !equalSeats(seen, want) {
			t.Errorf("turns %v, want %v (White's turn is lost)", seen, want)
		}
	})
	t.Run("the partner may move one of his own pieces, or one of his defeated partner's", func(t *testing.T) {
		g := inheritGame(t, "essay-partners-alternate", "")
		playCross(t, g, "n7", "n6") // Red (green seat)
		if g.Turn() != rules.Yellow {
			t.Fatalf("turn %v, want Yellow", g.Turn())
		}
		if len(findMoves(g, "f14", "e14")) != 1 || len(findMoves(g, "d1", "e3")) != 1 {
			t.Fatalf("Yellow's moves %v lack its own Kf14-e14 or White's Nd1-e3", g.LegalMoves())
		}
		rec := playCross(t, g, "d1", "e3")
		if rec.Seat != rules.Yellow || rec.Text != "Nd1-e3" {
			t.Errorf("recorded %+v", rec)
		}
		if pc := g.Position().At(sqr(t, "e3")); pc.String() != "rN" {
			t.Errorf("e3 holds %q: the knight stays White's", pc.String())
		}
	})
	t.Run("inherited pawns keep their own direction and promotion squares", func(t *testing.T) {
		g := inheritGame(t, "essay-partners-alternate", "rP:e13")
		playCross(t, g, "n7", "n6")
		if len(findMoves(g, "f3", "f4")) != 1 || len(findMoves(g, "f3", "f2")) != 0 {
			t.Errorf("White's f3 pawn must go north (f4), not Yellow's way (f2)")
		}
		if promos := findMoves(g, "e13", "e14"); len(promos) != 4 {
			t.Fatalf("White's e13 pawn on Yellow's turn: %v, want the four promotions on rank 14", promos)
		}
		playCross(t, g, "e13", "e14")
		if pc := g.Position().At(sqr(t, "e14")); pc.String() != "rQ" {
			t.Errorf("promoted to %q, want White's queen", pc.String())
		}
	})
	t.Run("inherited pieces capture and are captured by the opponents, not by the partner", func(t *testing.T) {
		g := inheritGame(t, "essay-partners-alternate", "bB:e5 yN:d2")
		playCross(t, g, "n7", "n6")
		if len(findMoves(g, "e2", "e5")) != 1 {
			t.Errorf("White's rook, Yellow's now, cannot capture Black's bishop on e5")
		}
		if len(findMoves(g, "e2", "d2")) != 0 {
			t.Errorf("White's rook may capture its partner Yellow's knight on d2")
		}
		p := g.Position()
		for _, m := range g.LegalMoves() {
			if pc := p.At(m.To()); pc.IsPiece() && pc.Seat() == rules.Red {
				t.Errorf("Yellow may capture White's %v with %v", pc, m)
			}
		}
		playCross(t, g, "f14", "e14")
		if len(findMoves(g, "h1", "d1")) != 1 {
			t.Errorf("Black's rook cannot capture White's knight on d1: %v", g.LegalMoves())
		}
		if rec := playCross(t, g, "h1", "d1"); rec.Text != "Rh1xNd1" {
			t.Errorf("written %q", rec.Text)
		}
	})
	t.Run("the inherited army gives check; pins concern the partner's own king", func(t *testing.T) {
		g := inheritGame(t, "essay-partners-alternate", "rB:f12 bQ:f9")
		playCross(t, g, "n7", "n6")
		for _, m := range g.LegalMoves() {
			if m.From().String() == "f12" {
				t.Errorf("White's bishop on f12 is pinned to Yellow's king on f14 by Black's queen, yet %v", m)
			}
		}
		if rec := playCross(t, g, "e2", "e8"); rec.Text != "Re2-e8+" || !g.Position().InCheck(rules.Blue) {
			t.Errorf("White's rook on e8 (moved by Yellow) checks Black's king on a8: %q, in check %v", rec.Text, g.Position().InCheck(rules.Blue))
		}
	})
	t.Run("taking the king is no escape from the army's check when the army stays", func(t *testing.T) {
		// Black in check from White's rook on e8: under the essay's rule the
		// capture of White's king removes the rook and so escapes ("unless,
		// of course, capturing the other player's King, causing that
		// player's men to be removed from the board, was a way to escape
		// from check"); under the alternate rule the rook stays.
		pieces := "rK:h1 rR:e8 bK:a8 bR:h9 yK:f14 gK:n7"
		if n := len(findMoves(crossGame(t, variantNamed(t, "essay-partners"), "B", "0,0,0,0", pieces), "h9", "h1")); n != 1 {
			t.Errorf("essay-partners: Rh9xKh1 offered %d times, want 1", n)
		}
		if n := len(findMoves(crossGame(t, variantNamed(t, "essay-partners-alternate"), "B", "0,0,0,0", pieces), "h9", "h1")); n != 0 {
			t.Errorf("essay-partners-alternate: Rh9xKh1 offered %d times, want 0", n)
		}
	})
	t.Run("the partner alone loses when checkmated normally", func(t *testing.T) {
		// "When only one team of a partnership remains, then that team
		// loses when checkmated normally": Yellow, in check from the queen
		// on f9 with the e and g files held, has no move of its own or of
		// White's army that helps.
		g := inheritGame(t, "essay-partners-alternate", "bQ:f9 bR:e9 bR:g9")
		rec := playCross(t, g, "n7", "n6")
		res, over := g.Result()
		if !over || res.Reason != "last side standing" || len(res.Winners) != 2 || !strings.HasSuffix(rec.Text, "#") {
			t.Fatalf("%+v over=%v (%s)", res, over, rec.Text)
		}
	})
	t.Run("FEN4 keeps the inheritance; takeback undoes it", func(t *testing.T) {
		g := inheritGame(t, "essay-partners-alternate", "")
		v := g.Variant()
		fen := g.Position().FEN4()
		if !strings.HasPrefix(fen, "G-1,0,0,0-") {
			t.Errorf("FEN4 %s: want White written eliminated (no turn)", fen)
		}
		g2, err := rules.NewGame(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := g2.Position().Heir(rules.Red); !ok || h != rules.Yellow || g2.Status(rules.Red) != rules.KingCaptured || g2.Position().FEN4() != fen {
			t.Errorf("read back: heir %v %v, status %v, %s", h, ok, g2.Status(rules.Red), g2.Position().FEN4())
		}
		playCross(t, g2, "n7", "n6")
		if len(findMoves(g2, "d1", "e3")) != 1 {
			t.Error("read back, Yellow cannot move White's knight")
		}
		if err := g.Takeback(); err != nil {
			t.Fatal(err)
		}
		if _, ok := g.Position().Heir(rules.Red); ok || g.Status(rules.Red) != rules.Playing || g.Turn() != rules.Blue {
			t.Errorf("after takeback: status %v, turn %v", g.Status(rules.Red), g.Turn())
		}
	})
}

// Without partners the two rules have nothing to apply to: essay-ffa
// cannot switch them on.
func TestEssayOptionsNeedPartners(t *testing.T) {
	data, err := fs.ReadFile(configs.Variants, "variants/essay-ffa.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []string{"partner_pawn_swap", "partner_inherits_army"} {
		text := strings.Replace(string(data), "starts:", "options:\n  "+opt+": true\nstarts:", 1)
		_, err := Parse("essay-ffa.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), "options."+opt) || !strings.Contains(err.Error(), "partners") {
			t.Errorf("%s in essay-ffa: %v, want an error naming the key and partners", opt, err)
		}
	}
}

// perft from the start is the partnership game's (20, 399, 7,960; 158,402
// at depth 4, docs/variants/essay.md), verified by hand for depths 1-2:
// the options add no move near the start. A swap needs a partner's pawn
// diagonally ahead of one's own: White's and Yellow's pawns start eleven
// ranks apart (ranks 2 and 13), Black's and Red's eleven files apart
// (files b and m), and four plies move each seat at most once, two squares
// at most. The alternate rule acts only when a king is captured, which
// four plies from the start cannot bring about.
func TestEssayOptionsPerftStart(t *testing.T) {
	for _, name := range []string{"essay-partners-swap", "essay-partners-alternate"} {
		v := variantNamed(t, name)
		p, _ := rules.ParseFEN4(v, v.Start)
		for d, want := range []uint64{20, 399, 7960} {
			if got := p.Perft(d+1, true); got != want {
				t.Errorf("%s perft(%d) = %d, want %d", name, d+1, got, want)
			}
		}
	}
}

// perft(1) by hand where a swap is possible: White's king on e1 has five
// steps (d1, f1, d2, e2, f2), the pawn on h5 one push (h6) and, with the
// rule, the swap with Yellow's pawn on i6: 7; without it 6.
func TestEssayPawnSwapPerftOne(t *testing.T) {
	for name, want := range map[string]uint64{"essay-partners-swap": 7, "essay-partners": 6} {
		g := crossGame(t, variantNamed(t, name), "R", "0,0,0,0", "rK:e1 rP:h5 yP:i6 bK:a8 yK:j14 gK:n7")
		if got := g.Position().Perft(1, true); got != want {
			t.Errorf("%s perft(1) = %d, want %d", name, got, want)
		}
	}
}
