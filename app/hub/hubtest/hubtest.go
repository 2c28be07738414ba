// Package hubtest runs real boards for the hub's tests: a referee.Live
// playing Teams, mirrored over MQTT by sync/mqtt as boardd run does, and
// moves made on it by hand.
package hubtest

import (
	"bufio"
	"cmp"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"boardd/referee"
	"boardd/rules"
	"boardd/sensors"
	"boardd/sync/mqtt"
)

// TeamsMoves are the first five rounds of a Teams game played on
// chess.com (testdata/games/teams/4pchess-26780486.pgn4).
var TeamsMoves = []string{
	"h2-h3", "b7-c7", "g13-g12", "m8-l8",
	"Qg1-i3", "Qa8-d5", "i13-i12", "Qn7-m8",
	"Qi3-i7", "Na10-c9", "Bf14-i11", "Nn5-l6",
	"Qi7-j6", "Na5-c6", "Qh14-i13", "m11-k11",
	"Bi1-h2", "Qd5-g8", "Qi13-e9", "Qm8-l9",
}

// Board is where a test board publishes: the broker's URL (tcp://…) and
// the account.
type Board struct {
	Broker, User, Password string
	Name                   string
	// Keep is how many messages the board keeps (0: the default).
	Keep int
	// Reconnect is the longest pause between the mirror's attempts to
	// reach the broker (0: 100 ms, for a broker that comes back at once).
	Reconnect time.Duration
}

// Start runs the board until t ends: a Live board of Teams with players'
// names and the event as tags, mirrored to the broker.
func Start(t *testing.T, b Board) *referee.Live {
	t.Helper()
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	l, err := referee.NewLive(referee.LiveConfig{Board: b.Name, Variant: "teams", Keep: b.Keep,
		Tags:      map[string]string{"Red": "Ann", "Blue": "Bob", "Yellow": "Cy", "Green": "Di", "Event": "Club night"},
		Occupancy: g.Position().Occupancy(), Quiet: 2 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	m, err := mqtt.Start(ctx, mqtt.Config{Broker: b.Broker, Username: b.User, Password: b.Password,
		Board: b.Name, Source: l, KeepAlive: 5 * time.Second, ConnectTimeout: 2 * time.Second,
		AckTimeout: 2 * time.Second, MaxReconnectInterval: cmp.Or(b.Reconnect, 100*time.Millisecond)})
	if err != nil {
		stop()
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(); stop(); <-done })
	return l
}

// Play makes each move on the board by hand, as a player does, and
// fails the test when the board does not take one.
func Play(t *testing.T, l *referee.Live, moves ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, mv := range moves {
		steps, err := l.HandsFor(ctx, mv)
		if err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		var evs []sensors.Event
		for _, s := range steps {
			k := sensors.Place
			if s.Lift {
				k = sensors.Lift
			}
			evs = append(evs, sensors.Event{Kind: k, Square: s.Square})
		}
		if err := l.Feed(ctx, evs, true); err != nil {
			t.Fatal(err)
		}
		if st := l.State(); len(st.Moves) == 0 || st.Moves[len(st.Moves)-1].Move != mv {
			t.Fatalf("the board did not take %s: %+v", mv, st.Moves)
		}
	}
}

// Child runs this test binary again as a child process, with env added
// to its environment (a TestMain that sees it plays the part: a hub
// process, for one) and no test of its own, and waits for the first line
// of its standard output that ready accepts, which it returns. kill sends
// the child SIGKILL and waits for it (also when t ends).
func Child(t *testing.T, env []string, ready func(line string) bool) (line string, kill func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	kill = func() {
		if !killed {
			killed = true
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
	}
	t.Cleanup(kill)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if ready(sc.Text()) {
			return sc.Text(), kill
		}
	}
	kill()
	t.Fatalf("the child process (%v) ended without the line it was waited for", env)
	return "", nil
}
