package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/app/hub/store"
	"boardd/referee"
)

// childEnv makes the test binary a hub process (TestMain): state
// directory and MQTT address and, optionally, the web address and the
// database (default: web off, hub.db in the state directory), separated
// by commas.
const childEnv = "BOARDD_HUB_TEST_CHILD"

func TestMain(m *testing.M) {
	if v := os.Getenv(childEnv); v != "" {
		f := append(strings.Split(v, ","), "", "", "")
		cfg := server.Config{StateDir: f[0], MQTT: f[1], Web: f[2], DB: f[3]}
		if cfg.Web == "" {
			cfg.Web = "off"
		}
		// The hub's log, for a test that fails: hub.log in the state
		// directory, each process's appended.
		if lf, err := os.OpenFile(filepath.Join(cfg.StateDir, "hub.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			cfg.Log = slog.New(slog.NewTextHandler(lf, nil))
		}
		h, err := server.Start(context.Background(), cfg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		h.Greet(os.Stdout)
		os.Stdout.Close() // the greeting is complete
		select {}         // until killed
	}
	os.Exit(m.Run())
}

// hubProcess starts this test binary as a hub on state and addr (and
// extra: the web address, the database; see childEnv) and waits for its
// greeting; kill sends it SIGKILL.
func hubProcess(t *testing.T, state, addr string, extra ...string) (join string, kill func()) {
	t.Helper()
	join, kill, _ = hubProcessPid(t, state, addr, extra...)
	return join, kill
}

// hubProcessWeb is hubProcess with the web server on web; it returns the
// process's id too.
func hubProcessWeb(t *testing.T, state, addr, web string) (join string, kill func(), pid int) {
	t.Helper()
	return hubProcessPid(t, state, addr, web)
}

// hubProcessPid is hubProcess returning the process's id too.
func hubProcessPid(t *testing.T, state, addr string, extra ...string) (join string, kill func(), pid int) {
	t.Helper()
	env := childEnv + "=" + strings.Join(append([]string{state, addr}, extra...), ",")
	line, pid, kill := hubtest.Child(t, []string{env}, joinLine.MatchString)
	return joinLine.FindStringSubmatch(line)[1], kill, pid
}

// The hub's process killed with SIGKILL in the middle of a game, its
// broker with it, and started again on the same state directory: the
// board (its mirror reconnecting by itself) plays on, and the hub ends
// with every message of the board once, no gap, the moves as played.
func TestHubKilledMidGame(t *testing.T) {
	state := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	join, kill := hubProcess(t, state, addr)
	pw := strings.TrimPrefix(strings.Split(join, "@")[0], "mqtt://board:")
	l := hubtest.Start(t, hubtest.Board{Broker: "tcp://" + addr, User: server.BoardUser, Password: pw, Name: "club-9"})
	check, err := store.Open(context.Background(), filepath.Join(state, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	held := func() uint64 {
		last, err := check.LastSeqs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return last["club-9"]
	}
	waitHeld := func(seq uint64) {
		t.Helper()
		for end := time.Now().Add(20 * time.Second); held() < seq; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("the hub holds club-9 up to %d, want %d", held(), seq)
			}
		}
	}

	moves := hubtest.TeamsMoves
	hubtest.Play(t, l, moves[:6]...)
	waitHeld(3)
	kill() // mid-stream: the broker goes too
	t.Logf("killed holding seq %d of %d", held(), l.State().Seq)
	hubtest.Play(t, l, moves[6:12]...)
	hubProcess(t, state, addr)
	hubtest.Play(t, l, moves[12:]...)
	if r := l.Do(context.Background(), referee.Command{Name: referee.CmdResign, Seat: "Green"}); !r.OK {
		t.Fatalf("resign: %s", r.Error)
	}
	last := l.State().Seq
	waitHeld(last)

	ctx := context.Background()
	seqs, _ := check.Seqs(ctx, "club-9")
	want := make([]uint64, last)
	for i := range want {
		want[i] = uint64(i + 1)
	}
	if !reflect.DeepEqual(seqs, want) {
		t.Fatalf("the hub holds seqs %v, want 1 to %d once each", seqs, last)
	}
	turns, _ := check.Turns(ctx, "club-9", l.State().Game)
	var got []string
	for _, u := range turns {
		if u.UndoneSeq == 0 && u.Kind == referee.MsgMove {
			got = append(got, u.Move)
		}
	}
	if !reflect.DeepEqual(got, moves) {
		t.Errorf("stored moves\n %v\nwant\n %v", got, moves)
	}
	if g, ok, _ := check.Game(ctx, "club-9", l.State().Game); !ok || g.Result == nil || g.Result.Reason != "resignation" {
		t.Errorf("game %+v: want its result", g)
	}
}
