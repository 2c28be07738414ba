package variants

import (
	"slices"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/blocking"
	"boardd/rules/chess4"
	"boardd/rules/fortress"
	"boardd/rules/square"
	verneyhook "boardd/rules/verney"
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
	h, ok := rules.HookOf[*fortress.RussianFortress](v)
	if !ok || len(h.TrucePairs()) != 8 {
		t.Fatalf("HookOf(russian-fortress) = %v, %v; want the fortress hook with 8 truce pairs", h, ok)
	}
	if _, ok := rules.HookOf[*verneyhook.Verney](v); ok {
		t.Error("russian-fortress has a Verney hook")
	}
	if !v.Provides(rules.OnPawnCapture) || v.Provides(rules.OnGameMoves) {
		t.Errorf("russian-fortress provides OnPawnCapture %v (want true), OnGameMoves %v (want false)", v.Provides(rules.OnPawnCapture), v.Provides(rules.OnGameMoves))
	}
}

// A variant's own operations on a game are reached through its hook bound
// to the game (rules.HookIn), and only in a game of that variant.
func TestHookIn(t *testing.T) {
	for _, tt := range []struct {
		variant          string
		blocking, chess4 bool
	}{
		{"teams", false, false},
		{"blocking-double", true, false},
		{"chess4", false, true},
		{"chess4-m2", false, true},
		{"verney", false, false},
	} {
		v := variantNamed(t, tt.variant)
		g, err := rules.NewGame(v, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := rules.HookIn[*blocking.BlockingDouble](g); ok != tt.blocking {
			t.Errorf("%s: HookIn[*BlockingDouble] ok = %v, want %v", tt.variant, ok, tt.blocking)
		}
		c, ok := rules.HookIn[*chess4.Chess4Hook](g)
		if ok != tt.chess4 {
			t.Errorf("%s: HookIn[*Chess4Hook] ok = %v, want %v", tt.variant, ok, tt.chess4)
		}
		if ok && c.Controller(rules.Yellow) != rules.Yellow {
			t.Errorf("%s: at the start Yellow's army is played by %v", tt.variant, c.Controller(rules.Yellow))
		}
	}
}

// blockingOf returns blocking double's operations on g (rules.HookIn); it
// panics on a game of another variant.
func blockingOf(g *rules.Game) *blocking.BlockingDouble {
	d, ok := rules.HookIn[*blocking.BlockingDouble](g)
	if !ok {
		panic("not a blocking-double game: " + g.Variant().Name)
	}
	return d
}

// chess4Of returns Chess4's operations on g (rules.HookIn); it panics on
// a game of another variant.
func chess4Of(g *rules.Game) *chess4.Chess4Hook {
	c, ok := rules.HookIn[*chess4.Chess4Hook](g)
	if !ok {
		panic("not a chess4 game: " + g.Variant().Name)
	}
	return c
}

// The essay's partner pawn swap is the essay hook's own kind of move
// (issue 17): the hook generates it, labels it (Move.IsSwap) and plays it
// (OnMakeMove); only the variant with the swap asks for that, and its
// swaps make and unmake back to the same position.
func TestSwapIsTheEssayHooks(t *testing.T) {
	for _, d := range catalog(t) {
		v, err := d.Variant("")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := v.Provides(rules.OnMakeMove), d.Name == "essay-partners-swap"; got != want {
			t.Errorf("%s: provides OnMakeMove %v, want %v", d.Name, got, want)
		}
	}
	d, err := Find(catalog(t), "essay-partners-swap")
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	// Red's e5 pawn may swap with Yellow's (its partner's) on f6 (the en
	// passant form is in the essay's own tests).
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rP:e5 yP:f6 bK:a7 yK:h14 gK:n8")
	if err != nil {
		t.Fatal(err)
	}
	before := p.FEN4()
	swaps := 0
	for _, m := range p.LegalMoves(nil) {
		sw, ep := m.IsSwap()
		if !sw {
			continue
		}
		swaps++
		if ep || m.String() != "e5-f6" {
			t.Errorf("swap %v (en passant %v), want e5-f6", m, ep)
		}
		u := p.Make(m)
		if p.At(mustSq(t, "f6")).Seat() != rules.Red || p.At(mustSq(t, "e5")).Seat() != rules.Yellow {
			t.Errorf("after %v: f6 %v, e5 %v; want the pawns exchanged", m, p.At(mustSq(t, "f6")), p.At(mustSq(t, "e5")))
		}
		p.Unmake(m, u)
		if p.FEN4() != before {
			t.Errorf("Unmake(%v) left %s, want %s", m, p.FEN4(), before)
		}
	}
	if swaps != 1 {
		t.Errorf("%d swaps, want 1", swaps)
	}
}

func mustSq(t *testing.T, name string) square.Square {
	t.Helper()
	q, err := square.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
