package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"boardd/app/catalog"
	"boardd/app/termsim"
	"boardd/internal/printable"
	"boardd/rules"
	"boardd/rules/fortress"
	"boardd/rules/square"
	"boardd/sync/archive"
)

func init() {
	register(command{name: "sim", summary: "play on a simulated board in the terminal (typed or scripted lifts, places and moves)", run: runSim})
}

func runSim(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sim", stderr)
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants'")
	start := fs.String("start", "", "start array (default: the variant's first), or a start position in FEN4 (russian-fortress: any fortress placement)")
	script := fs.String("script", "", "read commands from this file instead of standard input")
	color := fs.Bool("color", false, "draw the LEDs with ANSI colours")
	quiet := fs.Bool("q", false, "do not draw the board after each judgement")
	journal := fs.String("journal", "", "record every turn in this journal (fsync per turn); if it exists, resume its game")
	archiveDir := fs.String("archive", "", "save the finished game as PGN4 in this archive directory")
	event := fs.String("event", "", "event name for the game's PGN4 headers")
	round := fs.String("round", "", "round for the game's PGN4 headers")
	switches := fs.Bool("switches", false, "the script is a switch script (lift SQ, place SQ, wait 30ms, bounce SQ MS) played through simulated reed switches, their debounce and the referee in simulated time")
	quietFor := fs.Duration("quiet", 400*time.Millisecond, "with --switches: how long the board must be still before the referee judges")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, f := range [...]struct{ flag, v string }{{"--event", *event}, {"--round", *round}} {
		if err := printable.Check(f.v); err != nil {
			return fmt.Errorf("%w: %s %v", errUsage, f.flag, err)
		}
	}
	if *switches && *script == "" {
		return fmt.Errorf("%w: --switches needs --script FILE", errUsage)
	}
	array, fen := rules.SplitStart(*start)
	v, err := catalog.Variant(*variant, array)
	if err != nil {
		return err
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return err
	}
	if fen != "" && rules.HookOptions[fortress.Options](v).Fortresses != [rules.NumSeats]square.Set{} {
		if err := fortress.CheckStart(v, fen); err != nil {
			fmt.Fprintln(stderr, "warning: not a fortress start position:", err)
		}
	}
	var jl *archive.Journal
	if *journal != "" {
		if jl, g, err = termsim.OpenJournal(*journal, *start, g, catalog.Variant, stdout, stderr); err != nil {
			return err
		}
		defer jl.Close()
	}
	in := io.Reader(os.Stdin)
	if *script != "" {
		f, err := os.Open(*script)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	} else {
		fmt.Fprintln(stdout, termsim.Help)
	}
	s, err := termsim.Start(g, jl, catalog.Variant, stdout)
	if err != nil {
		return err
	}
	defer s.Stop()
	s.SetView(*color, !*quiet)
	s.Show()
	if *switches {
		err = s.PlaySwitches(in, *script, *quietFor)
	} else {
		err = s.PlayLines(in, *script)
	}
	if err != nil {
		return err
	}
	return s.Finish(*event, *round, *archiveDir)
}
