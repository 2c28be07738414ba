package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"boardd/app/hub/store"
)

// playGame records a game of board: its start with tags at day, a move
// per turn, and (when over) its result.
func playGame(t *testing.T, s *store.Store, board, game string, first uint64, day time.Time, tags map[string]string, moves int, over bool) uint64 {
	t.Helper()
	seq := first
	m := store.Message{Board: board, Seq: seq, Game: game, Kind: "game_start", Time: day, Body: []byte(`{}`)}
	record(t, s, m, func(tx *store.Tx) error { return tx.StartGame("teams", "", tags) })
	for i := 0; i < moves; i++ {
		seq++
		m := store.Message{Board: board, Seq: seq, Game: game, Kind: "move", Time: day.Add(time.Duration(i) * time.Second), Body: []byte(`{}`)}
		record(t, s, m, func(tx *store.Tx) error {
			return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h3", Coord: "h2-h3", FEN4: "f"})
		})
	}
	if over {
		seq++
		m := store.Message{Board: board, Seq: seq, Game: game, Kind: "game_over", Time: day.Add(time.Hour), Body: []byte(`{}`)}
		record(t, s, m, func(tx *store.Tx) error {
			return tx.Finish(store.Result{Reason: "resignation", Winners: []string{"Red", "Yellow"}, PGN4: "1-0"})
		})
	}
	return seq
}

// Games lists stored games newest first, narrowed by a part of a
// player's name, of the event's, of the board's (whatever the case, and
// LIKE's wildcards taken as they are) and by day, month or year; the
// messages of a game come back in order, and MessageCount counts them
// all.
func TestGames(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			newDB := b.start(t)
			s := open(t, newDB(t))
			ctx := context.Background()
			d1 := time.Date(2026, 11, 20, 19, 0, 0, 0, time.UTC)
			d2 := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
			d3 := time.Date(2026, 12, 5, 19, 0, 0, 0, time.UTC)
			n := playGame(t, s, "club-1", "g1", 1, d1, map[string]string{"Red": "Ann Smith", "Blue": "Bob", "Yellow": "Cy", "Green": "Di", "Event": "Autumn cup", "Round": "1"}, 3, true)
			n = playGame(t, s, "club-1", "g2", n+1, d2, map[string]string{"Red": "Bob", "Blue": "Ann Smith", "Event": "Autumn cup", "Round": "2"}, 2, true)
			playGame(t, s, "club-2", "g1", 1, d2, map[string]string{"Red": "Eve", "Blue": "Fay", "Event": "100% club_night"}, 1, false)
			playGame(t, s, "club-2", "g2", 3, d3, map[string]string{"Red": "Gus"}, 0, false)

			ids := func(f store.GameFilter) []string {
				t.Helper()
				items, err := s.Games(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, it := range items {
					out = append(out, it.Board+"/"+it.Game)
				}
				return out
			}
			for _, c := range []struct {
				f    store.GameFilter
				want []string
			}{
				{store.GameFilter{}, []string{"club-2/g2", "club-1/g2", "club-2/g1", "club-1/g1"}},
				{store.GameFilter{Player: "ann"}, []string{"club-1/g2", "club-1/g1"}},
				{store.GameFilter{Player: "SMITH", Event: "cup", Date: "2026-11-28"}, []string{"club-1/g2"}},
				{store.GameFilter{Event: "100%"}, []string{"club-2/g1"}},
				{store.GameFilter{Event: "100_"}, nil},
				{store.GameFilter{Event: "club_n"}, []string{"club-2/g1"}},
				{store.GameFilter{Board: "B-2"}, []string{"club-2/g2", "club-2/g1"}},
				{store.GameFilter{Date: "2026-11"}, []string{"club-1/g2", "club-2/g1", "club-1/g1"}},
				{store.GameFilter{Date: "2026-12-05"}, []string{"club-2/g2"}},
				{store.GameFilter{Player: "nobody"}, nil},
				{store.GameFilter{Limit: 1}, []string{"club-2/g2"}},
			} {
				if got := ids(c.f); !reflect.DeepEqual(got, c.want) {
					t.Errorf("%+v: %v, want %v", c.f, got, c.want)
				}
			}
			items, err := s.Games(ctx, store.GameFilter{Board: "club-1", Date: "2026-11-20"})
			if err != nil || len(items) != 1 {
				t.Fatalf("%v %v", items, err)
			}
			want := store.GameItem{Board: "club-1", Game: "g1", Variant: "teams", Started: "2026-11-20T19:00:00.000Z", Status: "over",
				Event: "Autumn cup", Round: "1", Players: map[string]string{"Red": "Ann Smith", "Blue": "Bob", "Yellow": "Cy", "Green": "Di"},
				Result: "1-0", Reason: "resignation", Moves: 3}
			if !reflect.DeepEqual(items[0], want) {
				t.Errorf("game item\n %+v\nwant\n %+v", items[0], want)
			}
			msgs, err := s.GameMessages(ctx, "club-1", "g2")
			if err != nil {
				t.Fatal(err)
			}
			var seqs []uint64
			for _, m := range msgs {
				seqs = append(seqs, m.Seq)
			}
			if !reflect.DeepEqual(seqs, []uint64{6, 7, 8, 9}) || msgs[0].Kind != "game_start" || !msgs[0].Time.Equal(d2) {
				t.Errorf("messages of club-1/g2: %v (%+v)", seqs, msgs[0])
			}
			if ms, err := s.BoardMessages(ctx, "club-1", 4, 3); err != nil || len(ms) != 3 || ms[0].Seq != 4 || ms[2].Seq != 6 {
				t.Errorf("club-1 from 4, 3 of them: %v %v", ms, err)
			}
			if n, err := s.MessageCount(ctx); err != nil || n != 9+3 {
				t.Errorf("message count %d %v, want 12", n, err)
			}
			if err := s.SetStatus(ctx, "club-2", "offline"); err != nil {
				t.Fatal(err)
			}
			if c, err := s.BoardConns(ctx); err != nil || !reflect.DeepEqual(c, map[string]string{"club-1": "", "club-2": "offline"}) {
				t.Errorf("conns %v %v", c, err)
			}
		})
	}
}
