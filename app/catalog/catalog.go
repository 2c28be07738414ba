// Package catalog is the variants boardd ships (configs/variants) as the
// commands and the daemon look them up: by name and start array, fitted
// to a board's squares (saying where a variant that does not fit is
// played), and the occupancy a new game leaves on a board.
package catalog

import (
	"errors"
	"fmt"

	"boardd/configs"
	"boardd/rules"
	"boardd/rules/square"
	"boardd/rules/variants"
	"boardd/sensors/sim"
)

// ErrUsage marks a variant name or start array that is not among the
// shipped ones: the caller's usage, not the catalog, was wrong.
var ErrUsage = errors.New("usage")

// Variant builds a variant from the shipped definitions by name and
// start array ("" for the default).
func Variant(name, start string) (*rules.Variant, error) {
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		return nil, err
	}
	d, err := variants.Find(cat, name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	v, err := d.Variant(start)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return v, nil
}

// Fitting is Variant for a board with the given squares (the
// switches' wiring map): a variant whose board does not fit is refused,
// saying what to do instead.
func Fitting(board square.Set) func(name, start string) (*rules.Variant, error) {
	return func(name, start string) (*rules.Variant, error) {
		v, err := Variant(name, start)
		if err != nil {
			return nil, err
		}
		if ok, why := variants.Fits(v, board); !ok {
			return nil, fmt.Errorf("%s does not fit this board: %s; %s", v.Name, why, Elsewhere(v))
		}
		return v, nil
	}
}

// Elsewhere says where a variant that does not fit this board is played:
// a board shape it fits (board_shape in the config), and boardd sim.
func Elsewhere(v *rules.Variant) string {
	for _, shape := range configs.BoardShapes {
		if ok, _ := variants.Fits(v, configs.BoardSquares(shape)); ok {
			return fmt.Sprintf("it is played with board_shape: %s (also on the simulated board), or play it with boardd sim --variant %s", shape, v.Name)
		}
	}
	return "play it with boardd sim --variant " + v.Name
}

// StartOccupancy is where the pieces stand when a board of this shape is
// set up: the four-player start on the cross, Russian Fortress Chess's
// start (fortress pieces included) on 16×16.
func StartOccupancy(shape string) square.Set {
	if shape == "square16" {
		if occ, ok := VariantStart(square.Full(), "russian-fortress", ""); ok {
			return occ
		}
	}
	return sim.StartPosition()
}

// VariantStart is the occupancy of a new game of variant (start: a start
// array's name or a FEN4, as the game.start key takes them), if the
// variant fits the board.
func VariantStart(board square.Set, variant, start string) (square.Set, bool) {
	if variant == "" {
		variant = "teams"
	}
	array, fen := rules.SplitStart(start)
	v, err := Fitting(board)(variant, array)
	if err != nil {
		return square.Set{}, false
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return square.Set{}, false
	}
	return g.Position().Occupancy(), true
}
