package variants

import (
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
)

// Tests of Capt. Verney's four-handed chess (1881),
// shared/seeds/verney-four-handed-chess-1881.txt. Seats: boardd's Red seat
// plays Verney's Yellow, Blue his Red, Yellow his White, Green his Black
// (configs/variants/verney.yaml says why).

func verney(t *testing.T) *rules.Variant { return variantNamed(t, "verney") }

func vsq(t *testing.T, name string) square.Square {
	t.Helper()
	q, err := square.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// legal reports whether from-to is a legal move for the seat to move.
func legal(t *testing.T, g *rules.Game, from, to string) bool {
	t.Helper()
	f, tt := vsq(t, from), vsq(t, to)
	for _, m := range g.LegalMoves() {
		if m.From() == f && m.To() == tt {
			return true
		}
	}
	return false
}

// "The board consists of one hundred and sixty squares, and thirty-two
// Pieces and thirty-two Pawns are used for play." "The players who are
// opposite to each other become partners … the players, Yellow and White,
// have to unite their forces … against the combined forces of the
// partners, Red and Black."
func TestVerneyBoardAndSeats(t *testing.T) {
	d, err := Find(catalog(t), "verney")
	if err != nil {
		t.Fatal(err)
	}
	v := verney(t)
	if n := v.Geometry.Playable.Len(); n != 160 {
		t.Errorf("%d squares, want 160", n)
	}
	if d.SeatNames != [rules.NumSeats]string{"Yellow", "Red", "White", "Black"} {
		t.Errorf("seat names %v", d.SeatNames)
	}
	p, _ := rules.ParseFEN4(v, v.Start)
	pieces, pawns := 0, 0
	for _, q := range v.Geometry.Playable.Squares() {
		if pc := p.At(q); pc.IsPiece() {
			if pc.Kind() == rules.Pawn {
				pawns++
			} else {
				pieces++
			}
		}
	}
	if pieces != 32 || pawns != 32 {
		t.Errorf("%d pieces and %d pawns, want 32 and 32", pieces, pawns)
	}
	// Yellow (Red seat) and White (Yellow seat) opposite, partners; Red
	// (Blue seat) and Black (Green seat) likewise.
	for _, tc := range []struct {
		a, b    rules.Seat
		partner bool
	}{{rules.Red, rules.Yellow, true}, {rules.Blue, rules.Green, true}, {rules.Red, rules.Blue, false}, {rules.Red, rules.Green, false}, {rules.Yellow, rules.Blue, false}} {
		if v.Partners(tc.a, tc.b) != tc.partner {
			t.Errorf("Partners(%s, %s) = %v", tc.a, tc.b, !tc.partner)
		}
	}
}

// "place them all four on the white squares": every queen stands on a
// white square (a1-type, (file+rank) even, as boardd's display colours the
// board: the bottom player's right-hand corner k1 is white), its king
// beside it on the other centre square of the back line.
func TestVerneyQueensOnWhite(t *testing.T) {
	v := verney(t)
	p, _ := rules.ParseFEN4(v, v.Start)
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		var q, k square.Square = square.None, square.None
		for _, x := range v.Geometry.Playable.Squares() {
			switch pc := p.At(x); {
			case pc == rules.MakePiece(s, rules.Queen):
				q = x
			case pc == rules.MakePiece(s, rules.King):
				k = x
			}
		}
		if (q.File()+q.Rank())%2 != 0 {
			t.Errorf("%s's queen on %s, a black square", s, q)
		}
		if df, dr := q.File()-k.File(), q.Rank()-k.Rank(); df*df+dr*dr != 1 {
			t.Errorf("%s's king %s is not beside the queen %s", s, k, q)
		}
	}
}

// "Each player in turn makes a move, passing from right to left, as in
// Whist": the turn passes to the player on the mover's left, clockwise.
func TestVerneyTurnOrder(t *testing.T) {
	seen := firstTurns(t, verney(t), 8)
	want := []rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green, rules.Red, rules.Blue, rules.Yellow, rules.Green}
	if !equalSeats(seen, want) {
		t.Errorf("turn order %v, want %v", seen, want)
	}
}

// The booklet's sample opening, players 1-4 in turn order (Yellow, Red,
// White, Black = boardd's Red, Blue, Yellow, Green seats):
//
//	1st round K. P. to K. 3.  K. P. to K. 3.  K. P. to K. 3.  K. P. to K. 3.
//	2nd "     K. B. takes Red's K. B.  Q. takes White Q. (Check).  K takes Red Q.  K. B. takes White's K. B.
//	3rd "     Q takes Black Q. (Check)  K. takes Yellow B.  K. to K. square.  K. takes Yellow Q.
//	4th "     Any move.  Any move.  K. takes Black K. B.
//
// It replays move for move from the variant's start, which pins down the
// seats, the turn order and where the kings and queens stand.
func TestVerneySampleOpening(t *testing.T) {
	g, err := rules.NewGame(verney(t), "")
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range []struct{ from, to, text string }{
		{"h2", "h3", "h2-h3"}, {"b8", "c8", "b8-c8"}, {"g13", "g12", "g13-g12"}, {"m7", "l7", "m7-l7"},
		{"i1", "a9", "Bi1xBa9"}, {"a7", "h14", "Qa7xQh14+"}, {"g14", "h14", "Kg14xQh14"}, {"n6", "f14", "Bn6xBf14"},
		{"g1", "n8", "Qg1xQn8+"}, {"a8", "a9", "Ka8xBa9"}, {"h14", "g14", "Kh14-g14"}, {"n7", "n8", "Kn7xQn8"},
		{"d2", "d3", "d2-d3"}, {"b5", "c5", "b5-c5"}, {"g14", "f14", "Kg14xBf14"},
	} {
		rec := playCross(t, g, mv.from, mv.to)
		if rec.Text != mv.text {
			t.Errorf("move %d: %s, want %s", i+1, rec.Text, mv.text)
		}
	}
}

// Depth 1, by hand: the Red seat's eight pawns step one square ("The
// Pawns can only move one square at a time, and not two squares in the
// first move") and its knights go e1-d3, e1-f3, j1-i3, j1-k3 (c2 and l2
// are off the board; the other knight squares hold its own pawns): 8 + 4
// = 12; the other pieces are boxed in and "Castling is not allowed". Depth
// 2: the Blue seat's army is the same turned a quarter, and none of the
// Red seat's first moves reaches it or gives check: 12 × 12 = 144. Depth 3
// likewise: 12³ = 1728 (and depth 4 = 12⁴ = 20736, docs/variants/verney.md).
func TestVerneyPerftStart(t *testing.T) {
	v := verney(t)
	p, err := rules.ParseFEN4(v, v.Start)
	if err != nil {
		t.Fatal(err)
	}
	for d, want := range []uint64{12, 144, 1728} {
		if got := p.Perft(d+1, true); got != want {
			t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
		}
	}
}

func TestVerneyMovement(t *testing.T) {
	v := verney(t)
	// "Castling is not allowed in Four-handed Chess."
	t.Run("no castling", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rR:k1 rR:d1 bK:a8 yK:g14 gK:n7")
		if legal(t, g, "h1", "j1") || legal(t, g, "h1", "f1") {
			t.Error("the king may castle")
		}
	})
	// "The Pawns can only move one square at a time, and not two squares
	// in the first move, as in the ordinary game." (so no en passant)
	t.Run("no double step", func(t *testing.T) {
		g, _ := rules.NewGame(v, "")
		if !legal(t, g, "e2", "e3") || legal(t, g, "e2", "e4") {
			t.Error("e2 pawn: want e3 only")
		}
		if v.EnPassant || v.DoubleStep || v.Castling {
			t.Error("castling, double step or en passant switched on")
		}
	})
	// "The Pieces and Pawns of those players who are partners have no
	// antagonistic influence over each other … In this way the Kings of
	// partners could meet on adjoining squares, as in no case do the
	// Pieces or Pawns of one partner attack the Pieces or Pawns of the
	// other."
	t.Run("partners neither capture nor check", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,0", "rK:e5 yK:e6 yQ:h8 rR:h1 yP:g3 bK:a8 gK:n7")
		if g.Position().InCheck(rules.Red) {
			t.Error("the partner's queen on h8 checks the Red seat's king")
		}
		if !legal(t, g, "e5", "f6") || !legal(t, g, "e5", "d6") {
			t.Error("the king may not stand beside its partner's king")
		}
		if legal(t, g, "h1", "h8") {
			t.Error("a rook captures its partner's queen")
		}
		if !legal(t, g, "h1", "h7") {
			t.Error("h1-h7 is not legal")
		}
	})
	// "No player is allowed to move a Piece or Pawn, which move would open
	// his partner's King to a check from either of his adversaries; any
	// more than he may uncover his own King to a similar check."
	t.Run("partner's king", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rR:e6 yK:e8 bR:e3 rB:g6 gB:k10 bK:a8 gK:n7")
		for _, to := range []string{"e7", "e5", "e4", "e3"} {
			if !legal(t, g, "e6", to) {
				t.Errorf("Re6-%s (stays on the line) refused", to)
			}
		}
		for _, to := range []string{"d6", "f6", "a6"} {
			if legal(t, g, "e6", to) {
				t.Errorf("Re6-%s opens the partner's king on e8 to the rook on e3", to)
			}
		}
		// The bishop on g6 stands between Green's bishop on k10 and …
		// nothing of its partner: it moves freely; the Yellow seat's king is
		// not on that line.
		if !legal(t, g, "g6", "f5") {
			t.Error("Bg6-f5 refused")
		}
		// With the partner's king on the bishop's line it is pinned.
		g = crossGame(t, v, "R", "0,0,0,0", "rK:h1 rR:d1 rB:g6 yK:f5 gB:k10 bK:a8 gK:n7")
		if legal(t, g, "g6", "h5") || !legal(t, g, "g6", "h7") {
			t.Error("the bishop on g6 between the partner's king f5 and the bishop k10: want only moves along the diagonal")
		}
	})
}

// "A Pawn to become a Queen must by moving diagonally reach the rear
// squares of the enemy's game, which can only be done by its taking …
// therefore, the Pawns cannot be exchanged for Pieces when they reach the
// squares at the opposite end of the board from which they started …
// should a Pawn by repeated captures … reach the edges of the board in the
// ground of either of its enemies, it becomes a Queen."
func TestVerneyPromotion(t *testing.T) {
	v := verney(t)
	g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rP:b10 bN:a11 rP:m10 gN:n11 rP:h13 bK:a4 yK:e14 gK:n4")
	var kinds []rules.Kind
	for _, m := range g.LegalMoves() {
		if m.From() == vsq(t, "b10") && m.To() == vsq(t, "a11") {
			kinds = append(kinds, m.Promotion())
		}
	}
	if len(kinds) != 1 || kinds[0] != rules.Queen {
		t.Errorf("b10xa11 promotes to %v, want queen only", kinds)
	}
	for _, m := range g.LegalMoves() {
		if m.From() == vsq(t, "m10") && m.To() == vsq(t, "n11") && m.Promotion() != rules.Queen {
			t.Errorf("m10xn11 (the Green seat's back line) does not promote: %v", m)
		}
		if m.From() == vsq(t, "h13") && m.Promotion() != rules.NoKind {
			t.Errorf("h13-h14 (the partner's back line) promotes: %v", m)
		}
	}
	rec := playCross(t, g, "b10", "a11")
	if pc := g.Position().At(vsq(t, "a11")); pc != rules.MakePiece(rules.Red, rules.Queen) {
		t.Errorf("after %s a11 holds %v", rec.Text, pc)
	}
}

// "… limiting the number of squares on which it is possible to obtain a
// Queen to six on the side of each adversary": walking every way a pawn
// can go forward (a step, or a diagonal capture) from its starting line on
// the cross board reaches exactly six squares of each enemy's back line,
// and those are promotion squares.
func TestVerneySixQueeningSquares(t *testing.T) {
	v := verney(t)
	geo := v.Geometry.Playable
	for _, tc := range []struct {
		seat     rules.Seat
		start    string // the pawns' line
		df, dr   int    // forward
		enemies  [2]string
		wantSide [2]string
	}{
		{rules.Red, "rank 2", 0, 1, [2]string{"file a", "file n"}, [2]string{"a6 a7 a8 a9 a10 a11", "n6 n7 n8 n9 n10 n11"}},
		{rules.Blue, "file b", 1, 0, [2]string{"rank 1", "rank 14"}, [2]string{"f1 g1 h1 i1 j1 k1", "f14 g14 h14 i14 j14 k14"}},
	} {
		var frontier []square.Square
		seen := map[square.Square]bool{}
		for _, q := range geo.Squares() {
			if (tc.start[0] == 'r' && q.Rank() == 1) || (tc.start[0] == 'f' && q.File() == 1) {
				frontier = append(frontier, q)
				seen[q] = true
			}
		}
		for len(frontier) > 0 {
			q := frontier[0]
			frontier = frontier[1:]
			steps := [][2]int{{tc.df, tc.dr}, {tc.df + tc.dr, tc.dr + tc.df}, {tc.df - tc.dr, tc.dr - tc.df}}
			for _, st := range steps {
				n := square.At(q.File()+st[0], q.Rank()+st[1])
				if q.File()+st[0] < 0 || q.Rank()+st[1] < 0 || !geo.Has(n) || seen[n] {
					continue
				}
				seen[n] = true
				frontier = append(frontier, n)
			}
		}
		for i, line := range tc.enemies {
			var got []string
			for _, q := range geo.Squares() {
				onLine := (line[0] == 'f' && q.File() == int(line[5]-'a')) || (line[0] == 'r' && q.Rank()+1 == atoi(line[5:]))
				if onLine && seen[q] {
					got = append(got, q.String())
					if !v.Seats[tc.seat].Promotion.Has(q) {
						t.Errorf("%s: %s is reachable on %s but not a promotion square", tc.seat, q, line)
					}
				}
			}
			if strings.Join(got, " ") != tc.wantSide[i] {
				t.Errorf("%s pawns reach %v on the enemy's %s, want the six %s", tc.seat, got, line, tc.wantSide[i])
			}
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// "When a Pawn has attained either one of the ultimate squares of the
// board, belonging to a partner, such Pawn remains there as a Pawn, and
// moves back again as a Pawn, one square at a time, in the same direction;
// that is, towards the player. … Should such Pawn return to the line from
// which it originally started, it moves forward again, as it did at
// first." "… in returning from the furthest end of the board, its powers
// of taking would be the reverse of those it would possess on its journey
// forwards."
func TestVerneyReversal(t *testing.T) {
	v := verney(t)
	t.Run("turns at the partner's line and comes back", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rP:h13 bK:a4 yK:e14 gK:n4")
		start := g.Position()
		playCross(t, g, "h13", "h14")
		p := g.Position()
		if pc := p.At(vsq(t, "h14")); !pc.Reversed() || pc.Kind() != rules.Pawn || pc.Promoted() && pc.Kind() != rules.Pawn {
			t.Fatalf("h14 holds %v, want a reversed pawn", pc)
		}
		if !strings.Contains(p.FEN4(), "vrP") {
			t.Errorf("FEN4 does not mark the reversed pawn: %s", p.FEN4())
		}
		q, err := rules.ParseFEN4(v, p.FEN4())
		if err != nil || q.FEN4() != p.FEN4() || q.Hash() != p.Hash() {
			t.Errorf("FEN4 round trip: %v %s", err, p.FEN4())
		}
		// The same squares with a forward pawn on h14 hash differently.
		fwd, _ := rules.ParseFEN4(v, strings.Replace(p.FEN4(), "vrP", "rP", 1))
		if fwd.Hash() == p.Hash() {
			t.Error("the hash does not show the reversal")
		}
		playCross(t, g, "a4", "a5")
		playCross(t, g, "e14", "d14")
		playCross(t, g, "n4", "n5")
		if legal(t, g, "h14", "h15") || !legal(t, g, "h14", "h13") {
			t.Errorf("reversed pawn on h14: moves %v, want h13", g.LegalMoves())
		}
		playCross(t, g, "h14", "h13")
		if pc := g.Position().At(vsq(t, "h13")); !pc.Reversed() {
			t.Errorf("h13 holds %v, want the pawn still reversed", pc)
		}
		// Takeback restores the forward pawn on h13 of the start.
		for i := 0; i < 5; i++ {
			if err := g.Takeback(); err != nil {
				t.Fatal(err)
			}
		}
		if g.Position().FEN4() != start.FEN4() {
			t.Errorf("after takebacks %s, want %s", g.Position().FEN4(), start.FEN4())
		}
	})
	t.Run("make and unmake", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rP:h13 vrP:e3 bK:a4 yK:e14 gK:n4")
		p := g.Position()
		before := p.FEN4()
		for _, m := range p.LegalMoves(nil) {
			u := p.Make(m)
			p.Unmake(m, u)
			if p.FEN4() != before {
				t.Errorf("%v: make/unmake gives %s", m, p.FEN4())
			}
		}
	})
	t.Run("resumes on its own pawn line", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 vrP:e3 bK:a4 yK:e14 gK:n4")
		if legal(t, g, "e3", "e4") || !legal(t, g, "e3", "e2") {
			t.Fatal("reversed pawn on e3: want e2 only")
		}
		playCross(t, g, "e3", "e2")
		if pc := g.Position().At(vsq(t, "e2")); pc != rules.MakePiece(rules.Red, rules.Pawn) {
			t.Errorf("e2 holds %v, want a forward pawn again", pc)
		}
		playCross(t, g, "a4", "a5")
		playCross(t, g, "e14", "d14")
		playCross(t, g, "n4", "n5")
		if !legal(t, g, "e2", "e3") || legal(t, g, "e2", "e1") {
			t.Error("pawn back on e2: want e3")
		}
	})
	t.Run("captures and checks the reverse way", func(t *testing.T) {
		// Reversed on e10: takes d9 and f9, not d11 or f11.
		g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 vrP:e10 bN:d9 bN:f11 gN:d11 gN:f9 bK:a4 yK:e14 gK:n4")
		if !legal(t, g, "e10", "d9") || !legal(t, g, "e10", "f9") || legal(t, g, "e10", "d11") || legal(t, g, "e10", "f11") {
			t.Errorf("reversed pawn e10 moves %v", g.LegalMoves())
		}
		g = crossGame(t, v, "R", "0,0,0,0", "rK:h1 rP:e10 bN:d9 bN:f11 gN:d11 gN:f9 bK:a4 yK:e14 gK:n4")
		if legal(t, g, "e10", "d9") || legal(t, g, "e10", "f9") || !legal(t, g, "e10", "d11") || !legal(t, g, "e10", "f11") {
			t.Errorf("forward pawn e10 moves %v", g.LegalMoves())
		}
		g = crossGame(t, v, "B", "0,0,0,0", "rK:h1 vrP:e10 bK:d9 yK:e14 gK:n4")
		if !g.Position().InCheck(rules.Blue) {
			t.Error("the reversed pawn on e10 does not check the king on d9")
		}
		g = crossGame(t, v, "B", "0,0,0,0", "rK:h1 rP:e10 bK:d9 yK:e14 gK:n4")
		if g.Position().InCheck(rules.Blue) {
			t.Error("a forward pawn on e10 checks the king on d9")
		}
	})
}

// "As the partners sit opposite to each other, it sometimes happens that
// their Pawns meet on the board. In every such case, they are allowed to
// leap over the friendly Pawn, and place themselves in their move on the
// square beyond; always preserving their forward or backward progression,
// as the case may be; but never leaving their file, save to take a Piece
// or another Pawn."
func TestVerneyLeap(t *testing.T) {
	v := verney(t)
	for _, tc := range []struct {
		name, pieces, from, to string
		ok                     bool
	}{
		{"over the partner's pawn", "rP:e7 yP:e8", "e7", "e9", true},
		{"not over an enemy's pawn", "rP:e7 bP:e8", "e7", "e9", false},
		{"not over its own pawn", "rP:e7 rP:e8", "e7", "e9", false},
		{"not onto an occupied square", "rP:e7 yP:e8 gN:e9", "e7", "e9", false},
		{"not over a partner's piece", "rP:e7 yN:e8", "e7", "e9", false},
		{"a reversed pawn leaps backwards", "vrP:e9 yP:e8", "e9", "e7", true},
		{"a reversed pawn does not leap forwards", "vrP:e7 yP:e8", "e7", "e9", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 bK:a4 yK:k14 gK:n4 "+tc.pieces)
			if got := legal(t, g, tc.from, tc.to); got != tc.ok {
				t.Errorf("%s-%s legal = %v, want %v", tc.from, tc.to, got, tc.ok)
			}
		})
	}
	// A leap onto the partner's back line turns the pawn round.
	g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 bK:a4 yK:k14 gK:n4 rP:e12 yP:e13")
	playCross(t, g, "e12", "e14")
	if !g.Position().At(vsq(t, "e14")).Reversed() {
		t.Error("pawn leapt to e14 is not reversed")
	}
}

// "Should a player be checkmated, his pieces are not removed from the
// board … the player who is in checkmate cannot move, and therefore misses
// his turn; but while his pieces are inert and useless, both for attack
// and defence, they are not liable to capture by the adversaries … thus
// should the squares be open, the adversaries' Pieces and Pawns may move
// between them, going into their check or range with impunity."
//
// "A partner may at any time, if he can, release from checkmate the party
// who is mated, by either capturing the Pieces of his adversaries which
// hold the checkmate … The Pieces of the partner thus released regain
// life, resume their functions, and he moves again in his regular turn."
func TestVerneyMateAndPartnerRelease(t *testing.T) {
	v := verney(t)
	// The Red seat's rook k11-a11 mates the Blue seat's king on a4 (the
	// rook on b10 holds b4 and b5): judged at once.
	g := crossGame(t, v, "R", "0,0,0,0", "rK:i2 rR:k11 rR:b10 rP:e5 bK:a4 bB:g3 bP:f6 yK:g14 gK:n7 gQ:n11")
	rec := playCross(t, g, "k11", "a11")
	if !strings.HasSuffix(rec.Text, "#") || len(rec.Out) != 1 || rec.Out[0] != rules.Blue {
		t.Errorf("Rk11-a11: %s, out %v; want a mate of Blue", rec.Text, rec.Out)
	}
	if g.Status(rules.Blue) != rules.Mated || !g.Position().Eliminated(rules.Blue) {
		t.Fatalf("Blue is %s", g.Status(rules.Blue))
	}
	if _, over := g.Result(); over {
		t.Fatal("the game ended with one player mated")
	}
	// "misses his turn"
	if g.Turn() != rules.Yellow {
		t.Errorf("turn %s, want Yellow (Blue misses his turn)", g.Turn())
	}
	// The mated army stays on the board.
	for _, sq := range []string{"a4", "g3", "f6"} {
		if pc := g.Position().At(vsq(t, sq)); !pc.IsPiece() || pc.Seat() != rules.Blue || pc.Dead() {
			t.Errorf("%s holds %v, want Blue's piece, still on the board", sq, pc)
		}
	}
	// FEN4 keeps the mate: the seat is marked eliminated and reads back so.
	fen := g.Position().FEN4()
	if !strings.HasPrefix(fen, "Y-0,1,0,0-") {
		t.Errorf("FEN4 %s", fen)
	}
	if g2, err := rules.NewGame(v, fen); err != nil || g2.Status(rules.Blue) != rules.Mated {
		t.Errorf("FEN4 read back: %v, Blue %v", err, g2.Status(rules.Blue))
	}
	playCross(t, g, "g14", "f14")
	// Green, the partner, takes the rook that holds the mate.
	playCross(t, g, "n11", "a11")
	if g.Status(rules.Blue) != rules.Playing || g.Position().Eliminated(rules.Blue) {
		t.Fatalf("after Qn11xa11 Blue is %s", g.Status(rules.Blue))
	}
	if g.Turn() != rules.Red {
		t.Errorf("turn %s, want Red", g.Turn())
	}
	playCross(t, g, "i2", "j2")
	if g.Turn() != rules.Blue {
		t.Errorf("turn %s after Red, want Blue in his regular turn", g.Turn())
	}
	playCross(t, g, "a4", "a5")
	// Takeback all the way restores the mate and the release step by step.
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	g.Takeback()
	g.Takeback()
	if g.Status(rules.Blue) != rules.Mated || g.Turn() != rules.Green {
		t.Errorf("after takebacks Blue %s, turn %s", g.Status(rules.Blue), g.Turn())
	}
}

func TestVerneyInertArmy(t *testing.T) {
	v := verney(t)
	// Blue (out: mated) on a4, held by the rooks a11 and b10.
	const mate = "rK:i2 rR:a11 rR:b10 rP:e5 bK:a4 bB:g3 bP:f6 yK:g14 gK:n7"
	g := crossGame(t, v, "R", "0,1,0,0", mate)
	if g.Status(rules.Blue) != rules.Mated {
		t.Fatalf("Blue %s", g.Status(rules.Blue))
	}
	// "not liable to capture by the adversaries"
	if legal(t, g, "e5", "f6") {
		t.Error("e5xf6 captures an inert pawn")
	}
	if legal(t, g, "b10", "b4") == false {
		t.Error("Rb10-b4 (beside the inert king) refused")
	}
	// "going into their check or range with impunity": h2 is on the inert
	// bishop's diagonal g3-h2.
	if !legal(t, g, "i2", "h2") {
		t.Error("Ki2-h2 into the inert bishop's range refused")
	}
	// With Blue playing (no rook on a11, no mate) the bishop guards h2.
	g = crossGame(t, v, "R", "0,0,0,0", "rK:i2 rR:b10 rP:e5 bK:a4 bB:g3 bP:f6 yK:g14 gK:n7")
	if legal(t, g, "i2", "h2") {
		t.Error("Ki2-h2 into a live bishop's range allowed")
	}
	if !legal(t, g, "e5", "f6") {
		t.Error("e5xf6 refused while Blue plays")
	}
}

// "An opponent having checkmated a player, can at any time release the
// checkmated adversary, should he consider it desirable to do so, but he
// cannot in the same move by which he releases the mate, take any of the
// Pieces or Pawns of the adversary so released."
func TestVerneyOpponentRelease(t *testing.T) {
	v := verney(t)
	// Blue mated on a4 by the rook a9 (b10 holds b4, b5); Blue's knight d9.
	const base = "rR:a9 rR:b10 bK:a4 bN:d9 yK:g14 gK:n7 "
	g := crossGame(t, v, "R", "0,1,0,0", base+"rK:h1")
	if legal(t, g, "a9", "d9") {
		t.Error("Ra9xd9 releases Blue and takes his knight in the same move")
	}
	if legal(t, g, "a9", "a10") != true {
		t.Error("Ra9-a10 (the mate stands) refused")
	}
	rec := playCross(t, g, "a9", "c9")
	if g.Status(rules.Blue) != rules.Playing || len(rec.Out) != 0 {
		t.Fatalf("after Ra9-c9 Blue is %s", g.Status(rules.Blue))
	}
	if g.Turn() != rules.Blue {
		t.Errorf("turn %s, want Blue (his regular turn follows Red's)", g.Turn())
	}
	// The released knight regains life: a release that leaves the
	// releaser's own king (f8) in the knight's range is refused, as any move
	// that uncovers one's king.
	g = crossGame(t, v, "R", "0,1,0,0", base+"rK:f8")
	if legal(t, g, "a9", "c9") {
		t.Error("Ra9-c9 releases a knight that checks the king on f8")
	}
	if !legal(t, g, "a9", "a10") {
		t.Error("Ra9-a10 (the knight stays inert) refused")
	}
}

// "The game is only won when two of the partners are checkmated. Should
// one be checkmated, and the other be stalemated, the game is drawn, as if
// both were stalemated."
func TestVerneyEnd(t *testing.T) {
	v := verney(t)
	// Green mated on n4 by the Yellow seat's rooks n11 and m10.
	const greenMated = "yR:n11 yR:m10 gK:n4 yK:g14 "
	t.Run("both partners mated: won", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,1", greenMated+"rK:i2 rR:k11 rR:b10 bK:a4")
		rec := playCross(t, g, "k11", "a11")
		res, over := g.Result()
		if !over || res.Reason != "checkmate" || !equalSeats(res.Winners, []rules.Seat{rules.Red, rules.Yellow}) {
			t.Fatalf("result %+v over %v after %s", res, over, rec.Text)
		}
		if res.Tag(rules.Teams, [4]string{}) != "1-0" {
			t.Errorf("tag %s", res.Tag(rules.Teams, [4]string{}))
		}
	})
	// Blue's king a4, not in check: a5 is held by the bishop c7, b4 and b5
	// by the rook b10.
	const blueStale = "rB:c7 rR:b10 bK:a4 rK:h1 "
	t.Run("one mated, the other stalemated: drawn", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,1", greenMated+blueStale)
		playCross(t, g, "h1", "i1")
		res, over := g.Result()
		if !over || res.Reason != "stalemate" || !res.Draw() {
			t.Fatalf("result %+v over %v", res, over)
		}
	})
	// "The game is only won when two of the partners are checkmated.
	// Should one be checkmated, and the other be stalemated, the game is
	// drawn, as if both were stalemated." The rule speaks of partnerships:
	// a stalemate decides nothing while the partner still plays; the
	// stalemated player misses his turn (as the mated one "misses his
	// turn") until a move frees him. The endgame advice ("making it a
	// drawn game … by securing a stalemate for one of the players") is the
	// weaker side's hope once one of its players is mated — the rule's
	// first case.
	t.Run("stalemated while the partner can move: passes", func(t *testing.T) {
		g := crossGame(t, v, "R", "0,0,0,0", blueStale+"gK:n7 yK:g14")
		playCross(t, g, "h1", "i1")
		if _, over := g.Result(); over {
			t.Fatal("the game ended")
		}
		if g.Turn() != rules.Yellow || g.Status(rules.Blue) != rules.Playing {
			t.Errorf("turn %s, Blue %s; want Blue to pass", g.Turn(), g.Status(rules.Blue))
		}
		playCross(t, g, "g14", "f14")
		playCross(t, g, "n7", "n6")
		playCross(t, g, "b10", "d10") // frees b4 and b5
		if g.Turn() != rules.Blue {
			t.Errorf("turn %s, want Blue again once he can move", g.Turn())
		}
	})
	t.Run("both partners stalemated: drawn", func(t *testing.T) {
		// Green's king n4: m4, m5 held by the rook m10, n5 by the bishop l7.
		g := crossGame(t, v, "R", "0,0,0,0", blueStale+"gK:n4 yR:m10 yB:l7 yK:g14")
		playCross(t, g, "h1", "i1")
		res, over := g.Result()
		if !over || res.Reason != "stalemate" || !res.Draw() {
			t.Fatalf("result %+v over %v", res, over)
		}
	})
}

// A game with a reversal, a leap, a mate and a release writes to PGN4 and
// replays to the same position; a start position with a reversed pawn
// travels in the StartFen4 tag.
func TestVerneyPGN4RoundTrip(t *testing.T) {
	v := verney(t)
	cat := catalog(t)
	lookup := func(name, start string) (*rules.Variant, error) {
		d, err := Find(cat, name)
		if err != nil {
			return nil, err
		}
		return d.Variant(start)
	}
	g := crossGame(t, v, "R", "0,0,0,0", "rK:i2 rR:k11 rR:b10 bK:a4 gK:n7 gQ:n10 yK:g14 rP:h13 vrP:e9 yP:e8 yP:f9 rP:f8")
	for _, mv := range [][2]string{
		{"h13", "h14"}, {"a4", "a5"}, {"f9", "f7"}, {"n7", "n6"}, // reversal, leap
		{"e9", "e7"}, {"a5", "a4"}, {"g14", "f14"}, {"n6", "n7"}, // a reversed pawn's leap
		{"k11", "a11"}, {"f14", "g14"}, {"n10", "n9"}, // mate; Blue misses his turn
		{"a11", "a9"}, {"g14", "f14"}, {"n9", "n8"},
		{"a9", "c9"}, {"a4", "a5"}, // released by the opponent; Blue moves in his turn
	} {
		playCross(t, g, mv[0], mv[1])
	}
	out, err := pgn4.FromGame(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, "vrP") || !strings.Contains(text, "#") {
		t.Errorf("PGN4 lacks the reversed pawn or the mate:\n%s", text)
	}
	pg, _, err := pgn4.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := pgn4.ReplayWith(pg, "", lookup)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if r.Position().FEN4() != g.Position().FEN4() {
		t.Errorf("replayed %s, want %s", r.Position().FEN4(), g.Position().FEN4())
	}
}

// Edges of the rules as boardd reads them: kings are never captured ("in
// every way similar to those of the ordinary game"); a check the partner
// already stands in does not forbid other moves, only opening a new one
// does ("which move would open his partner's King to a check"); only
// pawns carry the reversal mark.
func TestVerneyEdges(t *testing.T) {
	v := verney(t)
	// Blue's king a8 in check from the Red seat's rook (a Yellow move
	// discovered it, say); Blue can still move, so it is no mate, and Red
	// may not take the king.
	g := crossGame(t, v, "R", "0,0,0,0", "rK:h1 rR:a11 bK:a8 bP:b4 yK:g14 gK:n7")
	if g.Status(rules.Blue) != rules.Playing || !g.Position().InCheck(rules.Blue) {
		t.Fatalf("Blue %s", g.Status(rules.Blue))
	}
	if legal(t, g, "a11", "a8") {
		t.Error("Ra11xKa8 captures a king")
	}
	// The partner's king e8 stands in check from Green's rook a8: the Red
	// seat's other moves stay legal; Re6-d6 would open the e-file to Blue's
	// rook e3 as well and stays illegal.
	g = crossGame(t, v, "R", "0,0,0,0", "rK:h1 rR:e6 yK:e8 bR:e3 gR:a8 bK:a4 gK:n4")
	if !g.Position().InCheck(rules.Yellow) {
		t.Fatal("the partner's king is not in check")
	}
	if !legal(t, g, "h1", "h2") || !legal(t, g, "e6", "e5") {
		t.Error("moves that open nothing refused while the partner is in check")
	}
	if legal(t, g, "e6", "d6") {
		t.Error("Re6-d6 opens a second check on the partner's king")
	}
	if _, err := rules.ParseFEN4(v, strings.Replace(v.Start, "yQ", "vyQ", 1)); err == nil {
		t.Error("FEN4 with a reversed queen (vyQ) accepted")
	}
}

// "A partner may at any time, if he can, release from checkmate the party
// who is mated, by either capturing the Pieces of his adversaries which
// hold the checkmate, or by forcing these Pieces to move in such a way as
// to release his partner from that predicament. The Pieces of the partner
// thus released regain life, resume their functions, and he moves again
// in his regular turn." and "An opponent having checkmated a player, can
// at any time release the checkmated adversary".
//
// The pieces that hold a checkmate are the checking piece and those that
// guard the king's flight squares: taking or moving either lifts the mate
// even while the check stands, and the released player answers the check
// in his regular turn.
func TestVerneyReleaseFromCheckmate(t *testing.T) {
	v := verney(t)
	// The Red seat's Rk11-a11 mates the Blue seat's king on a4: the rook
	// a11 gives check along the a-file, the rook b10 holds b4 and b5.
	const mate = "rK:i2 rR:k11 rR:b10 rP:e5 bK:a4 bB:g3 yK:g14 gK:n7 "
	tests := []struct {
		name   string
		extra  string      // more pieces
		moves  [][2]string // after the mate and Yellow's Kg14-f14
		freed  bool        // Blue's mate no longer holds
		answer [2]string   // Blue's move in his regular turn, when freed
	}{
		{"the partner takes the checking rook", "gQ:n11", [][2]string{{"n11", "a11"}}, true, [2]string{"a4", "a5"}},
		{"the partner takes the rook that guards the flight squares", "gQ:n10", [][2]string{{"n10", "b10"}}, true, [2]string{"a4", "b4"}},
		{"the partner interposes", "gR:n9", [][2]string{{"n9", "a9"}}, true, [2]string{"a4", "a5"}},
		{"an opponent moves the guard away", "gQ:n10", [][2]string{{"n7", "n6"}, {"b10", "c10"}}, true, [2]string{"a4", "b5"}},
		{"a move that leaves the mate standing", "gQ:n10", [][2]string{{"n10", "n9"}}, false, [2]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := crossGame(t, v, "R", "0,0,0,0", mate+tt.extra)
			playCross(t, g, "k11", "a11")
			if g.Status(rules.Blue) != rules.Mated {
				t.Fatalf("Rk11-a11: Blue is %s, want mated", g.Status(rules.Blue))
			}
			playCross(t, g, "g14", "f14")
			for _, mv := range tt.moves {
				playCross(t, g, mv[0], mv[1])
			}
			if freed := g.Status(rules.Blue) == rules.Playing; freed != tt.freed {
				t.Fatalf("after %v Blue is %s (%s to move)", tt.moves, g.Status(rules.Blue), g.Turn())
			}
			if !tt.freed {
				return
			}
			// "he moves again in his regular turn": after Red's.
			if g.Turn() == rules.Red {
				playCross(t, g, "i2", "h1")
			}
			if g.Turn() != rules.Blue {
				t.Fatalf("turn %s, want Blue in his regular turn", g.Turn())
			}
			playCross(t, g, tt.answer[0], tt.answer[1])
			if g.Position().InCheck(rules.Blue) {
				t.Errorf("%s-%s left Blue in check", tt.answer[0], tt.answer[1])
			}
			// Takeback brings the mate back.
			for g.Status(rules.Blue) != rules.Mated {
				if err := g.Takeback(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// "he cannot in the same move by which he releases the mate, take any of
// the Pieces or Pawns of the adversary so released", and a released army
// "regain[s] life": a move that frees a flight square releases the mate as
// surely as one that lifts the check, so it is refused when the released
// pieces would attack the mover's king.
func TestVerneyReleaseByAFlightSquare(t *testing.T) {
	v := verney(t)
	// Blue mated on a4 by the rook a9 (b10 holds b4, b5); Blue's knight d9
	// would attack f8 if alive.
	const base = "rR:a9 rR:b10 bK:a4 bN:d9 yK:g14 gK:n7 "
	g := crossGame(t, v, "R", "0,1,0,0", base+"rK:f8")
	if legal(t, g, "b10", "c10") {
		t.Error("Rb10-c10 frees b4 and b5, releasing Blue, whose knight d9 then attacks the king on f8")
	}
	if !legal(t, g, "b10", "b9") {
		t.Error("Rb10-b9 (the mate stands) refused")
	}
	why := ""
	for _, m := range g.Position().PseudoLegal(nil) {
		if err := g.Position().Explain(m); err != nil && m.From() == vsq(t, "b10") && m.To() == vsq(t, "c10") {
			why = err.Error()
		}
	}
	if !strings.Contains(why, "releases Blue from checkmate") || !strings.Contains(why, "f8") {
		t.Errorf("refusal of Rb10-c10: %q", why)
	}
	// With the king elsewhere the same move releases Blue.
	g = crossGame(t, v, "R", "0,1,0,0", base+"rK:h1")
	playCross(t, g, "b10", "c10")
	if g.Status(rules.Blue) != rules.Playing || g.Turn() != rules.Blue {
		t.Errorf("after Rb10-c10 Blue is %s, %s to move", g.Status(rules.Blue), g.Turn())
	}
}
