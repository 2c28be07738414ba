package engine

import (
	"math/rand/v2"
	"testing"

	"boardd/rules"
)

// TestMirror: the board's incremental mirror and Zobrist key equal a fresh
// read of the position after every make and every unmake, along random
// lines of every variant (captures, castling, en passant, promotions, king
// captures that grey or remove an army).
func TestMirror(t *testing.T) {
	for _, v := range catalogue(t) {
		t.Run(v.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			for line := 0; line < 20; line++ {
				p, err := rules.ParseFEN4(v, v.Start)
				if err != nil {
					t.Fatal(err)
				}
				b := newBoard(p)
				check := func(when string) {
					t.Helper()
					want := newBoard(p.Clone())
					for i := range b.cells {
						if b.cells[i] != want.cells[i] {
							t.Fatalf("%s: square %s mirrors %v, position has %v", when, b.squares[i], b.cells[i], want.cells[i])
						}
					}
					if b.pieceHash != want.pieceHash {
						t.Fatalf("%s: key differs from a fresh one", when)
					}
				}
				var made []Move
				var undos []undo
				for ply := 0; ply < maxPly; ply++ {
					moves := b.legal(ply)
					if len(moves) == 0 {
						break
					}
					// Prefer captures so lines reach king captures.
					m := moves[rng.IntN(len(moves))]
					for _, c := range moves {
						if _, ok := b.captured(c); ok && rng.IntN(2) == 0 {
							m = c
							break
						}
					}
					undos = append(undos, b.make(m, ply))
					made = append(made, m)
					check("after " + m.String())
				}
				for ply := len(made) - 1; ply >= 0; ply-- {
					b.unmake(made[ply], undos[ply], ply)
					check("after taking back " + made[ply].String())
				}
			}
		})
	}
}
