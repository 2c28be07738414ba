package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/live"
	"boardd/app/hub/store"
	"boardd/app/hub/web"
	"boardd/referee"
)

// heapInUse is the heap's bytes in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// Viewers whose connections stall (they never read), each resuming with
// thousands of messages to catch up, as the lagging viewers of the
// league's scale run came back, hold little of the hub's memory: a
// stream writes its backlog in small pieces, and what waits for the
// subscribers stays within the budget (the slowest dropped). The viewers
// that read get every message once, in order.
func TestStalledViewersHoldLittle(t *testing.T) {
	const budget, stalled, before, during = 2 << 20, 30, 4000, 1000
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	lv := live.New(live.Config{Budget: budget})
	h := web.New(s, nil, web.WithLive(lv))
	web.SetWriteTimeout(h, time.Hour) // the stalled stay stalled while the test runs
	srv := httptest.NewServer(h)
	defer func() { h.Close(); srv.CloseClientConnections(); srv.Close() }()

	// A real game's messages, played again and again on 20 boards.
	l := hubtest.Run(t, "b", 0)
	hubtest.Play(t, l, hubtest.TeamsMoves[:20]...)
	sub, _ := referee.Resume(l, 1)
	game := sub.Backlog
	sub.Cancel()
	var n uint64
	feed := func(k int) {
		for range k {
			m := game[int(n)%len(game)]
			b := int(n/uint64(len(game))) % 20
			m.Board = fmt.Sprintf("club-%d", b)
			m.Seq = n/uint64(len(game)*20)*uint64(len(game)) + uint64(int(n)%len(game)) + 1
			body, _ := json.Marshal(m)
			n++
			lv.Stored(n, m, body)
			if w := lv.Waiting(); w > budget {
				t.Fatalf("%d bytes wait for the subscribers, over the budget of %d", w, budget)
			}
		}
	}
	feed(before)
	base := heapInUse()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for range stalled {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.(*net.TCPConn).SetReadBuffer(4 << 10)
		fmt.Fprintf(c, "GET /api/live HTTP/1.1\r\nHost: hub\r\nLast-Event-ID: 1\r\n\r\n") // never read
	}
	var readers []<-chan hubtest.Event
	for range 2 {
		evs, err := hubtest.Events(ctx, srv.URL+"/api/live", "0")
		if err != nil {
			t.Fatal(err)
		}
		readers = append(readers, evs)
	}
	for lv.Subscribers() < stalled+2 {
		time.Sleep(10 * time.Millisecond)
	}
	feed(during)
	grown := int64(heapInUse()) - int64(base)
	t.Logf("%d stalled viewers: the heap grew by %.1f MB", stalled, float64(grown)/(1<<20))
	// Each stalled stream holds a write's worth, a page of its backlog
	// and what it took. Without the bounds each held its whole backlog in
	// its buffer (about 3.7 MB each here, 112 MB in all: the 1.6 GB a hub
	// of the league's scale run).
	if limit := int64(budget + stalled*(512<<10)); grown > limit {
		t.Errorf("%d stalled viewers grew the heap by %d bytes, more than %d", stalled, grown, limit)
	}
	for i, evs := range readers {
		var got []uint64
		for ev := range evs {
			if ev.Name == "reset" {
				t.Fatalf("reader %d: a reset", i)
			}
			if ev.Name != "message" {
				continue
			}
			id, _ := strconv.ParseUint(ev.ID, 10, 64)
			if id != uint64(len(got)+1) {
				t.Fatalf("reader %d: message %d after %d", i, id, len(got))
			}
			if got = append(got, id); id == before+during {
				break
			}
		}
		if len(got) != before+during {
			t.Errorf("reader %d had %d messages, want %d", i, len(got), before+during)
		}
	}
}
