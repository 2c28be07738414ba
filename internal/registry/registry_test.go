package registry

import (
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	r := New[int]("test")
	for i, n := range []string{"sim", "hc165", "gpiomatrix"} {
		r.Register(n, i)
	}
	if got := strings.Join(r.Names(), " "); got != "gpiomatrix hc165 sim" {
		t.Errorf("Names = %s", got)
	}
	if got := r.All(); len(got) != 3 || got[0] != 2 || got[1] != 1 || got[2] != 0 {
		t.Errorf("All = %v, want the drivers in name order", got)
	}
	if d, ok := r.Lookup("hc165"); !ok || d != 1 {
		t.Errorf("Lookup(hc165) = %d, %v", d, ok)
	}
	if _, ok := r.Lookup("plate"); ok {
		t.Error("Lookup(plate) found one")
	}
	if got := r.List(", "); got != "gpiomatrix, hc165, sim" {
		t.Errorf("List = %q", got)
	}
	for _, tc := range []struct{ name, panic string }{{"sim", `test: driver "sim" registered twice`}, {"", "test: a driver needs a Name"}} {
		func() {
			defer func() {
				if p := recover(); p != tc.panic {
					t.Errorf("Register(%q) panicked with %v, want %q", tc.name, p, tc.panic)
				}
			}()
			r.Register(tc.name, 9)
		}()
	}
}
