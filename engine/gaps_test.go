package engine

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/rules"
)

var (
	gapGames   = flag.Int("engine.gaps", 0, "TestLevelGaps: games per pair of levels (the measurement: 100)")
	gapVariant = flag.String("engine.gaps.variant", "ffa", "TestLevelGaps: the variant")
	gapPairs   = flag.String("engine.gaps.pairs", "2/1,3/2,4/3,5/4", "TestLevelGaps: the pairs, stronger/weaker")
	gapNodes   = flag.Int64("engine.gaps.nodes", 20000, "TestLevelGaps: nodes a move of the full time (level 5); a level gets its share of the time of it")
	gapTime    = flag.Duration("engine.gaps.movetime", 0, "TestLevelGaps: time a move instead of nodes (not reproducible)")
	gapWorkers = flag.Int("engine.gaps.workers", 1, "TestLevelGaps: games played at once")
	gapFrac    = flag.String("engine.gaps.frac", "", "TestLevelGaps: the five levels' shares of the time instead of the table's, comma-separated (a ladder under trial)")
	gapDepth   = flag.String("engine.gaps.depth", "", "TestLevelGaps: the five levels' depth limits (both modes) instead of the table's, comma-separated (0: no limit)")
	gapBlunder = flag.String("engine.gaps.blunder", "", "TestLevelGaps: the five levels' blunders per mille (both modes) instead of the table's, comma-separated")
	gapNoise   = flag.String("engine.gaps.noise", "", "TestLevelGaps: the five levels' noise in centipawns (both modes) instead of the table's, comma-separated")
)

// setLadder replaces the level table's time shares, depths, blunders and
// noise with those of -engine.gaps.frac, .depth, .blunder and .noise, for
// the test's duration.
func setLadder(t *testing.T) {
	saved := levels
	t.Cleanup(func() { levels = saved })
	for _, f := range []struct {
		text string
		set  func(l int, x float64)
	}{
		{*gapFrac, func(l int, x float64) { levels[l].timeFrac = x }},
		{*gapDepth, func(l int, x float64) {
			if x == 0 {
				x = unlimited
			}
			levels[l].partners.depth, levels[l].singles.depth = int(x), int(x)
		}},
		{*gapBlunder, func(l int, x float64) { levels[l].partners.blunder, levels[l].singles.blunder = int(x), int(x) }},
		{*gapNoise, func(l int, x float64) { levels[l].partners.noise, levels[l].singles.noise = int(x), int(x) }},
	} {
		if f.text == "" {
			continue
		}
		parts := strings.Split(f.text, ",")
		if len(parts) != MaxLevel {
			t.Fatalf("%q: want %d numbers, one a level", f.text, MaxLevel)
		}
		for i, p := range parts {
			x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				t.Fatalf("%q: %v", f.text, err)
			}
			f.set(i+1, x)
		}
	}
}

// levelNodes is the node limit of a level when a whole move's time is
// worth base nodes: the level's share of the time, as with a move time.
func levelNodes(level int, base int64) int64 {
	return max(1, int64(float64(base)*levels[level].timeFrac))
}

// TestLevelGaps measures each level against the one below it: two seats
// each, the stronger on Red and Yellow in even games and on Blue and Green
// in odd ones, with node limits (reproducible on a loaded machine):
// go test ./engine -run LevelGaps -engine.gaps 100 -engine.gaps.variant ffa
func TestLevelGaps(t *testing.T) {
	if *gapGames == 0 {
		t.Skip("a measurement: -engine.gaps N")
	}
	v := loadVariant(t, *gapVariant)
	setLadder(t)
	for _, pair := range strings.Split(*gapPairs, ",") {
		hi, lo, ok := strings.Cut(pair, "/")
		h, err1 := strconv.Atoi(hi)
		l, err2 := strconv.Atoi(lo)
		if !ok || err1 != nil || err2 != nil || h < 1 || h > MaxLevel || l < 1 || l > MaxLevel {
			t.Fatalf("-engine.gaps.pairs %q: want pairs of levels such as 3/2", pair)
		}
		hiKind, loKind := fmt.Sprintf("bot:%d", h), fmt.Sprintf("bot:%d", l)
		won := 0
		began := time.Now()
		outs := playMany(t, v, *gapGames, *gapWorkers, func(i int) [4]Player {
			var ps [4]Player
			for s := range ps {
				lvl := l
				if (s%2 == 0) == (i%2 == 0) {
					lvl = h
				}
				opt := Options{Level: lvl, Seed: uint64(i*4+s) + 1, HashMB: 8}
				if *gapTime > 0 {
					opt.MoveTime = *gapTime
				} else {
					opt.Nodes, opt.NoTimeLimit = levelNodes(lvl, *gapNodes), true
				}
				ps[s] = &BotPlayer{Engine: New(opt), kind: fmt.Sprintf("bot:%d", lvl)}
			}
			return ps
		}, func(done int, o Outcome) {
			if o.Winner == hiKind {
				won++
			}
			if done%10 == 0 && done < *gapGames {
				t.Logf("%d of %d games played, level %d won %d, %s", done, *gapGames, h, won, time.Since(began).Round(time.Second))
			}
		})
		wins, losses, draws, turns := 0, 0, 0, 0
		for _, o := range outs {
			turns += o.Turns
			switch o.Winner {
			case hiKind:
				wins++
			case loKind:
				losses++
			default:
				draws++
			}
		}
		n := float64(len(outs))
		p := (float64(wins) + float64(draws)/2) / n
		ci := 1.96 * math.Sqrt(p*(1-p)/n)
		t.Logf("%s level %d against %d: %d–%d, %d draws: %.0f %% (95 %% interval ±%.0f %%), %.0f turns a game, %s",
			v.Name, h, l, wins, losses, draws, 100*p, 100*ci, float64(turns)/n, time.Since(began).Round(time.Second))
	}
}

var (
	ffaGames   = flag.Int("engine.ffa", 0, "TestFFAFirsts: games against each opponent (the measurement: 200)")
	ffaOpps    = flag.String("engine.ffa.against", "plain,bot:4", "TestFFAFirsts: the opponents, comma-separated: plain (the Teams search with a plain evaluation) or bot:LEVEL")
	ffaNodes   = flag.Int64("engine.ffa.nodes", 20000, "TestFFAFirsts: nodes a move of the full time (level 5 and plain); lower levels get their share")
	ffaWorkers = flag.Int("engine.ffa.workers", 1, "TestFFAFirsts: games played at once")
)

// TestFFAFirsts counts the first places of the FFA bot (level 5) alone
// against three opponents of one kind, its seat going round the board
// game by game: the Teams-strength search playing FFA on a plain
// evaluation (plain), or a lower level. A quarter of the firsts is what
// an equal player gets. Node limits, so it is reproducible:
// go test ./engine -run FFAFirsts -engine.ffa 200 -engine.ffa.workers 2
func TestFFAFirsts(t *testing.T) {
	if *ffaGames == 0 {
		t.Skip("a measurement: -engine.ffa N")
	}
	v := loadVariant(t, "ffa")
	for _, opp := range strings.Split(*ffaOpps, ",") {
		oppLevel := MaxLevel
		if opp != "plain" {
			n, err := strconv.Atoi(strings.TrimPrefix(opp, "bot:"))
			if err != nil || !strings.HasPrefix(opp, "bot:") || n < 1 || n > MaxLevel {
				t.Fatalf("-engine.ffa.against %q: want plain or bot:LEVEL", opp)
			}
			oppLevel = n
		}
		const me = "ffa bot:5"
		began := time.Now()
		outs := playMany(t, v, *ffaGames, *ffaWorkers, func(i int) [4]Player {
			var ps [4]Player
			for s := range ps {
				lvl, kind := oppLevel, opp
				if s == i%4 {
					lvl, kind = MaxLevel, me
				}
				e := New(Options{Level: lvl, Seed: uint64(i*4+s) + 1, HashMB: 8, Nodes: levelNodes(lvl, *ffaNodes), NoTimeLimit: true})
				e.plain = kind == "plain"
				ps[s] = &BotPlayer{Engine: e, kind: kind}
			}
			return ps
		}, nil)
		winners := make([]string, len(outs))
		for i, o := range outs {
			winners[i] = o.Winner
		}
		firsts, shared := 0, 0
		for _, w := range winners {
			switch w {
			case me:
				firsts++
			case "":
				shared++ // first place shared with an opponent (or no winner)
			}
		}
		n := float64(len(winners))
		p := float64(firsts) / n
		t.Logf("FFA: level 5 alone against three %s: first in %d of %d games (%.0f %%, ±%.0f %%; equal players: 25 %%), %d shared or none, %s",
			opp, firsts, len(winners), 100*p, 100*1.96*math.Sqrt(p*(1-p)/n), shared, time.Since(began).Round(time.Second))
	}
}

// playMany plays n games of v, workers at a time, the seats of game i
// from seats(i), and returns their outcomes in game order; progress, if
// not nil, is told of each game as it ends (one call at a time, done
// counting the games ended). The first game that fails ends the test.
func playMany(t *testing.T, v *rules.Variant, n, workers int, seats func(i int) [4]Player, progress func(done int, o Outcome)) []Outcome {
	t.Helper()
	out := make([]Outcome, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	done := 0
	for w := 0; w < max(1, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				o, err := PlayGame(context.Background(), v, "", seats(i))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("game %d: %v", i, err)
				}
				out[i] = o
				done++
				if progress != nil {
					progress(done, o)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range out {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	return out
}
