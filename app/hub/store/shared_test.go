package store_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
)

// Hubs that start together on a fresh PostgreSQL database migrate it
// once: none fails on another's half-made tables.
func TestHubsOpenAFreshDatabaseTogether(t *testing.T) {
	pg := pgtest.Start(t)
	for round := range 3 {
		url := pg.NewDB(t)
		var wg sync.WaitGroup
		errs := make(chan error, 6)
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := store.Open(context.Background(), url)
				if err != nil {
					errs <- err
					return
				}
				s.Close()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("round %d: %v", round, err)
		}
	}
}

// sharedScript is a board's stream as the hubs store it: a game's start,
// moves, and takebacks whose effect (marking the last standing turn)
// shows when it is applied twice.
func sharedScript() []struct {
	m     store.Message
	apply func(*store.Tx) error
} {
	var out []struct {
		m     store.Message
		apply func(*store.Tx) error
	}
	add := func(kind string, apply func(*store.Tx) error) {
		out = append(out, struct {
			m     store.Message
			apply func(*store.Tx) error
		}{msg("club-1", uint64(len(out)+1), "g1", kind), apply})
	}
	add("game_start", func(tx *store.Tx) error { return tx.StartGame("teams", "", map[string]string{"Red": "Ann"}) })
	for i := range 30 {
		mv := fmt.Sprintf("m%d", i)
		add("move", func(tx *store.Tx) error {
			return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: mv, Coord: mv})
		})
		if i%4 == 3 {
			add("takeback", func(tx *store.Tx) error { return tx.Takeback() })
		}
	}
	add("game_over", func(tx *store.Tx) error {
		return tx.Finish(store.Result{Reason: "checkmate", Winners: []string{"Red"}})
	})
	return out
}

// Two hubs on one PostgreSQL database store the same board's messages at
// the same moment (four writers on two handles, each message recorded by
// all at once): each message is stored once and its effect applied once,
// the database ending as one hub alone leaves it.
func TestTwoHubsRecordTheSameMessages(t *testing.T) {
	pg := pgtest.Start(t)
	ctx := context.Background()
	script := sharedScript()

	alone := open(t, pg.NewDB(t))
	for _, s := range script {
		record(t, alone, s.m, s.apply)
	}
	wantTurns, _ := alone.Turns(ctx, "club-1", "g1")
	wantGame, _, _ := alone.Game(ctx, "club-1", "g1")

	url := pg.NewDB(t)
	hubs := []*store.Store{open(t, url), open(t, url)}
	for _, s := range script {
		var wg sync.WaitGroup
		var stored atomic.Int32
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := hubs[w%2].Record(ctx, s.m, s.apply)
				if err != nil {
					t.Errorf("seq %d by writer %d: %v", s.m.Seq, w, err)
				}
				if ok {
					stored.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := stored.Load(); n != 1 {
			t.Errorf("seq %d: stored by %d writers, want 1", s.m.Seq, n)
		}
	}
	gotTurns, _ := hubs[1].Turns(ctx, "club-1", "g1")
	if !reflect.DeepEqual(gotTurns, wantTurns) {
		t.Errorf("turns\n %+v\nwant\n %+v", gotTurns, wantTurns)
	}
	gotGame, _, _ := hubs[0].Game(ctx, "club-1", "g1")
	if !reflect.DeepEqual(gotGame, wantGame) {
		t.Errorf("game %+v, want %+v", gotGame, wantGame)
	}
	seqs, _ := hubs[0].Seqs(ctx, "club-1")
	if len(seqs) != len(script) {
		t.Errorf("%d messages stored, want %d", len(seqs), len(script))
	}
}
