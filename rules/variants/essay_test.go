package variants

import (
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/square"
)

// variantNamed loads a shipped variant by name with its first start.
func variantNamed(t *testing.T, name string) *rules.Variant {
	t.Helper()
	d, err := Find(catalog(t), name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// firstTurns plays n moves from v's start (the first legal move each
// time) and lists who moved.
func firstTurns(t *testing.T, v *rules.Variant, n int) []rules.Seat {
	t.Helper()
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	var seen []rules.Seat
	for i := 0; i < n; i++ {
		seen = append(seen, g.Turn())
		if _, err := g.Play(g.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	return seen
}

// crossGame starts a game on the cross board from "rK:h1 …" placements;
// out lists the seats already out ("1,0,0,0" in FEN4 order).
func crossGame(t *testing.T, v *rules.Variant, turn, out, pieces string) *rules.Game {
	t.Helper()
	at := map[square.Square]string{}
	for _, f := range strings.Fields(pieces) {
		pc, name, _ := strings.Cut(f, ":")
		q, err := square.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		at[q] = pc
	}
	var rows []string
	cross := square.Cross()
	for r := 13; r >= 0; r-- {
		var toks []string
		run := 0
		for f := 0; f < 14; f++ {
			q := square.At(f, r)
			switch {
			case !cross.Has(q):
				if run > 0 {
					toks = append(toks, itoa(run))
					run = 0
				}
				toks = append(toks, "x")
			case at[q] != "":
				if run > 0 {
					toks = append(toks, itoa(run))
					run = 0
				}
				toks = append(toks, at[q])
			default:
				run++
			}
		}
		if run > 0 {
			toks = append(toks, itoa(run))
		}
		rows = append(rows, strings.Join(toks, ","))
	}
	g, err := rules.NewGame(v, turn+"-"+out+"-0,0,0,0-0,0,0,0-0,0,0,0-0-"+strings.Join(rows, "/"))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func playCross(t *testing.T, g *rules.Game, from, to string) rules.Record {
	t.Helper()
	f, _ := square.Parse(from)
	tt, _ := square.Parse(to)
	for _, m := range g.LegalMoves() {
		if m.From() == f && m.To() == tt && m.Promotion() <= rules.Queen {
			rec, err := g.Play(m)
			if err != nil {
				t.Fatalf("%s-%s: %v", from, to, err)
			}
			return rec
		}
	}
	t.Fatalf("%s-%s is not among %s's moves %v", from, to, g.Turn(), g.LegalMoves())
	return rules.Record{}
}

// "The turn is passed counter-clockwise, first White, then Red, then
// Yellow, then Black." (White, Red, Yellow, Black sit on boardd's Red,
// Green, Yellow, Blue seats.)
func TestEssayTurnOrder(t *testing.T) {
	seen := firstTurns(t, variantNamed(t, "essay-partners"), 4)
	if want := []rules.Seat{rules.Red, rules.Green, rules.Yellow, rules.Blue}; !equalSeats(seen, want) {
		t.Errorf("turn order %v, want %v", seen, want)
	}
}

func equalSeats(a, b []rules.Seat) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// perft from the start: depth 1 = 20 (White's sixteen pawn moves and four
// knight moves); depth 2 = 399: the essay's Red (boardd's Green) has 20
// answers to every move but k2-k4, which blocks its pawn's m4-k4 double
// step. Depths 3 and 4 (7,960 and 158,402) equal chess.com's classic array,
// which the essay's queen placement describes.
func TestEssayPerftStart(t *testing.T) {
	for _, name := range []string{"essay-partners", "essay-ffa"} {
		v := variantNamed(t, name)
		p, _ := rules.ParseFEN4(v, v.Start)
		for d, want := range []uint64{20, 399, 7960} {
			if got := p.Perft(d+1, true); got != want {
				t.Errorf("%s perft(%d) = %d, want %d", name, d+1, got, want)
			}
		}
	}
}

// "Pawns promote when they reach either the eight squares of the back
// rank of the team opposite to them, or the two groups of three squares on
// either side beyond which no further advance is possible."
func TestEssayPromotionSquares(t *testing.T) {
	v := variantNamed(t, "essay-partners")
	g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rP:e13 rP:c10 rP:f10 bK:a8 yK:g12 gK:n7")
	promos := map[string]bool{}
	for _, m := range g.LegalMoves() {
		if m.Promotion() != rules.NoKind {
			promos[m.To().String()] = true
		}
	}
	if !promos["e14"] || !promos["c11"] || promos["f11"] {
		t.Errorf("promotion squares reached: %v; want e14 (back rank opposite) and c11 (side group), not f11", promos)
	}
}

// "A King is not considered to be checked if it is en prise to a piece on
// its partner's team; and it is never possible for a piece of one side to
// capture a piece belonging to a partner"
func TestEssayPartners(t *testing.T) {
	g := crossGame(t, variantNamed(t, "essay-partners"), "R", "0,0,0,0", "rK:h1 rR:g5 yK:g12 bK:a8 gK:n7")
	for _, m := range g.LegalMoves() {
		if m.To().String() == "g12" {
			t.Error("White's rook may capture its partner Yellow's king")
		}
	}
	if g.Position().InCheck(rules.Yellow) {
		t.Error("Yellow is in check from its partner's rook")
	}
}

// "When both teams of a partnership are on the board, and one of those
// teams is stalemated or checkmated, that team must still make a move on
// its turn, even though that move will leave the King in check. When the
// first of the two Kings of the two teams of a partnership is captured,
// then all the other pieces belonging to that team are removed from the
// board." and "When only one team of a partnership remains, then that
// team loses when checkmated normally, and stalemate is a draw."
func TestEssayPartnershipGame(t *testing.T) {
	v := variantNamed(t, "essay-partners")
	// White (Red seat) is mated by Black's three rooks but Yellow still plays.
	g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rN:d1 bK:a8 bR:g9 bR:h9 bR:i9 yK:g14 gK:n7")
	if _, over := g.Result(); over {
		t.Fatal("over at once")
	}
	moves := g.LegalMoves()
	if len(moves) == 0 {
		t.Fatal("a mated White has no move to make; it must still move")
	}
	playCross(t, g, "h1", "g1") // into check: allowed
	playCross(t, g, "n7", "n6") // the essay's Red
	playCross(t, g, "g14", "f14")
	rec := playCross(t, g, "g9", "g1") // Black takes White's king
	if g.Status(rules.Red) != rules.KingCaptured || !strings.HasSuffix(rec.Text, "#") {
		t.Fatalf("White %v after its king was captured (%s)", g.Status(rules.Red), rec.Text)
	}
	if pc := g.Position().At(sqr(t, "d1")); pc != rules.NoPiece {
		t.Errorf("White's knight %v is still on d1; the army must be removed", pc)
	}
	if _, over := g.Result(); over {
		t.Fatal("over while Yellow still plays")
	}

	// Yellow alone: a normal checkmate ends it for the partnership.
	g = crossGame(t, v, "B", "1,0,0,0", "yK:k14 bK:a8 bR:d13 bR:e12 gK:n7")
	playCross(t, g, "e12", "e14")
	playCross(t, g, "n7", "n6") // mate counts on Yellow's turn
	res, over := g.Result()
	if !over || res.Reason != "last side standing" || res.Tag(rules.Teams, [4]string{}) != "0-1" {
		t.Fatalf("%+v over=%v", res, over)
	}
	// … and a stalemate is a draw.
	g = crossGame(t, v, "B", "1,0,0,0", "yK:k14 bK:a8 bR:d13 bR:j2 gK:n7")
	playCross(t, g, "j2", "j1")
	playCross(t, g, "n7", "n6")
	res, over = g.Result()
	if !over || res.Reason != "stalemate" || !res.Draw() {
		t.Fatalf("%+v over=%v", res, over)
	}
}

// "In the game of four players, each team looking out for itself, the
// object is to eliminate two teams from the board by capturing their Kings,
// and then when the board is reduced to any two teams, the stalemate and
// checkmate rules of Chess apply normally."
func TestEssayFreeForAll(t *testing.T) {
	v := variantNamed(t, "essay-ffa")
	// Four still play: a mated White must move.
	g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rN:d1 bK:a8 bR:g9 bR:h9 bR:i9 yK:g14 gK:n7")
	if len(g.LegalMoves()) == 0 {
		t.Fatal("mated White has no move; with four players it must still move")
	}
	// Two left (Red and Blue out): normal mate wins.
	g = crossGame(t, v, "G", "1,1,0,0", "yK:k14 gR:d13 gR:e12 gK:n7")
	playCross(t, g, "e12", "e14")
	res, over := g.Result()
	if !over || len(res.Winners) != 1 || res.Winners[0] != rules.Green {
		t.Fatalf("%+v over=%v", res, over)
	}
}

func sqr(t *testing.T, name string) square.Square {
	t.Helper()
	q, err := square.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
