package rules

import (
	"math/rand"
	"testing"
)

// essayOptions returns chess.com's Teams board (partners Red+Yellow,
// Blue+Green) with the essay's two optional rules switched on.
func essayOptions(t *testing.T) *Variant {
	t.Helper()
	v, err := NewTeams("classic")
	if err != nil {
		t.Fatal(err)
	}
	v.SetHookOptions(EssayOptions{PartnerPawnSwap: true, PartnerInheritsArmy: true})
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	return v
}

// Every swap and every move of an inherited army makes and unmakes
// exactly: random walks through positions crowded with partners' pawns,
// with Red's king gone and its army moved by Yellow, check the board, the
// FEN4 and the piece lists after each Make and Unmake.
func TestEssayOptionsMakeUnmake(t *testing.T) {
	v := essayOptions(t)
	p, err := ParsePlacement(v, Yellow, "rP:e5 rP:f5 rP:g5 yP:f6 yP:g6 yP:h6 yP:e7 rP:d6 rN:d4 rR:k3 rP:i9 rP:e10 "+
		"bK:a8 bP:c7 bP:b8 gP:d7 gP:e8 gP:e9 gP:d9 bP:f10 gK:n7 yK:j14 yP:i10 yP:j11 bR:a4 rP:g11 yP:h13")
	if err != nil {
		t.Fatal(err)
	}
	p.heir[Red] = uint8(Yellow) + 1 // Red's king was taken: Yellow moves its army
	rng := rand.New(rand.NewSource(3))
	swaps, passes, inherited := 0, 0, 0
	for walk := 0; walk < 40; walk++ {
		q := p.Clone()
		for ply := 0; ply < 30; ply++ {
			moves := q.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			// The legality shortcuts agree with making each move: pins
			// are found among Yellow's own pieces only, so the inherited
			// army's moves must take the full test.
			legal := map[Move]bool{}
			for _, m := range moves {
				legal[m] = true
			}
			for _, m := range q.PseudoLegal(nil) {
				if want := q.legalAfter(m); legal[m] != want {
					t.Fatalf("%s: %v legal %v, but making it says %v", q.FEN4(), m, legal[m], want)
				}
			}
			for _, m := range moves {
				before := q.FEN4()
				mover := q.board[m.from()].Seat()
				u := q.Make(m)
				checkLists(t, q)
				if sw, ep := m.IsSwap(); sw && !ep {
					swaps++
				} else if sw {
					passes++
				}
				if mover != u.turn {
					inherited++
				}
				q.Unmake(m, u)
				checkLists(t, q)
				if got := q.FEN4(); got != before {
					t.Fatalf("%v: unmake gives\n%s\nwant\n%s", m, got, before)
				}
			}
			q.Make(moves[rng.Intn(len(moves))])
		}
	}
	if swaps == 0 || passes == 0 || inherited == 0 {
		t.Errorf("the walks tried %d swaps, %d en passant swaps and %d inherited moves; want some of each", swaps, passes, inherited)
	}
	t.Logf("%d swaps, %d en passant swaps, %d inherited-army moves made and unmade", swaps, passes, inherited)
}

// The options leave the counting fast path off, and the chess.com
// variants on it.
func TestEssayOptionsOffFastPath(t *testing.T) {
	if v := essayOptions(t); v.plainCount || !v.pawnHooks {
		t.Errorf("essay options: plainCount %v pawnHooks %v, want false true", v.plainCount, v.pawnHooks)
	}
	for _, name := range []string{"teams", "ffa"} {
		v, _ := NewVariant(name, "modern")
		if !v.plainCount || v.pawnHooks {
			t.Errorf("%s: plainCount %v pawnHooks %v, want true false", name, v.plainCount, v.pawnHooks)
		}
	}
}
