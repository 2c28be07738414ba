package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
)

// backend is one engine: start, in the engine's subtest, returns what
// opens a fresh, empty database for each case.
type backend struct {
	name  string
	start func(t *testing.T) (newDB func(t *testing.T) string)
}

// backends are the engines every test runs on: a SQLite file in a
// temporary directory and a real PostgreSQL (pgtest), one server for all
// cases, one database each.
var backends = []backend{
	{"sqlite", func(*testing.T) func(t *testing.T) string {
		return func(t *testing.T) string { return filepath.Join(t.TempDir(), "hub.db") }
	}},
	{"postgres", func(t *testing.T) func(t *testing.T) string {
		pg := pgtest.Start(t)
		return func(t *testing.T) string { return pg.NewDB(t) }
	}},
}

func open(t *testing.T, url string) *store.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func msg(board string, seq uint64, game, kind string) store.Message {
	return store.Message{Board: board, Seq: seq, Game: game, Kind: kind, Time: time.Date(2026, 11, 28, 19, 0, int(seq), 0, time.UTC), Body: []byte(`{"seq":` + string(rune('0'+seq%10)) + `}`)}
}

// record records m with apply and fails the test on an error.
func record(t *testing.T, s *store.Store, m store.Message, apply func(*store.Tx) error) bool {
	t.Helper()
	ok, err := s.Record(context.Background(), m, apply)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// The suite: every case runs on every engine, each on a fresh database.
func TestStore(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, url string)
	}{
		{"migrations run once and again harmlessly", func(t *testing.T, url string) {
			s := open(t, url)
			record(t, s, msg("club-1", 1, "g1", "game_start"), nil)
			s.Close()
			s = open(t, url) // the second start finds the schema done and the data kept
			seqs, err := s.LastSeqs(context.Background())
			if err != nil || seqs["club-1"] != 1 {
				t.Fatalf("after reopening: last seqs %v, %v; want club-1 at 1", seqs, err)
			}
		}},
		{"a seq is stored once", func(t *testing.T, url string) {
			s := open(t, url)
			ctx := context.Background()
			calls := 0
			apply := func(tx *store.Tx) error {
				calls++
				return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h4", Coord: "h2-h4", FEN4: "f"})
			}
			for i, want := range []bool{true, false, false} {
				if got := record(t, s, msg("club-1", 7, "g1", "move"), apply); got != want {
					t.Fatalf("storing seq 7 the %d. time: stored %v, want %v", i+1, got, want)
				}
			}
			if calls != 1 {
				t.Errorf("the message's effect was applied %d times, want once", calls)
			}
			// Another board's seq 7 is another message.
			if !record(t, s, msg("club-2", 7, "g9", "move"), apply) {
				t.Error("club-2's seq 7 was taken for club-1's")
			}
			turns, _ := s.Turns(ctx, "club-1", "g1")
			seqs, _ := s.Seqs(ctx, "club-1")
			if len(turns) != 1 || !reflect.DeepEqual(seqs, []uint64{7}) {
				t.Errorf("club-1 holds turns %v and messages %v, want one of each", turns, seqs)
			}
			last, err := s.LastSeqs(ctx)
			if err != nil || !reflect.DeepEqual(last, map[string]uint64{"club-1": 7, "club-2": 7}) {
				t.Errorf("last seqs %v, %v", last, err)
			}
		}},
		{"an effect that fails stores nothing", func(t *testing.T, url string) {
			s := open(t, url)
			record(t, s, msg("club-1", 1, "g1", "game_start"), func(tx *store.Tx) error { return tx.StartGame("teams", "4PC", nil) })
			boom := errors.New("boom")
			_, err := s.Record(context.Background(), msg("club-1", 2, "g1", "move"), func(tx *store.Tx) error {
				if err := tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h4", FEN4: "f"}); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("error %v, want boom", err)
			}
			last, _ := s.LastSeqs(context.Background())
			turns, _ := s.Turns(context.Background(), "club-1", "g1")
			if last["club-1"] != 1 || len(turns) != 0 {
				t.Errorf("after a failed effect: last seq %d, turns %v; want 1 and none", last["club-1"], turns)
			}
			// The same message stores when offered again.
			if !record(t, s, msg("club-1", 2, "g1", "move"), nil) {
				t.Error("seq 2 was not stored after its failed first try")
			}
		}},
		{"a game: tags, turns with clocks and points, takebacks, result", func(t *testing.T, url string) {
			s := open(t, url)
			ctx := context.Background()
			turn := func(seat, move string, clocks []int64, points []int) func(*store.Tx) error {
				return func(tx *store.Tx) error {
					return tx.AddTurn(store.Turn{Kind: "move", Seat: seat, Move: move, Coord: move, Clocks: clocks, Points: points, FEN4: "fen-" + move})
				}
			}
			record(t, s, msg("club-1", 10, "g1", "game_start"), func(tx *store.Tx) error {
				return tx.StartGame("ffa", "4PC", map[string]string{"Red": "Ann", "Blue": "Bob", "Event": "Club night"})
			})
			record(t, s, msg("club-1", 11, "g1", "tags"), func(tx *store.Tx) error {
				return tx.SetTags(map[string]string{"Blue": "Bea", "Event": ""})
			})
			record(t, s, msg("club-1", 12, "g1", "move"), turn("Red", "h2-h4", []int64{600000, 600000, 600000, 600000}, []int{0, 0, 0, 0}))
			record(t, s, msg("club-1", 13, "g1", "move"), turn("Blue", "b7-c7", []int64{600000, 598000, 600000, 600000}, []int{0, 0, 0, 0}))
			record(t, s, msg("club-1", 14, "g1", "takeback"), func(tx *store.Tx) error { return tx.Takeback() })
			// a revised move: the last one taken back and the new one, one message
			record(t, s, msg("club-1", 15, "g1", "move_revised"), func(tx *store.Tx) error {
				if err := tx.Takeback(); err != nil {
					return err
				}
				return turn("Red", "h2-h3", nil, []int{1, 0, 0, 0})(tx)
			})
			sum, err := s.Boards(ctx)
			want := []store.BoardSummary{{Board: "club-1", Status: "playing", Game: "g1", Moves: 1, LastMove: "h2-h3", LastSeq: 15}}
			if err != nil || !reflect.DeepEqual(sum, want) {
				t.Fatalf("boards while playing:\n got %+v, %v\nwant %+v", sum, err, want)
			}
			record(t, s, msg("club-1", 16, "g1", "game_over"), func(tx *store.Tx) error {
				return tx.Finish(store.Result{Reason: "checkmate", Winners: []string{"Red"}, Points: []int{20, 0, 0, 0}, PGN4: "20-0-0-0"})
			})
			if err := s.SetStatus(ctx, "club-1", "online"); err != nil {
				t.Fatal(err)
			}
			sum, _ = s.Boards(ctx)
			if len(sum) != 1 || sum[0].Status != "finished" || sum[0].Moves != 1 {
				t.Errorf("boards after the game: %+v, want club-1 finished with 1 move", sum)
			}
			turns, err := s.Turns(ctx, "club-1", "g1")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range turns {
				got = append(got, strings.Join([]string{u.Seat, u.Move}, " "))
				if u.Seq == 12 && u.UndoneSeq != 15 || u.Seq == 13 && u.UndoneSeq != 14 || u.Seq == 15 && u.UndoneSeq != 0 {
					t.Errorf("turn %d taken back by %d", u.Seq, u.UndoneSeq)
				}
			}
			if !reflect.DeepEqual(got, []string{"Red h2-h4", "Blue b7-c7", "Red h2-h3"}) {
				t.Errorf("turns %v", got)
			}
			if !reflect.DeepEqual(turns[1].Clocks, []int64{600000, 598000, 600000, 600000}) || turns[2].Clocks != nil || !reflect.DeepEqual(turns[2].Points, []int{1, 0, 0, 0}) {
				t.Errorf("clocks and points: %+v", turns)
			}
			g, ok, err := s.Game(ctx, "club-1", "g1")
			wantRes := &store.Result{Reason: "checkmate", Winners: []string{"Red"}, Points: []int{20, 0, 0, 0}, PGN4: "20-0-0-0"}
			if err != nil || !ok || g.Variant != "ffa" || g.Status != "over" ||
				!reflect.DeepEqual(g.Tags, map[string]string{"Red": "Ann", "Blue": "Bea"}) || !reflect.DeepEqual(g.Result, wantRes) {
				t.Errorf("game: %+v (result %+v), %v, %v", g, g.Result, ok, err)
			}
		}},
		{"a turn of a game whose start was never seen", func(t *testing.T, url string) {
			s := open(t, url)
			record(t, s, msg("club-1", 40, "g7", "move"), func(tx *store.Tx) error {
				return tx.AddTurn(store.Turn{Kind: "move", Seat: "Green", Move: "m8-l8", FEN4: "f"})
			})
			sum, _ := s.Boards(context.Background())
			if len(sum) != 1 || sum[0].Game != "g7" || sum[0].Moves != 1 || sum[0].LastMove != "m8-l8" {
				t.Errorf("boards: %+v", sum)
			}
		}},
		{"a gap raises the last seq and is kept", func(t *testing.T, url string) {
			s := open(t, url)
			ctx := context.Background()
			record(t, s, msg("club-1", 3, "g1", "move"), nil)
			if err := s.Gap(ctx, "club-1", 4, 10, "the board keeps messages from 11"); err != nil {
				t.Fatal(err)
			}
			last, _ := s.LastSeqs(ctx)
			gaps, _ := s.Gaps(ctx, "club-1")
			if last["club-1"] != 10 || !reflect.DeepEqual(gaps, [][2]uint64{{4, 10}}) {
				t.Errorf("last seq %d, gaps %v", last["club-1"], gaps)
			}
			if err := s.Gap(ctx, "club-1", 9, 2, ""); err == nil {
				t.Error("a backwards gap was taken")
			}
		}},
		{"a status", func(t *testing.T, url string) {
			s := open(t, url)
			ctx := context.Background()
			if err := s.SetStatus(ctx, "club-3", "offline"); err != nil {
				t.Fatal(err)
			}
			sum, _ := s.Boards(ctx)
			if len(sum) != 1 || sum[0].Status != "offline" || sum[0].LastSeq != 0 {
				t.Errorf("boards: %+v", sum)
			}
		}},
		{"every board offline at a hub's start", func(t *testing.T, url string) {
			s := open(t, url)
			ctx := context.Background()
			record(t, s, msg("club-1", 1, "g1", "game_start"), func(tx *store.Tx) error { return tx.StartGame("ffa", "", nil) })
			for _, b := range []string{"club-1", "club-2"} {
				if err := s.SetStatus(ctx, b, "online"); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.AllOffline(ctx); err != nil {
				t.Fatal(err)
			}
			sum, _ := s.Boards(ctx)
			if len(sum) != 2 || sum[0].Status != "offline" || sum[1].Status != "offline" || sum[0].Game != "g1" {
				t.Errorf("boards: %+v, want both offline, club-1's game kept", sum)
			}
			if err := s.SetStatus(ctx, "club-2", "online"); err != nil {
				t.Fatal(err)
			}
			if sum, _ = s.Boards(ctx); sum[1].Status != "idle" {
				t.Errorf("club-2 back online: %+v", sum[1])
			}
		}},
		{"bad messages are refused", func(t *testing.T, url string) {
			s := open(t, url)
			for _, m := range []store.Message{msg("", 1, "g", "move"), msg("club-1", 0, "g", "move"), msg("club-1", 1<<63, "g", "move")} {
				if _, err := s.Record(context.Background(), m, nil); err == nil {
					t.Errorf("board %q seq %d was stored", m.Board, m.Seq)
				}
			}
			if _, err := s.Record(context.Background(), msg("club-1", 1, "", "move"), func(tx *store.Tx) error {
				return tx.AddTurn(store.Turn{Kind: "move"})
			}); err == nil || !strings.Contains(err.Error(), "names no game") {
				t.Errorf("a turn without a game: %v", err)
			}
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			newDB := b.start(t)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, newDB(t)) })
			}
		})
	}
}

// Open picks the engine from the URL and says what a bad one should be.
func TestOpenURL(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ url, engine, err string }{
		{filepath.Join(dir, "a", "hub.db"), store.SQLite, ""},
		{"sqlite:" + filepath.Join(dir, "b.db"), store.SQLite, ""},
		{"", "", "no path or URL"},
		{"mysql://x/y", "", `unknown scheme "mysql"`},
		{"sqlite:", "", "needs a file path"},
		{"postgres://", "", "want postgres://user:password@host"},
	} {
		s, err := store.Open(context.Background(), c.url)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Open(%q): %v, want an error with %q", c.url, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Open(%q): %v", c.url, err)
			continue
		}
		if s.Engine() != c.engine {
			t.Errorf("Open(%q) is %s, want %s", c.url, s.Engine(), c.engine)
		}
		s.Close()
	}
}
