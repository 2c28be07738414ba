package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"boardd/rules"
	"boardd/rules/pgn4"
)

func init() {
	register(command{name: "replay", summary: "replay a PGN4 game with full legality, print the final FEN4", run: runReplay})
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", stderr)
	variant := fs.String("variant", "", "rules: a name from 'boardd variants' (default: the game's Variant tag)")
	quiet := fs.Bool("q", false, "print only the final FEN4 (and errors)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want exactly one PGN4 file (boardd replay [--variant teams|ffa] GAME.pgn4)", errUsage)
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	games, warnings, err := pgn4.Parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "%s: warning: %v\n", path, w)
	}
	if len(games) == 0 {
		return fmt.Errorf("%s: no game found", path)
	}
	if len(games) > 1 {
		fmt.Fprintf(stderr, "%s: %d games in the file; replaying the first\n", path, len(games))
	}
	g, notes, err := pgn4.ReplayWith(games[0], *variant, loadVariant)
	if !*quiet {
		for _, n := range notes {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
	}
	var re *pgn4.ReplayError
	if errors.As(err, &re) {
		return fmt.Errorf("%s: illegal %w", path, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !*quiet {
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
	return nil
}
