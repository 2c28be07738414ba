package essay_test

import (
	"math/rand"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/essay"
)

// essayOptions returns chess.com's Teams board (partners Red+Yellow,
// Blue+Green) with the essay's two optional rules switched on.
func essayOptions(t *testing.T) *rules.Variant {
	t.Helper()
	v, err := rules.NewTeams("classic")
	if err != nil {
		t.Fatal(err)
	}
	v.SetHookOptions(essay.Options{PartnerPawnSwap: true, PartnerInheritsArmy: true})
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
	placed, err := rules.ParsePlacement(v, Yellow, "rP:e5 rP:f5 rP:g5 yP:f6 yP:g6 yP:h6 yP:e7 rP:d6 rN:d4 rR:k3 rP:i9 rP:e10 "+
		"bK:a8 bP:c7 bP:b8 gP:d7 gP:e8 gP:e9 gP:d9 bP:f10 gK:n7 yK:j14 yP:i10 yP:j11 bR:a4 rP:g11 yP:h13")
	if err != nil {
		t.Fatal(err)
	}
	// Red's king was taken: Yellow moves its army (a kingless seat written
	// eliminated with live pieces is read back as inherited).
	fields := strings.SplitN(placed.FEN4(), "-", 3)
	fields[1] = "1,0,0,0"
	p, err := rules.ParseFEN4(v, strings.Join(fields, "-"))
	if err != nil {
		t.Fatal(err)
	}
	if heir, ok := p.Heir(Red); !ok || heir != Yellow {
		t.Fatalf("Red's army inherited by %v (%v), want Yellow: %s", heir, ok, p.FEN4())
	}
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
			legal := map[rules.Move]bool{}
			for _, m := range moves {
				legal[m] = true
			}
			for _, m := range q.PseudoLegal(nil) {
				if want := legalAfter(q, m); legal[m] != want {
					t.Fatalf("%s: %v legal %v, but making it says %v", q.FEN4(), m, legal[m], want)
				}
			}
			for _, m := range moves {
				before := q.FEN4()
				mover := q.At(m.From()).Seat()
				turn := q.Turn()
				u := q.Make(m)
				checkLists(t, q)
				if sw, ep := m.IsSwap(); sw && !ep {
					swaps++
				} else if sw {
					passes++
				}
				if mover != turn {
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

// The seats of chess.com's board.
const (
	Red    = rules.Red
	Yellow = rules.Yellow
)

// legalAfter makes m and reports whether the mover's king is safe (these
// variants capture no king, so the plain test is the whole test;
// InCheck is false for a seat with no king).
func legalAfter(p *rules.Position, m rules.Move) bool {
	s := p.Turn()
	u := p.Make(m)
	ok := !p.InCheck(s)
	p.Unmake(m, u)
	return ok
}

// checkLists fails when the board and the piece lists disagree.
func checkLists(t *testing.T, p *rules.Position) {
	t.Helper()
	if err := p.Consistent(); err != nil {
		t.Fatal(err)
	}
}

// The options leave the counting fast path off: the pawns' generator and
// the last ply ask the hook.
func TestEssayOptionsOffFastPath(t *testing.T) {
	v := essayOptions(t)
	if !v.Provides(rules.OnPieceMoves) || !v.Provides(rules.OnMakeMove) {
		t.Errorf("essay options: provides piece moves %v, make move %v; want both (off the plain count and generator)", v.Provides(rules.OnPieceMoves), v.Provides(rules.OnMakeMove))
	}
	if h, ok := rules.HookOf[*essay.Essay](v); !ok || h.ID() != "essay" {
		t.Errorf("hooks %v, want the essay's", v.Hooks())
	}
}
