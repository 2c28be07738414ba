package rules

import (
	"math/rand"
	"testing"
)

// A clone is independent of its game: moves and takebacks on the clone
// leave the game as it was (the variants with hooks are played on clones
// by the heavy-noise round trip of cmd/boardd), and both play on.
func TestGameClone(t *testing.T) {
	for _, name := range []string{"teams", "ffa"} {
		v, err := NewVariant(name, "")
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewSource(7))
		g, _ := NewGame(v, "")
		for i := 0; i < 40; i++ {
			ms := g.LegalMoves()
			if len(ms) == 0 {
				break
			}
			if _, err := g.Play(ms[rnd.Intn(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		fen, n := g.Position().FEN4(), len(g.Records())
		c := g.Clone()
		if c.Position().FEN4() != fen || len(c.Records()) != n {
			t.Fatalf("%s: the clone differs from the game", name)
		}
		for i := 0; i < 10; i++ {
			ms := c.LegalMoves()
			if len(ms) == 0 {
				break
			}
			c.Play(ms[rnd.Intn(len(ms))])
		}
		for len(c.Records()) > n-5 {
			c.Takeback()
		}
		if g.Position().FEN4() != fen || len(g.Records()) != n {
			t.Fatalf("%s: playing on the clone changed the game", name)
		}
		// The game still plays and takes back on its own.
		if ms := g.LegalMoves(); len(ms) > 0 {
			if _, err := g.Play(ms[0]); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			g.Takeback()
		}
		if g.Position().FEN4() != fen {
			t.Fatalf("%s: the game changed", name)
		}
	}
}
