package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"time"

	"boardd/internal/catalog"

	"boardd/engine"
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
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

// timedPlayer wraps a bot to add up the time it used against the time it
// allowed itself, and its nodes.
type timedPlayer struct {
	*engine.BotPlayer
	moves            int
	used, allowed    time.Duration
	maxUsed, maxOver time.Duration
	nodes            int64
}

func (p *timedPlayer) Choose(ctx context.Context, g *rules.Game) (engine.Move, error) {
	m, err := p.BotPlayer.Choose(ctx, g)
	if err == nil {
		r := p.Last
		p.moves++
		p.used += r.Elapsed
		p.allowed += r.Allowed
		p.nodes += r.Nodes
		p.maxUsed = max(p.maxUsed, r.Elapsed)
		p.maxOver = max(p.maxOver, r.Elapsed-r.Allowed)
	}
	return m, err
}

func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", stderr)
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants'")
	start := fs.String("start", "", "start array (modern or classic for teams and ffa)")
	games := fs.Int("games", 10, "number of games")
	seed := fs.Uint64("seed", 1, "seed: game i uses seed+i for every player")
	seats := fs.String("seats", "bot:3,random,bot:3,random", "the four players in seat order Red,Blue,Yellow,Green: bot:LEVEL (1-5), random or greedy")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "the bots' time per move (0: each level's depth only, reproducible)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
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
	wins := map[string]int{}
	draws := 0
	stats := map[string]*timedPlayer{} // per bot kind, summed over games
	var order []string
	for i := 0; i < *games; i++ {
		var ps [rules.NumSeats]engine.Player
		for s, k := range kinds {
			p, err := engine.NewPlayer(strings.TrimSpace(k), *movetime, *seed+uint64(i)*7919+uint64(s))
			if err != nil {
				return fmt.Errorf("%w: --seats: %v", errUsage, err)
			}
			if b, ok := p.(*engine.BotPlayer); ok {
				p = &timedPlayer{BotPlayer: b}
			}
			ps[s] = p
		}
		o, err := engine.PlayGame(ctx, v, "", ps)
		if err != nil {
			return fmt.Errorf("game %d: %v", i+1, err)
		}
		for _, p := range ps {
			t, ok := p.(*timedPlayer)
			if !ok {
				continue
			}
			m := stats[t.Kind()]
			if m == nil {
				m = &timedPlayer{}
				stats[t.Kind()] = m
				order = append(order, t.Kind())
			}
			m.moves += t.moves
			m.used += t.used
			m.allowed += t.allowed
			m.nodes += t.nodes
			m.maxUsed = max(m.maxUsed, t.maxUsed)
			m.maxOver = max(m.maxOver, t.maxOver)
		}
		w := o.Winner
		if w == "" {
			draws++
			w = "none"
		} else {
			wins[w]++
		}
		fmt.Fprintf(stdout, "game %d: %d turns, %s, winner %s%s\n", i+1, o.Turns, o.Result.Reason, w, pointsText(v, o.Result))
	}
	for _, k := range order {
		t := stats[k]
		if t.moves == 0 {
			continue
		}
		nps := 0.0
		if t.used > 0 {
			nps = float64(t.nodes) / t.used.Seconds()
		}
		fmt.Fprintf(stderr, "%s: %d moves, %.0f nodes/s, time used %s of %s allowed on average (longest %s, most over %s)\n",
			k, t.moves, nps, (t.used / time.Duration(t.moves)).Round(time.Microsecond), (t.allowed / time.Duration(t.moves)).Round(time.Microsecond),
			t.maxUsed.Round(time.Microsecond), t.maxOver.Round(time.Microsecond))
	}
	fmt.Fprintln(stdout, matchLine(*games, kinds, wins, draws))
	return nil
}

// pointsText gives an FFA game's final points.
func pointsText(v *rules.Variant, r rules.Result) string {
	if v.Mode != rules.FFA {
		return ""
	}
	return fmt.Sprintf(", points %d %d %d %d", r.Points[0], r.Points[1], r.Points[2], r.Points[3])
}

// matchLine is the match's last line: every kind's wins (in the order the
// kinds first appear in --seats), then the draws.
func matchLine(games int, kinds []string, wins map[string]int, draws int) string {
	seen := map[string]bool{}
	var parts []string
	for _, k := range kinds {
		k = strings.TrimSpace(k)
		if k == "bot" {
			k = "bot:3"
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		parts = append(parts, fmt.Sprintf("%s wins %d", k, wins[k]))
	}
	var rest []string
	for k := range wins {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s wins %d", k, wins[k]))
	}
	return fmt.Sprintf("match %d games: %s, draws %d", games, strings.Join(parts, ", "), draws)
}
