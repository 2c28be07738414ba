// Package registry is the name → driver table behind sensors/sensorreg and
// leds/ledreg: registration at init, look-up by name, and the names in
// order for errors and help.
package registry

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Of is a table of drivers of type D by name; kind ("sensorreg") starts
// its panics. The zero value is not ready: use New.
type Of[D any] struct {
	kind string
	mu   sync.Mutex
	m    map[string]D
}

// New returns an empty table whose panics start with kind.
func New[D any](kind string) *Of[D] { return &Of[D]{kind: kind, m: map[string]D{}} }

// Register adds d as name. An empty name or a name registered twice is a
// programming error: Register panics.
func (r *Of[D]) Register(name string, d D) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == "" {
		panic(r.kind + ": a driver needs a Name")
	}
	if _, dup := r.m[name]; dup {
		panic(fmt.Sprintf("%s: driver %q registered twice", r.kind, name))
	}
	r.m[name] = d
}

// Lookup returns the driver called name and whether there is one.
func (r *Of[D]) Lookup(name string) (D, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.m[name]
	return d, ok
}

// Names returns the registered names, sorted.
func (r *Of[D]) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(maps.Keys(r.m))
}

// All returns the drivers in the order of their names.
func (r *Of[D]) All() []D {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []D
	for _, n := range slices.Sorted(maps.Keys(r.m)) {
		out = append(out, r.m[n])
	}
	return out
}

// List is the names for an error, joined by sep: "apa102, none, term".
func (r *Of[D]) List(sep string) string { return strings.Join(r.Names(), sep) }
