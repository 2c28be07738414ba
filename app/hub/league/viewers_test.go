package league_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/natstest"
	"boardd/app/hub/store/pgtest"
	"boardd/internal/testio"
)

// viewer reads an event stream through the proxy as a browser's
// EventSource does: when the stream ends it opens it again, sending the
// last id it had as Last-Event-ID.
type viewer struct {
	url string

	mu     sync.Mutex
	lastID string
	events []hubtest.Event // every event but the boards' views
	hubs   []string        // the hub that served each connection (nginx's $upstream_addr)
}

// follow reads v's stream until ctx ends, reconnecting as a browser.
func (v *viewer) follow(ctx context.Context) {
	for ctx.Err() == nil {
		v.mu.Lock()
		last := v.lastID
		v.mu.Unlock()
		hd, evs, err := hubtest.EventsHeader(ctx, v.url, last)
		if err == nil {
			v.mu.Lock()
			// "A, B" when nginx tried A first: B answered.
			up := strings.Split(hd.Get("X-Boardd-Upstream"), ", ")
			v.hubs = append(v.hubs, up[len(up)-1])
			v.mu.Unlock()
			for ev := range evs {
				v.mu.Lock()
				if ev.ID != "" {
					v.lastID = ev.ID
				}
				if ev.Name != "board" && ev.Name != "state" {
					v.events = append(v.events, ev)
				}
				v.mu.Unlock()
			}
		}
		select { // the hubs' retry is 2 s; quicker here
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// served is the hub serving v's latest connection, and how many v had.
func (v *viewer) served() (string, int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.hubs) == 0 {
		return "", 0
	}
	return v.hubs[len(v.hubs)-1], len(v.hubs)
}

// had is what v has had: each message event's id, board and seq
// ("N:board/seq"), and any other event by its name.
func (v *viewer) had() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []string
	for _, ev := range v.events {
		var m struct {
			Board string `json:"board"`
			Seq   uint64 `json:"seq"`
		}
		if ev.Name != "message" || json.Unmarshal([]byte(ev.Data), &m) != nil {
			out = append(out, ev.Name+" "+ev.Data)
			continue
		}
		out = append(out, fmt.Sprintf("%s:%s/%d", ev.ID, m.Board, m.Seq))
	}
	return out
}

// playTogether makes n moves on every board, the boards moving at once
// (their messages reach the two hubs through different nodes in
// different orders), the kill called after the first.
func playTogether(t *testing.T, boards []*board, n int, kill func()) {
	t.Helper()
	for k := range n {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		errs := make(chan error, len(boards))
		for _, b := range boards {
			mv := hubtest.TeamsMoves[len(b.moves)]
			go func() { errs <- hubtest.Move(ctx, b.live, mv) }()
		}
		for range boards {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		cancel()
		for _, b := range boards {
			b.moves = append(b.moves, hubtest.TeamsMoves[len(b.moves)])
		}
		if k == 0 && kill != nil {
			kill()
		}
	}
}

// A viewer of every board (GET /api/live) and a viewer of one board's
// own display (GET /api/boards/club-1/events) follow the league through
// nginx with the sample config, in front of two hub processes on one
// database. One hub is cut off from the cluster for two moves (so the
// hubs hear the boards' messages in different orders). The hub serving
// the first viewer is killed with SIGKILL in the middle of a round, and
// started again; later the other hub, which then serves both viewers,
// is killed too. Each viewer reconnects
// through nginx with its Last-Event-ID, as a browser does, and lands on
// the other hub: every message of every board arrives exactly once, in
// the database's order (each board's in seq order), its id the number
// the database gave it; the board's display has each of its seqs once,
// in order.
func TestViewersResumeOnTheOtherHub(t *testing.T) {
	pg := pgtest.Start(t)
	db := pg.NewDB(t)
	c := startCluster(t)
	webs := []string{testio.FreeAddr(t), testio.FreeAddr(t)}
	kills := make([]func(), 2)
	// The first hub reaches its node through a link the test cuts.
	link := natstest.NewLink(t, c.Nodes[1].MQTTURL())
	nodes := []string{link.URL(), from(c, 2)}
	start := func(i int) {
		_, kills[i] = hubProcessWeb(t, db, nodes[i], webs[i])
		c.WaitSubscribed(i+1, "boardd-hub-", "boardd.*.events")
	}
	start(0)
	start(1)
	proxy := startNginxWith(t, "add_header X-Boardd-Upstream $upstream_addr always;", webs...)
	var boards []*board
	for i := range 6 {
		boards = append(boards, startBoard(t, fmt.Sprintf("club-%d", i+1), from(c, i%3)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	all := &viewer{url: "http://" + proxy + "/api/live", lastID: "0"} // from the first message
	one := &viewer{url: "http://" + proxy + "/api/boards/club-1/events?from=1"}
	for _, v := range []*viewer{all, one} {
		wg.Add(1)
		go func() { defer wg.Done(); v.follow(ctx) }()
	}
	s := openDB(t, db)
	playTogether(t, boards, 2, nil)
	waitAll(t, s, boards...)
	// The first hub cut off from the cluster while the boards play: the
	// second stores every move; the first has them from the database,
	// and back on the cluster it asks the boards again (their replays
	// come board by board, not in the order the database has them).
	link.Cut()
	playTogether(t, boards, 2, nil)
	waitAll(t, s, boards...)
	link.Restore()
	playTogether(t, boards, 1, nil)
	waitAll(t, s, boards...)

	// serving waits until v is served (again) by a hub; i is its index.
	serving := func(v *viewer, conns int) (i, n int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
			hub, n := v.served()
			if i := slices.Index(webs, hub); i >= 0 && n > conns {
				return i, n
			}
			if time.Now().After(deadline) {
				t.Fatalf("the viewer of %s is not served again after %d connections (last by %q)", v.url, conns, hub)
			}
		}
	}
	victim, conns := serving(all, 0)
	for round := range 2 {
		playTogether(t, boards, 3, kills[victim]) // killed mid-round
		// The viewer is on the other hub now; the killed one comes
		// back, and the next round kills the one serving the viewer.
		other, n := serving(all, conns)
		if other == victim {
			t.Fatalf("round %d: the viewer came back to the hub killed (%s)", round, webs[victim])
		}
		start(victim)
		victim, conns = other, n
	}
	playTogether(t, boards, 2, nil)
	waitAll(t, s, boards...)

	stored, err := s.MessagesAfter(context.Background(), 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	var want, wantOne []string
	for _, m := range stored {
		want = append(want, fmt.Sprintf("%d:%s/%d", m.N, m.Board, m.Seq))
		if m.Board == "club-1" {
			wantOne = append(wantOne, fmt.Sprintf("%d:%s/%d", m.Seq, m.Board, m.Seq)) // a board's stream: id its seq
		}
	}
	for _, c := range []struct {
		v    *viewer
		want []string
	}{{all, want}, {one, wantOne}} {
		var got []string
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
			if got = c.v.had(); len(got) >= len(c.want) || time.Now().After(deadline) {
				break
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("the viewer of %s had\n %v\nwant every message once, in order:\n %v", c.v.url, got, c.want)
		}
		if _, n := c.v.served(); n < 2 {
			t.Errorf("the viewer of %s never reconnected (%d connections)", c.v.url, n)
		}
	}
	t.Logf("connections: every board's viewer %v, club-1's %v", all.hubs, one.hubs)
}
