package rules

import (
	"math/rand"
	"testing"
)

func TestPerftStartQuick(t *testing.T) {
	for _, tc := range []struct {
		variant, start string
		want           []uint64
	}{
		{"teams", "modern", []uint64{20, 395, 7800, 152050}},
		{"teams", "classic", []uint64{20, 399, 7960, 158402}},
	} {
		v, err := NewVariant(tc.variant, tc.start)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseFEN4(v, v.Start)
		if err != nil {
			t.Fatal(err)
		}
		for d, w := range tc.want {
			if got := p.Perft(d+1, true); got != w {
				t.Errorf("%s %s perft(%d) = %d, want %d", tc.variant, tc.start, d+1, got, w)
			}
		}
	}
}

// TestPerftLastTwoMatchesMakingEveryLeaf checks perft's cached last two
// plies (perftLastTwo: the next seat's checks and pins found once per
// node) against perft making every leaf, at every ply of random games of
// Teams and FFA, where checks, pins, en passant and king captures occur.
func TestPerftLastTwoMatchesMakingEveryLeaf(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 1
	}
	for _, name := range []string{"teams", "ffa"} {
		v, err := NewVariant(name, "modern")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewSource(int64(len(name))))
		for gi := 0; gi < games; gi++ {
			g, err := NewGame(v, "")
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 300; ply++ {
				if _, over := g.Result(); over {
					break
				}
				p := g.pos
				for d := 2; d <= 2+btoi(ply%10 == 0); d++ { // depth 3 every tenth ply
					if bulk, made := p.Perft(d, true), p.Perft(d, false); bulk != made {
						t.Fatalf("%s game %d ply %d: perft(%d) bulk %d, making every leaf %d: %s", name, gi, ply, d, bulk, made, p.FEN4())
					}
				}
				moves := p.LegalMoves(nil)
				if _, err := g.Play(moves[rng.Intn(len(moves))]); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
	}
}

// TestNear checks the cell test perftLastTwo uses to decide whether a
// move can change a king's leaper checks.
func TestNear(t *testing.T) {
	at := func(f, r int) int { return (r+pad)*stride + f + pad }
	for _, tc := range []struct {
		a, b int
		near bool
	}{
		{at(7, 0), at(7, 13), false}, // same file, far
		{at(7, 0), at(8, 2), true},   // a knight's jump
		{at(7, 0), at(9, 2), true},   // two diagonal steps
		{at(7, 0), at(10, 2), false}, // neither
		{at(0, 3), at(13, 4), false}, // far apart, one rank off
		{at(13, 3), at(0, 4), false}, // wraps the mailbox row: not a neighbour
	} {
		if got := near(tc.a, tc.b); got != tc.near {
			t.Errorf("near(%s, %s) = %v, want %v", squareOf(tc.a), squareOf(tc.b), got, tc.near)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
