package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"boardd/rules"
)

// TestKingZone: in Teams a king is charged for enemy pieces that attack
// the squares around it through empty squares, more for two than twice
// one, and not for pieces that are blocked, far off a line to it, or its
// partner's.
func TestKingZone(t *testing.T) {
	base := "rK:h1 rP:g2 rP:h2 rP:i2 yK:h14 bK:a7 gK:n8"
	cases := []struct {
		name, both, extra string
		worse             bool // Red's king stands worse with extra than without
	}{
		{"enemy queen on an open diagonal", "", "bQ:d5", true},
		{"enemy rook on the file next to the king", "", "gR:i9", true},
		{"enemy knight two steps away", "", "bN:j4", true},
		{"enemy queen blocked by a knight", "rN:h3", "bQ:h7", false},
		{"enemy rook two files off", "", "gR:k9", false},
		{"enemy queen off every line", "", "bQ:d12", false},
		{"partner's queen", "", "yQ:d5", false},
	}
	red := func(pieces string) int {
		g := placement(t, "teams", rules.Red, pieces)
		s := &searcher{b: newBoard(g.Position())}
		s.root = rules.Red
		s.setTeams(controllers(g))
		s.kingZone = true
		s.scan()
		return s.positional[rules.Red]
	}
	plain := red(base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plain := red(base + " " + c.both)
			got := red(base + " " + c.both + " " + c.extra)
			if c.worse && got >= plain {
				t.Errorf("Red's king %d with %s, %d without: want worse", got, c.extra, plain)
			}
			if !c.worse && got != plain {
				t.Errorf("Red's king %d with %s, %d without: want the same", got, c.extra, plain)
			}
		})
	}
	one := red(base + " bQ:d5")
	two := red(base + " bQ:d5 gR:i9")
	rook := red(base + " gR:j9")
	if plain-two <= (plain-one)+(plain-rook) {
		t.Errorf("queen and rook together cost %d, alone %d and %d: want more than the sum", plain-two, plain-one, plain-rook)
	}
}

// TestShieldPawns counts the pawns in front of each seat's king, one or
// two steps forward in its own pawn direction.
func TestShieldPawns(t *testing.T) {
	cases := []struct {
		pieces string
		seat   rules.Seat
		want   int
	}{
		{"rK:h1 rP:g2 rP:h2 rP:i2", rules.Red, 3},
		{"rK:h1 rP:g2 rP:h3 rP:i4", rules.Red, 2},
		{"rK:h1 yP:g2 bP:h2", rules.Red, 0},
		{"bK:a7 bP:b6 bP:c7 bP:b8", rules.Blue, 3},
		{"yK:h14 yP:g13 yP:i13", rules.Yellow, 2},
		{"gK:n8 gP:m7 gP:m8 gP:l9", rules.Green, 3},
	}
	for _, c := range cases {
		pieces := c.pieces
		for _, k := range []string{"rK:", "bK:", "yK:", "gK:"} {
			if !strings.Contains(pieces, k) {
				pieces += " " + map[string]string{"rK:": "rK:d1", "bK:": "bK:a4", "yK:": "yK:k14", "gK:": "gK:n11"}[k]
			}
		}
		g := placement(t, "teams", rules.Red, pieces)
		s := &searcher{b: newBoard(g.Position())}
		k := g.Position().KingSquare(c.seat)
		if got := s.shieldPawns(k, c.seat); got != c.want {
			t.Errorf("%s: %v's shield %d, want %d", c.pieces, c.seat, got, c.want)
		}
	}
}

// TestMoveTimeIsALimit: with a fixed time per move a process younger than
// the move (one started for it) allows its first move that time less its
// age and a margin to print and exit; a long-running process, and every
// later move, gets the whole time.
func TestMoveTimeIsALimit(t *testing.T) {
	g := placement(t, "teams", rules.Red, "rK:h1 rR:d4 bK:a7 yK:h14 gK:n8")
	const mt = 10 * time.Second // the search stops at depth 2 long before
	saved := processStart
	defer func() { processStart = saved }()
	for _, c := range []struct {
		name  string
		age   time.Duration
		young bool
	}{
		{"long-running process", time.Hour, false},
		{"process started just now", 50 * time.Millisecond, true},
		{"process slow to start on a loaded machine", 8 * time.Second, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			processStart = time.Now().Add(-c.age)
			e := New(Options{Level: 5, MoveTime: mt, Depth: 2})
			first, err := e.Think(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			second, err := e.Think(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if second.Allowed != mt {
				t.Errorf("second move allowed %s, want %s", second.Allowed, mt)
			}
			if want := mt - exitMargin - min(c.age, mt*3/4); c.young && first.Allowed > want {
				t.Errorf("young process: first move allowed %s, want at most %s", first.Allowed, want)
			}
			if !c.young && first.Allowed != mt {
				t.Errorf("first move allowed %s, want %s", first.Allowed, mt)
			}
		})
	}
}

// TestNoTimeStillSearches: with almost no time the bot still finishes its
// first iteration, so its move is a searched one, never a random one: it
// takes the hanging queen.
func TestNoTimeStillSearches(t *testing.T) {
	g := placement(t, "teams", rules.Red, "rK:h1 rR:d4 bQ:d10 bK:a7 yK:h14 gK:n8")
	r, err := New(Options{Level: 5, MoveTime: time.Nanosecond}).Think(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Depth < 1 || r.Move.String() != "d4-d10" {
		t.Errorf("played %s at depth %d; want d4-d10 from a finished first iteration", r.Move, r.Depth)
	}
}
