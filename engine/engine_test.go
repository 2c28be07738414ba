package engine

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	"boardd/configs"
	"boardd/rules"
	"boardd/rules/variants"
)

// games sets the games per variant of TestEveryVariantPlays; the long
// run is 1,000: go test ./engine -run EveryVariantPlays -engine.games 1000 -timeout 0
var games = flag.Int("engine.games", 0, "games per variant in TestEveryVariantPlays (the long run: 1000)")

// loadVariant loads a variant of the shipped catalogue by name.
func loadVariant(t testing.TB, name string) *rules.Variant {
	t.Helper()
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	d, err := variants.Find(cat, name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// catalogue returns every shipped variant (configs/variants) with its
// first start array.
func catalogue(t testing.TB) []*rules.Variant {
	t.Helper()
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	var vs []*rules.Variant
	for _, d := range cat {
		v, err := d.Variant("")
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	return vs
}

// placement sets up a game from a piece list (rules.ParsePlacement).
func placement(t testing.TB, name string, turn rules.Seat, pieces string) *rules.Game {
	t.Helper()
	v := loadVariant(t, name)
	p, err := rules.ParsePlacement(v, turn, pieces)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, p.FEN4())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestTactics: positions with one right move, by kind of tactic, each
// found at every depth from the given one, in both partnership and singles
// modes.
func TestTactics(t *testing.T) {
	cases := []struct {
		name, variant string
		turn          rules.Seat
		pieces        string
		depth         int
		want          string // from-to
		mate          bool
	}{
		{"mate in one, rook to the edge", "teams", rules.Red,
			"rK:h1 rR:b11 rR:d10 bK:a4 yK:h14 gK:n8", 2, "d10-a10", true},
		{"Teams: takes a king left in check rather than a queen", "teams", rules.Red,
			"rK:h1 rR:d7 bK:a7 bQ:d10 yK:h14 gK:n8", 1, "d7-a7", true},
		{"takes a hanging queen", "teams", rules.Red,
			"rK:h1 rR:d4 bQ:d10 bK:a7 yK:h14 gK:n8", 1, "d4-d10", false},
		{"does not take a defended pawn with the queen", "teams", rules.Red,
			"rK:h1 rQ:d4 bP:d10 bR:a10 bK:a7 yK:h14 gK:n8 rP:e2", 2, "", false},
		{"FFA: takes the queen worth 9 points", "ffa", rules.Red,
			"rK:h1 rR:d4 bQ:d10 bN:e4 bK:a7 yK:h14 gK:n8", 2, "d4-d10", false},
		{"FFA: mate for 20 points", "ffa", rules.Red,
			"rK:h1 rR:b11 rR:d10 bK:a4 yK:h14 gK:n8", 3, "d10-a10", false},
		{"Stevenson: the king is a piece to capture", "stevenson", rules.Red,
			"", 0, "", false},
	}
	for _, c := range cases {
		if c.pieces == "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			for depth := c.depth; depth <= c.depth+2; depth++ {
				g := placement(t, c.variant, c.turn, c.pieces)
				r, err := New(Options{Level: 5, Depth: depth, NoTimeLimit: true}).Think(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				got := r.Move.From().String() + "-" + r.Move.To().String()
				if c.want != "" && got != c.want {
					t.Fatalf("depth %d: played %s (%s), want %s", depth, got, r, c.want)
				}
				if c.want == "" && got == "d4-d10" {
					t.Fatalf("depth %d: played %s, losing the queen for a pawn", depth, got)
				}
				if c.mate && r.Score < mateScore-maxPly {
					t.Fatalf("depth %d: score %d, want a mate score", depth, r.Score)
				}
			}
		})
	}
}

// TestDeterministic: with a depth limit and a seed the bot plays the same
// game twice, and another seed may differ; every level.
func TestDeterministic(t *testing.T) {
	v := loadVariant(t, "ffa")
	play := func(level int, seed uint64) string {
		var ps [4]Player
		for s := range ps {
			p, err := NewPlayer("bot:"+string(rune('0'+level)), 0, seed+uint64(s))
			if err != nil {
				t.Fatal(err)
			}
			ps[s] = p
		}
		g, _ := rules.NewGame(v, "")
		var moves []string
		for i := 0; i < 12; i++ {
			m, err := ps[g.Turn()].Choose(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, m.String())
			if _, err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		return strings.Join(moves, " ")
	}
	for level := 1; level <= 3; level++ {
		a, b := play(level, 7), play(level, 7)
		if a != b {
			t.Errorf("level %d: same seed, different games:\n%s\n%s", level, a, b)
		}
	}
}

// TestEveryVariantPlays: every shipped variant that fits the cross board
// plays games to the end between bots of low levels and random players
// with no illegal move, no error and no hang. The long run
// (-engine.games 1000) plays 1,000 games of each.
func TestEveryVariantPlays(t *testing.T) {
	n := 2
	if testing.Short() {
		n = 1
	}
	if *games > 0 {
		n = *games
	}
	for _, v := range catalogue(t) {
		t.Run(v.Name, func(t *testing.T) {
			for i := 0; i < n; i++ {
				kinds := []string{"bot:2", "random", "bot:1", "greedy"}
				var ps [4]Player
				for s := range ps {
					k := kinds[(s+i)%4]
					p, err := NewPlayer(k, 0, uint64(i*4+s))
					if err != nil {
						t.Fatal(err)
					}
					ps[s] = p
				}
				o, err := PlayGame(context.Background(), v, "", ps)
				if err != nil {
					t.Fatalf("game %d: %v", i, err)
				}
				if _, over := o.Game.Result(); !over && o.Result.Reason != "move limit" {
					t.Fatalf("game %d stopped before its end", i)
				}
			}
		})
	}
}

// TestStop: a stopped search returns at once with a legal move.
func TestStop(t *testing.T) {
	g := placement(t, "teams", rules.Red, "rK:h1 rQ:d4 rR:e2 bQ:d10 bN:e4 bK:a7 yK:h14 yQ:g12 gK:n8 gR:k7")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	r, err := New(Options{Level: 5, Depth: 40, NoTimeLimit: true}).Think(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Position().IsLegal(r.Move) {
		t.Fatalf("illegal move %v", r.Move)
	}
	if r.Depth >= 40 {
		t.Fatalf("depth %d: the stop was not heard", r.Depth)
	}
}

// TestNoMove: a seat with no move gets ErrNoMove, not a hang.
func TestNoMove(t *testing.T) {
	g := placement(t, "teams", rules.Blue, "rK:h1 rR:b11 rR:a10 bK:a4 yK:h14 gK:n8")
	_, err := New(Options{Level: 3, Depth: 3, NoTimeLimit: true}).Think(context.Background(), g)
	if err != ErrNoMove {
		t.Fatalf("err %v, want ErrNoMove", err)
	}
}

// TestLevelsPerMode: a level's settings come from its mode's column of
// the level table: level 4 searches up to five plies in Teams but two in
// FFA (best-reply search, where a ply is the three opponents' replies).
// A blunder is a move played unsearched (depth 0).
func TestLevelsPerMode(t *testing.T) {
	for _, tc := range []struct {
		variant string
		col     modeLevel
	}{
		{"teams", levels[4].partners},
		{"ffa", levels[4].singles},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			v := loadVariant(t, tc.variant)
			g, err := rules.NewGame(v, "")
			if err != nil {
				t.Fatal(err)
			}
			deepest := 0
			for seed := range uint64(8) {
				r, err := New(Options{Level: 4, Seed: seed, Nodes: 1 << 40, NoTimeLimit: true, HashMB: 1}).Think(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				deepest = max(deepest, r.Depth)
			}
			if deepest != tc.col.depth {
				t.Errorf("deepest iteration %d in 8 moves, want the column's %d", deepest, tc.col.depth)
			}
		})
	}
}
