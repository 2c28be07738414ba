package store_test

import (
	"context"
	"testing"

	"boardd/app/hub/store"
)

// An imported game is stored once by board and id; its turns are keyed
// past any stream's seq; the board's own stream bringing the same game
// later replaces the imported copy.
func TestImport(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			newDB := be.start(t)
			s := open(t, newDB(t))
			ctx := context.Background()
			g := store.ImportedGame{Board: "club-1", Game: "g1", Variant: "teams", Tags: map[string]string{"Red": "Ann", "Event": "Club night"},
				Turns:  []store.Turn{{Kind: "move", Seat: "Red", Move: "h2-h3", Coord: "h2-h3", FEN4: "f1"}, {Kind: "resign", Seat: "Blue", Move: "R", FEN4: "f2"}},
				Result: store.Result{Reason: "resignation", Winners: []string{"Red", "Yellow"}, PGN4: "1-0"}}
			for i, want := range []bool{true, false} {
				if got, err := s.Import(ctx, g); err != nil || got != want {
					t.Fatalf("import %d: %v %v, want %v", i+1, got, err, want)
				}
			}
			g2 := g
			g2.Game = "g2"
			if ok, err := s.Import(ctx, g2); !ok || err != nil {
				t.Fatalf("a second game: %v %v", ok, err)
			}
			turns, _ := s.Turns(ctx, "club-1", "g2")
			if len(turns) != 2 || turns[0].Seq < store.ImportSeqBase || turns[1].Seq != turns[0].Seq+1 {
				t.Errorf("the imported turns' keys: %+v", turns)
			}
			got, ok, err := s.Game(ctx, "club-1", "g1")
			if err != nil || !ok || got.Status != "over" || got.Tags["Red"] != "Ann" || got.Result == nil || got.Result.PGN4 != "1-0" {
				t.Fatalf("the imported game: %+v %v %v", got, ok, err)
			}
			if last, _ := s.LastSeqs(ctx); last["club-1"] != 0 {
				t.Errorf("an import moved the board's last seq to %d", last["club-1"])
			}

			// The board's stream brings g1 itself.
			record(t, s, msg("club-1", 1, "g1", "game_start"), func(tx *store.Tx) error { return tx.StartGame("teams", "", map[string]string{"Red": "Ann"}) })
			record(t, s, msg("club-1", 2, "g1", "move"), func(tx *store.Tx) error {
				return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h4", Coord: "h2-h4", FEN4: "s1"})
			})
			turns, _ = s.Turns(ctx, "club-1", "g1")
			got, _, _ = s.Game(ctx, "club-1", "g1")
			if len(turns) != 1 || turns[0].Seq != 2 || got.Status != "playing" || got.Result != nil || got.Tags["Event"] != "" {
				t.Errorf("after the stream: turns %+v, game %+v", turns, got)
			}
			if have, err := s.HasGame(ctx, "club-1", "g3"); have || err != nil {
				t.Errorf("HasGame(g3) = %v, %v", have, err)
			}
		})
	}
}
