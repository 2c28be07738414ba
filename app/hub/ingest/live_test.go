package ingest_test

import (
	"context"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"boardd/app/hub/ingest"
	"boardd/app/hub/store"
	"boardd/referee"
)

// notifier records what the ingest hands on, and whether the store held
// each message when it did.
type notifier struct {
	s        *store.Store
	mu       sync.Mutex
	seqs     []uint64
	ns       []uint64 // the database's numbers of the messages
	unstored []uint64
	statuses []string
}

func (n *notifier) Stored(num uint64, m referee.Message, body []byte) {
	last, err := n.s.LastSeqs(context.Background())
	n.mu.Lock()
	defer n.mu.Unlock()
	if err != nil || last[m.Board] < m.Seq || len(body) == 0 {
		n.unstored = append(n.unstored, m.Seq)
	}
	n.seqs = append(n.seqs, m.Seq)
	n.ns = append(n.ns, num)
}

func (n *notifier) Status(board, status string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.statuses = append(n.statuses, board+" "+status)
}

// The live broadcast hears of every message once, in order, and only
// after its commit: a viewer never sees what the hub does not hold. The
// same after the hub was stopped mid-game (the messages it asks again
// for come once).
func TestLiveAfterCommit(t *testing.T) {
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	url := startBroker(t)
	check := openStore(t, dbURL)
	n := &notifier{s: check}
	live := func(c *ingest.Config) { c.Live = n }
	l := startBoard(t, url, "club-1", 0)
	h := startHub(t, url, dbURL, live)
	play(t, l, teamsMoves[:6]...)
	waitHeld(t, check, "club-1", 3)
	h.stop()
	play(t, l, teamsMoves[6:12]...)
	startHub(t, url, dbURL, live)
	last := l.State().Seq
	waitHeld(t, check, "club-1", last)
	deadline := time.Now().Add(5 * time.Second)
	for {
		n.mu.Lock()
		got, ns, unstored, statuses := append([]uint64(nil), n.seqs...), append([]uint64(nil), n.ns...), n.unstored, append([]string(nil), n.statuses...)
		n.mu.Unlock()
		if len(got) >= int(last) || time.Now().After(deadline) {
			if want := seqRange(1, last); !reflect.DeepEqual(got, want) {
				t.Errorf("handed on %v, want %v", got, want)
			}
			// One board, one hub: the database numbers its messages as
			// the board does.
			if want := seqRange(1, last); !reflect.DeepEqual(ns, want) {
				t.Errorf("handed on as the database's messages %v, want %v", ns, want)
			}
			if len(unstored) > 0 {
				t.Errorf("handed on before the store held them: %v", unstored)
			}
			if len(statuses) == 0 || statuses[0] != "club-1 online" {
				t.Errorf("statuses %v, want club-1 online first", statuses)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two hubs on one database (a league): each hands on every message of
// the board to its own viewers, once, in order, whichever hub committed
// it; the hub that finds a message stored already by the other still
// hands it on (its viewers saw none of the other's moves before).
func TestLiveOfTwoHubsOnOneDatabase(t *testing.T) {
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	url := startBroker(t)
	check := openStore(t, dbURL)
	ns := []*notifier{{s: check}, {s: check}}
	for _, n := range ns {
		startHub(t, url, dbURL, func(c *ingest.Config) { c.Live = n })
	}
	l := startBoard(t, url, "club-1", 0)
	play(t, l, teamsMoves[:12]...)
	last := l.State().Seq
	waitHeld(t, check, "club-1", last)
	for i, n := range ns {
		deadline := time.Now().Add(10 * time.Second)
		for {
			n.mu.Lock()
			got, nums, unstored := append([]uint64(nil), n.seqs...), append([]uint64(nil), n.ns...), n.unstored
			n.mu.Unlock()
			if len(got) >= int(last) || time.Now().After(deadline) {
				if want := seqRange(1, last); !reflect.DeepEqual(got, want) {
					t.Errorf("hub %d handed on %v, want %v", i+1, got, want)
				}
				// One board: the database numbers its messages as the
				// board does, whichever hub stored them.
				if want := seqRange(1, last); !reflect.DeepEqual(nums, want) {
					t.Errorf("hub %d handed on as the database's messages %v, want %v", i+1, nums, want)
				}
				if len(unstored) > 0 {
					t.Errorf("hub %d handed on before the store held them: %v", i+1, unstored)
				}
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
