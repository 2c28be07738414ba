package store_test

import (
	"context"
	"testing"
	"time"

	"boardd/app/hub/store"
)

// A name RetireBoard gave is a retired board's history, told apart from a
// board's own name whatever the board is called.
func TestRetiredName(t *testing.T) {
	for _, c := range []struct {
		name, board string
		ok          bool
	}{
		{"club-1~20261128-150405", "club-1", true},
		{"a~b~20261128-150405", "a~b", true},
		{"club-1~20261128-150405~20261205-190000", "club-1~20261128-150405", true}, // retired twice
		{"club-1", "", false},
		{"a~b", "", false},
		{"~20261128-150405", "", false},
		{"club-1~2026112-8150405", "", false},
		{"club-1~20261128-15040x", "", false},
		{"club-1~20261128-1504050", "", false},
		{"club-1~", "", false},
	} {
		board, ok := store.Retired(c.name)
		if ok != c.ok || board != c.board {
			t.Errorf("Retired(%q) = %q, %v; want %q, %v", c.name, board, ok, c.board, c.ok)
		}
	}
}

// After boardd hub forget NAME the retired history is no board (Boards
// leaves it out, so the page of all boards and /api/boards do) while its
// games stay listed, found under the retired name, beside those of the
// board that took the name next.
func TestRetiredHistoryIsNoBoard(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			s := open(t, be.start(t)(t))
			ctx := context.Background()
			play := func(game string, from uint64) {
				record(t, s, msg("club-1", from, game, "game_start"), func(tx *store.Tx) error {
					return tx.StartGame("teams", "", map[string]string{"Red": "Ann"})
				})
				record(t, s, msg("club-1", from+1, game, "game_over"), func(tx *store.Tx) error {
					return tx.Finish(store.Result{Reason: "resignation", PGN4: "1-0"})
				})
			}
			play("g1", 1)
			to, err := s.RetireBoard(ctx, "club-1", time.Date(2026, 11, 28, 15, 4, 5, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			sum, err := s.Boards(ctx)
			if err != nil || len(sum) != 0 {
				t.Errorf("Boards after club-1 was retired to %s: %+v, %v; want none", to, sum, err)
			}
			play("g2", 1) // the board that joins next under the name, from seq 1
			sum, _ = s.Boards(ctx)
			if len(sum) != 1 || sum[0].Board != "club-1" {
				t.Errorf("Boards: %+v, want club-1 alone", sum)
			}
			games, err := s.Games(ctx, store.GameFilter{Board: "club-1"})
			got := map[string]string{}
			for _, g := range games {
				got[g.Game] = g.Board
			}
			if err != nil || len(games) != 2 || got["g1"] != to || got["g2"] != "club-1" {
				t.Errorf("Games of board club-1: %+v, %v; want g1 under %s and g2 under club-1", games, err, to)
			}
		})
	}
}
