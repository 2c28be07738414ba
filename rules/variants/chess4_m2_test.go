package variants

import (
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/chess4pgn"
	"boardd/rules/pgn4"
)

// c4Castles counts the castling moves of the seat to move.
func c4Castles(g *rules.Game) int {
	n := 0
	for _, m := range g.LegalMoves() {
		if c, _ := m.IsCastle(); c {
			n++
		}
	}
	return n
}

// Method 2, rule 1: "if Silver eliminates Black after Black has moved his
// King and/or his Rooks, Silver may still castle if he moves both the King
// and the castling Rook back to their original places. Neither piece may
// move 'away' (either by rank or file) from its starting position (each
// move of that piece must bring it at least one rank or file closer to,
// and no ranks or files further from, its starting position). Once either
// piece is on its starting location, it may not move again (except to
// perform the castle) or castling is again illegal."
//
// Each game starts with Black's king and rook on their starting squares
// (the game's first position), Black to move. Black moves the king or the
// rook away (before); Gold mates Black (queen e6-e14, the pawns g13 h13
// i13 box the king on h14 in) and takes the army over; then Gold walks the
// piece back with Black's army (after, one move per Black turn, White,
// Silver and Gold shuffling their kings in between). Black, mated at his
// turn, is out when Gold's next turn begins (rule 1).
func TestChess4Method2CastlingWalkBack(t *testing.T) {
	v := variantNamed(t, "chess4-m2")
	const rest = " yP:g13 yP:h13 yP:i13 gQ:e6 rQ:d13 bQ:f13 rK:h1 bK:a8 gK:n7"
	shuffle := [][3]string{ // Gold, White, Silver between two Black turns
		{"n7-n6", "i1-h1", "b8-a8"},
		{"n6-n7", "h1-i1", "a8-b8"},
	}
	for _, c := range []struct {
		name   string
		pieces string   // Black's king and rook; the game starts here
		before string   // Black's own move, before the elimination
		after  []string // Gold's moves with Black's army, one a turn
		want   int      // castling moves of Black's army at the end
	}{
		{"the rook walks back, then castles", "yK:h14 yR:k14", "k14-k10",
			[]string{"k10-k12", "k12-k14"}, 1},
		{"the rook walks back in one move", "yK:h14 yR:k14", "k14-k10",
			[]string{"k10-k14"}, 1},
		{"the rook steps away (a rank further) first", "yK:h14 yR:k14", "k14-k10",
			[]string{"k10-k9", "k9-k14"}, 0},
		{"the rook steps sideways (a file further) first", "yK:h14 yR:k14", "k14-k10",
			[]string{"k10-j10", "j10-j14", "j14-k14"}, 0},
		{"the rook arrives, then moves again and comes back", "yK:h14 yR:k14", "k14-k10",
			[]string{"k10-k14", "k14-k13", "k13-k14"}, 0},
		{"the king walks back, then castles (long, rook four away)", "yK:g14 yR:k14", "g14-h14",
			[]string{"h14-g14"}, 1},
		{"the king steps away first", "yK:g14 yR:k14", "g14-h14",
			[]string{"h14-i14", "i14-h14", "h14-g14"}, 0},
		{"the king arrives, then moves again and comes back", "yK:g14 yR:k14", "g14-h14",
			[]string{"h14-g14", "g14-f14", "f14-g14"}, 0},
		{"the king is home but its rook is not", "yK:g14 yR:k14", "g14-h14",
			[]string{"h14-g14", "k14-k13"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := crossGame(t, v, "Y", "0,0,0,0", c.pieces+rest)
			if n := c4Castles(g); n != 0 {
				t.Fatalf("Black may castle at the start (%d moves): the test's FEN gives no rights", n)
			}
			// Gold mates; Black waits; Gold's turn begins: Black is out.
			playLine(t, g, c.before+" e6-e14 h1-i1 a8-b8")
			if g.Status(rules.Yellow) != rules.Mated || chess4Of(g).Controller(rules.Yellow) != rules.Green || g.Turn() != rules.Green {
				t.Fatalf("Black %v controlled by %v, turn %v; want mated, played by Gold, Gold to move", g.Status(rules.Yellow), chess4Of(g).Controller(rules.Yellow), g.Turn())
			}
			playLine(t, g, strings.Join(shuffle[0][:], " ")) // then Black's army, played by Gold
			if n := c4Castles(g); g.Turn() != rules.Yellow || n != 0 {
				t.Fatalf("turn %v; castling right after the acquisition (%d), with a piece off its square", g.Turn(), n)
			}
			for i, mv := range c.after {
				playLine(t, g, mv)
				sh := shuffle[(i+1)%2]
				playLine(t, g, sh[0]+" "+sh[1]+" "+sh[2])
				if g.Turn() != rules.Yellow {
					t.Fatalf("after %s: turn %v, want Black's army", mv, g.Turn())
				}
			}
			if n := c4Castles(g); n != c.want {
				t.Errorf("castling moves %d, want %d", n, c.want)
			}
			if c.want == 0 {
				return
			}
			// Castle: the right is used up.
			for _, m := range g.LegalMoves() {
				if ok, _ := m.IsCastle(); ok {
					if _, err := g.Play(m); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			if p := g.Position(); p.At(sqr(t, "k14")) != rules.NoPiece {
				t.Errorf("after castling k14 holds %v, want the rook gone from it", p.At(sqr(t, "k14")))
			}
		})
	}
}

// Method 2, rule 3: "A player may only choose to control the piece of an
// opponent he directly eliminated. In other words, if Gold eliminates
// Silver, then Black eliminates Gold, Black may not choose to control
// Silver's pieces." boardd: Silver's army, which Gold played, turns static
// (as with Method 1) when Gold is eliminated; Black takes Gold's army only.
func TestChess4Method2NoSecondHandArmy(t *testing.T) {
	v := variantNamed(t, "chess4-m2")
	// Gold's queen d4-a4 mates Silver (king a8 behind pawns b7 b8 b9, the
	// a-file open). Black's queen h4-n4 then mates Gold (king n7 behind
	// pawns m6 m7 m8); White's knight on e4 keeps Gold's queen off rank 4.
	g := crossGame(t, v, "G", "0,0,0,0",
		"bK:a8 bP:b7 bP:b8 bP:b9 bR:a11 gQ:d4 gK:n7 gP:m6 gP:m7 gP:m8 gR:n11 yQ:h4 yK:g14 rK:j1 rN:e4")
	for _, step := range []struct {
		move   string
		check  func() bool
		expect string
	}{
		{"d4-a4", func() bool { c, ok := chess4Of(g).MateCredit(rules.Blue); return ok && c == rules.Green },
			"Gold's queen mates Silver (credit to Gold)"},
		{"j1-i1", func() bool { return g.Status(rules.Blue) == rules.Playing && g.Turn() == rules.Yellow },
			"Silver, mated at its turn, waits for Gold's; Black to move"},
		{"g14-f14", func() bool {
			return g.Status(rules.Blue) == rules.Mated && chess4Of(g).Controller(rules.Blue) == rules.Green && g.Turn() == rules.Green
		}, "Gold's turn begins: Silver is out, Gold plays Silver's army"},
		{"n11-n10 i1-j1 a11-a10", func() bool { return g.Turn() == rules.Yellow }, "Gold, White, Gold with Silver's rook; Black to move"},
		{"h4-n4", func() bool {
			c, ok := chess4Of(g).MateCredit(rules.Green)
			return ok && c == rules.Yellow && g.Status(rules.Green) == rules.Playing && g.Turn() == rules.Red
		}, "Black's queen mates Gold; Gold waits for Black's turn, White to move"},
		{"j1-i1 b9-c9", func() bool {
			by, ok := chess4Of(g).EliminatedBy(rules.Green)
			return ok && by == rules.Yellow && g.Status(rules.Green) == rules.Mated && g.Turn() == rules.Yellow
		}, "White, Gold with Silver's pawn; Black's turn begins: Gold is out, credited to Black"},
	} {
		playLine(t, g, step.move)
		if !step.check() {
			t.Fatalf("after %s: %s does not hold (Silver %v by %v, Gold %v, controllers %v/%v, turn %v)", step.move, step.expect,
				g.Status(rules.Blue), chess4Of(g).Controller(rules.Blue), g.Status(rules.Green), chess4Of(g).Controller(rules.Blue), chess4Of(g).Controller(rules.Green), g.Turn())
		}
	}
	if c := chess4Of(g).Controller(rules.Green); c != rules.Yellow {
		t.Errorf("Gold's army is played by %v, want Black", c)
	}
	if c := chess4Of(g).Controller(rules.Blue); c != rules.NoSeat {
		t.Errorf("Silver's army is played by %v, want nobody (static): Black did not eliminate Silver", c)
	}
	if by, _ := chess4Of(g).EliminatedBy(rules.Blue); by != rules.Green {
		t.Errorf("Silver eliminated by %v, want Gold still", by)
	}
	p := g.Position()
	for _, sq := range []string{"a8", "b7", "a10"} {
		if pc := p.At(sqr(t, sq)); !pc.Dead() || pc.Seat() != rules.Blue {
			t.Errorf("%s holds %v, want a static Silver piece", sq, pc)
		}
	}
	if err := chess4Of(g).KeepArmy(rules.Blue); err == nil {
		t.Errorf("Black may choose Silver's army (KeepArmy accepted it)")
	}
	// Black; Gold's army, played by Black; White; then Silver's static
	// army is skipped and Black moves.
	playLine(t, g, "n4-h10 m7-l7 i1-j1")
	if g.Turn() != rules.Yellow {
		t.Errorf("turn %v after White, want Black (Silver's static army has no turn)", g.Turn())
	}
	// Black's queen may take Silver's static rook on a10 (static pieces
	// are anybody's to capture).
	if !hasMove(g, "h10", "a10") {
		t.Errorf("Black's queen h10 cannot take Silver's static rook a10: %v", c4dests(g, "h10"))
	}
}

// c4SecondArmy plays TestChess4Method2's game up to Silver's second
// elimination: Silver played Black's army and has mated Gold too; Gold is
// out as Silver's turn begins (rule 1), and Silver is to move.
func c4SecondArmy(t *testing.T) *rules.Game {
	t.Helper()
	g := crossGame(t, variantNamed(t, "chess4-m2"), "G", "0,0,0,0", c4MatePieces+" rB:k12 bN:f12 bR:i4 gP:m6 gP:m7 gP:m8 gR:n11")
	playLine(t, g, c4SecondArmyLine)
	if g.Status(rules.Green) != rules.Mated || chess4Of(g).Controller(rules.Green) != rules.Blue || g.Turn() != rules.Blue {
		t.Fatalf("Gold %v controlled by %v, turn %v; want mated and played by Silver, Silver to move", g.Status(rules.Green), chess4Of(g).Controller(rules.Green), g.Turn())
	}
	return g
}

// c4SecondArmyLine: Gold mates Black, White and Silver re-mate (Silver's
// credit); Black waits; Gold and White move; Silver's turn begins: Black
// is out and Silver takes the army; Silver, Black's army (Silver), Gold,
// White; Silver mates Gold and moves Black's army; Gold waits; White
// moves; Silver's turn begins: Gold is out too.
const c4SecondArmyLine = "e6-e14 d13-e14 f13-e14 n11-n10 h1-g1 a8-b8 h14-i14 n10-m10 k12-i14 i4-n4 g13-g12 g1-f1"

// Method 2, rule 2: "If a player eliminates a second player (and another
// player remains in the game) then that player must immediately make a
// permanent decision as to which eliminated opponent's pieces he will
// control." The decision is a note of the game ("Blue keeps Yellow's
// army"): the last one made before the next turn counts, the next turn
// makes it permanent, a takeback of the eliminating turn takes it back.
func TestChess4Method2KeepArmyNote(t *testing.T) {
	g := c4SecondArmy(t)
	n := len(g.Records())
	by, keep, other, ok := chess4Of(g).ArmyChoice()
	if !ok || by != rules.Blue || keep != rules.Green || other != rules.Yellow {
		t.Fatalf("ArmyChoice() = %v %v %v %v, want Silver keeping Gold's army by default, Black's static", by, keep, other, ok)
	}
	if len(g.Notes()) != 0 {
		t.Errorf("a default choice is a note already: %v", g.Notes())
	}
	for _, c := range []struct {
		keep rules.Seat
		want string
	}{
		{rules.Yellow, "Blue keeps Yellow's army"},
		{rules.Green, "Blue keeps Green's army"},   // changes his mind
		{rules.Green, "Blue keeps Green's army"},   // says it again
		{rules.Yellow, "Blue keeps Yellow's army"}, // and back
	} {
		if err := chess4Of(g).KeepArmy(c.keep); err != nil {
			t.Fatal(err)
		}
		notes := g.Notes()
		if len(notes) != 1 || notes[0].Text != c.want || notes[0].After != n {
			t.Fatalf("after KeepArmy(%v): notes %v, want one {%d %s}", c.keep, notes, n, c.want)
		}
		if chess4Of(g).Controller(c.keep) != rules.Blue {
			t.Errorf("after KeepArmy(%v) it is played by %v", c.keep, chess4Of(g).Controller(c.keep))
		}
	}
	if ok, err := g.ApplyNote("Red keeps Green's army"); !ok || err == nil {
		t.Errorf("ApplyNote of White's choice: %v %v, want a note refused (White has no choice)", ok, err)
	}
	if ok, _ := g.ApplyNote("Blue keeps the peace"); ok {
		t.Errorf("ApplyNote takes any text for a kept army")
	}
	fen := g.Position().FEN4()
	playCross(t, g, "b8", "a8") // the next turn: the choice is permanent
	if err := chess4Of(g).KeepArmy(rules.Green); err == nil {
		t.Errorf("KeepArmy after the next turn was accepted")
	}
	if ok, err := g.ApplyNote("Blue keeps Green's army"); !ok || err == nil {
		t.Errorf("ApplyNote after the next turn: %v %v, want refused", ok, err)
	}
	if chess4Of(g).Controller(rules.Yellow) != rules.Blue || chess4Of(g).Controller(rules.Green) != rules.NoSeat {
		t.Errorf("controllers %v/%v, want Silver/nobody", chess4Of(g).Controller(rules.Yellow), chess4Of(g).Controller(rules.Green))
	}
	// Taking the next turn back reopens the choice, as made; taking the
	// eliminating turn back takes the choice with it.
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if _, keep, _, ok := chess4Of(g).ArmyChoice(); !ok || keep != rules.Yellow || len(g.Notes()) != 1 || g.Position().FEN4() != fen {
		t.Errorf("after taking back the next turn: choice keeps %v (open %v), notes %v", keep, ok, g.Notes())
	}
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if len(g.Notes()) != 0 || chess4Of(g).Controller(rules.Green) != rules.Green || chess4Of(g).Controller(rules.Yellow) != rules.Blue {
		t.Errorf("after taking back the eliminating turn: notes %v, Gold played by %v, Black by %v", g.Notes(), chess4Of(g).Controller(rules.Green), chess4Of(g).Controller(rules.Yellow))
	}
}

// The choice survives PGN4: written as a comment after the eliminating
// move and carried out again by replay. Without it, replay takes the
// default.
func TestChess4Method2KeepArmyPGN4(t *testing.T) {
	g := c4SecondArmy(t)
	if err := chess4Of(g).KeepArmy(rules.Yellow); err != nil {
		t.Fatal(err)
	}
	playLine(t, g, "b8-a8 h13-h12") // Silver, then Black's army (Silver)
	out, err := pgn4.FromGame(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, "{Blue keeps Yellow's army}") {
		t.Fatalf("PGN4 lacks the choice:\n%s", text)
	}
	replay := func(text string) *rules.Game {
		pg, _, err := pgn4.ParseString(text)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := pgn4.ReplayWith(pg, "", lookup(t))
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		return r
	}
	r := replay(text)
	if a, b := r.Position().FEN4(), g.Position().FEN4(); a != b {
		t.Errorf("replay ends at %s, want %s", a, b)
	}
	if chess4Of(r).Controller(rules.Yellow) != rules.Blue || chess4Of(r).Controller(rules.Green) != rules.NoSeat {
		t.Errorf("replayed controllers %v/%v, want Silver plays Black, Gold static", chess4Of(r).Controller(rules.Yellow), chess4Of(r).Controller(rules.Green))
	}
	if a, b := strings.Join(noteTexts(r), "|"), strings.Join(noteTexts(g), "|"); a != b {
		t.Errorf("replayed notes %s, want %s", a, b)
	}
	// The same file without the comment: the default (Gold's army) is
	// kept, and Black's h13-h12 is no longer Silver's to play.
	bare := strings.Replace(text, "{Blue keeps Yellow's army}", "", 1)
	pg, _, err := pgn4.ParseString(bare)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := pgn4.ReplayWith(pg, "", lookup(t)); err == nil {
		t.Errorf("without the note the replay still plays Black's army")
	}
}

// The Chess4 notation (rules/chess4pgn) carries the choice too, as the
// rules' words in a comment after the eliminating turn.
func TestChess4Method2KeepArmyChess4Notation(t *testing.T) {
	g := c4SecondArmy(t)
	if err := chess4Of(g).KeepArmy(rules.Yellow); err != nil {
		t.Fatal(err)
	}
	playLine(t, g, "b8-a8 h13-h12") // Silver, then Black's army (Silver)
	out, err := chess4pgn.FromGame(g, chess4pgn.Info{})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, "Blue keeps Yellow's army") {
		t.Fatalf("the Chess4 notation lacks the choice:\n%s", text)
	}
	r, _, err := chess4pgn.Read(text, g.Variant())
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if a, b := r.Position().FEN4(), g.Position().FEN4(); a != b || chess4Of(r).Controller(rules.Yellow) != rules.Blue {
		t.Errorf("replay ends at %s with Black played by %v, want %s, Silver", a, chess4Of(r).Controller(rules.Yellow), b)
	}
}
