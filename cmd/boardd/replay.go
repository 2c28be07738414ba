package main

import (
	"fmt"
	"io"
	"os"

	"boardd/app/catalog"
	"boardd/rules"
	_ "boardd/rules/chess4pgn" // registers the chess4 notation
	"boardd/rules/notation"
	_ "boardd/rules/pgn4" // registers the pgn4 notation
)

func init() {
	register(command{name: "replay", summary: "replay a PGN4 (or Chess4 notation) game with full legality, print the final FEN4", run: runReplay})
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", stderr)
	variant := fs.String("variant", "", "rules: a name from 'boardd variants' (default: the game's Variant tag)")
	quiet := fs.Bool("q", false, "print only the final FEN4 (and errors)")
	notationName := fs.String("notation", "", "pgn4 or chess4 (Chess4's notation, docs/variants/chess4-notation.md); default: by the file's content")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want exactly one PGN4 file (boardd replay [--variant teams|ffa] [--notation pgn4|chess4] GAME.pgn4)", errUsage)
	}
	path := fs.Arg(0)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	n, err := pickNotation(*notationName, string(data))
	if err != nil {
		return err
	}
	r, err := n.Read(string(data), notation.Options{Variant: *variant, Lookup: catalog.Variant})
	if r != nil {
		for _, w := range r.Warnings {
			fmt.Fprintf(stderr, "%s: warning: %s\n", path, w)
		}
		if r.Games > 1 {
			fmt.Fprintf(stderr, "%s: %d games in the file; replaying the first\n", path, r.Games)
		}
		if !*quiet {
			for _, note := range r.Notes {
				fmt.Fprintf(stderr, "note: %s\n", note)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	printReplayed(path, r.Game, *quiet, stdout)
	return nil
}

// pickNotation answers the notation named on the command line, or with
// none the one text is written in.
func pickNotation(name, text string) (notation.Notation, error) {
	if name == "" {
		return notation.For(text)
	}
	n, err := notation.ByName(name)
	if err != nil {
		return nil, fmt.Errorf("%w: --%v", errUsage, err)
	}
	return n, nil
}

// printReplayed reports a replayed game: turns, result and final FEN4.
func printReplayed(path string, g *rules.Game, quiet bool, stdout io.Writer) {
	if !quiet {
		recs := g.Records()
		fmt.Fprintf(stdout, "%s: %d turns replayed", path, len(recs))
		if res, over := g.Result(); over {
			fmt.Fprintf(stdout, "; game over: %s", res.Reason)
			if g.Variant().Mode == rules.FFA {
				fmt.Fprintf(stdout, "; points R %d B %d Y %d G %d", res.Points[0], res.Points[1], res.Points[2], res.Points[3])
			}
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintln(stdout, g.Position().FEN4())
}
