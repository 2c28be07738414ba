package variants

import (
	"sort"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/chess4"
	"boardd/rules/square"
)

// Chess4 (shared/seeds/chess4-rules.txt). Squares are boardd's: the text's
// rank letters A..N are ranks 14..1, its files 1..14 files a..n; White,
// Silver, Black and Gold sit on boardd's Red, Blue, Yellow and Green seats.

// c4dests lists the destinations of the legal moves from one square
// (with "=Q" etc. for promotions), sorted.
func c4dests(g *rules.Game, from string) []string {
	var out []string
	for _, m := range g.LegalMoves() {
		if m.From().String() != from {
			continue
		}
		s := m.To().String()
		if k := m.Promotion(); k != rules.NoKind {
			s += "=" + k.String()
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func hasMove(g *rules.Game, from, to string) bool {
	for _, d := range c4dests(g, from) {
		if d == to || strings.HasPrefix(d, to+"=") {
			return true
		}
	}
	return false
}

// The text's set-up table: "White  Rank M  N7  N8 / Silver  File 2  G1
// H1 / Black  Rank B  A7  A8 / Gold  File 13  H14  G14" (pawns, king,
// queen), "all the Kings at the left of their Queens"; "White plays first,
// then clockwise to Silver, followed by Black, and finally Gold".
func TestChess4SetUp(t *testing.T) {
	for _, name := range []string{"chess4", "chess4-m2"} {
		v := variantNamed(t, name)
		g, err := rules.NewGame(v, "")
		if err != nil {
			t.Fatal(err)
		}
		p := g.Position()
		for _, c := range []struct {
			seat        rules.Seat
			king, queen string // in boardd's squares
			pawns       string // one of them
		}{
			{rules.Red, "g1", "h1", "k2"},       // White: K N7, Q N8, pawns rank M
			{rules.Blue, "a8", "a7", "b4"},      // Silver: K G1, Q H1, pawns file 2
			{rules.Yellow, "g14", "h14", "d13"}, // Black: K A7, Q A8, pawns rank B
			{rules.Green, "n7", "n8", "m11"},    // Gold: K H14, Q G14, pawns file 13
		} {
			if pc := p.At(sqr(t, c.king)); pc != rules.MakePiece(c.seat, rules.King) {
				t.Errorf("%s: %s holds %v, want the %s king", name, c.king, pc, c.seat)
			}
			if pc := p.At(sqr(t, c.queen)); pc != rules.MakePiece(c.seat, rules.Queen) {
				t.Errorf("%s: %s holds %v, want the %s queen", name, c.queen, pc, c.seat)
			}
			if pc := p.At(sqr(t, c.pawns)); pc != rules.MakePiece(c.seat, rules.Pawn) {
				t.Errorf("%s: %s holds %v, want a %s pawn", name, c.pawns, pc, c.seat)
			}
		}
		// The prose, "all the Kings at the left of their Queens" (seen from
		// each player's seat), holds for White, Silver and Gold but not for
		// Black, whose king the table puts at his right (A7 = g14 beside
		// A8 = h14, the kings of White and Black facing each other on the
		// g-file as in ordinary chess). boardd follows the table
		// (docs/variants/chess4.md says why).
		left := map[rules.Seat][2]int{rules.Red: {-1, 0}, rules.Blue: {0, 1}, rules.Yellow: {1, 0}, rules.Green: {0, -1}}
		for seat, wantLeft := range map[rules.Seat]bool{rules.Red: true, rules.Blue: true, rules.Yellow: false, rules.Green: true} {
			k, d := p.KingSquare(seat), left[seat]
			atLeft := p.At(square.At(k.File()-d[0], k.Rank()-d[1])) == rules.MakePiece(seat, rules.Queen)
			if atLeft != wantLeft {
				t.Errorf("%s: %s's king on %s left of its queen: %v, want %v", name, seat, k, atLeft, wantLeft)
			}
		}
		var seen []rules.Seat
		for i := 0; i < 4; i++ {
			seen = append(seen, g.Turn())
			g.Play(g.LegalMoves()[0])
		}
		if want := []rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green}; !equalSeats(seen, want) {
			t.Errorf("%s: turn order %v, want %v", name, seen, want)
		}
	}
}

// "The traditional rules of Chess apply": castling on both wings (the king
// on g1 castles short toward the rook three squares away on d1, long
// toward k1), the double step.
func TestChess4Castling(t *testing.T) {
	g := crossGame(t, variantNamed(t, "chess4"), "R", "0,0,0,0", "rK:g1 rR:d1 rR:k1 bK:a8 yK:g14 gK:n7")
	fen := g.Position().FEN4()
	fen = strings.Replace(fen, "R-0,0,0,0-0,0,0,0-0,0,0,0-", "R-0,0,0,0-1,0,0,0-1,0,0,0-", 1)
	g, err := rules.NewGame(variantNamed(t, "chess4"), fen)
	if err != nil {
		t.Fatal(err)
	}
	var castles []string
	for _, m := range g.LegalMoves() {
		if c, _ := m.IsCastle(); c {
			castles = append(castles, m.String())
		}
	}
	sort.Strings(castles)
	if strings.Join(castles, " ") != "g1-e1 g1-i1" {
		t.Errorf("castling moves %v, want g1-e1 (short, rook d1-f1) and g1-i1 (long, rook k1-h1)", castles)
	}
}

// "In the event a Pawn reaches King's row to the left, right, or directly
// across, that Pawn shall receive all the privileges of a Pawn reaching
// King's row during a traditional Chess game": any other player's back
// row, with the choice of queen, rook, bishop or knight.
func TestChess4Promotion(t *testing.T) {
	v := variantNamed(t, "chess4")
	for _, c := range []struct {
		name, turn, pieces, from string
		want                     []string
	}{
		{"White, directly across (Black's row)", "R", "rK:g1 rP:e13 bK:a8 yK:g14 gK:n7", "e13",
			[]string{"e14=B", "e14=N", "e14=Q", "e14=R"}},
		{"White, to the left (Silver's row)", "R", "rK:g1 rP:b10 bN:a11 bK:a8 yK:g14 gK:n7", "b10",
			[]string{"a11=B", "a11=N", "a11=Q", "a11=R", "b11"}},
		{"White, to the right (Gold's row)", "R", "rK:g1 rP:m9 gN:n10 bK:a8 yK:g14 gK:n7", "m9",
			[]string{"m10", "n10=B", "n10=N", "n10=Q", "n10=R"}},
		{"Silver, White's row", "B", "rK:g1 bP:e2 rN:f1 bK:a8 yK:g14 gK:n7", "e2",
			[]string{"f1=B", "f1=N", "f1=Q", "f1=R", "f2"}},
		{"Silver, across (Gold's row)", "B", "rK:g1 bP:m5 bK:a8 yK:g14 gK:n7", "m5",
			[]string{"n5=B", "n5=N", "n5=Q", "n5=R"}},
		{"no promotion on the own row's line elsewhere: Black pawn on rank 2", "Y", "rK:g1 yP:e3 bK:a8 yK:g14 gK:n7", "e3",
			[]string{"e2"}},
	} {
		g := crossGame(t, v, c.turn, "0,0,0,0", c.pieces)
		if got := c4dests(g, c.from); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: %s moves %v, want %v", c.name, c.from, got, c.want)
		}
	}
}

// "It is an illegal move to capture an active player's King." "A player
// may not move his King into check (even if the checking piece will be
// forced to move before the player's next turn)." "Players can only move
// their Chess pieces on their turn. If a player is placed in check …
// that player must wait until their designated turn".
func TestChess4KingsAndChecks(t *testing.T) {
	v := variantNamed(t, "chess4")
	// White's queen attacks Silver's king, which sits in check waiting for
	// its turn; White may not take it.
	g := crossGame(t, v, "R", "0,0,0,0", "rK:g1 rQ:a4 bK:a8 yK:g14 gK:n7")
	if hasMove(g, "a4", "a8") {
		t.Errorf("White's queen may capture Silver's live king on a8")
	}
	if !g.Position().InCheck(rules.Blue) || g.Status(rules.Blue) != rules.Playing {
		t.Errorf("Silver should be in check and still playing")
	}
	// Silver's rook gives White check on the g-file; Silver must answer
	// its own check first, yet White's king may not step onto f2, which
	// Silver's rook on f10 attacks.
	g = crossGame(t, v, "R", "0,0,0,0", "rK:g1 rR:a5 bK:a8 bR:f10 yK:g14 gK:n7")
	if hasMove(g, "g1", "f2") || hasMove(g, "g1", "f1") {
		t.Errorf("White's king may step into the attack of Silver's rook: %v", c4dests(g, "g1"))
	}
	if !hasMove(g, "g1", "h2") {
		t.Errorf("White's king should reach h2: %v", c4dests(g, "g1"))
	}
}

// A position in which Gold mates Black (the text's example of rule 6.3):
// Black's king h14 behind its pawns g13, h13, i13; Gold's queen e6 goes to
// e14; White's queen d13 and Silver's queen f13 can each take on e14.
const c4MatePieces = "yK:h14 yP:g13 yP:h13 yP:i13 gQ:e6 rQ:d13 bQ:f13 rK:h1 bK:a8 gK:n7"

// Rule 1: "A player is only eliminated by checkmate if he is checkmated at
// the beginning of the checkmating player's next turn." Silver mates Black;
// Black, mated at his own turn, waits; Gold and White move before Silver's
// next turn and may rescue him. (In the order White, Silver, Black, Gold
// the checkmating player's next turn comes a full round after the mate.)
func TestChess4MateCountsAtTheMatersNextTurn(t *testing.T) {
	for _, m2 := range []string{"chess4", "chess4-m2"} {
		v := variantNamed(t, m2)
		// Nobody rescues Black: out as Silver's turn begins, credited to
		// Silver (under Method 2 Silver now plays Black's army).
		g := crossGame(t, v, "B", "0,0,0,0", c4MatePieces+" gN:d12")
		rec := playCross(t, g, "f13", "e14") // Silver mates Black
		if len(rec.Out) != 0 || g.Turn() != rules.Green || g.Status(rules.Yellow) != rules.Playing {
			t.Fatalf("%s: after Qf13-e14 out %v, turn %v, Black %v; want Black waiting, Gold to move", m2, rec.Out, g.Turn(), g.Status(rules.Yellow))
		}
		playCross(t, g, "n7", "n6") // Gold
		if g.Status(rules.Yellow) != rules.Playing {
			t.Errorf("%s: Black %v before Silver's turn", m2, g.Status(rules.Yellow))
		}
		rec = playCross(t, g, "h1", "i1") // White; Silver's turn begins
		if g.Status(rules.Yellow) != rules.Mated || !equalSeats(rec.Out, []rules.Seat{rules.Yellow}) || !equalSeats(rec.By, []rules.Seat{rules.Blue}) {
			t.Errorf("%s: Black %v, out %v by %v; want mated at Silver's turn, credited to Silver", m2, g.Status(rules.Yellow), rec.Out, rec.By)
		}
		if g.Turn() != rules.Blue {
			t.Errorf("%s: turn %v, want Silver", m2, g.Turn())
		}
		if want := map[string]rules.Seat{"chess4": rules.NoSeat, "chess4-m2": rules.Blue}[m2]; chess4Of(g).Controller(rules.Yellow) != want {
			t.Errorf("%s: Black's army played by %v, want %v", m2, chess4Of(g).Controller(rules.Yellow), want)
		}

		// Gold rescues Black before Silver moves again: Black plays on.
		g = crossGame(t, v, "B", "0,0,0,0", c4MatePieces+" gN:d12")
		playCross(t, g, "f13", "e14")
		playCross(t, g, "d12", "e14") // Gold's knight takes the mating queen
		if _, ok := chess4Of(g).MateCredit(rules.Yellow); ok || g.Status(rules.Yellow) != rules.Playing {
			t.Errorf("%s: after the rescue Black %v, credit %v", m2, g.Status(rules.Yellow), ok)
		}
		playCross(t, g, "h1", "i1")   // White
		playCross(t, g, "a8", "a9")   // Silver
		playCross(t, g, "h14", "g14") // Black moves in his turn
		if g.Status(rules.Yellow) != rules.Playing {
			t.Errorf("%s: Black %v after the rescue", m2, g.Status(rules.Yellow))
		}
	}
}

// "Checkmate occurs at the beginning of the eliminated player's turn."
// (6.1): the credit is decided when Black's turn begins, not when the mate
// is given; here Gold, the credited player, moves right after Black.
func TestChess4MateAtOwnTurn(t *testing.T) {
	v := variantNamed(t, "chess4")
	g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces)
	rec := playCross(t, g, "e6", "e14")
	if len(rec.Out) != 0 || g.Status(rules.Yellow) != rules.Playing {
		t.Fatalf("Black is out at once: %+v", rec)
	}
	if by, ok := chess4Of(g).MateCredit(rules.Yellow); !ok || by != rules.Green {
		t.Errorf("mate credit %v %v, want Gold (Green)", by, ok)
	}
	playCross(t, g, "h1", "i1")       // White
	rec = playCross(t, g, "a8", "a9") // Silver; then Black's turn begins, mated
	if g.Status(rules.Yellow) != rules.Mated || !equalSeats(rec.Out, []rules.Seat{rules.Yellow}) || !equalSeats(rec.By, []rules.Seat{rules.Green}) {
		t.Fatalf("Black %v, record out %v by %v; want mated, credited to Gold", g.Status(rules.Yellow), rec.Out, rec.By)
	}
	if by, ok := chess4Of(g).EliminatedBy(rules.Yellow); !ok || by != rules.Green {
		t.Errorf("EliminatedBy(Black) = %v %v, want Gold", by, ok)
	}
	if g.Turn() != rules.Green {
		t.Errorf("turn %v after Black's elimination, want Gold", g.Turn())
	}
	if !strings.HasSuffix(rec.Text, "#") {
		t.Errorf("the move after which Black is out reads %q, want a '#'", rec.Text)
	}

	// A mate lifted before Black's turn does not count: White's king
	// does nothing, Silver takes Gold's queen with … nothing that mates.
	g = crossGame(t, v, "G", "0,0,0,0", c4MatePieces+" bN:d12")
	playCross(t, g, "e6", "e14")
	playCross(t, g, "h1", "i1")
	playCross(t, g, "d12", "e14") // Silver's knight takes the queen: no check any more
	if g.Status(rules.Yellow) != rules.Playing || g.Turn() != rules.Yellow {
		t.Errorf("Black %v, turn %v; want Black playing and to move", g.Status(rules.Yellow), g.Turn())
	}
	if _, ok := chess4Of(g).MateCredit(rules.Yellow); ok {
		t.Errorf("a lifted mate keeps its credit")
	}
}

// Rule 6: "If multiple players checkmate the King … credit goes to the
// first player whose move resulted in a checkmate." "if Gold moves his
// Queen to checkmate Black, and White captures Gold's Queen with his own
// Queen, then White has removed the checkmate (however momentarily) and
// reapplied it…so White would get credit for eliminating Black. However,
// if after White's move Silver moved his Queen to the same place
// (capturing White's Queen) then that would reset the checkmate a second
// time and ultimately give Silver credit for the elimination." And
// "credit for the move goes to the player who made the move that created
// the situation, even if the attacking piece belongs to an opponent".
func TestChess4Credit(t *testing.T) {
	v := variantNamed(t, "chess4")
	t.Run("the text's example", func(t *testing.T) {
		g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces)
		for _, c := range []struct {
			from, to string
			want     rules.Seat
		}{
			{"e6", "e14", rules.Green}, // Gold mates
			{"d13", "e14", rules.Red},  // White's queen takes Gold's: re-mates
			{"f13", "e14", rules.Blue}, // Silver's queen takes White's
		} {
			playCross(t, g, c.from, c.to)
			if by, ok := chess4Of(g).MateCredit(rules.Yellow); !ok || by != c.want {
				t.Errorf("after %s-%s the credit is %v %v, want %v", c.from, c.to, by, ok, c.want)
			}
		}
		// Black, mated at his turn, waits for Silver's (rule 1).
		if g.Turn() != rules.Green || g.Status(rules.Yellow) != rules.Playing {
			t.Fatalf("turn %v, Black %v; want Gold to move, Black still in", g.Turn(), g.Status(rules.Yellow))
		}
		playCross(t, g, "n7", "n6") // Gold
		playCross(t, g, "h1", "i1") // White; Silver's turn begins
		if by, _ := chess4Of(g).EliminatedBy(rules.Yellow); g.Status(rules.Yellow) != rules.Mated || by != rules.Blue {
			t.Errorf("Black %v by %v, want mated by Silver (Blue)", g.Status(rules.Yellow), by)
		}
	})
	t.Run("a second mate keeps the first credit", func(t *testing.T) {
		// Gold mates; then White's rook also attacks along rank 14 from
		// behind the queen … the mate was never lifted: Gold keeps it.
		g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces)
		playCross(t, g, "e6", "e14")
		playCross(t, g, "d13", "d12") // White moves away, the mate stands
		if by, _ := chess4Of(g).MateCredit(rules.Yellow); by != rules.Green {
			t.Errorf("credit %v, want Gold", by)
		}
	})
	t.Run("discovered mate", func(t *testing.T) {
		// "if Black creates a discovered checkmate by moving his Knight,
		// which creates checkmate on Silver's King by revealing a
		// discovered attack by Gold's Queen on Silver's King, then Black
		// would get credit for eliminating Silver".
		g := crossGame(t, v, "Y", "0,0,0,0", "bK:a8 bP:b7 bP:b8 bP:b9 yN:a6 gQ:a4 rK:h1 yK:g14 gK:n7")
		playCross(t, g, "a6", "c5") // Black's knight uncovers Gold's queen
		if by, ok := chess4Of(g).MateCredit(rules.Blue); !ok || by != rules.Yellow {
			t.Fatalf("credit %v %v, want Black (Yellow)", by, ok)
		}
		playCross(t, g, "n7", "n6") // Gold
		rec := playCross(t, g, "h1", "i1")
		if !equalSeats(rec.By, []rules.Seat{rules.Yellow}) || g.Status(rules.Blue) != rules.Mated {
			t.Errorf("Silver %v, out %v by %v; want mated, credited to Black", g.Status(rules.Blue), rec.Out, rec.By)
		}
	})
}

// Method 1: "Once a King has been checkmated, that player is out of the
// game, the remainder of the Chess pieces are left on the game board and
// play continues." "An eliminated player's pieces are not considered
// 'active' when assessing check/checkmate/stalemate." "An eliminated
// player's pieces cannot be 'jumped over', but they can be captured (and
// thus removed from the board), including the King."
func TestChess4StaticArmy(t *testing.T) {
	v := variantNamed(t, "chess4")
	g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces+" yR:d9 rR:d4")
	playCross(t, g, "e6", "e14")
	playCross(t, g, "h1", "i1")
	playCross(t, g, "a8", "b8")
	if g.Status(rules.Yellow) != rules.Mated {
		t.Fatalf("Black not out")
	}
	p := g.Position()
	if pc := p.At(sqr(t, "h14")); !pc.Dead() || pc.Kind() != rules.King {
		t.Errorf("h14 holds %v, want Black's static king", pc)
	}
	// Gold's turn; then White's rook on d4 is blocked by the static rook on
	// d9 (no jumping over), may take it, and is not attacked by it.
	playCross(t, g, "n7", "n6")
	got := c4dests(g, "d4")
	if !contains(got, "d9") || contains(got, "d10") {
		t.Errorf("White's rook d4 reaches %v: want d9 (capturing the static rook) and nothing beyond", got)
	}
	// White's queen may take the static king.
	if !hasMove(g, "d13", "d14") {
		t.Errorf("queen d13 lacks d14")
	}
	g3 := crossGame(t, v, "R", "0,0,1,0", "rK:h1 rQ:h12 dyK:h14 dyR:h8 bK:a8 gK:n7")
	if !hasMove(g3, "h12", "h14") {
		t.Errorf("the static king on h14 cannot be captured: %v", c4dests(g3, "h12"))
	}
	// The static rook on h8 gives no check to White's king on h1.
	if g3.Position().InCheck(rules.Red) {
		t.Errorf("a static rook gives check")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The game ends when one player remains; the Result tag gives each seat's
// share of the point in the order White-Silver-Black-Gold (the text's
// "1/4-1/4-1/4-1/4" is a four-way draw).
func TestChess4End(t *testing.T) {
	v := variantNamed(t, "chess4")
	// White's queen h4-n4 mates Gold's king n7 (the rook m11 holds the
	// m-file); Silver and Black are out already.
	g := crossGame(t, v, "R", "0,1,1,0", "rK:h1 rQ:h4 rR:m11 gK:n7")
	playCross(t, g, "h4", "n4")
	res, over := g.Result()
	if !over {
		t.Fatalf("game not over; Gold %v, turn %v", g.Status(rules.Green), g.Turn())
	}
	if !equalSeats(res.Winners, []rules.Seat{rules.Red}) || res.Tag(v.Mode, [4]string{}) != "1-0-0-0" {
		t.Errorf("result %+v tag %q, want White wins, 1-0-0-0", res, res.Tag(v.Mode, [4]string{}))
	}
	if draw := (rules.Result{Reason: "stalemate", Sharing: []rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green}}); draw.Tag(chess4.Chess4, [4]string{}) != "1/4-1/4-1/4-1/4" {
		t.Errorf("four-way draw tag %q", draw.Tag(chess4.Chess4, [4]string{}))
	}
	// Stalemate: the text has no rule of its own beyond "The traditional
	// rules of Chess apply when playing Chess4" and "An eliminated
	// player's pieces are not considered 'active' when assessing
	// check/checkmate/stalemate": as in chess, a player with no legal move
	// at his turn and not in check draws the game, shared by the players
	// still in (the Result format's "1/4-1/4-1/4-1/4").
	for _, c := range []struct {
		out, pieces string
		sharing     []rules.Seat
	}{
		{"0,0,0,0", "rB:c7 rR:b10 bK:a4 rK:h1 yK:g14 gK:n7", []rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green}},
		{"0,0,1,0", "rB:c7 rR:b10 bK:a4 rK:h1 yK:g14 gK:n7", []rules.Seat{rules.Red, rules.Blue, rules.Green}},
	} {
		g := crossGame(t, v, "R", c.out, c.pieces)
		playCross(t, g, "h1", "i1") // Silver's king a4: a5, b4, b5 all held
		res, over := g.Result()
		if !over || res.Reason != "stalemate" || !res.Draw() || !equalSeats(res.Sharing, c.sharing) || g.Status(rules.Blue) != rules.Stalemated {
			t.Errorf("out %s: %+v over %v, Silver %v; want a stalemate shared by %v", c.out, res, over, g.Status(rules.Blue), c.sharing)
		}
	}
	// A resignation puts the player out (static, no credit); play goes on.
	g = crossGame(t, v, "R", "0,0,0,0", "rK:h1 bK:a8 yK:g14 gK:n7 bQ:b5 rR:e2 yR:f13 gR:m10")
	if _, err := g.Resign(rules.Blue); err != nil {
		t.Fatal(err)
	}
	if _, over := g.Result(); over || g.Status(rules.Blue) != rules.Resigned || !g.Position().At(sqr(t, "b5")).Dead() {
		t.Errorf("after Silver resigns: over %v, status %v", over, g.Status(rules.Blue))
	}
}

var _ = square.None

// playLine plays moves written "from-to" from g's current position.
func playLine(t *testing.T, g *rules.Game, line string) {
	t.Helper()
	for _, mv := range strings.Fields(line) {
		from, to, _ := strings.Cut(mv, "-")
		playCross(t, g, from, to)
	}
}

func epMoves(g *rules.Game) []string {
	var out []string
	for _, m := range g.LegalMoves() {
		if m.IsEnPassant() {
			out = append(out, m.String())
		}
	}
	sort.Strings(out)
	return out
}

// Rule 7 (en passant).
func TestChess4EnPassant(t *testing.T) {
	v := variantNamed(t, "chess4")
	start := func() *rules.Game {
		g, err := rules.NewGame(v, "")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	t.Run("7.1 perpendicular", func(t *testing.T) {
		// "consider the following: '1. L11 … … K11' … White should be
		// able to capture with '2. K12' (but not '2. K10'; you must always
		// capture 'behind' the captured pawn)." L11 = k3, K11 = k4,
		// K12 = l4, K10 = j4.
		g := start()
		playLine(t, g, "k2-k3 b10-c10 d13-d12 m4-k4")
		if got := epMoves(g); strings.Join(got, " ") != "k3-l4" {
			t.Fatalf("en passant moves %v, want k3-l4", got)
		}
		if hasMove(g, "k3", "j4") {
			t.Errorf("k3-j4 (the text's K10) is playable")
		}
		playLine(t, g, "k3-l4")
		if g.Position().At(sqr(t, "k4")) != rules.NoPiece {
			t.Errorf("Gold's pawn on k4 was not taken")
		}
	})
	t.Run("7.2.1 other opponents move in between", func(t *testing.T) {
		// "if Silver passes a Pawn on White, White does not lose the
		// opportunity to en passant simply because Black and Gold play
		// their moves before White's next move."
		g := start()
		playLine(t, g, "d2-d3 b4-d4 d13-d12 m11-l11")
		if got := epMoves(g); strings.Join(got, " ") != "d3-c4" {
			t.Fatalf("en passant moves %v, want d3-c4", got)
		}
		// "he must do so on his first opportunity"
		playLine(t, g, "e2-e3 b10-c10 e13-e12 m10-l10")
		if got := epMoves(g); len(got) != 0 {
			t.Errorf("en passant still offered after the first opportunity: %v", got)
		}
	})
	t.Run("7.2.2 double en passant", func(t *testing.T) {
		// "both Silver and Gold pass a pawn on White in the same round of
		// turns, White may play en passant on both as long as he plays
		// both moves on his next two turns. White chooses which passing
		// pawn to capture first. The other passing pawn may not capture
		// on this subsequent turn, but it may move; if it does, White may
		// still capture (White's pawn's destination square remains
		// unchanged)."
		g := start()
		playLine(t, g, "d2-d3 b10-c10 d13-d12 m11-l11 j2-j3 b11-c11 e13-e12 m10-l10 k2-k3 b4-d4 f13-f12 m4-k4")
		if got := epMoves(g); strings.Join(got, " ") != "d3-c4 k3-l4" {
			t.Fatalf("en passant moves %v, want d3-c4 and k3-l4", got)
		}
		playLine(t, g, "d3-c4 b9-c9 i13-i12")
		// Gold's passed pawn on k4 may not take White's pawn on j3, but may
		// step to j4.
		if got := c4dests(g, "k4"); strings.Join(got, " ") != "j4" {
			t.Errorf("Gold's passed pawn k4 may go to %v, want only j4", got)
		}
		playLine(t, g, "k4-j4")
		if got := epMoves(g); strings.Join(got, " ") != "k3-l4" {
			t.Fatalf("second en passant %v, want k3-l4 (destination unchanged)", got)
		}
		// If White does not take now, the right lapses.
		playLine(t, g, "e2-e3 b5-c5 g13-g12 m9-l9")
		if got := epMoves(g); len(got) != 0 {
			t.Errorf("deferred en passant survives a turn without en passant: %v", got)
		}
		g.Takeback()
		g.Takeback()
		g.Takeback()
		g.Takeback()
		playLine(t, g, "k3-l4")
		p := g.Position()
		if p.At(sqr(t, "j4")) != rules.NoPiece || p.At(sqr(t, "l4")) != rules.MakePiece(rules.Red, rules.Pawn) {
			t.Errorf("after k3xl4 e.p.: j4 %v, l4 %v; want Gold's pawn gone, White's on l4", p.At(sqr(t, "j4")), p.At(sqr(t, "l4")))
		}
	})
	t.Run("teams and ffa unchanged", func(t *testing.T) {
		// The same line under chess.com's FFA: the second right lapses
		// when Gold moves again.
		ffa := variantNamed(t, "ffa")
		g, _ := rules.NewGame(ffa, "")
		playLine(t, g, "d2-d3 b10-c10 d13-d12 m11-l11 j2-j3 b11-c11 e13-e12 m10-l10 k2-k3 b4-d4 f13-f12 m4-k4 d3-c4 b9-c9 i13-i12")
		if !hasMove(g, "k4", "j3") {
			t.Errorf("FFA: Gold's pawn k4 cannot take j3")
		}
		playLine(t, g, "k4-j4")
		if got := epMoves(g); len(got) != 0 {
			t.Errorf("FFA offers a deferred en passant: %v", got)
		}
	})
}

// perft from the start. Depth 1, by hand: White's eight pawns step or
// double-step (16) and its knights e1 and j1 reach d3, f3, i3 and k3 (4):
// 20. Depth 2: Silver has the same 20 answers in general, but d2-d4 blocks
// Silver's b4-d4 double step (19), and g2-g3 or g2-g4 opens the diagonal
// h1-a8 from White's queen on h1 to Silver's king on a8, pinning the pawn
// b7 (its two moves go: 18 each): 17 × 20 + 19 + 18 + 18 = 395.
// Depth 3 (7880) is the engine's, pinned here; depth 4 is 155210 (docs).
func TestChess4Perft(t *testing.T) {
	for _, name := range []string{"chess4", "chess4-m2"} {
		v := variantNamed(t, name)
		p, err := rules.ParseFEN4(v, v.Start)
		if err != nil {
			t.Fatal(err)
		}
		for depth, want := range []uint64{1: 20, 2: 395, 3: 7880} {
			if depth == 0 {
				continue
			}
			for _, bulk := range []bool{true, false} {
				if got := p.Perft(depth, bulk); got != want {
					t.Errorf("%s perft(%d, bulk %v) = %d, want %d", name, depth, bulk, got, want)
				}
			}
		}
	}
}

// Method 2: "Once a King has been checkmated, the player who checkmated
// the King is now able to use the remaining Chess pieces of the captured
// King against the remaining opponents." "a player who has captured
// another player's King can only play those pieces on the turn of the
// player who has been checkmated". "an eliminated player's King is never
// considered to be in check", "nor will he incur any penalty if it's
// captured". "A player only retains control of one set of opponent's
// pieces. If a player eliminates a second player … that player must
// immediately make a permanent decision as to which eliminated opponent's
// pieces he will control. The other opponent's pieces remain on the
// board, but are static as with Method 1."
func TestChess4Method2(t *testing.T) {
	v := variantNamed(t, "chess4-m2")
	g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces+" rB:k12 bN:f12 bR:i4 gP:m6 gP:m7 gP:m8 gR:n11")
	playLine(t, g, "e6-e14 d13-e14 f13-e14") // Gold mates, White and then Silver re-mate
	if g.Status(rules.Yellow) != rules.Playing || g.Turn() != rules.Green {
		t.Fatalf("Black %v, turn %v: Black waits for Silver's turn, Gold moves", g.Status(rules.Yellow), g.Turn())
	}
	playLine(t, g, "n11-n10 h1-g1") // Gold, White; Silver's turn begins
	if g.Status(rules.Yellow) != rules.Mated || chess4Of(g).Controller(rules.Yellow) != rules.Blue || g.Turn() != rules.Blue {
		t.Fatalf("Black %v controlled by %v, turn %v; want mated and played by Silver, Silver to move", g.Status(rules.Yellow), chess4Of(g).Controller(rules.Yellow), g.Turn())
	}
	playLine(t, g, "a8-b8") // Silver's own move
	if g.Turn() != rules.Yellow {
		t.Fatalf("turn %v: Silver plays Black's army on Black's turn", g.Turn())
	}
	// The acquired king may step where White's bishop attacks it.
	if got := c4dests(g, "h14"); strings.Join(got, " ") != "g14 i14" {
		t.Errorf("acquired king h14 reaches %v, want g14 i14 (never in check)", got)
	}
	// The acquired army and Silver's own pieces do not capture each other.
	if got := c4dests(g, "g13"); strings.Join(got, " ") != "g11 g12" {
		t.Errorf("Black's pawn g13 reaches %v, want g11 g12 (not Silver's knight on f12)", got)
	}
	const why = "g13xf12: Blue's knight on f12 may not be captured by Yellow: Blue plays Yellow's army, which does not capture its controller's pieces, nor they it"
	if _, err := g.Position().FindMove(sqr(t, "g13"), sqr(t, "f12"), rules.NoKind); err == nil || err.Error() != why {
		t.Errorf("g13xf12: %v, want %s", err, why)
	}
	playLine(t, g, "h14-i14 n10-m10")
	// White may take the acquired king; nobody is eliminated by it.
	rec := playCross(t, g, "k12", "i14")
	if len(rec.Out) != 0 {
		t.Errorf("capturing the acquired king eliminated %v", rec.Out)
	}
	if hasMove(g, "f12", "h13") {
		t.Errorf("Silver's knight may take a pawn of its own acquired army")
	}
	// Silver mates Gold too: rook i4-n4 (the m-file pawns box the king
	// in); Gold waits for Silver's next turn, White moves, then Gold is out.
	playLine(t, g, "i4-n4 g13-g12")
	if g.Status(rules.Green) != rules.Playing || g.Turn() != rules.Red {
		t.Fatalf("Gold %v, turn %v; want Gold waiting, White to move", g.Status(rules.Green), g.Turn())
	}
	playLine(t, g, "g1-f1")
	if g.Status(rules.Green) != rules.Mated || chess4Of(g).Controller(rules.Green) != rules.Blue {
		t.Fatalf("Gold %v controlled by %v, want mated and played by Silver", g.Status(rules.Green), chess4Of(g).Controller(rules.Green))
	}
	// Default: the army with more material (Gold's rook and pawns) is kept,
	// Black's goes static.
	if chess4Of(g).Controller(rules.Yellow) != rules.NoSeat || !g.Position().At(sqr(t, "h13")).Dead() || g.Turn() != rules.Blue {
		t.Errorf("after the default choice: Black controlled by %v, h13 %v, turn %v", chess4Of(g).Controller(rules.Yellow), g.Position().At(sqr(t, "h13")), g.Turn())
	}
	if err := chess4Of(g).KeepArmy(rules.Red); err == nil {
		t.Errorf("Silver may keep White's army")
	}
	if err := chess4Of(g).KeepArmy(rules.Yellow); err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if chess4Of(g).Controller(rules.Yellow) != rules.Blue || chess4Of(g).Controller(rules.Green) != rules.NoSeat || p.At(sqr(t, "h13")).Dead() || !p.At(sqr(t, "m10")).Dead() || g.Turn() != rules.Blue {
		t.Errorf("after keeping Black: controllers %v/%v, h13 %v, m10 %v, turn %v", chess4Of(g).Controller(rules.Yellow), chess4Of(g).Controller(rules.Green), p.At(sqr(t, "h13")), p.At(sqr(t, "m10")), g.Turn())
	}
	playCross(t, g, "b8", "a8")
	if err := chess4Of(g).KeepArmy(rules.Green); err == nil {
		t.Errorf("the choice is still open after the next move: it must be permanent")
	}
}

// Method 2, rule 1: "A player may castle a King acquired from an
// eliminated player if the eliminated player's King and castling Rook
// have not moved away from their starting positions since that player
// was eliminated. … Once either piece is on its starting location, it may
// not move again (except to perform the castle) or castling is again
// illegal." (The game starts from this position, so h14 and k14 are the
// king's and rook's starting squares.)
func TestChess4Method2Castling(t *testing.T) {
	v := variantNamed(t, "chess4-m2")
	castles := func(g *rules.Game) int {
		n := 0
		for _, m := range g.LegalMoves() {
			if c, _ := m.IsCastle(); c {
				n++
			}
		}
		return n
	}
	g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces+" yR:k14")
	playLine(t, g, "e6-e14 h1-i1 a8-b8") // Black waits; Gold's turn begins: Black is out, Gold plays it
	if chess4Of(g).Controller(rules.Yellow) != rules.Green || g.Turn() != rules.Green {
		t.Fatalf("Black controlled by %v, turn %v", chess4Of(g).Controller(rules.Yellow), g.Turn())
	}
	playLine(t, g, "n7-n6 i1-h1 b8-a8") // Gold, White, Silver; then Black's army (Gold)
	if g.Turn() != rules.Yellow {
		t.Fatalf("turn %v, want Black's army", g.Turn())
	}
	if castles(g) != 1 {
		t.Errorf("the acquired king and rook are home: want one castling move, got %d", castles(g))
	}
	// The rook moves off its square and back: castling is gone for good.
	playLine(t, g, "k14-k13 n6-n7 h1-i1 a8-b8 k13-k14 n7-n6 i1-h1 b8-a8")
	if castles(g) != 0 {
		t.Errorf("castling after the rook left its starting square and came back")
	}
}
