package main

import (
	"context"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"boardd/configs"
	"boardd/referee"
	"boardd/rules"
)

// TestRunWithBotSeats: boardd run with three bot seats (game.seats) and
// one person plays a whole game on the simulated board: every bot move is
// lit as a remote move, the person executes it on the switches, and the
// person's own moves (random legal ones) are made the same way, until the
// game's rules end it.
func TestRunWithBotSeats(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game through the daemon")
	}
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "127.0.0.1:0"
	cfg.Sensors.Quiet = 50 * time.Millisecond
	cfg.Game.Seats = map[string]string{"Blue": "bot:2", "Yellow": "bot:1", "Green": "bot:2"}
	cfg.Bot.MoveTime = 20 * time.Millisecond
	d, err := startDaemon(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	st := d.live.State()
	if st.Tags["Bots"] != "Blue:2,Yellow:1,Green:2" || st.Tags["Remote"] != "Blue,Yellow,Green" {
		t.Fatalf("tags %v: want the bot seats in Bots and Remote", st.Tags)
	}
	sig, cancel := d.live.Changed()
	defer cancel()
	rng := rand.New(rand.NewPCG(3, 4))
	v, _ := loadVariant("teams", "")
	done := ""
	deadline := time.After(5 * time.Minute)
	lit := 0
	for {
		st = d.live.State()
		if st.Result != nil {
			break
		}
		if st.Status == "playing" && st.FEN4 != done {
			g, err := rules.NewGame(v, st.FEN4)
			if err != nil {
				t.Fatal(err)
			}
			var m rules.Move
			switch {
			case st.Turn == "Red":
				moves := g.LegalMoves()
				m = moves[rng.IntN(len(moves))]
			case st.Remote != nil:
				if st.Remote.Seat != st.Turn {
					t.Fatalf("lit %s's move on %s's turn", st.Remote.Seat, st.Turn)
				}
				if m, err = referee.ResolveMove(g.Position(), g.LegalMoves(), st.Remote.Move); err != nil {
					t.Fatalf("lit move %s: %v", st.Remote.Move, err)
				}
				lit++
			}
			if m != 0 {
				for _, x := range referee.Hands(g.Position(), m) {
					if x.Lift {
						d.simBoard.Lift(x.Square)
					} else {
						d.simBoard.Place(x.Square)
					}
					time.Sleep(15 * time.Millisecond) // a hand, not a teleport
				}
				done = st.FEN4
			}
		}
		select {
		case <-sig:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("the game stalled after %d turns: status %s, turn %s, lit %+v", len(st.Moves), st.Status, st.Turn, st.Remote)
		}
	}
	if lit == 0 {
		t.Fatal("no bot move was lit")
	}
	t.Logf("%d turns, %d bot moves lit and made, %s", len(st.Moves), lit, st.Result.Reason)
}
