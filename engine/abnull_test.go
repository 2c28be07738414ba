package engine

import (
	"context"
	"testing"
)

// TestABNull measures null-move pruning in Teams: the bot with it against
// the bot without, at equal time per move, sides swapped every game:
// go test ./engine -run ABNull -engine.ab 24 -engine.ab.movetime 100ms
func TestABNull(t *testing.T) {
	if *abGames == 0 {
		t.Skip("a measurement: -engine.ab N")
	}
	v := loadVariant(t, "teams")
	wins, losses, draws := 0, 0, 0
	for i := 0; i < *abGames; i++ {
		var ps [4]Player
		for s := range ps {
			p, _ := NewPlayer("bot:5", *abTime, uint64(i*4+s))
			bp := p.(*BotPlayer)
			newSide := (s+i)%2 == 0
			bp.noNull = !newSide
			if newSide {
				bp.kind = "null"
			} else {
				bp.kind = "nonull"
			}
			ps[s] = bp
		}
		o, err := PlayGame(context.Background(), v, "", ps)
		if err != nil {
			t.Fatal(err)
		}
		switch o.Winner {
		case "null":
			wins++
		case "nonull":
			losses++
		default:
			draws++
		}
		t.Logf("game %d: %s after %d turns; null %d, nonull %d, draws %d", i, o.Winner, o.Turns, wins, losses, draws)
	}
}
