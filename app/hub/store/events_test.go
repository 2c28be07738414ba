package store_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/store"
)

// startGame records board's game_start of game at seq with tags.
func startGame(t *testing.T, s *store.Store, board string, seq uint64, game string, tags map[string]string) {
	t.Helper()
	record(t, s, msg(board, seq, game, "game_start"), func(tx *store.Tx) error { return tx.StartGame("ffa", "", tags) })
}

// Events, their players, rounds, pushes, the games linked to them and
// corrections, on every engine.
func TestEvents(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, s *store.Store)
	}{
		{"an event: create, list, edit; a name once", func(t *testing.T, s *store.Store) {
			ctx := context.Background()
			e := store.Event{Name: "Club night", Kind: "ffa", Variant: "ffa", TimeControl: "10+5", Rounds: 4, Boards: []string{"club-1", "club-2"}, Seed: 1 << 62}
			id, err := s.CreateEvent(ctx, e)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.CreateEvent(ctx, e); !errors.Is(err, store.ErrExists) {
				t.Errorf("the same name again: %v, want ErrExists", err)
			}
			got, err := s.Event(ctx, id)
			e.ID, e.CreatedAt = id, got.CreatedAt
			if err != nil || !reflect.DeepEqual(got, e) || got.CreatedAt.IsZero() {
				t.Fatalf("event %+v, %v; want %+v", got, err, e)
			}
			e.Name, e.Rounds, e.Boards = "Club night 2", 5, []string{"club-3"}
			if err := s.UpdateEvent(ctx, e); err != nil {
				t.Fatal(err)
			}
			list, err := s.Events(ctx)
			if err != nil || len(list) != 1 || list[0].Name != "Club night 2" || list[0].Rounds != 5 || !reflect.DeepEqual(list[0].Boards, []string{"club-3"}) {
				t.Errorf("events %+v, %v", list, err)
			}
			if _, err := s.Event(ctx, 99); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("event 99: %v", err)
			}
		}},
		{"players: teams, replaced, a player who played stays", func(t *testing.T, s *store.Store) {
			ctx := context.Background()
			id, _ := s.CreateEvent(ctx, store.Event{Name: "Teams cup", Kind: "teams"})
			if err := s.SetEntrants(ctx, id, [][]string{{"Ann", "Cy"}, {"Bob", "Di"}}); err != nil {
				t.Fatal(err)
			}
			es, err := s.Entrants(ctx, id)
			if err != nil || len(es) != 4 {
				t.Fatalf("entrants %+v, %v", es, err)
			}
			if es[0].Name != "Ann" || es[1].Name != "Cy" || es[1].Unit != es[0].Player || es[2].Name != "Bob" || es[3].Unit != es[2].Player || es[3].Entry != 2 {
				t.Errorf("entrants %+v: want Ann and Cy (Ann's unit), then Bob and Di", es)
			}
			seats := []store.Seat{{Player: es[0].Player, Unit: es[0].Unit, Table: 1, Seat: "Red"}, {Player: es[1].Player, Unit: es[0].Unit, Table: 1, Seat: "Yellow"},
				{Player: es[2].Player, Unit: es[2].Unit, Table: 1, Seat: "Blue"}, {Player: es[3].Player, Unit: es[2].Unit, Table: 1, Seat: "Green"}}
			if _, err := s.SaveRound(ctx, id, 1, seats, []string{"club-1"}); err != nil {
				t.Fatal(err)
			}
			err = s.SetEntrants(ctx, id, [][]string{{"Ann", "Cy"}, {"Eve", "Fay"}})
			if err == nil || !strings.Contains(err.Error(), "Bob, Di already played") {
				t.Errorf("taking out Bob and Di after round 1: %v", err)
			}
			if err := s.SetEntrants(ctx, id, [][]string{{"Ann", "Cy"}, {"Bob", "Di"}, {"Eve", "Fay"}}); err != nil {
				t.Errorf("adding a team: %v", err)
			}
			if es, _ := s.Entrants(ctx, id); len(es) != 6 || es[0].Player != seats[0].Player {
				t.Errorf("after adding: %+v (Ann keeps her id)", es)
			}
		}},
		{"a round: paired, paired again, pushed, its game linked, corrected", func(t *testing.T, s *store.Store) {
			ctx := context.Background()
			id, _ := s.CreateEvent(ctx, store.Event{Name: "Club night", Kind: "ffa", Rounds: 3})
			s.SetEntrants(ctx, id, [][]string{{"Ann"}, {"Bob"}, {"Cy"}, {"Di"}, {"Eve"}})
			es, _ := s.Entrants(ctx, id)
			var seats []store.Seat
			for i, e := range es[:4] {
				seats = append(seats, store.Seat{Player: e.Player, Unit: e.Unit, Table: 1, Seat: []string{"Red", "Blue", "Yellow", "Green"}[i]})
			}
			seats = append(seats, store.Seat{Player: es[4].Player, Unit: es[4].Unit})
			rid, err := s.SaveRound(ctx, id, 1, seats[1:], []string{"club-1"})
			if err != nil {
				t.Fatal(err)
			}
			if again, err := s.SaveRound(ctx, id, 1, seats, []string{"club-1"}); err != nil || again != rid {
				t.Fatalf("pairing round 1 again: %d, %v; want round %d replaced", again, err, rid)
			}
			// club-1 played a game before the push, with the same tags:
			// not the round's.
			tags := map[string]string{"Event": "Club night", "Round": "1", "Red": "Ann"}
			startGame(t, s, "club-1", 1, "old", tags)
			if err := s.MarkPushed(ctx, rid, 1); err != nil {
				t.Fatal(err)
			}
			if _, err := s.SaveRound(ctx, id, 1, seats, []string{"club-1"}); err == nil || !strings.Contains(err.Error(), "was pushed") {
				t.Errorf("pairing a pushed round again: %v", err)
			}
			rounds, err := s.Rounds(ctx, id, "Club night")
			if err != nil || len(rounds) != 1 || len(rounds[0].Seats) != 5 || !rounds[0].Pushed() || rounds[0].Tables[0].Game != "" || rounds[0].Tables[0].PushSeq != 1 {
				t.Fatalf("rounds %+v, %v: want round 1 pushed after seq 1, no game yet", rounds, err)
			}
			// another event's game, then the round's (delivered twice: the last is the one)
			startGame(t, s, "club-1", 2, "other", map[string]string{"Event": "Other", "Round": "1"})
			startGame(t, s, "club-1", 3, "g1", tags)
			startGame(t, s, "club-1", 4, "g2", tags)
			startGame(t, s, "club-2", 5, "g3", tags)
			rounds, _ = s.Rounds(ctx, id, "Club night")
			if g := rounds[0].Tables[0].Game; g != "g2" {
				t.Fatalf("round 1's game on club-1: %q, want g2", g)
			}
			record(t, s, msg("club-1", 6, "g2", "game_over"), func(tx *store.Tx) error {
				return tx.Finish(store.Result{Reason: "checkmate", Winners: []string{"Red"}, Points: []int{40, 10, 0, 5}, PGN4: "40-10-0-5"})
			})
			r, corrected, err := s.Result(ctx, "club-1", "g2")
			if err != nil || corrected || r == nil || r.Winners[0] != "Red" {
				t.Fatalf("result %+v %v %v", r, corrected, err)
			}
			fix := store.Result{Reason: "corrected", Winners: []string{"Blue"}, Points: []int{10, 40, 0, 5}}
			if err := s.Correct(ctx, "club-1", "g2", fix, "director", "Red and Blue were swapped"); err != nil {
				t.Fatal(err)
			}
			r, corrected, _ = s.Result(ctx, "club-1", "g2")
			cs, _ := s.Corrections(ctx, "club-1", "g2")
			if !corrected || !reflect.DeepEqual(*r, fix) || len(cs) != 1 || cs[0].Note != "Red and Blue were swapped" || cs[0].Old == nil || cs[0].Old.Winners[0] != "Red" {
				t.Errorf("after the correction: %+v %v, corrections %+v", r, corrected, cs)
			}
			if err := s.Correct(ctx, "club-1", "nope", fix, "director", "x"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("correcting a game the hub lacks: %v", err)
			}
			ms, err := s.GameMessages(ctx, "club-1", "g2")
			if err != nil || len(ms) != 2 || ms[0].Kind != "game_start" || ms[1].Seq != 6 {
				t.Errorf("messages of g2: %+v, %v", ms, err)
			}
			// club-1's state is wiped and its name forgotten (retired)
			// after the round: the round keeps its game, result and
			// correction under the retired name.
			to, err := s.RetireBoard(ctx, "club-1", time.Date(2026, 11, 28, 15, 4, 5, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			rounds, err = s.Rounds(ctx, id, "Club night")
			if err != nil || rounds[0].Tables[0].Board != to || rounds[0].Tables[0].Game != "g2" {
				t.Fatalf("round 1 after club-1 was retired: %+v, %v; want g2 on %s", rounds[0].Tables, err, to)
			}
			if r, corrected, _ := s.Result(ctx, to, "g2"); !corrected || r == nil || r.Winners[0] != "Blue" {
				t.Errorf("the retired game's corrected result: %+v %v", r, corrected)
			}
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			newDB := b.start(t)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, open(t, newDB(t))) })
			}
		})
	}
}
