package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/internal/testio"
	"boardd/referee"
)

// collect reads events until it has n messages (10 s at most), and the
// boards' views seen meanwhile.
func collect(t *testing.T, evs <-chan hubtest.Event, n int) (msgs []referee.Message, ids []uint64, views map[string]json.RawMessage) {
	t.Helper()
	views = map[string]json.RawMessage{}
	timeout := time.After(10 * time.Second)
	for len(msgs) < n {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatalf("the stream ended after %d messages, want %d", len(msgs), n)
			}
			switch ev.Name {
			case "message":
				var m referee.Message
				if err := json.Unmarshal([]byte(ev.Data), &m); err != nil {
					t.Fatal(err)
				}
				id, err := strconv.ParseUint(ev.ID, 10, 64)
				if err != nil {
					t.Fatalf("message without a number: %q", ev.ID)
				}
				msgs, ids = append(msgs, m), append(ids, id)
			case "board":
				var v struct{ Board string }
				json.Unmarshal([]byte(ev.Data), &v)
				views[v.Board] = json.RawMessage(ev.Data)
			case "reset":
				t.Fatalf("reset: %s", ev.Data)
			}
		case <-timeout:
			t.Fatalf("%d messages within 10 s, want %d", len(msgs), n)
		}
	}
	return msgs, ids, views
}

// A viewer of GET /api/live gets every board's view at once, then
// every message the hub stores, of every board, in order, numbered one
// after the other; it goes away, the boards play on, and it comes back
// with Last-Event-ID: it gets every message it missed, none twice. A
// board's own stream (GET /api/boards/{board}/events?from=1) has every
// message of that board in seq order, from the database.
func TestLiveStreams(t *testing.T) {
	h, out := startHub(t, t.TempDir(), "127.0.0.1:0")
	join := joinLine.FindStringSubmatch(out)
	if join == nil {
		t.Fatalf("no join line in %q", out)
	}
	u := hubURL(t, join[1])
	a := hubtest.Start(t, hubtest.Board{Broker: u.broker, User: u.user, Password: u.password, Name: "a"})
	b := hubtest.Start(t, hubtest.Board{Broker: u.broker, User: u.user, Password: u.password, Name: "b"})
	base := "http://" + h.WebAddr
	// Both boards' first message (the game's start) stored before the
	// viewer comes: the counts below are the moves played after it (the
	// boards' retained state can show them playing a moment earlier).
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var bs []struct {
			Status  string `json:"status"`
			LastSeq uint64 `json:"last_seq"`
		}
		resp, err := http.Get(base + "/api/boards")
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&bs)
		resp.Body.Close()
		if err == nil && len(bs) == 2 && bs[0].Status == "playing" && bs[1].Status == "playing" && bs[0].LastSeq == 1 && bs[1].LastSeq == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /api/boards: %+v, %v; want both boards playing with their first message stored", bs, err)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	evs, err := hubtest.Events(ctx, base+"/api/live", "")
	if err != nil {
		t.Fatal(err)
	}
	hubtest.Play(t, a, hubtest.TeamsMoves[:4]...)
	hubtest.Play(t, b, hubtest.TeamsMoves[:2]...)
	msgs, ids, views := collect(t, evs, 6)
	cancel()
	if len(views) != 2 {
		t.Errorf("views of %d boards, want 2", len(views))
	}
	for i := range ids[1:] {
		if ids[i+1] != ids[i]+1 {
			t.Errorf("numbers %v: not one after the other", ids)
		}
	}
	seen := map[string]uint64{}
	for _, m := range msgs {
		if m.Seq != seen[m.Board]+1 && seen[m.Board] != 0 {
			t.Errorf("board %s: seq %d after %d", m.Board, m.Seq, seen[m.Board])
		}
		seen[m.Board] = m.Seq
	}

	// Away: the boards play on; back with the last number had.
	hubtest.Play(t, a, hubtest.TeamsMoves[4:8]...)
	hubtest.Play(t, b, hubtest.TeamsMoves[2:5]...)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	evs, err = hubtest.Events(ctx, base+"/api/live", strconv.FormatUint(ids[len(ids)-1], 10))
	if err != nil {
		t.Fatal(err)
	}
	more, moreIDs, _ := collect(t, evs, 7)
	if moreIDs[0] != ids[len(ids)-1]+1 {
		t.Errorf("resumed at %d, want %d", moreIDs[0], ids[len(ids)-1]+1)
	}
	for _, m := range more {
		if m.Seq != seen[m.Board]+1 {
			t.Errorf("after resuming, board %s: seq %d after %d (a gap or a repeat)", m.Board, m.Seq, seen[m.Board])
		}
		seen[m.Board] = m.Seq
	}
	if seen["a"] != a.State().Seq || seen["b"] != b.State().Seq {
		t.Errorf("last seqs a %d b %d, want %d %d", seen["a"], seen["b"], a.State().Seq, b.State().Seq)
	}

	// A board's own stream, from its first message.
	one, err := hubtest.Events(ctx, base+"/api/boards/a/events?from=1", "")
	if err != nil {
		t.Fatal(err)
	}
	var seqs []uint64
	var state referee.State
	for ev := range one {
		if ev.Name == "message" {
			n, _ := strconv.ParseUint(ev.ID, 10, 64)
			seqs = append(seqs, n)
		}
		if ev.Name == "state" {
			json.Unmarshal([]byte(ev.Data), &state)
			break
		}
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("board a's stream: %v, want 1…%d", seqs, a.State().Seq)
		}
	}
	if uint64(len(seqs)) != a.State().Seq || state.Seq != a.State().Seq || len(state.Moves) != 8 {
		t.Errorf("board a's stream: %d messages, state at %d with %d moves; want %d, %d, 8", len(seqs), state.Seq, len(state.Moves), a.State().Seq, a.State().Seq)
	}
}

// joined is how a test board joins a hub: its broker and account.
type joined struct{ broker, user, password string }

// hubURL reads the join URL the hub printed.
func hubURL(t *testing.T, raw string) joined {
	t.Helper()
	u, err := neturl.Parse(raw)
	if err != nil || u.User == nil {
		t.Fatalf("join URL %q: %v", raw, err)
	}
	pw, _ := u.User.Password()
	return joined{broker: "tcp://" + u.Host, user: u.User.Username(), password: pw}
}

// A viewer following GET /api/live while the hub's process is killed
// with SIGKILL and started again: it comes back with the last number it
// had and gets every later message of the board, in order, none twice,
// no reset, the numbers going on where they were (they count the
// messages the database holds).
func TestLiveStreamAcrossKill(t *testing.T) {
	state := t.TempDir()
	mqttAddr, webAddr := testio.FreeAddr(t), testio.FreeAddr(t)
	join, kill, _ := hubProcessWeb(t, state, mqttAddr, webAddr)
	pw := strings.TrimPrefix(strings.Split(join, "@")[0], "mqtt://board:")
	l := hubtest.Start(t, hubtest.Board{Broker: "tcp://" + mqttAddr, User: server.BoardUser, Password: pw, Name: "club-9"})
	base := "http://" + webAddr
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs, err := hubtest.Events(ctx, base+"/api/live", "")
	if err != nil {
		t.Fatal(err)
	}
	hubtest.Play(t, l, hubtest.TeamsMoves[:6]...)
	msgs, ids, _ := collect(t, evs, 7) // the game's start and 6 moves
	kill()
	hubtest.Play(t, l, hubtest.TeamsMoves[6:10]...)
	hubProcessWeb(t, state, mqttAddr, webAddr)
	hubtest.Play(t, l, hubtest.TeamsMoves[10:12]...)
	lastID := strconv.FormatUint(ids[len(ids)-1], 10)
	var more []referee.Message
	var moreIDs []uint64
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		evs, err = hubtest.Events(ctx, base+"/api/live", lastID)
		if err == nil {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the hub's web server did not come back: %v", err)
		}
	}
	more, moreIDs, _ = collect(t, evs, int(l.State().Seq)-len(msgs))
	for i, m := range more {
		if m.Seq != uint64(len(msgs)+i+1) || moreIDs[i] != ids[len(ids)-1]+uint64(i+1) {
			t.Fatalf("after the kill: message %d has seq %d, number %d; want seq %d, number %d", i, m.Seq, moreIDs[i], len(msgs)+i+1, ids[len(ids)-1]+uint64(i+1))
		}
	}
}
