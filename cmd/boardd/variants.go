package main

import (
	"fmt"
	"io"
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
			return nil, fmt.Errorf("%s does not fit this board: %s; play it with boardd sim --variant %s", v.Name, why, v.Name)
		}
		return v, nil
	}
}

func runVariants(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("variants", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		return err
	}
	board := square.Cross() // the configured board; 14×14 cross until boardd has a config
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
			fit = "does not fit this board: " + why + "; play it with boardd sim"
		}
		fmt.Fprintf(stdout, "%-*s  %s\n%*s  starts: %s; rules: %s; %s\n", width, d.Name, d.Description, width, "", strings.Join(d.Starts, ", "), d.Source, fit)
	}
	return nil
}
