package server_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/store"
	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

// A board that archived games before it joined sends them when it joins
// (its stream no longer holds them): the hub stores each, once; the
// board's next start sends nothing again.
func TestBoardSendsItsArchiveOnJoin(t *testing.T) {
	boardState := t.TempDir()
	ids := []string{"20261101-190000", "20261101-203000"}
	for i, file := range []string{"teams/4pchess-26780486.pgn4", "ffa/hornet-collected_games-cc_game_0017.pgn4"} {
		text, err := os.ReadFile(filepath.Join("../../../testdata/games", file))
		if err != nil {
			t.Fatal(err)
		}
		pg, _, err := pgn4.ParseString(string(text))
		if err != nil {
			t.Fatal(err)
		}
		pg.Set("Board", "club-6")
		pg.Set("GameId", ids[i])
		pg.Set("Event", "Autumn cup")
		if _, err := (archive.Store{Dir: filepath.Join(boardState, "games")}).Save(pg, "club-6", time.Date(2026, 11, 1, 19, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
	}
	hubState := t.TempDir()
	h, out := startHub(t, hubState, "127.0.0.1:0")
	join := joinURL(t, out)
	d := startBoard(t, "club-6", boardState, join, io.Discard)

	s, err := store.Open(context.Background(), filepath.Join(hubState, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range ids {
		var g store.Game
		for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			var ok bool
			if g, ok, err = s.Game(context.Background(), "club-6", id); err != nil {
				t.Fatal(err)
			} else if ok {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("the hub never stored club-6's archived game %s", id)
			}
		}
		if g.Status != "over" || g.Tags["Event"] != "Autumn cup" || g.Result == nil {
			t.Errorf("club-6/%s: %+v", id, g)
		}
	}
	sent, err := os.ReadFile(filepath.Join(boardState, "hub-archive-sent"))
	if err != nil || strings.Count(string(sent), ".pgn4\n") != 2 {
		t.Fatalf("hub-archive-sent: %q, %v", sent, err)
	}
	// Again: the board sends nothing more.
	d.Close()
	d = startBoard(t, "club-6", boardState, join, io.Discard)
	playOn(t, d, "h2-h3")
	holds(t, h, d, "club-6")
	if again, _ := os.ReadFile(filepath.Join(boardState, "hub-archive-sent")); string(again) != string(sent) {
		t.Errorf("the second start sent the archive again:\n%s", again)
	}
}
