package rules

import (
	"slices"
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

// leaper is a test hook that gives the rook a knight's jump (AddLeaper).
type leaper struct{ HookBase }

func (leaper) ID() string { return "leaping-rook" }
func (leaper) Compile(v *Variant) error {
	if err := v.AddLeaper(King); err == nil {
		return nil // refused below
	}
	return v.AddLeaper(Rook)
}

func init() {
	registerHook(func(v *Variant) Hook {
		if v.Name == "leaping-rook" {
			return leaper{}
		}
		return nil
	})
}

// A slider a hook gives the knight's jump (AddLeaper) jumps in the move
// generator, attacks with the jump, and other kinds are refused.
func TestAddLeaper(t *testing.T) {
	v, err := NewTeams("modern")
	if err != nil {
		t.Fatal(err)
	}
	if err := v.AddLeaper(Pawn); err == nil || !strings.Contains(err.Error(), "pawn") {
		t.Errorf("AddLeaper(Pawn): %v, want the pawn refused by name", err)
	}
	v.Name = "leaping-rook"
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	if !v.leaps[Rook] || v.leaps[King] || v.plainCount {
		t.Fatalf("leaps %v, plain count %v: want the rook alone added, off the plain count", v.leaps, v.plainCount)
	}
	p, err := ParseFEN4(v, v.Start)
	if err != nil {
		t.Fatal(err)
	}
	var jumps []string
	for _, m := range p.LegalMoves(nil) {
		if p.At(m.From()).Kind() == Rook {
			jumps = append(jumps, m.String())
		}
	}
	// Red's rooks on d1 and k1: of the knight's squares, e3 and j3 are
	// empty, c3 and l3 cut away, the rest hold Red's pawns.
	if strings.Join(jumps, " ") != "d1-e3 k1-j3" {
		t.Errorf("rook moves at the start %v, want the jumps d1-e3 k1-j3", jumps)
	}
}

// The chess.com variants, which have no hook, stay on the counting fast
// path.
func TestPlainVariantsFastPath(t *testing.T) {
	for _, name := range []string{"teams", "ffa"} {
		v, _ := NewVariant(name, "modern")
		if !v.plainCount || v.pawnHooks {
			t.Errorf("%s: plainCount %v pawnHooks %v, want true false", name, v.plainCount, v.pawnHooks)
		}
	}
}

// LineStep finds the queen line between two cells, or none.
func TestLineStep(t *testing.T) {
	for _, tt := range []struct {
		from, to string
		step     int
		ok       bool
	}{
		{"d4", "d9", stride, true},
		{"d9", "d4", -stride, true},
		{"d4", "k4", 1, true},
		{"k4", "d4", -1, true},
		{"e4", "h7", stride + 1, true},
		{"h7", "e4", -stride - 1, true},
		{"h4", "e7", stride - 1, true},
		{"e7", "h4", 1 - stride, true},
		{"e4", "f6", 0, false},
		{"e4", "e4", 0, false},
	} {
		step, ok := LineStep(cell(sq(tt.from)), cell(sq(tt.to)))
		if step != tt.step || ok != tt.ok {
			t.Errorf("LineStep(%s, %s) = %d, %v; want %d, %v", tt.from, tt.to, step, ok, tt.step, tt.ok)
		}
	}
}

// A variant package's mode is registered by key and named; the core's
// are there without any, and a key may not be claimed twice.
func TestRegisterMode(t *testing.T) {
	for _, key := range []string{"teams", "ffa"} {
		if _, ok := ModeByKey(key); !ok {
			t.Errorf("core mode %q unknown", key)
		}
	}
	m := RegisterMode("test_mode", "TestMode")
	defer func() { modeNames = modeNames[:len(modeNames)-1] }()
	if got, ok := ModeByKey("test_mode"); !ok || got != m || m.String() != "TestMode" {
		t.Errorf("ModeByKey(test_mode) = %v, %v; want %v named TestMode", got, ok, m)
	}
	keys := ModeKeys()
	if len(keys) < 3 || keys[0] != "teams" || keys[1] != "ffa" || !slices.IsSorted(keys[2:]) || !slices.Contains(keys, "test_mode") {
		t.Errorf("ModeKeys() = %v: want teams, ffa, then the registered ones sorted", keys)
	}
	if _, ok := ModeByKey("chaos"); ok {
		t.Error("an unregistered key names a mode")
	}
	defer func() {
		if recover() == nil {
			t.Error("a mode key registered twice did not panic")
		}
	}()
	RegisterMode("ffa", "Again")
}
