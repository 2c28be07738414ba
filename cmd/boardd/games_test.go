package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

// archiveGame archives a one-move game of event in dir.
func archiveGame(t *testing.T, dir, event string) string {
	t.Helper()
	pg, _, err := pgn4.ParseString("[Variant \"Teams\"]\n[StartFen4 \"4PC\"]\n[Red \"Ann\"]\n\n1. h2-h4\n")
	if err != nil {
		t.Fatal(err)
	}
	pg.Set("Event", event)
	pg.Set("Result", "*")
	path, err := archive.Store{Dir: dir}.Save(pg, "1", time.Date(2026, 11, 20, 19, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// boardd games looks where boardd run keeps the games (the state
// directory's games/, from the config when one is given) and says where
// it looked.
func TestGamesCommandFindsTheArchive(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "") // not under systemd
	tmp := t.TempDir()
	t.Chdir(tmp)

	code, out, errOut := runCmd("games", "list")
	if code != 0 || !strings.Contains(out, "0 games in "+filepath.Join("boardd-state", "games")) || !strings.Contains(errOut, "does not exist") {
		t.Errorf("no archive yet: %d\n%s%s", code, out, errOut)
	}

	path := archiveGame(t, filepath.Join("boardd-state", "games"), "Club Night")
	code, out, errOut = runCmd("games", "list")
	if code != 0 || !strings.Contains(out, "Club Night") || !strings.Contains(out, "1 games in "+filepath.Join("boardd-state", "games")) {
		t.Errorf("games list: %d\n%s%s", code, out, errOut)
	}

	code, out, _ = runCmd("games", "show", filepath.Base(path))
	if code != 0 || !strings.Contains(out, `[Event "Club Night"]`) {
		t.Errorf("games show NAME: %d\n%s", code, out)
	}
	abs, _ := filepath.Abs(path)
	elsewhere := filepath.Join(t.TempDir(), "copy.pgn4")
	data, _ := os.ReadFile(abs)
	os.WriteFile(elsewhere, data, 0o644)
	for _, p := range []string{abs, elsewhere} {
		code, out, errOut = runCmd("games", "show", p)
		if code != 0 || !strings.Contains(out, `[Red "Ann"]`) {
			t.Errorf("games show %s: %d\n%s%s", p, code, out, errOut)
		}
	}
	code, _, errOut = runCmd("games", "show", "nope.pgn4")
	if code == 0 || !strings.Contains(errOut, "boardd games list shows the files of "+filepath.Join("boardd-state", "games")) {
		t.Errorf("games show of a missing game: %d %s", code, errOut)
	}

	// A config's state_dir.
	cfg := filepath.Join(tmp, "boardd.yaml")
	state := filepath.Join(tmp, "club-state")
	if err := os.WriteFile(cfg, []byte("state_dir: "+state+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	archiveGame(t, filepath.Join(state, "games"), "Open Day")
	code, out, errOut = runCmd("games", "list", "--config", cfg)
	if code != 0 || !strings.Contains(out, "Open Day") || strings.Contains(out, "Club Night") || !strings.Contains(out, "1 games in "+filepath.Join(state, "games")) {
		t.Errorf("games list --config: %d\n%s%s", code, out, errOut)
	}
}
