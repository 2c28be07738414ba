package store_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
)

// Hubs on one PostgreSQL database store many boards' messages at once
// (four writers on two handles, each message by two of them): the
// numbers the database gives follow its commits, so a reader of the
// messages after N, at any moment, sees 1 to some last number without a
// hole (none committed later below it), each board's in seq order, and
// RecordN gives every writer of a message the same number.
func TestNumbersFollowTheCommits(t *testing.T) {
	pg := pgtest.Start(t)
	url := pg.NewDB(t)
	handles := []*store.Store{open(t, url), open(t, url)}
	ctx := context.Background()
	const boards, seqs = 8, 25
	var numbers sync.Map // "board/seq" -> n, as the first writer had it
	var wg sync.WaitGroup
	var writing atomic.Bool
	writing.Store(true)
	errs := make(chan error, 100)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := handles[w%2]
			for seq := uint64(1); seq <= seqs; seq++ {
				for b := range boards {
					if b%2 != w%2 { // each board by two writers
						continue
					}
					m := msg(fmt.Sprintf("club-%d", b), seq, "g1", "move")
					n, _, err := s.RecordN(ctx, m, func(tx *store.Tx) error { // a move's effect, as the hub's
						return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h3", Coord: "h2-h3", FEN4: "f"})
					})
					if err != nil {
						errs <- err
						return
					}
					if had, loaded := numbers.LoadOrStore(fmt.Sprintf("%s/%d", m.Board, seq), n); loaded && had != n {
						errs <- fmt.Errorf("%s/%d numbered %d and %d", m.Board, seq, had, n)
					}
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); writing.Store(false); close(done) }()
	reads := 0
	for {
		finished := !writing.Load()
		ms, err := handles[reads%2].MessagesAfter(ctx, 0, boards*seqs+1)
		if err != nil {
			t.Fatal(err)
		}
		reads++
		last := map[string]uint64{}
		for i, m := range ms {
			if m.N != uint64(i+1) {
				t.Fatalf("read %d: message %d of the %d visible is numbered %d: a hole below a commit", reads, i+1, len(ms), m.N)
			}
			if m.Seq != last[m.Board]+1 {
				t.Fatalf("read %d: %s's seq %d follows seq %d", reads, m.Board, m.Seq, last[m.Board])
			}
			last[m.Board] = m.Seq
		}
		if finished {
			if len(ms) != boards*seqs {
				t.Fatalf("%d messages numbered, want %d", len(ms), boards*seqs)
			}
			if n, err := handles[0].LastN(ctx); err != nil || n != boards*seqs {
				t.Errorf("LastN %d, %v; want %d", n, err, boards*seqs)
			}
			break
		}
	}
	<-done
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d reads while writing", reads)
}
