package rules

import (
	"strings"
	"testing"
)

// settler is a test hook that decides the end of turn.
type settler struct {
	HookBase
	id string
}

func (s settler) ID() string                     { return s.id }
func (settler) Provides(b byte) bool             { return b == OnSettle }
func (settler) Settle(*Game, Seat, *Record) bool { return false }

func init() {
	// Two makers that both answer only for the test variants below.
	for _, id := range []string{"first-settler", "second-settler"} {
		registerHook(func(v *Variant) Hook {
			if v.Name == "two-settlers" || (v.Name == "one-settler" && id == "first-settler") {
				return settler{id: id}
			}
			return nil
		})
	}
}

// A rule one hook decides may not be claimed by a second: the core would
// ask only the first.
func TestHooksExclusive(t *testing.T) {
	for _, tt := range []struct {
		name    string
		wantErr string
	}{
		{"one-settler", ""},
		{"two-settlers", "two hooks"},
		{"teams", ""},
	} {
		v, err := NewTeams("modern")
		if err != nil {
			t.Fatal(err)
		}
		v.Name = tt.name
		err = v.Compile()
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one naming %q", tt.name, err, tt.wantErr)
		}
		if tt.name == "one-settler" && (!v.Provides(OnSettle) || len(v.Hooks()) != 1 || v.Provides(OnPieceMoves) || !v.plainCount) {
			t.Errorf("one-settler: provides settle %v, %d hooks, plain count %v; want a settle hook that leaves movement plain", v.Provides(OnSettle), len(v.Hooks()), v.plainCount)
		}
		if tt.name == "teams" && (v.Hooks() != nil || v.provides != 0) {
			t.Errorf("teams has hooks %v", v.Hooks())
		}
	}
}

// A mode's hook writes the Result tag of its games (RegisterResultTag);
// other modes keep Teams' and FFA's.
func TestRegisterResultTag(t *testing.T) {
	const mode = Mode(200) // a mode of no shipped variant
	RegisterResultTag(mode, func(r Result, names [NumSeats]string) string {
		return names[r.Winners[0]] + " takes all"
	})
	defer delete(resultTags, mode)
	r := Result{Reason: "checkmate", Winners: []Seat{Blue}}
	if got := r.Tag(mode, [NumSeats]string{"A", "B", "C", "D"}); got != "B takes all" {
		t.Errorf("registered tag: %q, want %q", got, "B takes all")
	}
	if got := r.Tag(Teams, [NumSeats]string{}); got != "0-1" {
		t.Errorf("Teams tag with a mode registered: %q, want 0-1", got)
	}
}
