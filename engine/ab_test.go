package engine

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"
)

var (
	abGames = flag.Int("engine.ab", 0, "TestAB: games per variant of the bot with the terms under trial against the bot without")
	abTime  = flag.Duration("engine.ab.movetime", 20*time.Millisecond, "TestAB: time per move")
	abNodes = flag.Int64("engine.ab.nodes", 0, "TestAB: nodes per move instead of a time (reproducible)")
	abWhat  = flag.String("engine.ab.what", "trial", "TestAB: trial (the terms under trial against none), brs (best-reply search against paranoid, singles modes), lead (singles: the leading opponent weighing half), null (null-move pruning against none, Teams), prune (shallow pruning against none, partnership modes), hist (history with debits, bounds and reductions, against without), delta (quiescence's delta pruning against none), counter (counter-moves against none, partnership modes), brsprune, brshist, brscheck (shallow pruning, history debits, check extensions in best-reply search against none), lmp (late-move pruning at depths 4 and 5 too, against at 1 to 3), sel (the selective search of the partnership modes against the plain one)")
	abVars  = flag.String("engine.ab.variants", "teams,ffa", "TestAB: the variants, comma-separated")
)

// TestAB measures the terms under trial (searcher.trial) against the bot
// without them, at equal time per move, seats swapped every game:
// go test ./engine -run AB -engine.ab 40; best-reply search against
// paranoid: -engine.ab.what brs -engine.ab.variants ffa -engine.ab.nodes 20000;
// null-move pruning against none: -engine.ab.what null -engine.ab.variants teams
func TestAB(t *testing.T) {
	if *abGames == 0 {
		t.Skip("a measurement: -engine.ab N")
	}
	for _, name := range strings.Split(*abVars, ",") {
		v := loadVariant(t, name)
		wins, losses, draws := 0, 0, 0
		for i := 0; i < *abGames; i++ {
			var ps [4]Player
			for s := range ps {
				p, _ := NewPlayer("bot:5", *abTime, uint64(i*4+s))
				bp := p.(*BotPlayer)
				if *abNodes > 0 {
					bp.SetOptions(Options{Level: 5, Nodes: *abNodes, NoTimeLimit: true, Seed: uint64(i*4 + s)})
				}
				newSide := (s+i)%2 == 0
				switch *abWhat {
				case "trial":
					bp.trial = newSide
				case "brs":
					bp.noBRS = !newSide
				case "lead":
					bp.lead = newSide
				case "null":
					bp.noNull = !newSide
				case "prune":
					bp.noPrune = !newSide
				case "hist":
					bp.noHist = !newSide
				case "delta":
					bp.noDelta = !newSide
				case "counter":
					bp.noCounter = !newSide
				case "brsprune":
					bp.brsPrune = newSide
				case "brshist":
					bp.brsHist = newSide
				case "brscheck":
					bp.brsCheck = newSide
				case "lmp":
					bp.deepLMP = newSide
				case "sel":
					bp.noSel = !newSide
				default:
					t.Fatalf("-engine.ab.what %q: want trial, brs, lead, null, prune, hist, delta, counter, brsprune, brshist, brscheck, lmp or sel", *abWhat)
				}
				if newSide {
					bp.kind = "trial"
				} else {
					bp.kind = "default"
				}
				ps[s] = bp
			}
			o, err := PlayGame(context.Background(), v, "", ps)
			if err != nil {
				t.Fatal(err)
			}
			switch o.Winner {
			case "trial":
				wins++
			case "default":
				losses++
			default:
				draws++
			}
			if n := i + 1; n%20 == 0 && n < *abGames {
				t.Logf("%s: %d of %d games: trial %d, default %d, draws %d", name, n, *abGames, wins, losses, draws)
			}
		}
		t.Logf("%s: trial %d, default %d, draws %d", name, wins, losses, draws)
	}
}
