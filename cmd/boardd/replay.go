package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"boardd/rules"
	"boardd/rules/chess4pgn"
	"boardd/rules/pgn4"
)

func init() {
	register(command{name: "replay", summary: "replay a PGN4 (or Chess4 notation) game with full legality, print the final FEN4", run: runReplay})
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", stderr)
	variant := fs.String("variant", "", "rules: a name from 'boardd variants' (default: the game's Variant tag)")
	quiet := fs.Bool("q", false, "print only the final FEN4 (and errors)")
	notation := fs.String("notation", "", "pgn4 or chess4 (Chess4's notation, docs/variants/chess4-notation.md); default: by the file's content")
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
	switch *notation {
	case "chess4":
		return replayChess4(path, string(data), *variant, *quiet, stdout)
	case "":
		if chess4pgn.Detect(string(data)) {
			return replayChess4(path, string(data), *variant, *quiet, stdout)
		}
	case "pgn4":
	default:
		return fmt.Errorf("%w: --notation %q: want pgn4 or chess4", errUsage, *notation)
	}
	games, warnings, err := pgn4.Parse(bytes.NewReader(data))
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
	printReplayed(path, g, *quiet, stdout)
	return nil
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

// replayChess4 replays a game in Chess4's notation on the --variant, else
// the file's Variant header, else the catalog's chess4.
func replayChess4(path, text, variant string, quiet bool, stdout io.Writer) error {
	pg, err := chess4pgn.Parse(text)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if variant == "" {
		variant = pg.Get("Variant")
	}
	if variant == "" {
		variant = "chess4"
	}
	v, err := loadVariant(variant, "")
	if err != nil {
		return err
	}
	g, err := chess4pgn.Replay(pg, v)
	var re *chess4pgn.ReplayError
	if errors.As(err, &re) {
		return fmt.Errorf("%s: illegal %w", path, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	printReplayed(path, g, quiet, stdout)
	return nil
}
