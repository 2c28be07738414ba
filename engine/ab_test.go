package engine

import (
	"context"
	"flag"
	"testing"
	"time"
)

var (
	abGames = flag.Int("engine.ab", 0, "TestAB: games per variant of the bot with the terms under trial against the bot without")
	abTime  = flag.Duration("engine.ab.movetime", 20*time.Millisecond, "TestAB: time per move")
)

// TestAB measures the terms under trial (searcher.trial) against the bot
// without them, at equal time per move, seats swapped every game:
// go test ./engine -run AB -engine.ab 40
func TestAB(t *testing.T) {
	if *abGames == 0 {
		t.Skip("a measurement: -engine.ab N")
	}
	for _, name := range []string{"teams", "ffa"} {
		v := loadVariant(t, name)
		wins, losses, draws := 0, 0, 0
		for i := 0; i < *abGames; i++ {
			var ps [4]Player
			for s := range ps {
				p, _ := NewPlayer("bot:5", *abTime, uint64(i*4+s))
				bp := p.(*BotPlayer)
				newSide := (s+i)%2 == 0
				bp.trial = newSide
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
		}
		t.Logf("%s: trial %d, default %d, draws %d", name, wins, losses, draws)
	}
}
