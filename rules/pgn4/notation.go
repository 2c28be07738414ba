package pgn4

import (
	"errors"
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/notation"
)

func init() { notation.Register(Notation{}) }

// Notation is PGN4 behind the notation.Notation interface, registered
// as "pgn4", the default.
type Notation struct{}

// Name is "pgn4".
func (Notation) Name() string { return "pgn4" }

// Claims is false: PGN4 is the notation a text nothing else claims is
// read in.
func (Notation) Claims(string) bool { return false }

// Read parses text (its parse warnings become Warnings) and replays the
// first game on o.Variant, else its Variant tag.
func (Notation) Read(text string, o notation.Options) (*notation.Replayed, error) {
	games, warnings, err := Parse(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	r := &notation.Replayed{Games: len(games)}
	for _, w := range warnings {
		r.Warnings = append(r.Warnings, w.String())
	}
	if len(games) == 0 {
		return r, errors.New("no game found")
	}
	pg := games[0]
	for _, t := range pg.Tags {
		r.Tags = append(r.Tags, notation.Tag{Name: t.Name, Value: t.Value})
	}
	r.Game, r.Notes, err = ReplayWith(pg, o.Variant, Lookup(o.Lookup))
	var re *ReplayError
	if errors.As(err, &re) {
		err = &notation.IllegalError{Err: err}
	}
	return r, err
}

// Write writes g as PGN4 with tags (FromGame).
func (Notation) Write(g *rules.Game, tags []notation.Tag) (string, error) {
	ts := make([]Tag, len(tags))
	for i, t := range tags {
		ts[i] = Tag{Name: t.Name, Value: t.Value}
	}
	pg, err := FromGame(g, ts)
	if err != nil {
		return "", fmt.Errorf("pgn4: %w", err)
	}
	return pg.String(), nil
}
