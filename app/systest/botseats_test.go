package systest

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"boardd/app/board"
	"boardd/app/catalog"
	"boardd/configs"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sync/botseat"
	"boardd/sync/mqttclient"
)

// handMove makes move m of game g on the daemon's simulated switches as
// a hand does: one lift or place at a time.
func handMove(d *board.Daemon, g *rules.Game, m rules.Move) {
	for _, x := range referee.Hands(g.Position(), m) {
		if x.Lift {
			d.SimBoard.Lift(x.Square)
		} else {
			d.SimBoard.Place(x.Square)
		}
		// A hand, not a teleport: each change outlasts the switches'
		// debounce (4 scans at 200 Hz) with room for a busy machine.
		time.Sleep(60 * time.Millisecond)
	}
}

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
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	st := d.Live.State()
	if st.Tags["Bots"] != "Blue:2,Yellow:1,Green:2" || st.Tags["Remote"] != "Blue,Yellow,Green" {
		t.Fatalf("tags %v: want the bot seats in Bots and Remote", st.Tags)
	}
	sig, cancel := d.Live.Changed()
	defer cancel()
	rng := rand.New(rand.NewPCG(3, 4))
	v, _ := catalog.Variant("teams", "")
	done := ""
	deadline := time.After(5 * time.Minute)
	lit := 0
	for {
		st = d.Live.State()
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
				if m, err = pgn4.Resolve(g, st.Remote.Move); err != nil {
					t.Fatalf("lit move %s: %v", st.Remote.Move, err)
				}
				lit++
			}
			if m != 0 {
				handMove(d, g, m)
				done = st.FEN4
			}
		}
		select {
		case <-sig:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("the game stalled after %d turns: status %s (wrong %v, missing %v), turn %s, lit %+v", len(st.Moves), st.Status, st.Wrong, st.Missing, st.Turn, st.Remote)
		}
	}
	if lit == 0 {
		t.Fatal("no bot move was lit")
	}
	t.Logf("%d turns, %d bot moves lit and made, %s", len(st.Moves), lit, st.Result.Reason)
}

// TestBotOverMQTT: boardd bot plays Green of a board over the board's
// embedded broker: it makes the seat remote, and on each of Green's turns
// its move is lit on the board, where a person makes it; the other seats
// are played at the board.
func TestBotOverMQTT(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon with its broker")
	}
	cfg := configs.Defaults()
	cfg.Board, cfg.StateDir = "club-9", t.TempDir()
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	cfg.MQTT.Embedded.Users = []configs.User{{Name: "bot", Password: "bot-secret", Write: true}}
	cfg.Web.Listen = "off"
	cfg.Sensors.Quiet = 50 * time.Millisecond
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	bf := mqttclient.Broker{URL: "tcp://" + d.MQTTAddr, User: "bot", Password: "bot-secret", Prefix: "boardd"}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		src, err := mqttclient.Dial(ctx, bf, "club-9") // as boardd bot plays a seat
		if err != nil {
			done <- err
			return
		}
		defer src.Close()
		done <- botseat.Run(ctx, src, botseat.Config{Lookup: catalog.Variant, Seats: map[rules.Seat]int{rules.Green: 2},
			MoveTime: 20 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	}()
	sig, cancel := d.Live.Changed()
	defer cancel()
	rng := rand.New(rand.NewPCG(5, 6))
	v, _ := catalog.Variant("teams", "")
	doneFEN, greens := "", 0
	deadline := time.After(2 * time.Minute)
	for greens < 4 {
		st := d.Live.State()
		if st.Result != nil {
			break
		}
		if st.Status == "playing" && st.FEN4 != doneFEN {
			g, _ := rules.NewGame(v, st.FEN4)
			var m rules.Move
			switch {
			case st.Turn != "Green":
				moves := g.LegalMoves()
				m = moves[rng.IntN(len(moves))]
			case st.Remote != nil:
				if !st.Seats[rules.Green].Remote {
					t.Fatal("Green's move lit but the seat is not remote")
				}
				if m, err = pgn4.Resolve(g, st.Remote.Move); err != nil {
					t.Fatal(err)
				}
				greens++
			}
			if m != 0 {
				handMove(d, g, m)
				doneFEN = st.FEN4
			}
		}
		select {
		case <-sig:
		case <-time.After(100 * time.Millisecond):
		case err := <-done:
			t.Fatalf("boardd bot stopped: %v", err)
		case <-deadline:
			t.Fatalf("stalled after %d turns: status %s (wrong %v, missing %v), turn %s, lit %+v", len(st.Moves), st.Status, st.Wrong, st.Missing, st.Turn, st.Remote)
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if greens == 0 {
		t.Fatal("the bot made no move")
	}
	t.Logf("the bot made %d moves for Green over MQTT", greens)
}
