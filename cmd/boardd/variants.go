package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"boardd/configs"
	"boardd/rules"
	"boardd/rules/square"
	"boardd/rules/variants"
)

func init() {
	register(command{name: "variants", summary: "list the rule systems boardd can play", run: runVariants})
}

// loadVariant builds a variant from the shipped definitions by name and
// start array ("" for the default).
func loadVariant(name, start string) (*rules.Variant, error) {
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		return nil, err
	}
	d, err := variants.Find(cat, name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	v, err := d.Variant(start)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return v, nil
}

// loadFitting is loadVariant for a board with the given squares (the
// switches' wiring map): a variant whose board does not fit is refused,
// saying what to do instead.
func loadFitting(board square.Set) func(name, start string) (*rules.Variant, error) {
	return func(name, start string) (*rules.Variant, error) {
		v, err := loadVariant(name, start)
		if err != nil {
			return nil, err
		}
		if ok, why := variants.Fits(v, board); !ok {
			return nil, fmt.Errorf("%s does not fit this board: %s; %s", v.Name, why, elsewhere(v))
		}
		return v, nil
	}
}

// elsewhere says where a variant that does not fit this board is played:
// a board shape it fits (board_shape in the config), and boardd sim.
func elsewhere(v *rules.Variant) string {
	for _, shape := range configs.BoardShapes {
		if ok, _ := variants.Fits(v, configs.BoardSquares(shape)); ok {
			return fmt.Sprintf("it is played with board_shape: %s (also on the simulated board), or play it with boardd sim --variant %s", shape, v.Name)
		}
	}
	return "play it with boardd sim --variant " + v.Name
}

func runVariants(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("variants", stderr)
	shape := fs.String("board-shape", "", "the board to check the variants against: cross14 or square16 (default: the config's, else cross14)")
	cfgPath := fs.String("config", "", "take board_shape from this config file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg := configs.Defaults()
	if *cfgPath != "" {
		var err error
		if cfg, err = configs.Load(*cfgPath); err != nil {
			return err
		}
	}
	if *shape != "" {
		if !slices.Contains(configs.BoardShapes, *shape) {
			return fmt.Errorf("%w: --board-shape %q: want %s", errUsage, *shape, strings.Join(configs.BoardShapes, " or "))
		}
		cfg.BoardShape = *shape
	}
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		return err
	}
	board := cfg.Squares()
	fmt.Fprintf(stdout, "board_shape %s (%d squares)\n", cfg.BoardShape, board.Len())
	width := 0
	for _, d := range cat {
		width = max(width, len(d.Name))
	}
	for _, d := range cat {
		v, err := d.Variant("")
		if err != nil {
			return err
		}
		fit := "fits this board"
		if ok, why := variants.Fits(v, board); !ok {
			fit = "does not fit this board: " + why + "; " + elsewhere(v)
		}
		fmt.Fprintf(stdout, "%-*s  %s\n%*s  starts: %s; rules: %s; %s\n", width, d.Name, d.Description, width, "", strings.Join(d.Starts, ", "), d.Source, fit)
	}
	return nil
}
