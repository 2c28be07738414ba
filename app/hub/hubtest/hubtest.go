// Package hubtest runs real boards for the hub's tests: a referee.Live
// playing Teams, mirrored over MQTT by sync/mqtt as boardd run does, and
// moves made on it by hand.
package hubtest

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boardd/referee"
	"boardd/referee/clock"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
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
	// Clock is the time control (nil: no clocks).
	Clock *clock.Control
	// Key is the board's own key on a hub's board account
	// (mqtt.JoinPassword); empty is "key-<Name>".
	Key string
	// Reconnect is the longest pause between the mirror's attempts to
	// reach the broker (0: 100 ms, for a broker that comes back at once).
	Reconnect time.Duration
}

// Start runs the board until t ends: a Live board of Teams with players'
// names and the event as tags (Run), mirrored to the broker.
func Start(t *testing.T, b Board) *referee.Live {
	t.Helper()
	l := Live(t, b)
	Mirror(t, b, l)
	return l
}

// Live runs the board until t ends without mirroring it anywhere (a
// board whose network is down): Mirror connects it.
func Live(t *testing.T, b Board) *referee.Live {
	t.Helper()
	return RunWith(t, b.Name, func(c *referee.LiveConfig) { c.Keep, c.Clock = b.Keep, b.Clock })
}

// Mirror mirrors the running board l to b's broker, as boardd run does,
// until t ends or the returned function closes it (the board's network
// gone, its power cut). A mirror started again publishes from l's next
// message (it has no state file): the hub asks for the ones it missed.
func Mirror(t *testing.T, b Board, l *referee.Live) func() {
	t.Helper()
	off, err := mirror(b, l)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeOnce := func() { once.Do(off) }
	t.Cleanup(closeOnce)
	return closeOnce
}

func mirror(b Board, l *referee.Live) (func(), error) {
	if b.Key == "" {
		b.Key = "key-" + b.Name
	}
	m, err := mqtt.Start(context.Background(), mqtt.Config{Broker: b.Broker, Username: b.User, Password: b.Password, Key: b.Key,
		Board: b.Name, Source: l, KeepAlive: 5 * time.Second, ConnectTimeout: 2 * time.Second,
		AckTimeout: 2 * time.Second, MaxReconnectInterval: cmp.Or(b.Reconnect, 100*time.Millisecond)})
	if err != nil {
		return nil, err
	}
	return func() { m.Close() }, nil
}

// Run runs a Live board of Teams named name, with players' names and
// the event as tags, until t ends; keep is how many messages it keeps
// (0: the default). Nothing mirrors it: read its stream with
// referee.Resume.
func Run(t *testing.T, name string, keep int) *referee.Live {
	t.Helper()
	return RunWith(t, name, func(c *referee.LiveConfig) { c.Keep = keep })
}

// RunWith is Run with the board's config changed by edit (a time
// control, what it keeps).
func RunWith(t *testing.T, name string, edit func(*referee.LiveConfig)) *referee.Live {
	t.Helper()
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	cfg := referee.LiveConfig{Board: name, Variant: "teams",
		Tags:      map[string]string{"Red": "Ann", "Blue": "Bob", "Yellow": "Cy", "Green": "Di", "Event": "Club night"},
		Occupancy: g.Position().Occupancy(), Quiet: 2 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)}
	if edit != nil {
		edit(&cfg)
	}
	l, err := referee.NewLive(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	return l
}

// Play makes each move on the board by hand, as a player does, and
// fails the test when the board does not take one.
func Play(t *testing.T, l *referee.Live, moves ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, mv := range moves {
		if err := Move(ctx, l, mv); err != nil {
			t.Fatal(err)
		}
	}
}

// Move makes one move (PGN4) on the board by hand and says why when the
// board does not take it. Unlike Play it may run outside the test's
// goroutine (several boards playing at once).
func Move(ctx context.Context, l *referee.Live, mv string) error {
	steps, err := l.HandsFor(ctx, mv)
	if err != nil {
		return fmt.Errorf("%s: %v", mv, err)
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
		return fmt.Errorf("%s: %v", mv, err)
	}
	last := func() string {
		if st := l.State(); len(st.Moves) > 0 {
			return st.Moves[len(st.Moves)-1].Move
		}
		return ""
	}
	// A promotion with a choice: the board played its default piece and
	// the player chooses another, as on the board's page.
	if i := strings.Index(mv, "="); i > 0 && i+1 < len(mv) && last() != mv && strings.HasPrefix(last(), mv[:i+1]) {
		if rep := l.Do(ctx, referee.Command{Name: referee.CmdPromote, Piece: mv[i+1 : i+2]}); !rep.OK {
			return fmt.Errorf("%s: promote: %s", mv, rep.Error)
		}
	}
	if got := last(); got != mv {
		return fmt.Errorf("the board did not take %s: its last move is %q", mv, got)
	}
	return nil
}

// SetUp sets the pieces up as the board's game wants them (after a
// new_game on a board where the last game's pieces stand): every piece
// off a square that should be empty, one on every square that should
// hold one, as the set-up lights show.
func SetUp(ctx context.Context, l *referee.Live) error {
	st := l.State()
	var evs []sensors.Event
	for _, name := range st.Wrong {
		q, err := square.Parse(name)
		if err != nil {
			return err
		}
		evs = append(evs, sensors.Event{Kind: sensors.Lift, Square: q})
	}
	for _, name := range st.Missing {
		q, err := square.Parse(name)
		if err != nil {
			return err
		}
		evs = append(evs, sensors.Event{Kind: sensors.Place, Square: q})
	}
	if err := l.Feed(ctx, evs, true); err != nil {
		return err
	}
	if st := l.State(); st.Status != "playing" {
		return fmt.Errorf("board %s after the set-up: %s (wrong %v, missing %v)", st.Board, st.Status, st.Wrong, st.Missing)
	}
	return nil
}

// GameMoves reads the moves of a real game from a PGN4 file (its first
// game, replayed by the rules: each move as the board writes it), up to
// its first turn that is no move (a resignation, a time-out).
func GameMoves(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pg, _, err := pgn4.ParseString(string(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g, _, err := pgn4.ReplayWith(pg, "", nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []string
	for _, rec := range g.Records() {
		if rec.Action != rules.ActMove {
			break
		}
		out = append(out, rec.Text)
	}
	return out, nil
}

// Child runs this test binary again as a child process, with env added
// to its environment (a TestMain that sees it plays the part: a hub
// process, for one) and no test of its own, and waits for the first line
// of its standard output that ready accepts, which it returns with the
// child's process id. kill sends the child SIGKILL and waits for it
// (also when t ends).
func Child(t *testing.T, env []string, ready func(line string) bool) (line string, pid int, kill func()) {
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
			return sc.Text(), cmd.Process.Pid, kill
		}
	}
	kill()
	t.Fatalf("the child process (%v) ended without the line it was waited for", env)
	return "", 0, nil
}
