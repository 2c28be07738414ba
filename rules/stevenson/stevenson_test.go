package stevenson_test

import (
	"testing"

	"boardd/rules"
	"boardd/rules/square"
	"boardd/rules/stevenson"
)

// The package registers its hook with the core: a variant whose data
// asks for Stevenson's rules gets it, any other does not, and the hook's
// rules reach the move generator through the core.
func TestRegisters(t *testing.T) {
	plain, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rules.HookOf[*stevenson.Stevenson](plain); ok {
		t.Error("chess.com Teams got Stevenson's hook")
	}

	v, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	// "The King moves like a Queen" (stevenson.yaml's king_moves_as_queen).
	v.SetHookOptions(stevenson.Options{KingMovesAsQueen: true})
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	h, ok := rules.HookOf[*stevenson.Stevenson](v)
	if !ok || h.ID() != "stevenson" {
		t.Fatalf("a variant with KingMovesAsQueen has hooks %v, want stevenson's", v.Hooks())
	}
	// After h2-h4, Red's king on h1 moving as a queen may go to h3: with
	// the option, not without.
	sq := func(name string) square.Square {
		q, err := square.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	for _, tc := range []struct {
		v    *rules.Variant
		want bool
	}{{plain, false}, {v, true}} {
		p, err := rules.ParseFEN4(tc.v, tc.v.Start)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.FindMove(sq("h2"), sq("h4"), rules.NoKind)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
		p = p.WithTurn(rules.Red)
		_, err = p.FindMove(sq("h1"), sq("h3"), rules.NoKind)
		if got := err == nil; got != tc.want {
			t.Errorf("hooks %v: h1-h3 legal = %v (%v), want %v", tc.v.Hooks(), got, err, tc.want)
		}
	}
}
