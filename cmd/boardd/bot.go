package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"boardd/engine"
	"boardd/engine/series"
	"boardd/internal/catalog"
	"boardd/rules"
)

func init() {
	register(command{name: "bestmove", summary: "print the move the bot would play in a position (last line: bestmove <move>)", run: runBestmove})
	register(command{name: "match", summary: "play bots, random and greedy players against each other and count the wins", run: runMatch})
}

func runBestmove(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bestmove", stderr)
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants'")
	start := fs.String("start", "", "start array when no --fen4 (modern or classic for teams and ffa)")
	fen := fs.String("fen4", "", "position (FEN4); default the start array")
	movetime := fs.Duration("movetime", 0, "time to think (default 1s when no --depth or --nodes)")
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
	v, err := catalog.Variant(*variant, *start)
	if err != nil {
		return err
	}
	g, err := rules.NewGame(v, *fen)
	if err != nil {
		return fmt.Errorf("%w: --fen4: %v", errUsage, err)
	}
	opt := engine.Options{Level: *level, MoveTime: *movetime, Depth: *depth, Nodes: *nodes, Seed: *seed}
	if *movetime == 0 && (*depth > 0 || *nodes > 0) {
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
