package variants

import (
	"slices"
	"strings"
	"testing"

	"boardd/rules"
)

// Each variant file finds its rules in the hook named after it
// (docs/architecture.md): the chess.com variants are pure data, every
// other variant gets exactly the hooks its data asks for.
func TestVariantHooks(t *testing.T) {
	want := map[string][]string{
		"teams": nil, "ffa": nil, "ffa-text": nil,
		"stevenson":                {"stevenson"},
		"russian-fortress":         {"essay", "russian-fortress"},
		"essay-partners":           {"essay"},
		"essay-ffa":                {"essay"},
		"essay-partners-swap":      {"essay"},
		"essay-partners-alternate": {"essay"},
		"verney":                   {"verney"},
		"chess4":                   {"chess4"},
		"chess4-m2":                {"chess4"},
		"blocking-double":          {"blocking-double"},
	}
	cat := catalog(t)
	if len(cat) != len(want) {
		t.Errorf("%d variant files, the table knows %d: add the new one here and to docs/architecture.md", len(cat), len(want))
	}
	for _, d := range cat {
		v, err := d.Variant("")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range v.Hooks() {
			got = append(got, h.ID())
		}
		slices.Sort(got)
		w, ok := want[d.Name]
		if !ok {
			t.Errorf("%s: not in the table", d.Name)
			continue
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: hooks %v, want %v", d.Name, got, w)
		}
		// The file the docs name for the hook is the variant's own.
		for _, id := range got {
			if !strings.HasPrefix(d.Name, id) && !(d.Name == "russian-fortress" && id == "essay") {
				t.Errorf("%s: hook %s is not named after the variant", d.Name, id)
			}
		}
	}
}

// A variant's own operations are reached through its hook's type.
func TestHookOf(t *testing.T) {
	d, err := Find(catalog(t), "russian-fortress")
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	h, ok := rules.HookOf[*rules.RussianFortress](v)
	if !ok || len(h.TrucePairs()) != 8 {
		t.Fatalf("HookOf(russian-fortress) = %v, %v; want the fortress hook with 8 truce pairs", h, ok)
	}
	if _, ok := rules.HookOf[*rules.Verney](v); ok {
		t.Error("russian-fortress has a Verney hook")
	}
	if !v.Provides(rules.OnPawnCapture) || v.Provides(rules.OnGameMoves) {
		t.Errorf("russian-fortress provides OnPawnCapture %v (want true), OnGameMoves %v (want false)", v.Provides(rules.OnPawnCapture), v.Provides(rules.OnGameMoves))
	}
}
