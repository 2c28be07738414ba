package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"boardd/app/hub/store"
)

// A retired board's history moves whole to its new name, and the name
// starts again with no stream.
func TestRetireBoard(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			s := open(t, be.start(t)(t))
			ctx := context.Background()
			record(t, s, msg("club-1", 1, "g1", "game_start"), func(tx *store.Tx) error { return tx.StartGame("teams", "", map[string]string{"Red": "Ann"}) })
			record(t, s, msg("club-1", 2, "g1", "move"), func(tx *store.Tx) error {
				return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h4", Coord: "h2-h4", FEN4: "f"})
			})
			record(t, s, msg("club-1", 3, "g1", "game_over"), func(tx *store.Tx) error { return tx.Finish(store.Result{Reason: "resignation", PGN4: "1-0"}) })
			if err := s.Gap(ctx, "club-1", 4, 6, "not kept"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Import(ctx, store.ImportedGame{Board: "club-1", Game: "old", Variant: "teams", Turns: []store.Turn{{Kind: "resign", Seat: "Red", Move: "R"}}}); err != nil {
				t.Fatal(err)
			}
			to, err := s.RetireBoard(ctx, "club-1", time.Date(2026, 11, 28, 15, 4, 5, 0, time.UTC))
			if err != nil || to != "club-1~20261128-150405" {
				t.Fatalf("RetireBoard = %q, %v", to, err)
			}
			if n, _ := s.LastSeq(ctx, "club-1"); n != 0 {
				t.Errorf("club-1 still holds seq %d", n)
			}
			if n, _ := s.LastSeq(ctx, to); n != 6 {
				t.Errorf("%s holds seq %d, want 6", to, n)
			}
			seqs, _ := s.Seqs(ctx, to)
			gaps, _ := s.Gaps(ctx, to)
			g, ok, _ := s.Game(ctx, to, "g1")
			turns, _ := s.Turns(ctx, to, "g1")
			if !reflect.DeepEqual(seqs, []uint64{1, 2, 3}) || len(gaps) != 1 || !ok || g.Tags["Red"] != "Ann" || g.Result == nil || len(turns) != 1 {
				t.Errorf("moved: seqs %v gaps %v game %+v turns %v", seqs, gaps, g, turns)
			}
			if have, _ := s.HasGame(ctx, to, "old"); !have {
				t.Error("the imported game was not moved")
			}
			if have, _ := s.HasGame(ctx, "club-1", "g1"); have {
				t.Error("club-1 still has g1")
			}
			// The name takes a new stream from seq 1.
			if !record(t, s, msg("club-1", 1, "g2", "game_start"), func(tx *store.Tx) error { return tx.StartGame("teams", "", nil) }) {
				t.Error("the new club-1's seq 1 was refused")
			}
			if to, err := s.RetireBoard(ctx, "nobody", time.Now()); to != "" || err != nil {
				t.Errorf("retiring an unknown board: %q %v", to, err)
			}
		})
	}
}
