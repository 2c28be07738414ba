// Package series plays a match: games between bots, random and greedy
// players (engine.PlayGame), with every game's result, each bot kind's
// use of its time (used against allowed, nodes per second) and the wins
// and draws of the whole series. boardd match runs it.
package series

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"boardd/engine"
	"boardd/rules"
)

// Config is a series of games.
type Config struct {
	Variant  *rules.Variant
	Games    int
	Seed     uint64        // game i uses Seed+i for every player
	Kinds    []string      // the players in seat order: bot:LEVEL, random or greedy (engine.NewPlayer)
	MoveTime time.Duration // the bots' time per move (0: each level's depth only)
}

// KindError is Run's error for a player kind engine.NewPlayer refuses.
type KindError struct{ Err error }

// Error is NewPlayer's message.
func (e *KindError) Error() string { return e.Err.Error() }

// Unwrap is NewPlayer's error.
func (e *KindError) Unwrap() error { return e.Err }

// Run plays c's games until done or ctx ends: a line per game on stdout,
// then each bot kind's time use on stderr and the wins and draws on
// stdout.
func Run(ctx context.Context, c Config, stdout, stderr io.Writer) error {
	wins := map[string]int{}
	draws := 0
	stats := map[string]*timedPlayer{} // per bot kind, summed over games
	var order []string
	for i := 0; i < c.Games; i++ {
		var ps [rules.NumSeats]engine.Player
		for s, k := range c.Kinds {
			p, err := engine.NewPlayer(strings.TrimSpace(k), c.MoveTime, c.Seed+uint64(i)*7919+uint64(s))
			if err != nil {
				return &KindError{Err: err}
			}
			if b, ok := p.(*engine.BotPlayer); ok {
				p = &timedPlayer{BotPlayer: b}
			}
			ps[s] = p
		}
		o, err := engine.PlayGame(ctx, c.Variant, "", ps)
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
		fmt.Fprintf(stdout, "game %d: %d turns, %s, winner %s%s\n", i+1, o.Turns, o.Result.Reason, w, pointsText(c.Variant, o.Result))
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
	fmt.Fprintln(stdout, matchLine(c.Games, c.Kinds, wins, draws))
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

// Choose asks the bot and adds its search to the sums.
func (p *timedPlayer) Choose(ctx context.Context, g *rules.Game) (engine.Move, error) {
	m, err := p.BotPlayer.Choose(ctx, g)
	if err == nil {
		r := p.Last
		p.moves++
		p.used += r.Elapsed
		p.allowed += r.Allowed
		p.nodes += r.Nodes
		p.maxUsed = max(p.maxUsed, r.Elapsed)
		if !r.Forced { // an only move gives itself no time
			p.maxOver = max(p.maxOver, r.Elapsed-r.Allowed)
		}
	}
	return m, err
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
