package variants

// Blocking double chess (four-player-chess-essay.txt, "Blocking Double
// Chess"). Seats: the essay's White sits on boardd's Red seat (pieces
// "r"), Red on Green ("g"), Black on Yellow ("y"), Yellow on Blue ("b").

import (
	"math/rand"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/blocking"
	"boardd/rules/pgn4"
	"boardd/rules/square"
)

// The essay's colours on boardd's seats.
const (
	bdWhite  = rules.Red
	bdRed    = rules.Green
	bdBlack  = rules.Yellow
	bdYellow = rules.Blue
)

// bdGame starts a blocking-double game from "rK:h1 …" placements with the
// given seat to move ("R", "G", "Y", "B") and half-move clock.
func bdGame(t *testing.T, turn string, clock int, pieces string) *rules.Game {
	t.Helper()
	g := crossGame(t, variantNamed(t, "blocking-double"), turn, "0,0,0,0", pieces)
	if clock == 0 {
		return g
	}
	fen := g.Position().FEN4()
	parts := strings.SplitN(fen, "-", 7)
	parts[5] = itoa(clock)
	g, err := rules.NewGame(g.Variant(), strings.Join(parts, "-"))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// bdMove finds a move of the seat to move among its pseudo-legal moves
// (an announcement may name a move into check).
func bdMove(t *testing.T, g *rules.Game, from, to string) rules.Move {
	t.Helper()
	f, tt := sqr(t, from), sqr(t, to)
	for _, m := range g.Position().PseudoLegal(nil) {
		if m.From() == f && m.To() == tt && m.Promotion() <= rules.Queen {
			return m
		}
	}
	t.Fatalf("%s-%s is not a move of %s", from, to, g.Turn())
	return 0
}

// "With the board above, the turn again passes counter-clockwise, from
// White to Red, then Black, and finally Yellow."
func TestBlockingTurnOrder(t *testing.T) {
	d, err := Find(catalog(t), "blocking-double")
	if err != nil {
		t.Fatal(err)
	}
	names := d.SeatNames
	g, err := rules.NewGame(variantNamed(t, "blocking-double"), "")
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for i := 0; i < 8; i++ {
		seen = append(seen, names[g.Turn()])
		if _, err := g.Play(g.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := strings.Join(seen, " "), "White Red Black Yellow White Red Black Yellow"; got != want {
		t.Errorf("turns %s, want %s", got, want)
	}
	// Counter-clockwise seen from above: bottom, right, top, left.
	p, _ := rules.NewGame(variantNamed(t, "blocking-double"), "")
	for s, k := range map[rules.Seat]string{bdWhite: "h1", bdRed: "n7", bdBlack: "h14", bdYellow: "a7"} {
		if got := p.Position().KingSquare(s); got.String() != k {
			t.Errorf("%s's king on %s, want %s", names[s], got, k)
		}
	}
}

// The array: "an arrangement of that general type, but with the colors of
// the pieces re-arranged" — kings of players seated opposite on one line,
// "Queen takes her own color" within each partnership (White's and Red's
// queens on white squares, Black's and Yellow's on black squares).
func TestBlockingArray(t *testing.T) {
	p := variantNamed(t, "blocking-double")
	g, _ := rules.NewGame(p, "")
	pos := g.Position()
	white := func(q square.Square) bool { return (q.File()+1+q.Rank()+1)%2 == 0 }
	for _, c := range []struct {
		seat       rules.Seat
		queen      string
		whiteQueen bool
	}{{bdWhite, "g1", true}, {bdRed, "n8", true}, {bdBlack, "g14", false}, {bdYellow, "a8", false}} {
		q := sqr(t, c.queen)
		if pc := pos.At(q); pc.Seat() != c.seat || pc.Kind() != rules.Queen {
			t.Errorf("%s holds %v, want %s's queen", c.queen, pc, c.seat)
		}
		if white(q) != c.whiteQueen {
			t.Errorf("%s's queen on %s: white square %v, want %v", c.seat, c.queen, white(q), c.whiteQueen)
		}
	}
	// The essay's remark on the original array holds under this colouring:
	// "the black Queen and the white King … lie along a diagonal" (a8-h1
	// there: the left seat's queen and the bottom seat's king).
	a8, h1 := sqr(t, "a8"), sqr(t, "h1")
	if a8.Rank()-h1.Rank() != h1.File()-a8.File() {
		t.Error("a8 and h1 are not on one diagonal")
	}
}

// "the White men may only capture Black pieces, and vice-versa, and the
// Red men may only capture Yellow pieces, and vice versa. As well, only
// White may give check to Black, and so on." "To the Black and White
// pieces, the Red and Yellow pieces simply act as blocks to movement".
func TestBlockingCapturesAndChecks(t *testing.T) {
	// White Q e5; a Black knight e9, a Red knight h5, a Yellow knight c5;
	// beyond the Red knight a Black pawn i5 (hidden behind the block).
	g := bdGame(t, "R", 0, "rK:h1 gK:n7 yK:h14 bK:a7 rQ:e5 yN:e9 gN:h5 bN:c5 yP:i5")
	for _, c := range []struct {
		to   string
		want bool
		rule string
	}{
		{"e9", true, "White may capture Black"},
		{"h5", false, "a Red piece is a block, not a capture"},
		{"c5", false, "a Yellow piece is a block"},
		{"i5", false, "nothing passes a block"},
		{"g5", true, "up to the block"},
		{"d5", true, "up to the block"},
		{"b5", false, "beyond the Yellow block"},
	} {
		if got := hasMove(g, "e5", c.to); got != c.want {
			t.Errorf("Qe5-%s: %v, want %v (%s)", c.to, got, c.want, c.rule)
		}
	}
	// Checks: a Red rook on the White king's file gives no check; a Black
	// rook does. Red's king stands attacked by White's queen: no check.
	for _, c := range []struct {
		pieces string
		seat   rules.Seat
		want   bool
	}{
		{"rK:h1 gK:n7 yK:h14 bK:a7 gR:h6 yR:k13 bR:a4", bdWhite, false},
		{"rK:h1 gK:n7 yK:h14 bK:a7 yR:h6 gR:n11 bR:a4", bdWhite, true},
		{"rK:h1 gK:n7 yK:h14 bK:a7 rQ:j7 yR:k13 gR:n11 bR:a4", bdRed, false},
		{"rK:h1 gK:n7 yK:h14 bK:a7 bQ:j7 rR:d2 yR:k13 gR:n11", bdRed, true},
		{"rK:h1 gK:n7 yK:h14 bK:a7 rQ:h6 gN:h10 yR:k13 bR:a4", bdBlack, false}, // blocked by Red's knight
		{"rK:h1 gK:n7 yK:h14 bK:a7 rQ:h6 yR:k13 gR:n11 bR:a4", bdBlack, true},
	} {
		g := bdGame(t, "R", 0, c.pieces)
		if got := g.Position().InCheck(c.seat); got != c.want {
			t.Errorf("%s: %s in check %v, want %v", c.pieces, c.seat, got, c.want)
		}
	}
	// A White king may step next to the Red king or onto squares only Red
	// attacks.
	g = bdGame(t, "R", 0, "rK:h1 gK:n7 yK:h14 bK:a7 gR:g5 yR:k13 bR:a4")
	if !hasMove(g, "h1", "g1") {
		t.Error("White's king may stand on a square Red's rook attacks")
	}
}

// "Also, castling and the double-step first move of the Pawn, as well as
// en passant capture, all work as in normal Chess."
func TestBlockingCastlingDoubleStepEnPassant(t *testing.T) {
	// Castling kingside: Kh1-j1, Rk1-i1. Red's rook attacks i1's file: no
	// matter; Black's rook there forbids it.
	for _, c := range []struct {
		pieces string
		want   bool
	}{
		{"rK:h1 rR:k1 gK:n7 yK:h14 bK:a7 gR:i8", true},
		{"rK:h1 rR:k1 gK:n7 yK:h14 bK:a7 yR:i8", false},
	} {
		fen := "R-0,0,0,0-1,0,0,0-0,0,0,0-0,0,0,0-0-"
		g0 := bdGame(t, "R", 0, c.pieces)
		fen += strings.SplitN(g0.Position().FEN4(), "-", 7)[6]
		g, err := rules.NewGame(g0.Variant(), fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := hasMove(g, "h1", "j1"); got != c.want {
			t.Errorf("%s: O-O %v, want %v", c.pieces, got, c.want)
		}
	}
	// White i2-i4; Red's pawn j4 (moving west) may not take it en passant,
	// Black's pawn h4 may, on Black's next turn, after Red's move.
	g := bdGame(t, "R", 0, "rK:h1 rP:i2 gK:n7 gP:j4 gN:n10 yK:h14 yP:h4 bK:a7")
	playCross(t, g, "i2", "i4")
	if hasMove(g, "j4", "i3") {
		t.Error("Red took White's pawn en passant")
	}
	playCross(t, g, "n10", "l9")
	if !hasMove(g, "h4", "i3") {
		t.Fatal("Black cannot take en passant")
	}
	playCross(t, g, "h4", "i3")
	if pc := g.Position().At(sqr(t, "i4")); pc != rules.NoPiece {
		t.Errorf("i4 holds %v after en passant", pc)
	}
	// Double step blocked by another game's piece.
	g = bdGame(t, "R", 0, "rK:h1 rP:k2 gK:n7 gP:k3 yK:h14 bK:a7")
	if hasMove(g, "k2", "k4") || hasMove(g, "k2", "k3") {
		t.Error("White's pawn passed Red's pawn")
	}
}

// "When one of the two games … reaches a conclusion, whether through
// checkmate, resignation, stalemate, … the pieces of both teams involved
// in that game are removed from the board, the winner as well as the
// loser." The other game goes on.
func TestBlockingCheckmateRemovesBothArmies(t *testing.T) {
	// Black's king h14 boxed in by its pawns; White's rook mates on the
	// 14th rank. Red moves in between and cannot help (Red's partner is
	// Black, but Red's pieces are far away).
	g := bdGame(t, "R", 0, "rK:h1 rR:e2 gK:n7 gR:n11 yK:h14 yP:g13 yP:h13 yP:i13 bK:a7 bR:a4")
	playCross(t, g, "e2", "e14")
	if _, ok := g.Result(); ok {
		t.Fatal("over too early")
	}
	rec := playCross(t, g, "n11", "m11") // Red's move; Black to move, mated
	if !strings.HasSuffix(rec.Text, "#") {
		t.Errorf("the move before the mated player's turn is %s, want a #", rec.Text)
	}
	if st := g.Status(bdBlack); st != rules.Mated {
		t.Errorf("Black is %v", st)
	}
	if st := g.Status(bdWhite); st != rules.Finished {
		t.Errorf("White is %v", st)
	}
	p := g.Position()
	for _, q := range []string{"h1", "e14", "h14", "g13"} {
		if pc := p.At(sqr(t, q)); pc != rules.NoPiece {
			t.Errorf("%s still holds %v", q, pc)
		}
	}
	if g.Turn() != bdYellow {
		t.Errorf("turn %s, want Yellow (White and Black are gone)", g.Turn())
	}
	if res := blockingOf(g).GameResults(); len(res) != 1 || res[0].Winner != bdWhite || res[0].Reason != "checkmate" {
		t.Errorf("game results %v", res)
	}
	playCross(t, g, "a4", "a5")
	if g.Turn() != bdRed {
		t.Errorf("after Yellow: %s to move, want Red", g.Turn())
	}
}

// "Each individual player may win, lose, or draw, and a team wins when it
// scores either two wins or a win and a draw. Two draws, or a win and a
// loss, make a draw for the team."
func TestBlockingTeamResult(t *testing.T) {
	// Game 1 White–Black, game 2 Red–Yellow; "resign" loses, "draw" agrees.
	for _, c := range []struct {
		name     string
		act      func(g *rules.Game) error
		winners  []rules.Seat
		tag      string
		endsWith string
	}{
		{"White and Yellow win both", func(g *rules.Game) error {
			if _, err := g.Resign(bdBlack); err != nil {
				return err
			}
			_, err := g.Resign(bdRed)
			return err
		}, []rules.Seat{bdWhite, bdYellow}, "1-0", "Red and Blue win"},
		{"a win and a draw", func(g *rules.Game) error {
			if _, err := g.Resign(bdWhite); err != nil {
				return err
			}
			return g.AgreeDraw([]rules.Seat{bdRed, bdYellow})
		}, []rules.Seat{bdBlack, bdRed}, "0-1", "Yellow and Green win"},
		{"two draws", func(g *rules.Game) error {
			if err := g.AgreeDraw([]rules.Seat{bdWhite, bdBlack}); err != nil {
				return err
			}
			return g.AgreeDraw([]rules.Seat{bdYellow, bdRed})
		}, nil, "1/2-1/2", "the teams draw"},
		{"a win and a loss", func(g *rules.Game) error {
			if _, err := g.Resign(bdBlack); err != nil {
				return err
			}
			_, err := g.Timeout(bdYellow)
			return err
		}, nil, "1/2-1/2", "the teams draw"},
	} {
		g, _ := rules.NewGame(variantNamed(t, "blocking-double"), "")
		g.Play(g.LegalMoves()[0])
		if err := c.act(g); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		res, over := g.Result()
		if !over {
			t.Fatalf("%s: not over", c.name)
		}
		if !equalSeats(res.Winners, c.winners) || res.Tag(blocking.Double, [4]string{}) != c.tag || !strings.HasSuffix(res.Reason, c.endsWith) {
			t.Errorf("%s: winners %v tag %s reason %q; want %v %s …%s", c.name, res.Winners, res.Tag(blocking.Double, [4]string{}), res.Reason, c.winners, c.tag, c.endsWith)
		}
		if len(blockingOf(g).GameResults()) != 2 {
			t.Errorf("%s: %d individual results", c.name, len(blockingOf(g).GameResults()))
		}
	}
	// One game over: the match goes on.
	g, _ := rules.NewGame(variantNamed(t, "blocking-double"), "")
	g.Play(g.LegalMoves()[0])
	if _, err := g.Resign(bdRed); err != nil {
		t.Fatal(err)
	}
	if _, over := g.Result(); over {
		t.Error("the match ended with one game still on")
	}
	if g.Turn() != bdBlack || g.Position().At(sqr(t, "a7")) != rules.NoPiece || g.Position().At(sqr(t, "n7")) != rules.NoPiece {
		t.Errorf("after Red resigns: %s to move, a7 %v, n7 %v", g.Turn(), g.Position().At(sqr(t, "a7")), g.Position().At(sqr(t, "n7")))
	}
	if err := g.AgreeDraw([]rules.Seat{bdWhite, bdRed}); err == nil {
		t.Error("White and Red agreed a draw: they play no game together")
	}
}

// "White and Black play what is basically an ordinary game of Chess …
// with checkmate the object, and stalemate a draw"; draws "through
// repetition of moves, insufficient force, or draw by agreement".
func TestBlockingDraws(t *testing.T) {
	// Stalemate: after Rj2-i2 Black's lone king h14 has no move (Qg12
	// covers g13, g14, h13, i14; the rook i13) and is not in check; Black
	// is not privileged, so the game is drawn at Black's turn.
	g := bdGame(t, "R", 0, "rK:h1 rQ:g12 rR:j2 gK:n7 gR:n11 yK:h14 bK:a7 bR:a4")
	playCross(t, g, "j2", "i2")
	playCross(t, g, "n11", "m11")
	if st := g.Status(bdBlack); st != rules.Stalemated {
		t.Fatalf("Black is %v, want stalemated", st)
	}
	if r := blockingOf(g).GameResults(); len(r) != 1 || r[0].Winner != rules.NoSeat || r[0].Reason != "stalemate" {
		t.Errorf("results %v", r)
	}
	// Insufficient material ("insufficient force"): White's K+N against
	// Black's lone king ends that game; Red and Yellow play on.
	g = bdGame(t, "R", 0, "rK:h1 rN:e2 gK:n7 gR:n11 yK:h14 yB:i10 bK:a7 bR:a4")
	for _, m := range [][2]string{
		{"e2", "d4"}, {"n11", "m11"}, {"i10", "f7"}, {"a4", "b4"},
		{"d4", "f5"}, {"m11", "l11"}, {"f7", "e6"}, {"b4", "c4"},
		{"f5", "e7"}, {"l11", "k11"}, {"e6", "c8"}, {"c4", "d4"},
	} {
		playCross(t, g, m[0], m[1])
	}
	if len(blockingOf(g).GameResults()) != 0 {
		t.Fatalf("ended early: %v", blockingOf(g).GameResults())
	}
	playCross(t, g, "e7", "c8") // White takes the bishop: K+N v K
	if r := blockingOf(g).GameResults(); len(r) != 1 || r[0].Reason != "insufficient material" || r[0].Winner != rules.NoSeat {
		t.Errorf("after Nxc8: %v", r)
	}
	if _, over := g.Result(); over {
		t.Error("the match is over with Red and Yellow still playing")
	}
	// Repetition: the third occurrence of the whole position draws the
	// game of the player whose move made it (here Yellow's, the start
	// position coming back after two rounds of rook shuffles).
	g = bdGame(t, "R", 0, "rK:h1 rR:e2 gK:n7 gR:n11 yK:h14 yR:e13 bK:a7 bR:a4")
	moves := [][2]string{{"e2", "f2"}, {"n11", "m11"}, {"e13", "f13"}, {"a4", "b4"}, {"f2", "e2"}, {"m11", "n11"}, {"f13", "e13"}, {"b4", "a4"}}
	for i := 0; i < 2; i++ {
		for _, m := range moves {
			playCross(t, g, m[0], m[1])
		}
	}
	r := blockingOf(g).GameResults()
	if len(r) != 1 || r[0].Reason != "threefold repetition" || r[0].Seats != [2]rules.Seat{bdYellow, bdRed} {
		t.Errorf("repetition: %v", r)
	}
	// Draw by agreement of the other game ends the match: two draws.
	if err := g.AgreeDraw([]rules.Seat{bdWhite, bdBlack}); err != nil {
		t.Fatal(err)
	}
	if res, over := g.Result(); !over || !res.Draw() {
		t.Errorf("after two draws: %v %v", res, over)
	}
	if err := g.AgreeDraw([]rules.Seat{bdWhite, bdBlack}); err == nil {
		t.Error("agreed a draw after the end")
	}
}

// "The 50-move rule is modified as follows: for the 50 moves involved,
// there must not be a Pawn move or capture by all four players, not
// merely the two involved in the draw."
func TestBlockingFiftyMoves(t *testing.T) {
	const pieces = "rK:h1 rR:e2 gK:n7 gR:n11 gP:m5 yK:h14 yR:e13 bK:a7 bR:a4"
	// The clock 196: 49 quiet moves by each seat. White, Red and Black
	// move once more: the White–Black game is drawn after Black's 50th.
	g := bdGame(t, "R", 196, pieces)
	playCross(t, g, "e2", "f2")
	playCross(t, g, "n11", "m11")
	if len(blockingOf(g).GameResults()) != 0 {
		t.Fatal("drawn after 50 moves of White and 49 of Black")
	}
	playCross(t, g, "e13", "f13")
	if r := blockingOf(g).GameResults(); len(r) != 1 || r[0].Reason != "50-move rule" || r[0].Seats != [2]rules.Seat{bdWhite, bdBlack} {
		t.Fatalf("after Black's 50th quiet move: %v", r)
	}
	playCross(t, g, "a4", "b4")
	if r := blockingOf(g).GameResults(); len(r) != 2 || r[1].Reason != "50-move rule" {
		t.Errorf("after Yellow's 50th quiet move: %v", r)
	}
	// A pawn move by Red, who is not in the White–Black game, resets it.
	g = bdGame(t, "R", 196, pieces)
	playCross(t, g, "e2", "f2")
	playCross(t, g, "m5", "l5")
	playCross(t, g, "e13", "f13")
	if len(blockingOf(g).GameResults()) != 0 {
		t.Errorf("Red's pawn move did not count: %v", blockingOf(g).GameResults())
	}
}

// The privilege: "The Red and Yellow players only, because their move is
// followed by a move on the part of their partners, have the privilege of
// moving their Kings into check, but if their partner fails to relieve
// that check, they can then lose their individual game if their
// individual opponent then captures their King on the next move." "The
// player about to move into check must first announce both his intention,
// and the move he intends to make, before making the move."
//
// The position: Red's king n7 (pawns m7, m8); Yellow's rook e6 sweeps
// rank 6, so Kn7-n6 and Kn7-m6 move into check and Kn7-n8 is the one
// legal king move; Black (Red's partner, moving next) can interpose
// Rk10-k6.
const bdPrivilege = "rK:h1 rR:d2 gK:n7 gP:m7 gP:m8 yK:h14 yR:k10 bK:a7 bR:e6"

func bdPrivilegeGame(t *testing.T) *rules.Game {
	g := bdGame(t, "R", 0, bdPrivilege)
	playCross(t, g, "d2", "d3") // White; Red to move
	return g
}

func TestBlockingMoveIntoCheck(t *testing.T) {
	g := bdPrivilegeGame(t)
	n6 := bdMove(t, g, "n7", "n6")
	// Without an announcement the move is illegal.
	if hasMove(g, "n7", "n6") || !hasMove(g, "n7", "n8") {
		t.Fatal("want Kn7-n8 legal and Kn7-n6 not")
	}
	if _, err := g.Play(n6); err == nil || !strings.Contains(err.Error(), "announce") {
		t.Errorf("unannounced move into check: %v", err)
	}
	// "The Red and Yellow players only": White has no privilege.
	gw := bdGame(t, "R", 0, "rK:h1 rR:d2 gK:n7 gR:n11 yK:h14 yR:e2 bK:a7 bR:a4")
	if err := blockingOf(gw).Announce(bdWhite, bdMove(t, gw, "h1", "h2")); err == nil {
		t.Error("White announced a move into check")
	}
	// A legal move is not announced.
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "n8")); err == nil {
		t.Error("announced a move that is not into check")
	}

	// "I Accept": "the first player must then make the proposed move, and
	// his partner must make a move that relieves the check".
	if err := blockingOf(g).Announce(bdRed, n6); err != nil {
		t.Fatal(err)
	}
	if len(g.LegalMoves()) != 0 {
		t.Error("Red may move while waiting for the reply")
	}
	if err := blockingOf(g).Reply(bdYellow, blocking.ReplyAccept); err == nil {
		t.Error("Yellow (not the partner) replied")
	}
	if s, ok := blockingOf(g).AwaitingReply(); !ok || s != bdBlack {
		t.Errorf("awaiting %v %v, want Black", s, ok)
	}
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAccept); err != nil {
		t.Fatal(err)
	}
	if ms := g.LegalMoves(); len(ms) != 1 || ms[0] != n6 {
		t.Fatalf("after I Accept Red's moves are %v", ms)
	}
	if _, err := g.Play(bdMove(t, g, "n7", "n8")); err == nil {
		t.Error("Red played another move than the accepted one")
	}
	playCross(t, g, "n7", "n6")
	if !g.Position().InCheck(bdRed) {
		t.Fatal("Red's king is not in check on n6")
	}
	if s, ok := blockingOf(g).MustRelieve(); !ok || s != bdRed {
		t.Errorf("MustRelieve %v %v", s, ok)
	}
	if ms := g.LegalMoves(); len(ms) != 1 || ms[0].String() != "k10-k6" {
		t.Errorf("Black's moves %v, want only the relief k10-k6", ms)
	}
	if _, err := g.Play(bdMove(t, g, "h14", "h13")); err == nil {
		t.Error("Black played a move that does not relieve the check")
	}
	playCross(t, g, "k10", "k6")
	if g.Position().InCheck(bdRed) {
		t.Error("still in check after the relief")
	}
	if !hasMove(g, "a7", "a8") {
		t.Error("Yellow's game does not go on normally")
	}
}

// The four replies and their effects, and the king capture when the
// partner fails to relieve.
func TestBlockingReplies(t *testing.T) {
	// "Unwise": "the player about to move must now make a move that will
	// not expose his king to check".
	g := bdPrivilegeGame(t)
	blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "n6"))
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyUnwise); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "m6")); err == nil {
		t.Error("announced again after Unwise")
	}
	if hasMove(g, "n7", "n6") || !hasMove(g, "n7", "n8") {
		t.Error("after Unwise: want the legal moves only")
	}

	// "Another": "the first player may not make the proposed move, but
	// may, if he wishes, optionally propose a different move which would
	// expose his King to check, or simply make a move which does not".
	g = bdPrivilegeGame(t)
	blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "n6"))
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAnother); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "n6")); err == nil {
		t.Error("the refused move was announced again")
	}
	if hasMove(g, "n7", "n6") {
		t.Error("the refused move is playable")
	}
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "m6")); err != nil {
		t.Errorf("a different move into check: %v", err)
	}
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAnother); err != nil {
		t.Fatal(err)
	}
	playCross(t, g, "n7", "n8")

	// "Impossible": "the player replying would not, in fact, be able to
	// make a legal move which would relieve the check". Here he can
	// (Rk10-k6), so the claim is refused.
	g = bdPrivilegeGame(t)
	blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "n6"))
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyImpossible); err == nil {
		t.Error("Impossible accepted though Black can interpose")
	}
	// A knight's check cannot be blocked: Yellow's knight k3 covers m4.
	const knight = "rK:h1 rR:d2 gK:n5 yK:h14 yR:k10 bK:a7 bN:k3 bR:e9"
	g = bdGame(t, "R", 0, knight)
	playCross(t, g, "d2", "d3")
	into := bdMove(t, g, "n5", "m4")
	if err := blockingOf(g).Announce(bdRed, into); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyImpossible); err != nil {
		t.Fatalf("Impossible refused: %v", err)
	}
	if err := blockingOf(g).Announce(bdRed, into); err == nil {
		t.Error("re-announced after Impossible")
	}

	// The partner accepts but cannot relieve: he plays any legal move,
	// Yellow captures Red's king, Red loses, both armies leave the board.
	g = bdGame(t, "R", 0, knight)
	playCross(t, g, "d2", "d3")
	blockingOf(g).Announce(bdRed, bdMove(t, g, "n5", "m4"))
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAccept); err != nil {
		t.Fatal(err)
	}
	playCross(t, g, "n5", "m4")
	playCross(t, g, "k10", "k9") // Black fails to relieve: any legal move
	rec := playCross(t, g, "k3", "m4")
	if !strings.HasSuffix(rec.Text, "#") {
		t.Errorf("king capture written %s", rec.Text)
	}
	if g.Status(bdRed) != rules.KingCaptured || g.Status(bdYellow) != rules.Finished {
		t.Errorf("statuses %v %v", g.Status(bdRed), g.Status(bdYellow))
	}
	if r := blockingOf(g).GameResults(); len(r) != 1 || r[0].Winner != bdYellow || r[0].Reason != "king captured" {
		t.Errorf("results %v", r)
	}
	if pc := g.Position().At(sqr(t, "m4")); pc != rules.NoPiece {
		t.Errorf("m4 holds %v: the winner's army leaves too", pc)
	}
	if g.Turn() != bdWhite {
		t.Errorf("turn %s, want White", g.Turn())
	}
}

// "Using the privilege of moving into check to escape from stalemate is
// permitted, but is optional and not compulsory." And the privilege needs
// the partner to move next.
func TestBlockingStalemateEscape(t *testing.T) {
	// Red's lone king n4: n5 and m5 covered by Yellow's rook e5, m4 by the
	// rook m10; n4 itself is not attacked.
	const pieces = "rK:h1 rR:d2 gK:n4 yK:h14 yR:k12 bK:a7 bR:m10 bR:e5"
	start := func() *rules.Game {
		g := bdGame(t, "R", 0, pieces)
		playCross(t, g, "d2", "d3")
		return g
	}
	g := start()
	if len(g.LegalMoves()) != 0 {
		t.Fatalf("Red has moves %v", g.LegalMoves())
	}
	if _, over := g.Result(); over || g.Status(bdRed) != rules.Playing {
		t.Fatal("the stalemate was decided before Red could choose")
	}
	// Optional: Red claims the stalemate.
	if err := blockingOf(g).ClaimStalemate(bdRed); err != nil {
		t.Fatal(err)
	}
	if r := blockingOf(g).GameResults(); len(r) != 1 || r[0].Reason != "stalemate" || r[0].Winner != rules.NoSeat {
		t.Errorf("results %v", r)
	}
	// Permitted: Red announces Kn4-n5; Black accepts and relieves with
	// Rk12-k5.
	g = start()
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n4", "n5")); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAccept); err != nil {
		t.Fatal(err)
	}
	playCross(t, g, "n4", "n5")
	playCross(t, g, "k12", "k5")
	if g.Position().InCheck(bdRed) || len(blockingOf(g).GameResults()) != 0 {
		t.Errorf("after the escape: check %v, results %v", g.Position().InCheck(bdRed), blockingOf(g).GameResults())
	}
	// After Unwise Red has no move it may make: stalemate.
	g = start()
	blockingOf(g).Announce(bdRed, bdMove(t, g, "n4", "n5"))
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyUnwise); err != nil {
		t.Fatal(err)
	}
	if r := blockingOf(g).GameResults(); len(r) != 1 || r[0].Reason != "stalemate" {
		t.Errorf("after Unwise while stalemated: %v", r)
	}
	// No privilege once the partner's game is over.
	g = start()
	if _, err := g.Resign(bdBlack); err != nil {
		t.Fatal(err)
	}
	if r := blockingOf(g).GameResults(); len(r) != 2 || r[1].Reason != "stalemate" {
		t.Errorf("Red, stalemated with no partner to follow, is not drawn: %v", r)
	}
}

// Takeback restores the protocol's state; PGN4 export and replay carry
// the announcements and replies.
func TestBlockingTakebackAndPGN4(t *testing.T) {
	g := bdPrivilegeGame(t)
	blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "n6"))
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAccept); err != nil {
		t.Fatal(err)
	}
	playCross(t, g, "n7", "n6")
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := blockingOf(g).Announced(); ok {
		t.Error("after takeback the announcement is still pending")
	}
	if len(g.Notes()) != 0 {
		t.Errorf("notes after takeback: %v", g.Notes())
	}
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n7", "n6")); err != nil {
		t.Fatal(err)
	}
	blockingOf(g).Reply(bdBlack, blocking.ReplyAnother)
	playCross(t, g, "n7", "n8")
	playCross(t, g, "k10", "k9")
	if err := g.AgreeDraw([]rules.Seat{bdYellow, bdRed}); err != nil {
		t.Fatal(err)
	}
	out, err := pgn4.FromGame(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"{Green announces n7-n6}", "{Yellow replies Another}", "{Blue and Green agree a draw}"} {
		if !strings.Contains(text, want) {
			t.Errorf("PGN4 lacks %s:\n%s", want, text)
		}
	}
	games, _, err := pgn4.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(name, start string) (*rules.Variant, error) { return variantNamed(t, name), nil }
	r, _, err := pgn4.ReplayWith(games[0], "", lookup)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := strings.Join(noteTexts(r), "|"), strings.Join(noteTexts(g), "|"); a != b {
		t.Errorf("replayed notes %s, want %s", a, b)
	}
	if a, b := r.Position().FEN4(), g.Position().FEN4(); a != b {
		t.Errorf("replay ends at %s, want %s", a, b)
	}
}

func noteTexts(g *rules.Game) []string {
	var out []string
	for _, n := range g.Notes() {
		out = append(out, n.Text)
	}
	return out
}

// perft from the start. Depth 1: White's 8 pawns have a single and a
// double step each (16) and the knights e1 and j1 two moves each (d3, f3;
// i3, k3; c2 and l2 are cut corners): 20. Depth 2: Red has the same 20
// after every White move, except after k2-k4, whose pawn stands on k4,
// the square Red's pawn m4 double-steps to (m4-l4-k4; other games'
// pieces block): 20·20 − 1 = 399. Depth 3: likewise Black has 20 except
// when Red's m11-k11 blocks k13-k11: 399·20 − 20 = 7,960.
func TestBlockingPerftStart(t *testing.T) {
	v := variantNamed(t, "blocking-double")
	g, _ := rules.NewGame(v, "")
	for d, want := range []uint64{1: 20, 2: 399, 3: 7960} {
		if d == 0 {
			continue
		}
		if got := g.Position().Perft(d, true); got != want {
			t.Errorf("perft %d = %d, want %d", d, got, want)
		}
	}
}

// blockingRandomTurn makes the random playouts use the protocol now and
// then: the partner replies to a pending announcement; a stalemated seat
// announces or claims the stalemate; a privileged seat sometimes
// announces a move into check. It reports whether it acted.
func blockingRandomTurn(t *testing.T, g *rules.Game, rng *rand.Rand) bool {
	t.Helper()
	if _, by, accepted, ok := blockingOf(g).Announced(); ok {
		if accepted {
			return false
		}
		partner, _ := blockingOf(g).AwaitingReply()
		_ = by
		replies := []blocking.Reply{blocking.ReplyUnwise, blocking.ReplyAccept, blocking.ReplyAnother, blocking.ReplyImpossible}
		for {
			if err := blockingOf(g).Reply(partner, replies[rng.Intn(len(replies))]); err == nil {
				return true
			}
		}
	}
	legal := g.LegalMoves()
	var into []rules.Move
	for _, m := range g.Position().PseudoLegal(nil) {
		if !containsMove(legal, m) {
			into = append(into, m)
		}
	}
	if len(legal) == 0 || (len(into) > 0 && rng.Intn(25) == 0) {
		for _, i := range rng.Perm(len(into)) {
			if blockingOf(g).Announce(g.Turn(), into[i]) == nil {
				return true
			}
		}
		if len(legal) == 0 {
			if err := blockingOf(g).ClaimStalemate(g.Turn()); err != nil {
				t.Fatal(err)
			}
			return true
		}
	}
	return false
}

func containsMove(ms []rules.Move, m rules.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// A takeback undoes the last turn with the announcement and replies that
// led to it, and nothing before: the announcement and reply that came
// before a claimed stalemate stay with the claim, which the takeback of a
// later turn does not undo.
func TestBlockingTakebackKeepsNotesBeforeAClaim(t *testing.T) {
	const pieces = "rK:h1 rR:d2 gK:n4 yK:h14 yR:k12 bK:a7 bR:m10 bR:e5"
	g := bdGame(t, "R", 0, pieces)
	playCross(t, g, "d2", "d3")
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n4", "n5")); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAnother); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).ClaimStalemate(bdRed); err != nil {
		t.Fatal(err)
	}
	want := g.Notes()
	if len(want) != 3 {
		t.Fatalf("notes %v, want the announcement, the reply and the claim", want)
	}
	if _, err := g.Play(g.LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if got := g.Notes(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("after taking back the next turn: notes %v, want %v", got, want)
	}
}

// The privilege, as the essay words it: "The Red and Yellow players only,
// because their move is followed by a move on the part of their partners,
// have the privilege of moving their Kings into check, but if their
// partner fails to relieve that check, they can then lose their individual
// game"; "Unwise" answers "the check that would be so created",
// "Impossible" "the check that is proposed to be created".
//
// boardd's reading: the announced move must create the check — a king
// move onto an attacked square, or a move that exposes the king — not
// leave standing a check the king is already in. And a privileged player
// in check with no legal move is not checkmated while he can still move
// his king into a check his partner could relieve: the privilege gives
// him that move ("Using the privilege of moving into check to escape from
// stalemate is permitted, but is optional": optional there, and open from
// check too, where the alternative is losing).
func TestBlockingPrivilegeCreatesTheCheck(t *testing.T) {
	// Red (Green seat) in check on n4 from Yellow's (Blue seat) rook n11;
	// Kn4-m4 is legal. A knight move leaves the check standing: refused.
	g := bdGame(t, "G", 0, "rK:h1 rQ:d2 gK:n4 gN:l8 yK:h14 yQ:d13 bK:a7 bR:n11")
	err := blockingOf(g).Announce(bdRed, bdMove(t, g, "l8", "k6"))
	if err == nil || !strings.Contains(err.Error(), "not of staying in one") {
		t.Errorf("announcing Nl8-k6 while in check: %v, want refused (the check is not created by it)", err)
	}
	// A king move into check may be announced.
	if err := blockingOf(g).Announce(bdRed, bdMove(t, g, "n4", "n5")); err != nil {
		t.Errorf("announcing Kn4-n5 (into the rook's file): %v", err)
	}
}

func TestBlockingMateWithAnEscape(t *testing.T) {
	// Red's king n4 in check from Yellow's rook n11, m4 and m5 held by the
	// rook m10: no legal move. Black (Red's partner, moving next) has a
	// rook on e7 that can interpose on rank 7 after Kn4-m5 (m7) or Kn4-n5
	// (n7).
	const mate = "rK:h1 rQ:d2 gK:n4 yK:h14 yQ:d13 bK:a7 bR:n11 bR:m10" // the queens keep White–Black going
	g := bdGame(t, "G", 0, mate+" yR:e7")
	if g.Status(bdRed) != rules.Playing || len(blockingOf(g).GameResults()) != 0 {
		t.Fatalf("Red %v, results %v: want Red still in (he may move into a check Black can relieve)", g.Status(bdRed), blockingOf(g).GameResults())
	}
	if err := blockingOf(g).ClaimStalemate(bdRed); err == nil {
		t.Error("a king in check claimed stalemate")
	}
	m5 := bdMove(t, g, "n4", "m5")
	if err := blockingOf(g).Announce(bdRed, m5); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyAccept); err != nil {
		t.Fatal(err)
	}
	playCross(t, g, "n4", "m5")
	playCross(t, g, "e7", "m7") // Black interposes
	if g.Position().InCheck(bdRed) || g.Status(bdRed) != rules.Playing {
		t.Errorf("after the interposition Red %v, in check %v", g.Status(bdRed), g.Position().InCheck(bdRed))
	}

	// Without Black's rook nothing relieves: checkmate, at once.
	g = bdGame(t, "G", 0, mate)
	if g.Status(bdRed) != rules.Mated {
		t.Errorf("Red %v with no escape, want checkmated", g.Status(bdRed))
	}
	// With the escape refused ("Unwise": "the player about to move must now
	// make a move that will not expose his king to check"; he has none),
	// it is checkmate too.
	g = bdGame(t, "G", 0, mate+" yR:e7")
	if err := blockingOf(g).Announce(bdRed, m5); err != nil {
		t.Fatal(err)
	}
	if err := blockingOf(g).Reply(bdBlack, blocking.ReplyUnwise); err != nil {
		t.Fatal(err)
	}
	if g.Status(bdRed) != rules.Mated {
		t.Errorf("Red %v after Unwise, want checkmated", g.Status(bdRed))
	}
}
