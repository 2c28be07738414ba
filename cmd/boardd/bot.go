package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"boardd/app/catalog"
	"boardd/engine"
	"boardd/engine/series"
	"boardd/rules"
)

func init() {
	register(command{name: "bestmove", summary: "print the move the bot would play in a position (last line: bestmove <move>)", run: runBestmove})
	register(command{name: "match", summary: "play bots, random and greedy players against each other and count the wins", run: runMatch})
}

// started is about when this process started: a program that runs
// bestmove for each move has spent the time since on the seat's clock.
var started = time.Now()

// clockFlag is a time on a clock given to bestmove: a Go duration (45s,
// 1m30s, 1500ms) or a whole number of milliseconds as UCI's wtime and
// winc take it (45000); never negative.
type clockFlag struct {
	d   time.Duration
	set bool
}

func (f *clockFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.d.String()
}

func (f *clockFlag) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		ms, nerr := strconv.ParseInt(v, 10, 64)
		if nerr != nil {
			return fmt.Errorf("want a time such as 45s, 1m30s or 1500ms, or a whole number of milliseconds (45000)")
		}
		d = time.Duration(ms) * time.Millisecond
	}
	if d < 0 {
		return fmt.Errorf("a time on the clock is never negative")
	}
	f.d, f.set = d, true
	return nil
}

func runBestmove(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bestmove", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd bestmove [--variant teams] [--fen4 F] [--movetime 500ms | --time 45s [--inc 1s | --delay 15s] [--movestogo N] [--hand 1s]] [--depth N] [--nodes N] [--level 1-5]")
		fmt.Fprintln(stderr, "Prints the move the bot plays for the seat to move (last line: bestmove <move>, PGN4).")
		fmt.Fprintln(stderr, "On a clock (--time, the seat's time left; --inc or --delay) the bot plans the move's time itself,")
		fmt.Fprintln(stderr, "as at the board; times are durations (45s, 1m30s) or milliseconds (45000) as UCI's wtime and winc.")
		fmt.Fprintln(stderr, "The clock runs from this process's start. With only one legal move it answers at once.")
		fs.PrintDefaults()
	}
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants'")
	start := fs.String("start", "", "start array when no --fen4 (modern or classic for teams and ffa)")
	fen := fs.String("fen4", "", "position (FEN4); default the start array")
	movetime := fs.Duration("movetime", 0, "time to think (default 1s when no --depth, --nodes or --time)")
	var left, inc, delay, hand clockFlag
	fs.Var(&left, "time", "the seat's time left on its clock, a `duration` (45s) or milliseconds as UCI's wtime (45000): the bot plans the move on it")
	fs.Var(&inc, "inc", "with --time: the increment added after each move, a `duration` (1s) or milliseconds as UCI's winc (1000)")
	fs.Var(&delay, "delay", "with --time: the simple delay, free time at the start of each turn, a `duration` (15s)")
	movestogo := fs.Int("movestogo", 0, "with --time: the seat's moves to go, this one included (0: estimated from the position)")
	fs.Var(&hand, "hand", "with --time: how long a person takes to make the move on a board while the clock runs, a `duration` (default 0: the calling program plays it)")
	depth := fs.Int("depth", 0, "search depth in plies (one seat's move each); with no --movetime the search is reproducible")
	nodes := fs.Int64("nodes", 0, "stop after about this many positions")
	level := fs.Int("level", engine.MaxLevel, "strength 1-5")
	seed := fs.Uint64("seed", 0, "seed for the level's noise and tie-breaks")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *level < 1 || *level > engine.MaxLevel {
		return fmt.Errorf("%w: --level %d: want 1 to %d", errUsage, *level, engine.MaxLevel)
	}
	clk, err := bestmoveClock(left, inc, delay, hand, *movestogo, *movetime)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	v, err := catalog.Variant(*variant, *start)
	if err != nil {
		return err
	}
	g, err := rules.NewGame(v, *fen)
	if err != nil {
		return fmt.Errorf("%w: --fen4: %v", errUsage, err)
	}
	opt := engine.Options{Level: *level, MoveTime: *movetime, Depth: *depth, Nodes: *nodes, Seed: *seed}
	if clk != nil {
		// The clock has run since this process started.
		clk.Used = time.Since(started)
		clk.Left -= max(clk.Used-clk.Delay, 0)
		if clk.Left <= 0 {
			clk.Left = time.Nanosecond // nothing left: the first iteration's move
		}
		opt.Clock = clk
	} else if *movetime == 0 && (*depth > 0 || *nodes > 0) {
		opt.NoTimeLimit = true
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	r, err := engine.New(opt).Think(ctx, g)
	if err != nil {
		return fmt.Errorf("%s to move has no legal move in this position (is the game over?)", g.Turn())
	}
	nps := 0.0
	if r.Elapsed > 0 {
		nps = float64(r.Nodes) / r.Elapsed.Seconds()
	}
	fmt.Fprintf(stdout, "info depth %d score %d nodes %d nps %.0f time %dms\n", r.Depth, r.Score, r.Nodes, nps, r.Elapsed.Milliseconds())
	fmt.Fprintf(stdout, "bestmove %s\n", r.Text)
	return nil
}

// bestmoveClock reads bestmove's clock flags: nil without --time; an
// error naming the flag for a clock flag without --time, --time with
// --movetime, no time left, or moves to go below 0.
func bestmoveClock(left, inc, delay, hand clockFlag, movestogo int, movetime time.Duration) (*engine.Clock, error) {
	if !left.set {
		for _, f := range []struct {
			name string
			set  bool
		}{{"--inc", inc.set}, {"--delay", delay.set}, {"--hand", hand.set}, {"--movestogo", movestogo != 0}} {
			if f.set {
				return nil, fmt.Errorf("%s needs --time, the seat's time left (--time 45s %s …)", f.name, f.name)
			}
		}
		return nil, nil
	}
	switch {
	case movetime != 0:
		return nil, fmt.Errorf("--time and --movetime: give one (the clock, or a fixed time per move)")
	case left.d == 0:
		return nil, fmt.Errorf("--time 0s: the seat has no time left (its flag has fallen)")
	case movestogo < 0:
		return nil, fmt.Errorf("--movestogo %d: want the seat's moves to go, 1 or more (0: estimated)", movestogo)
	case inc.d > 0 && delay.d > 0:
		return nil, fmt.Errorf("--inc and --delay: a time control has one or the other")
	}
	c := &engine.Clock{Left: left.d, Increment: inc.d, Delay: delay.d, Hand: hand.d, MovesToGo: movestogo}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return c, nil
}

func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", stderr)
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants'")
	start := fs.String("start", "", "start array (modern or classic for teams and ffa)")
	games := fs.Int("games", 10, "number of games")
	seed := fs.Uint64("seed", 1, "seed: game i uses seed+i for every player")
	seats := fs.String("seats", "bot:3,random,bot:3,random", "the four players in seat order Red,Blue,Yellow,Green: bot:LEVEL (1-5), random or greedy")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "the bots' time per move (0: each level's depth only, reproducible)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	kinds := strings.Split(*seats, ",")
	if len(kinds) != rules.NumSeats {
		return fmt.Errorf("%w: --seats %q: want four players separated by commas (bot:3,random,bot:3,random)", errUsage, *seats)
	}
	v, err := catalog.Variant(*variant, *start)
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	err = series.Run(ctx, series.Config{Variant: v, Games: *games, Seed: *seed, Kinds: kinds, MoveTime: *movetime}, stdout, stderr)
	if ke := (*series.KindError)(nil); errors.As(err, &ke) {
		return fmt.Errorf("%w: --seats: %v", errUsage, ke.Err)
	}
	return err
}
