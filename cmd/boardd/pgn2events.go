package main

import (
	"fmt"
	"io"
	"os"

	"boardd/app/catalog"
	"boardd/referee/handsim"
	"boardd/rules/pgn4"
)

func init() {
	register(command{name: "pgn2events", summary: "turn a PGN4 game into a switch script (lifts, places, bounce, quick replies) for 'boardd sim --switches'", run: runPGN2Events})
}

func runPGN2Events(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pgn2events", stderr)
	variant := fs.String("variant", "", "rules: a name from 'boardd variants' (default: the game's Variant tag)")
	noiseName := fs.String("noise", "light", "none (clean lifts and places), light (contact bounce, random capture and castling order) or heavy (also slides, nudged neighbours, quick replies, pieces lifted and put back, castling and captures with human pauses between the parts)")
	seed := fs.Int64("seed", 1, "random seed: the same seed gives the same script")
	if err := fs.Parse(args); err != nil {
		return err
	}
	noise, err := handsim.ParseNoise(*noiseName)
	if err != nil {
		return fmt.Errorf("%w: --%v", errUsage, err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one PGN4 file (boardd pgn2events [--noise light] [--seed 1] GAME.pgn4 > game.switches)", errUsage)
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	pg, _, err := pgn4.ParseString(string(data))
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	g, _, err := pgn4.ReplayWith(pg, *variant, catalog.Variant)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	script, err := handsim.Script(g, *seed, noise)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# %s as hands on reed switches: noise %s, seed %d, variant %s\n# play it: boardd sim --variant %s --switches --script FILE\n", fs.Arg(0), *noiseName, *seed, g.Variant().Name, g.Variant().Name)
	_, err = io.WriteString(stdout, script)
	return err
}
