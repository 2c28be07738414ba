package variants

import (
	"strconv"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/square"
)

func stevenson(t *testing.T) *rules.Variant { return variantNamed(t, "stevenson") }

// steven starts a game from "rK:e4 …" placements given in the rules text's
// own coordinates (its a1 is the cross board's d4).
func steven(t *testing.T, v *rules.Variant, turn string, pieces string) *rules.Game {
	t.Helper()
	at := map[square.Square]string{}
	for _, f := range strings.Fields(pieces) {
		pc, name, _ := strings.Cut(f, ":")
		at[text(name)] = pc
	}
	var rows []string
	for r := 13; r >= 0; r-- {
		var toks []string
		run := 0
		for f := 0; f < 14; f++ {
			pc := at[square.At(f, r)]
			if pc == "" {
				run++
				continue
			}
			if run > 0 {
				toks = append(toks, strconv.Itoa(run))
				run = 0
			}
			toks = append(toks, pc)
		}
		if run > 0 {
			toks = append(toks, strconv.Itoa(run))
		}
		rows = append(rows, strings.Join(toks, ","))
	}
	g, err := rules.NewGame(v, turn+"-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-"+strings.Join(rows, "/"))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// text converts the rules text's square name ("a1") to the cross board's
// square (d4).
func text(name string) square.Square {
	q, err := square.Parse(name)
	if err != nil {
		panic(err)
	}
	return square.At(q.File()+3, q.Rank()+3)
}

// movesFrom lists the destinations (in the text's coordinates, with
// promotions) of the legal moves from one square.
func movesFrom(g *rules.Game, from string) []string {
	var out []string
	for _, m := range g.LegalMoves() {
		if m.From() != text(from) {
			continue
		}
		to := m.To()
		s := square.At(to.File()-3, to.Rank()-3).String()
		if p := m.Promotion(); p != rules.NoKind {
			s += "=" + p.String()
		}
		out = append(out, s)
	}
	return out
}

func play(t *testing.T, g *rules.Game, from, to string, promo rules.Kind) rules.Record {
	t.Helper()
	p := g.Position()
	m, err := p.FindMove(text(from), text(to), promo)
	if err != nil {
		t.Fatalf("%s-%s: %v", from, to, err)
	}
	rec, err := g.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// Depth 1, by hand: White team 1's pawns a2-d2 step to a3-d3 (4; "no Pawn
// double-move"); its knight on d1 reaches c3, e3 and f2 (b2 holds its own
// pawn); queen, rook and bishop are boxed in: 4 + 3 = 7. Depth 2: Black
// team 1 answers every one of them with its pawns b5-b8 stepping to c5-c8
// and its knight a5 going to b3, c4 or c6: 7 × 7 = 49. Depth 3: White team
// 2 mirrors White team 1: 343.
func itoa(n int) string { return strconv.Itoa(n) }

func TestStevensonPerftStart(t *testing.T) {
	v := stevenson(t)
	p, err := rules.ParseFEN4(v, v.Start)
	if err != nil {
		t.Fatal(err)
	}
	for d, want := range []uint64{7, 49, 343} {
		if got := p.Perft(d+1, true); got != want {
			t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
		}
	}
}

func TestStevensonRules(t *testing.T) {
	v := stevenson(t)
	// "Kings are regular pieces, and may be captured like any other piece.
	// However, they move like a regular Western Chess Queen"
	t.Run("king moves like a queen and is not royal", func(t *testing.T) {
		// Black team 1's king on a1: along rank 1 to g1 and the capture on
		// h1 (7), up the a-file to a7 (the a8 pawn is White's: capture, 7),
		// and the long diagonal to g7 (h8 holds its partner's pawn: 6).
		g := steven(t, v, "B", "bK:a1 rR:h1 rP:a8 gP:h8 yP:e8")
		if got := len(movesFrom(g, "a1")); got != 20 {
			t.Errorf("king has %d moves, want 20: %v", got, movesFrom(g, "a1"))
		}
		// Not royal: standing "in check" is fine, and a king can be taken.
		g = steven(t, v, "R", "rR:a1 bK:a5 gP:h8 yP:e8")
		rec := play(t, g, "a1", "a5", rules.NoKind)
		if strings.Contains(rec.Text, "+") || strings.Contains(rec.Text, "#") {
			t.Errorf("capturing a king is marked %q", rec.Text)
		}
	})
	// "Pieces may not capture pieces belonging to the other team on their
	// side."
	t.Run("no capturing the partner team", func(t *testing.T) {
		g := steven(t, v, "R", "rR:a1 yN:a5 bP:h8 gP:h7")
		for _, d := range movesFrom(g, "a1") {
			if d == "a5" || d == "a6" {
				t.Errorf("the rook may take or pass its partner's knight: %s", d)
			}
		}
	})
	// "Pawns move away from the piece in front of which they start. … All
	// Pawns capture on the two diagonals surrounding their forward
	// direction of movement." and "no castling, Pawn double-move or
	// en-passant capture."
	t.Run("pawn directions and captures", func(t *testing.T) {
		tests := []struct {
			turn, pieces, from string
			want               string
		}{
			{"R", "rP:d2 bN:c3 gN:e3 yP:h8", "d2", "c3 d3 e3"},
			{"B", "bP:b5 rN:c6 yN:c4 gP:h8", "b5", "c4 c5 c6"},
			{"Y", "yP:e7 bN:d6 gN:f6 rP:a1", "e7", "d6 e6 f6"},
			{"G", "gP:g4 rN:f3 yN:f5 bP:a8", "g4", "f3 f4 f5"},
		}
		for _, tt := range tests {
			g := steven(t, v, tt.turn, tt.pieces)
			got := movesFrom(g, tt.from)
			if strings.Join(sorted(got), " ") != tt.want {
				t.Errorf("%s pawn on %s: %v, want %s", tt.turn, tt.from, got, tt.want)
			}
		}
	})
	// "Pawns promote upon reaching the far side of the board, but only to
	// previously captured pieces of their own eight-piece team. If there
	// are no pieces available for promotion, then upon reaching the far
	// side, the Pawn is stuck and may no longer move."
	t.Run("promotion only to captured pieces", func(t *testing.T) {
		// White team 1 started with Q, R, B, N; here only its R and N are
		// left, so the queen and bishop are available.
		g := steven(t, v, "R", "rP:c7 rR:a1 rN:h1 bP:a8 gP:h5 yP:e8")
		if got := strings.Join(sorted(movesFrom(g, "c7")), " "); got != "c8=B c8=Q" {
			t.Errorf("promotion choices %q, want c8=B c8=Q", got)
		}
		// With every piece still on the board the pawn arrives unpromoted …
		g = steven(t, v, "R", "rP:c7 rQ:b1 rR:a1 rB:c1 rN:d1 bP:a8 gP:h5 yP:e8")
		if got := strings.Join(movesFrom(g, "c7"), " "); got != "c8" {
			t.Fatalf("moves %q, want an unpromoted c8", got)
		}
		play(t, g, "c7", "c8", rules.NoKind)
		// … and is stuck there, even with something to take.
		g = steven(t, v, "R", "rP:c8 rQ:b1 rR:a1 rB:c1 rN:d1 bN:d7 bP:a8 gP:h5 yP:e8")
		if got := movesFrom(g, "c8"); len(got) != 0 {
			t.Errorf("a pawn on the far side moves: %v", got)
		}
	})
	// "A Pawn head-to-head with a friendly Pawn is stuck until one of them
	// is captured."
	t.Run("head-to-head friendly pawns are stuck", func(t *testing.T) {
		g := steven(t, v, "R", "rP:d4 yP:d5 bN:e5 gP:h1 bP:a8")
		if got := movesFrom(g, "d4"); len(got) != 0 {
			t.Errorf("pawn facing its partner's pawn moves: %v (even the capture on e5 is barred)", got)
		}
		g = steven(t, v, "R", "rP:d4 bP:d5 gP:h1 bN:a8") // an opponent's pawn blocks but does not freeze
		if got := movesFrom(g, "d4"); len(got) != 0 {
			t.Errorf("blocked pawn moves: %v", got)
		}
	})
	// "There is no checkmate -- victory is by capturing all opposing
	// pieces."
	t.Run("victory by capturing everything", func(t *testing.T) {
		g := steven(t, v, "R", "rR:a1 rP:h2 yP:e2 bN:a8")
		play(t, g, "a1", "a8", rules.NoKind)
		res, over := g.Result()
		if !over || res.Reason != "all pieces captured" || res.Tag(rules.Teams, [4]string{}) != "1-0" {
			t.Fatalf("%+v over=%v", res, over)
		}
	})
	// "If the only pieces a side has left on either side are blocked or
	// stuck Pawns, the game is a stalemate (draw)."
	t.Run("only stuck pawns: stalemate", func(t *testing.T) {
		// Black's last mobile piece, the knight on c2, is taken; all Black
		// has left is team 1's pawn on g4 (moving east), blocked by White's
		// rook on h4, with nothing to capture.
		g := steven(t, v, "R", "rR:h4 rN:a1 bP:g4 bN:c2 yP:e2 yP:f1")
		play(t, g, "a1", "c2", rules.NoKind)
		res, over := g.Result()
		if !over || res.Reason != "stalemate" || !res.Draw() {
			t.Fatalf("%+v over=%v", res, over)
		}
	})
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
