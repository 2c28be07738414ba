package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardd/app/board"
	"boardd/configs"
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

// Issue 27: on a packaged install boardd games list, games export and
// doctor looked in ./boardd-state while the service keeps its games in
// /var/lib/boardd. Every command finds the state directory the service
// uses and says which one it reads.
func TestCommandsFindTheServiceStateDir(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "") // a shell, not the service
	etc, service := t.TempDir(), t.TempDir()
	oldCfg, oldDir := configs.PackagedConfig, configs.PackagedStateDir
	t.Cleanup(func() { configs.PackagedConfig, configs.PackagedStateDir = oldCfg, oldDir })
	configs.PackagedConfig, configs.PackagedStateDir = filepath.Join(etc, "boardd.yaml"), service
	t.Chdir(t.TempDir()) // somewhere without a boardd-state
	archiveGame(t, filepath.Join(service, "games"), "Club Night")
	if err := os.WriteFile(configs.PackagedConfig, []byte("board: \"7\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	games := filepath.Join(service, "games")

	for _, args := range [][]string{
		{"games", "list"},
		{"games", "list", "--config", configs.PackagedConfig},
		{"games", "export"},
	} {
		code, out, errOut := runCmd(args...)
		if code != 0 || !strings.Contains(out, "Club Night") {
			t.Errorf("%v: exit %d, the service's game not found:\n%s%s", args, code, out, errOut)
		}
		if !strings.Contains(errOut, "reading "+games) || !strings.Contains(errOut, "packaged service's") {
			t.Errorf("%v does not say which state directory it reads: %q", args, errOut)
		}
	}

	var out, errb bytes.Buffer
	runDoctor([]string{"--config", configs.PackagedConfig}, &out, &errb)
	if !strings.Contains(out.String(), "the board's state directory is "+service+" (the packaged service's") {
		t.Errorf("doctor does not name the service's state directory:\n%s", out.String())
	}
	if d, err := board.LoadConfig(configs.PackagedConfig); err != nil || d.StateDir != service {
		t.Errorf("boardd run --config %s: state %q, %v; want %s", configs.PackagedConfig, d.StateDir, err, service)
	}

	// Under systemd, $STATE_DIRECTORY is the service's; a state_dir in the
	// config beats both, relative to the service's working directory.
	t.Setenv("STATE_DIRECTORY", filepath.Join(service, "sd"))
	if d, _ := configs.Load(configs.PackagedConfig); d.StateDir != filepath.Join(service, "sd") || !strings.Contains(d.StateDirFrom(), "$STATE_DIRECTORY") {
		t.Errorf("under systemd: state %q from %q", d.StateDir, d.StateDirFrom())
	}
	os.WriteFile(configs.PackagedConfig, []byte("state_dir: elsewhere\n"), 0o644)
	if d, _ := configs.Load(configs.PackagedConfig); d.StateDir != filepath.Join(service, "elsewhere") || d.StateDirFrom() != "state_dir in "+configs.PackagedConfig {
		t.Errorf("state_dir: elsewhere: state %q from %q", d.StateDir, d.StateDirFrom())
	}

	// No packaged config: the default, said so.
	os.Remove(configs.PackagedConfig)
	t.Setenv("STATE_DIRECTORY", "")
	code, out2, errOut := runCmd("games", "list")
	if code != 0 || !strings.Contains(out2, "0 games in "+filepath.Join("boardd-state", "games")) || !strings.Contains(errOut, "the default") {
		t.Errorf("without a packaged config: %d %q %q", code, out2, errOut)
	}
}

// A state directory the user may not read (the service's is 0750) is
// said as such, with how to get in; other errors pass unchanged.
func TestPermissionHint(t *testing.T) {
	denied := &fs.PathError{Op: "open", Path: "/var/lib/boardd/games/index.tsv", Err: syscall.EACCES}
	if got := permissionHint(denied).Error(); !strings.Contains(got, "permission denied") || !strings.Contains(got, "sudo") || !strings.Contains(got, "group boardd") {
		t.Errorf("permissionHint(EACCES) = %q", got)
	}
	if !errors.Is(permissionHint(denied), os.ErrPermission) {
		t.Error("the hint hides the permission error")
	}
	missing := &fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}
	if got := permissionHint(missing); got != error(missing) {
		t.Errorf("permissionHint(ENOENT) = %v, want it unchanged", got)
	}
}
