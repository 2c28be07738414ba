package verney_test

import (
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/verney"
)

// The package registers its hook with the core: a variant whose data asks
// for one of Verney's rules gets it, chess.com's Teams does not, and a
// board the rules do not support is refused by name.
func TestRegisters(t *testing.T) {
	plain, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rules.HookOf[*verney.Verney](plain); ok {
		t.Error("chess.com Teams got Verney's hook")
	}
	for _, o := range []verney.Options{{PawnReversal: true}, {PawnLeap: true}, {GuardPartnerKing: true}, {InertMates: true}} {
		v, err := rules.NewTeams("")
		if err != nil {
			t.Fatal(err)
		}
		v.SetHookOptions(o)
		if err := v.Compile(); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if h, ok := rules.HookOf[*verney.Verney](v); !ok || h.ID() != "verney" {
			t.Errorf("%+v: hooks %v, want verney's", o, v.Hooks())
		}
	}
	// "Kings are never captured": inert mates need royal kings.
	v, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	v.OrdinaryKings = true
	v.SetHookOptions(verney.Options{InertMates: true})
	if err := v.Compile(); err == nil || !strings.Contains(err.Error(), "royal kings") {
		t.Errorf("inert mates with ordinary kings: %v, want the royal kings refused", err)
	}
}
