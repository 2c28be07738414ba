package chess4pgn

import (
	"errors"
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/notation"
)

func init() { notation.Register(Notation{}) }

// pgn4Seats are the PGN4 tag names of the players, indexed by seat.
var pgn4Seats = [rules.NumSeats]string{"Red", "Blue", "Yellow", "Green"}

// Notation is Chess4's notation behind the notation.Notation interface,
// registered as "chess4".
type Notation struct{}

// Name is "chess4".
func (Notation) Name() string { return "chess4" }

// Claims reports whether text has a header or comment only Chess4's
// notation has (Detect).
func (Notation) Claims(text string) bool { return Detect(text) }

// Read parses text and replays it on o.Variant, else the Variant header,
// else chess4, found by o.Lookup (which must know that catalogue
// variant). The White, Silver, Black and Gold headers become the Red,
// Blue, Yellow and Green tags.
func (Notation) Read(text string, o notation.Options) (*notation.Replayed, error) {
	pg, err := Parse(text)
	if err != nil {
		return nil, err
	}
	r := &notation.Replayed{Games: 1}
	for _, h := range pg.Headers {
		name := h.Key
		for s, c := range Colours {
			if strings.EqualFold(h.Key, c) {
				name = pgn4Seats[s]
			}
		}
		r.Tags = append(r.Tags, notation.Tag{Name: name, Value: h.Value})
	}
	variant := o.Variant
	if variant == "" {
		variant = pg.Get("Variant")
	}
	if variant == "" {
		variant = "chess4"
	}
	if o.Lookup == nil {
		return r, fmt.Errorf("variant %q: Chess4 notation needs the variant catalogue to look it up", variant)
	}
	v, err := o.Lookup(variant, "")
	if err != nil {
		return r, err
	}
	r.Game, err = Replay(pg, v)
	var re *ReplayError
	if errors.As(err, &re) {
		err = &notation.IllegalError{Err: err}
	}
	return r, err
}

// Write writes g in Chess4's notation: the Red, Blue, Yellow and Green
// tags name White, Silver, Black and Gold; Date is the date started and,
// for a finished game, ended.
func (Notation) Write(g *rules.Game, tags []notation.Tag) (string, error) {
	var info Info
	for _, t := range tags {
		if t.Name == "Date" {
			info.Date = t.Value
		}
		for s, name := range pgn4Seats {
			if t.Name == name {
				info.Names[s] = t.Value
			}
		}
	}
	if _, over := g.Result(); over {
		info.DateEnded = info.Date
	}
	return Export(g, info)
}
