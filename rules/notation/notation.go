// Package notation puts the game record notations boardd reads and writes
// behind one interface and a registry by name, as periph's spireg does
// for buses: rules/pgn4 (chess.com's PGN4) and rules/chess4pgn (Chess4's
// notation) each register themselves, and the commands that replay or
// export games (boardd replay, boardd games export) ask the registry
// instead of branching on the notation by hand.
//
// A notation reads a text into a game replayed with full legality (Read)
// and writes a game played in the rules engine (Write). Tags are PGN
// headers by their PGN4 names (Red, Blue, Yellow, Green for the players,
// Date, Event, …); a notation with other names (Chess4's White, Silver,
// Black, Gold) converts them.
package notation

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"boardd/rules"
)

// Tag is one header of a game record.
type Tag struct{ Name, Value string }

// Lookup finds a variant by name (and start array or FEN4), as
// boardd's catalogue does; nil means the built-in ones.
type Lookup func(name, start string) (*rules.Variant, error)

// Options say how Read replays a game.
type Options struct {
	// Variant overrides the variant the text names (empty: the text's,
	// else the notation's default).
	Variant string
	// Lookup resolves variant names (nil: the built-in ones).
	Lookup Lookup
}

// Replayed is a game read from a text and replayed.
type Replayed struct {
	// Game is the game as the rules engine played it (on an error, the
	// game up to the move that failed).
	Game *rules.Game
	// Tags are the text's headers by their PGN4 names, in order.
	Tags []Tag
	// Games counts the games in the text; Read replays the first.
	Games int
	// Warnings are problems of the text that did not stop the reading.
	Warnings []string
	// Notes are harmless differences between the text and the engine
	// (check marks counted differently).
	Notes []string
}

// Get answers the value of the tag name, or "".
func (r *Replayed) Get(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Notation reads and writes one game record notation.
type Notation interface {
	// Name is the notation's name in the registry and on the command
	// line ("pgn4", "chess4").
	Name() string
	// Claims reports whether text is unmistakably written in this
	// notation. The default notation (PGN4) claims nothing: it reads
	// whatever no other notation claims.
	Claims(text string) bool
	// Read parses text and replays its first game with full legality. A
	// move the rules refuse stops the replay with an *IllegalError.
	Read(text string, o Options) (*Replayed, error)
	// Write writes g in this notation with tags by their PGN4 names.
	Write(g *rules.Game, tags []Tag) (string, error)
}

// IllegalError is Read's error when a move of the text cannot be played:
// the notation's own error (which names the round, the seat and the move)
// is wrapped.
type IllegalError struct{ Err error }

// Error says "illegal" and the notation's error.
func (e *IllegalError) Error() string { return "illegal " + e.Err.Error() }

// Unwrap is the notation's error.
func (e *IllegalError) Unwrap() error { return e.Err }

// Default is the name of the notation a text no notation claims is read
// in.
const Default = "pgn4"

var (
	mu        sync.Mutex
	notations = map[string]Notation{}
)

// Register adds n to the registry; a package that implements a notation
// registers it in its init. A second notation with the same name panics:
// that is a programming error.
func Register(n Notation) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := notations[n.Name()]; dup {
		panic("notation: " + n.Name() + " registered twice")
	}
	notations[n.Name()] = n
}

// Names lists the registered notations: Default first, then the others
// sorted.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(notations))
	for name := range notations {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == Default:
			return -1
		case b == Default:
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}

// ByName answers the notation registered as name, or an error that lists
// the names there are.
func ByName(name string) (Notation, error) {
	mu.Lock()
	n, ok := notations[name]
	mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("notation %q: want %s", name, strings.Join(Names(), " or "))
	}
	return n, nil
}

// For answers the notation text is written in: the one that claims it,
// else Default. It fails only when Default is not registered (import
// boardd/rules/pgn4).
func For(text string) (Notation, error) {
	for _, name := range Names() {
		n, _ := ByName(name)
		if name != Default && n.Claims(text) {
			return n, nil
		}
	}
	return ByName(Default)
}
