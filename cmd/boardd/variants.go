package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"boardd/app/catalog"
	"boardd/configs"
	"boardd/rules/variants"
)

func init() {
	register(command{name: "variants", summary: "list the rule systems boardd can play", run: runVariants})
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
			fit = "does not fit this board: " + why + "; " + catalog.Elsewhere(v)
		}
		fmt.Fprintf(stdout, "%-*s  %s\n%*s  starts: %s; rules: %s; %s\n", width, d.Name, d.Description, width, "", strings.Join(d.Starts, ", "), d.Source, fit)
	}
	return nil
}
