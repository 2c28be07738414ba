package live_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"boardd/app/hub/live"
	"boardd/app/hub/store"
	"boardd/referee"
)

// stored is one message as the database numbered it.
type stored struct {
	n     uint64
	m     referee.Message
	body  []byte
	board string
	seq   uint64
}

// key is what a message is, whichever hub hands it on: its number in the
// database, its board and its seq there.
func (s stored) key() string { return fmt.Sprintf("%d:%s/%d", s.n, s.board, s.seq) }

func itemKeys(items []live.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, fmt.Sprintf("%d:%s/%d", it.N, it.Board, it.Seq))
	}
	return out
}

// storeAll records 15 messages of three boards, interleaved, and returns
// them as the database numbered them.
func storeAll(t *testing.T, s *store.Store) []stored {
	t.Helper()
	var out []stored
	for k := range 15 {
		m := msg(string("abc"[k%3]), uint64(k/3+1))
		body, _ := json.Marshal(m)
		n, ok, err := s.RecordN(context.Background(), store.Message{Board: m.Board, Seq: m.Seq, Kind: m.Kind, Body: body}, nil)
		if err != nil || !ok {
			t.Fatalf("store %s/%d: %v (stored %v)", m.Board, m.Seq, err, ok)
		}
		out = append(out, stored{n: n, m: m, body: body, board: m.Board, seq: m.Seq})
	}
	return out
}

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Two hubs on one database are told of the messages in different orders
// (each first of what it stored itself, the other's later or never, as
// two hubs' ingests hear a league's boards): both hand them on in the
// database's order, so the number a viewer had from one means the same
// message on the other. A viewer that had the messages up to any N on
// one and resumes after N on the other gets every later message once,
// each board's in seq order: from the hub's memory, from the database
// (a hub started since), or after the hub caught up (one that had not
// yet reached N).
func TestResumeOnAnotherHub(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hub.db")
	// behind is a hub started before the messages and told of none.
	hubA, hubB, behind := live.New(live.Config{}), live.New(live.Config{}), live.New(live.Config{})
	for _, h := range []*live.Hub{hubA, hubB, behind} {
		if err := h.Load(ctx, openStore(t, path)); err != nil {
			t.Fatal(err)
		}
	}
	subA, subB := hubA.Subscribe(ctx, "", 0, false), hubB.Subscribe(ctx, "", 0, false)
	all := storeAll(t, openStore(t, path))
	var want []string
	for _, s := range all {
		want = append(want, s.key())
	}
	// Hub A stored the even ones and hears of the odd ones last, in
	// reverse; hub B stored the odd ones and never hears of the first
	// three even ones (its ingest was behind): CatchUp reads them.
	var orderA, orderB []stored
	for i, s := range all {
		if i%2 == 0 {
			orderA = append(orderA, s)
		} else {
			orderB = append(orderB, s)
		}
	}
	for i := len(all) - 1; i >= 0; i-- {
		if i%2 == 1 {
			orderA = append(orderA, all[i])
		} else if i > 4 {
			orderB = append(orderB, all[i])
		}
	}
	for _, c := range []struct {
		h     *live.Hub
		order []stored
	}{{hubA, orderA}, {hubB, orderB}} {
		for _, s := range c.order {
			c.h.Stored(s.n, s.m, s.body)
		}
	}
	if err := hubB.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	for name, sub := range map[string]*live.Sub{"A": subA, "B": subB} {
		items, ok := sub.Take()
		if got := itemKeys(items); !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("hub %s handed on %v (open %v)\nwant the database's order %v", name, got, ok, want)
		}
	}
	for _, h := range []*live.Hub{hubA, hubB} {
		for _, b := range []string{"a", "b", "c"} {
			if v, _ := h.View(b); v.Seq != 5 {
				t.Errorf("board %s's view at seq %d, want 5", b, v.Seq)
			}
		}
	}

	fresh := live.New(live.Config{}) // started after: nothing in memory
	if err := fresh.Load(ctx, openStore(t, path)); err != nil {
		t.Fatal(err)
	}
	// A hub that has not reached the viewer's N does not know it: it
	// catches up first (as the page's stream does).
	if sub := behind.Subscribe(ctx, "", 7, true); !sub.Reset {
		t.Errorf("a hub at N %d resumed after 7 without reading the database: %v", behind.Last(), itemKeys(sub.Backlog))
	}
	if err := behind.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	for after := range uint64(len(all)) + 1 {
		for _, c := range []struct {
			name string
			from *live.Hub
		}{{"B", hubB}, {"A", hubA}, {"a hub started since", fresh}, {"a hub caught up", behind}} {
			sub := c.from.Subscribe(ctx, "", after, true)
			var items []live.Item
			for page := sub.Backlog; len(page) > 0; {
				items = append(items, page...)
				var err error
				if page, err = sub.MoreBacklog(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if got := itemKeys(items); sub.Reset || !reflect.DeepEqual(got, want[after:]) && !(len(got) == 0 && int(after) == len(want)) {
				t.Errorf("resumed on %s after %d: %v (reset %v), want %v", c.name, after, got, sub.Reset, want[after:])
			}
			sub.Cancel()
		}
	}
}
