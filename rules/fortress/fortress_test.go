package fortress_test

import (
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/fortress"
)

// The package registers its hook with the core: a variant whose data asks
// for one of the fortress's rules gets it, chess.com's Teams does not, and
// the queen's knight jump reaches the move generator through the core
// ("The Queen also moves as the Knight").
func TestRegisters(t *testing.T) {
	plain, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rules.HookOf[*fortress.RussianFortress](plain); ok {
		t.Error("chess.com Teams got the fortress's hook")
	}
	p, err := rules.ParseFEN4(plain, plain.Start)
	if err != nil {
		t.Fatal(err)
	}
	before := len(p.LegalMoves(nil))
	for _, o := range []fortress.Options{{QueenMovesAsKnight: true}, {InitialPawnTruce: true}, {MateRemovesArmy: true}} {
		v, err := rules.NewTeams("")
		if err != nil {
			t.Fatal(err)
		}
		v.SetHookOptions(o)
		if err := v.Compile(); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if h, ok := rules.HookOf[*fortress.RussianFortress](v); !ok || h.ID() != "russian-fortress" {
			t.Errorf("%+v: hooks %v, want the fortress's", o, v.Hooks())
		}
		if !o.QueenMovesAsKnight {
			continue
		}
		p, err := rules.ParseFEN4(v, v.Start)
		if err != nil {
			t.Fatal(err)
		}
		// Red's queen on h1 (g1 in the classic array) jumps to the two
		// empty squares of rank 3 a knight would reach.
		var jumps []string
		for _, m := range p.LegalMoves(nil) {
			if p.At(m.From()).Kind() == rules.Queen {
				jumps = append(jumps, m.String())
			}
		}
		if len(jumps) != 2 || len(p.LegalMoves(nil)) != before+2 {
			t.Errorf("queen moves at the start %v (%d moves, plain %d): want two knight jumps", jumps, len(p.LegalMoves(nil)), before)
		}
	}
}

// TestTrucePairsWithout: a variant without the truce has no pairs.
func TestTrucePairsWithout(t *testing.T) {
	v, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	if got := fortress.TrucePairs(v); got != nil {
		t.Errorf("Teams' truce pairs %v, want none", got)
	}
	if err := fortress.CheckStart(v, v.Start); err == nil || !strings.Contains(err.Error(), "no fortresses") {
		t.Errorf("CheckStart on Teams: %v, want the variant's lack of fortresses named", err)
	}
}
