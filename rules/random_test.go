package rules

import (
	"math/rand"
	"testing"
)

// TestRandomPlayoutInvariants plays random legal games in both variants
// and checks at every ply: make/unmake of every legal move restores the
// position exactly, the FEN4 round-trips, the piece lists match the board,
// and no legal move leaves the mover's king attacked.
func TestRandomPlayoutInvariants(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, name := range []string{"teams", "ffa"} {
		for _, start := range []string{"modern", "classic"} {
			v, err := NewVariant(name, start)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(int64(len(name) + len(start))))
			for gi := 0; gi < games; gi++ {
				g, err := NewGame(v, "")
				if err != nil {
					t.Fatal(err)
				}
				for ply := 0; ply < 400; ply++ {
					if _, over := g.Result(); over {
						break
					}
					p := g.pos
					checkLists(t, p)
					fen := p.FEN4()
					q, err := ParseFEN4(v, fen)
					if err != nil || q.FEN4() != fen {
						t.Fatalf("%s game %d ply %d: FEN4 round trip: %v\n%s", name, gi, ply, err, fen)
					}
					moves := p.LegalMoves(nil)
					if n := p.CountLegal(nil); n != len(moves) {
						t.Fatalf("%s: CountLegal = %d, LegalMoves = %d in %s", name, n, len(moves), fen)
					}
					if len(moves) == 0 {
						t.Fatalf("%s game %d ply %d: game not over but no legal move: %s", name, gi, ply, fen)
					}
					mover := p.turn
					for _, m := range moves {
						u := p.Make(m)
						if k := p.king[mover]; k != 0 && !(u.kingCap && v.KingCaptureGreys) && p.attacked(int(k), mover) {
							t.Fatalf("%s: legal move %s leaves %s's king attacked in %s", name, m, mover, fen)
						}
						p.Unmake(m, u)
						if p.FEN4() != fen {
							t.Fatalf("%s: unmake of %s changed\n%s\nto\n%s", name, m, fen, p.FEN4())
						}
					}
					if rng.Intn(60) == 0 && v.Mode == FFA {
						if _, err := g.Resign(g.Turn()); err != nil {
							t.Fatal(err)
						}
						continue
					}
					if _, err := g.Play(moves[rng.Intn(len(moves))]); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
			}
		}
	}
}

func checkLists(t *testing.T, p *Position) {
	t.Helper()
	if err := p.Consistent(); err != nil {
		t.Fatal(err)
	}
}
