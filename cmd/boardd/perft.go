package main

import (
	"fmt"
	"io"
	"time"

	"boardd/app/catalog"
	"boardd/rules"
)

func init() {
	register(command{name: "perft", summary: "count move sequences to a depth (move-generator check)", run: runPerft})
}

func runPerft(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", stderr)
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants' (teams, ffa, …)")
	start := fs.String("start", "", "start array when no --fen4: modern or classic for teams and ffa (default: the variant's first)")
	fen := fs.String("fen4", "", "position to count from (FEN4); default the start array")
	depth := fs.Int("depth", 0, "number of plies (required)")
	divide := fs.Bool("divide", false, "print one line per root move first")
	noBulk := fs.Bool("no-bulk", false, "make every leaf move instead of counting the last ply's legal moves")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *depth < 1 {
		return fmt.Errorf("%w: --depth N is required (N >= 1)", errUsage)
	}
	v, err := catalog.Variant(*variant, *start)
	if err != nil {
		return err
	}
	f := v.Start
	if *fen != "" {
		f = *fen
	}
	p, err := rules.ParseFEN4(v, f)
	if err != nil {
		return err
	}
	began := time.Now()
	var nodes uint64
	if *divide {
		for _, e := range p.Divide(*depth, !*noBulk) {
			fmt.Fprintf(stdout, "%s %d\n", e.Text, e.Nodes)
			nodes += e.Nodes
		}
	} else {
		nodes = p.Perft(*depth, !*noBulk)
	}
	el := time.Since(began)
	fmt.Fprintf(stderr, "%s, %.2fs, %.1f M leaves/s\n", v.Name, el.Seconds(), float64(nodes)/el.Seconds()/1e6)
	fmt.Fprintf(stdout, "nodes %d\n", nodes)
	return nil
}
