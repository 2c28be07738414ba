package notation_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/rules"
	_ "boardd/rules/chess4pgn"
	"boardd/rules/notation"
	_ "boardd/rules/pgn4"
	"boardd/rules/variants"
)

// lookup finds a variant in the catalogue, as boardd does.
func lookup(name, start string) (*rules.Variant, error) {
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		return nil, err
	}
	d, err := variants.Find(cat, name)
	if err != nil {
		return nil, err
	}
	return d.Variant(start)
}

// chess4Game is the Chess4 wiki's example game (rules/chess4pgn's
// testdata).
func chess4Game(t *testing.T) string {
	data, err := os.ReadFile("../chess4pgn/testdata/wiki-example.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const pgn4Game = `[Variant "Teams"]
[Red "Ann"]
[Blue "Bo"]
[Date "2026.11.20"]

1. h2-h4 .. b7-c7 .. g13-g11 .. m8-l8
2. h4-h5
`

func TestFor(t *testing.T) {
	if got := notation.Names(); strings.Join(got, " ") != "pgn4 chess4" {
		t.Errorf("Names %v, want the default first", got)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"chess4 headers", chess4Game(t), "chess4"},
		{"pgn4", pgn4Game, "pgn4"},
		{"anything else", "not a game", "pgn4"},
	} {
		n, err := notation.For(tc.text)
		if err != nil || n.Name() != tc.want {
			t.Errorf("%s: For gives %v %v, want %s", tc.name, n, err, tc.want)
		}
	}
	if _, err := notation.ByName("fen"); err == nil || !strings.Contains(err.Error(), `notation "fen": want pgn4 or chess4`) {
		t.Errorf("an unknown notation: %v", err)
	}
}

// Every notation reads what every notation writes of a game, to the same
// final position and players.
func TestReadWrite(t *testing.T) {
	for _, src := range []struct{ from, text string }{{"pgn4", pgn4Game}, {"chess4", chess4Game(t)}} {
		from, _ := notation.ByName(src.from)
		r, err := from.Read(src.text, notation.Options{Lookup: lookup})
		if err != nil {
			t.Fatalf("%s: %v", src.from, err)
		}
		if r.Get("Red") == "" || r.Get("Blue") == "" {
			t.Errorf("%s: players %q %q: the first two seats' names are lost", src.from, r.Get("Red"), r.Get("Blue"))
		}
		for _, name := range notation.Names() {
			if name == "chess4" && src.from == "pgn4" {
				continue // Chess4's notation writes Chess4's seating only
			}
			to, _ := notation.ByName(name)
			text, err := to.Write(r.Game, r.Tags)
			if err != nil {
				t.Errorf("%s → %s: %v", src.from, name, err)
				continue
			}
			back, err := to.Read(text, notation.Options{Variant: r.Game.Variant().Name, Lookup: lookup})
			if err != nil {
				t.Errorf("%s → %s: reading back: %v\n%s", src.from, name, err, text)
				continue
			}
			if got, want := back.Game.Position().FEN4(), r.Game.Position().FEN4(); got != want {
				t.Errorf("%s → %s: final position\n%s\nwant\n%s", src.from, name, got, want)
			}
			if back.Get("Red") != r.Get("Red") {
				t.Errorf("%s → %s: Red is %q, want %q", src.from, name, back.Get("Red"), r.Get("Red"))
			}
		}
	}
}

// A move the rules refuse is an *IllegalError that names it.
func TestIllegal(t *testing.T) {
	bad := strings.Replace(pgn4Game, "2. h4-h5", "2. h4-h7", 1)
	n, _ := notation.ByName("pgn4")
	_, err := n.Read(bad, notation.Options{Lookup: lookup})
	var ie *notation.IllegalError
	if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "illegal move 2 (Red) h4-h7") {
		t.Errorf("an illegal move: %v", err)
	}
}
