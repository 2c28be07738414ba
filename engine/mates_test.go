package engine

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"boardd/rules"
)

// replayText plays the moves of a testdata file (PGN4 move tokens, lines
// starting with # are comments) from the start array of variant name.
func replayText(t *testing.T, name, file string) *rules.Game {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(loadVariant(t, name), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, tok := range strings.Fields(line) {
			played := false
			for _, m := range g.LegalMoves() {
				if MoveText(g, m) == tok {
					if _, err := g.Play(m); err != nil {
						t.Fatalf("%s: %v", tok, err)
					}
					played = true
					break
				}
			}
			if !played {
				t.Fatalf("%s: not a legal move after %d turns", tok, len(g.Records()))
			}
		}
	}
	return g
}

// TestStoppedOnMatedMove: a search stopped (here by its node limit) in
// the iteration that found its best move mated, before it could search
// another, does not play the mated move. In the game of the testdata
// Yellow played it and was mated four turns later.
func TestStoppedOnMatedMove(t *testing.T) {
	g := replayText(t, "ffa", "testdata/ffa-mated-best-move.txt")
	if g.Turn() != rules.Yellow {
		t.Fatalf("%s to move, want Yellow", g.Turn())
	}
	r, err := New(Options{Level: 5, Seed: 27, HashMB: 8, Nodes: 100000, NoTimeLimit: true}).Think(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Text == "e12xQd11" || r.Mated() {
		t.Errorf("played %s (score %d, depth %d): the move its search found mated", r.Text, r.Score, r.Depth)
	}
	t.Logf("played %s, score %d, depth %d", r.Text, r.Score, r.Depth)
}

// TestSearchPastAMate: in FFA a mate of one opponent does not end the
// search; the next seat still replies. Blue (a level 5 bot in a game
// against level 4, 2026-11-28, Red out) mated Green with Ql11-m10+# and
// Yellow mated Blue at once with Qf9-h11+#, which took first place from
// Blue (64 points against Yellow's 74).
func TestSearchPastAMate(t *testing.T) {
	const fen = "B-1,0,0,0-0,0,0,0-0,0,0,0-24,44,54,13-1-x,x,x,8,x,x,x/x,x,x,1,yK,6,x,x,x/x,x,x,1,yN,6,x,x,x/bK,10,bQ,2/bR,bP,7,gP,3,gK/4,drQ,yD,4,gP,3/6,yP,3,drB,3/3,bP,6,gP,3/2,bP,7,gP,3/bN,3,bP,4,drP,4/12,bR,1/x,x,x,drP,drK,5,drD,x,x,x/x,x,x,8,x,x,x/x,x,x,6,yR,1,x,x,x"
	v := loadVariant(t, "ffa")
	for _, depth := range []int{2, 3} {
		g, err := rules.NewGame(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		r, err := New(Options{Level: 5, Depth: depth, NoTimeLimit: true}).Think(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if r.Text == "Ql11-m10+#" {
			t.Errorf("depth %d: played Ql11-m10+# (score %d), which Qf9-h11+# answers with mate", depth, r.Score)
		}
	}
}

// TestMaterIsTheSeatThatMated: a mate the search finds at the mated
// seat's turn is credited to the seat whose men give the check, not to
// the last seat to move (the rules take a seat out at the move that mates
// it: "Checkmate (+20)" for the mater).
func TestMaterIsTheSeatThatMated(t *testing.T) {
	v := loadVariant(t, "ffa")
	// Red's Qm11-m8 mates Green (the rules' own test of the same
	// position); Blue and Yellow then move before Green's turn.
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rQ:m11 rR:m4 bK:a7 yK:f14 gK:n8 gR:j4")
	if err != nil {
		t.Fatal(err)
	}
	e := &searcher{b: newBoard(p)}
	e.root = rules.Red
	e.setTeams([numSeats]Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green})
	for ply, text := range []string{"Qm11-m8+", "Ka7-a6", "Kf14-e14"} {
		var m Move
		for _, c := range e.b.legal(ply) {
			if e.b.p.MoveText(c) == text {
				m = c
			}
		}
		if m == 0 {
			t.Fatalf("%s: not found among %d moves", text, len(e.b.moveBuf[ply]))
		}
		e.doMove(m, ply)
	}
	if got := e.b.turn(); got != rules.Green {
		t.Fatalf("%s to move, want Green", got)
	}
	if n := len(e.b.legal(3)); n != 0 || !e.b.inCheck(rules.Green) {
		t.Fatalf("Green has %d moves; want mated", n)
	}
	if got := e.mater(rules.Green, 3); got != rules.Red {
		t.Errorf("mater %s, want Red (Yellow moved last)", got)
	}
}

// TestAttacks: searcher.attacks against the rules' own check test, for
// every kind of man, each seat's pawn direction and a blocked slider.
func TestAttacks(t *testing.T) {
	v := loadVariant(t, "ffa")
	for _, tc := range []struct {
		pieces   string
		attacker Seat
		want     bool
	}{
		{"gK:h7 rP:g6 rK:h1 bK:a7 yK:g14", rules.Red, true},        // Red's pawns go north
		{"gK:h7 rP:g8 rK:h1 bK:a7 yK:g14", rules.Red, false},       // behind the king
		{"gK:h7 yP:g8 rK:h1 bK:a7 yK:g14", rules.Yellow, true},     // Yellow's go south
		{"gK:h7 bP:g6 rK:h1 bK:a7 yK:g14", rules.Blue, true},       // Blue's go east
		{"gK:h7 bP:i6 rK:h1 bK:a7 yK:g14", rules.Blue, false},      // west of the king
		{"rK:h7 gP:i8 gK:n8 bK:a7 yK:g14", rules.Green, true},      // Green's go west
		{"gK:h7 rN:f6 rK:h1 bK:a7 yK:g14", rules.Red, true},        // knight
		{"gK:h7 rB:d3 rK:h1 bK:a7 yK:g14", rules.Red, true},        // bishop
		{"gK:h7 rB:d3 bP:f5 rK:h1 bK:a7 yK:g14", rules.Red, false}, // blocked
		{"gK:h7 rR:h3 rK:e1 bK:a7 yK:g14", rules.Red, true},        // rook
		{"gK:h7 rQ:l11 rK:h1 bK:a7 yK:g14", rules.Red, true},       // queen
		{"gK:h7 rK:i8 bK:a7 yK:g14", rules.Red, true},              // king
		{"gK:h7 drQ:h3 rK:e1 bK:a7 yK:g14", rules.Red, false},      // a grey queen
	} {
		p, err := rules.ParsePlacement(v, rules.Red, tc.pieces)
		if err != nil {
			t.Fatalf("%s: %v", tc.pieces, err)
		}
		e := &searcher{b: newBoard(p)}
		var victim Seat = rules.Green
		if tc.attacker == rules.Green {
			victim = rules.Red
		}
		k := p.KingSquare(victim)
		if got := e.attacks(tc.attacker, k); got != tc.want {
			t.Errorf("%s: %s attacks %s's king: %v, want %v", tc.pieces, tc.attacker, victim, got, tc.want)
		}
		if rulesSay := p.InCheck(victim); tc.want && !rulesSay {
			t.Errorf("%s: the rules do not see %s in check", tc.pieces, victim)
		}
	}
}

// TestBotsClaimTheWin: chess.com FFA's claim win ("when two remain and
// one leads by more than 20"): with Yellow and Green out and Red 30
// points to Blue's 5, a bot on Red claims the win before it moves; a
// random player plays on.
func TestBotsClaimTheWin(t *testing.T) {
	v := loadVariant(t, "ffa")
	const fen = "R-0,0,1,1-0,0,0,0-0,0,0,0-30,5,0,0-0-x,x,x,4,dyK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/1,bR,12/14/13,dgK/bK,13/14/14/3,rQ,10/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x"
	for _, red := range []string{"bot:2", "random"} {
		var ps [numSeats]Player
		for s, kind := range []string{red, "random", "random", "random"} {
			p, err := NewPlayer(kind, 10*time.Millisecond, uint64(s+1))
			if err != nil {
				t.Fatal(err)
			}
			ps[s] = p
		}
		o, err := PlayGame(context.Background(), v, fen, ps)
		if err != nil {
			t.Fatal(err)
		}
		claimed := o.Result.Reason == "claim win"
		if claimed != (red != "random") {
			t.Errorf("Red %s: the game ended by %q after %d turns", red, o.Result.Reason, o.Turns)
		}
		if n := len(o.Game.Records()); claimed && (n != 0 || o.Winner != red) {
			t.Errorf("Red %s: claimed after %d moves, winner %q", red, n, o.Winner)
		}
	}
}

// TestClaimedInsideTheSearch: where two are left and one leads by more
// than 20 points, the search scores the position as the leader's win
// (the leader claims it); at a lead of 20 or with three left it plays on.
func TestClaimedInsideTheSearch(t *testing.T) {
	v := loadVariant(t, "ffa")
	const board = "-0-x,x,x,4,dyK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/1,bR,12/14/13,dgK/bK,13/14/14/3,rQ,10/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x"
	for _, tc := range []struct {
		head   string
		claims int // +1 Red's win, -1 Blue's, 0 none
	}{
		{"R-0,0,1,1-0,0,0,0-0,0,0,0-30,5,0,0", 1},
		{"R-0,0,1,1-0,0,0,0-0,0,0,0-5,30,0,0", -1},
		{"R-0,0,1,1-0,0,0,0-0,0,0,0-25,5,0,0", 0},
		{"R-0,0,0,1-0,0,0,0-0,0,0,0-30,5,0,0", 0}, // Yellow's grey king: but Yellow still plays
	} {
		p, err := rules.ParseFEN4(v, tc.head+board)
		if err != nil {
			t.Fatal(err)
		}
		e := &searcher{b: newBoard(p)}
		e.root = rules.Red
		e.setTeams([numSeats]Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green})
		got, ok := e.claimed(1)
		want := tc.claims * (mateScore - 1)
		if ok != (tc.claims != 0) || got != want {
			t.Errorf("%s: %d, %v; want %d", tc.head, got, ok, want)
		}
	}
}

// TestManyMoves: a seat with more than 256 legal moves (a dozen queens
// late in an FFA game: a level 5 bot's search once stopped with a panic
// there) is searched like any other.
func TestManyMoves(t *testing.T) {
	g := placement(t, "ffa", rules.Red, "rK:h1 rQ:e5 rQ:f6 rQ:g5 rQ:i5 rQ:j6 rQ:k5 rQ:e4 rQ:k4 rQ:f4 rQ:j4 rQ:g9 rQ:i9 rQ:h10 bK:a7 bP:b6 bP:b7 bP:b8 yK:h14 yP:g13 yP:h13 yP:i13 gK:n8 gP:m7 gP:m8 gP:m9")
	if n := len(g.LegalMoves()); n <= 256 {
		t.Fatalf("%d legal moves, want more than 256", n)
	}
	r, err := New(Options{Level: 5, Depth: 3, NoTimeLimit: true}).Think(context.Background(), g)
	if err != nil || r.Move == 0 {
		t.Fatalf("%v, %v", r, err)
	}
}
