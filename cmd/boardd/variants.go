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
	for _, d := range cat {
		v, err := d.Variant("")
		if err != nil {
			return err
		}
		fit := "fits this board"
		if ok, why := variants.Fits(v, board); !ok {
			fit = "does not fit this board: " + why
		}
		fmt.Fprintf(stdout, "%-8s %s\n         starts: %s; rules: %s; %s\n", d.Name, d.Description, strings.Join(d.Starts, ", "), d.Source, fit)
	}
	return nil
}
