package systest

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"boardd/app/board"
	"boardd/configs"
	"boardd/referee"
)

// quietConfig is a daemon on a simulated board in dir, with no web
// display and no MQTT unless the test turns them on.
func quietConfig(dir string) configs.Daemon {
	cfg := configs.Defaults()
	cfg.StateDir = dir
	cfg.Board = "dur"
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "off"
	return cfg
}

// dirContents lists every file under dir with its content ("" if dir does
// not exist).
func dirContents(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if info.IsDir() {
			out = append(out, rel+"/")
			return nil
		}
		data, _ := os.ReadFile(path)
		out = append(out, rel+"="+string(data))
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// A start that fails (here: the web display's port is taken) writes
// nothing into the state directory: a new one is not left behind, an
// existing one is as it was.
func TestFailedStartWritesNothing(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, dir string) // nil: the directory does not exist
	}{
		{name: "no state directory yet"},
		{name: "an empty state directory", prepare: func(t *testing.T, dir string) { os.MkdirAll(dir, 0o755) }},
		{name: "a game in progress", prepare: func(t *testing.T, dir string) {
			d, err := board.Start(context.Background(), quietConfig(dir), io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if r := d.Live.Do(context.Background(), referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Event": "x"}}); !r.OK {
				t.Fatal(r.Error)
			}
			d.Close()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			if tc.prepare != nil {
				tc.prepare(t, dir)
			}
			before := dirContents(t, dir)
			cfg := quietConfig(dir)
			cfg.MQTT.Disabled = false
			cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
			cfg.Web.Listen = taken.Addr().String()
			if _, err := board.Start(context.Background(), cfg, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "web.listen") {
				t.Fatalf("start with the web port taken: %v, want a web.listen error", err)
			}
			if after := dirContents(t, dir); after != before {
				t.Errorf("the failed start changed the state directory:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// Temporary files left by a daemon killed mid-write (the MQTT position's
// .mqtt-acked.NNN, an empty stream.jsonl.tmp, a journal or game being
// rewritten) are removed on start; other files stay.
func TestStartRemovesLeftoverTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	leftovers := []string{".mqtt-acked.123456", ".mqtt-acked.9", "stream.jsonl.tmp", "stream.jsonl.seq.tmp", "current.journal.tmp", "games/2026-11-23_game_r0_board-dur.pgn4.tmp"}
	os.MkdirAll(filepath.Join(dir, "games"), 0o755)
	for _, f := range leftovers {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	cfg := quietConfig(dir)
	cfg.MQTT.Disabled = false
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, f := range leftovers {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s is still there after a start", f)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "mine" {
		t.Errorf("a file of the user's was touched")
	}
}

// Whatever happened to stream.jsonl (emptied, random bytes, a damaged line
// in the middle, deleted, cut in half), the restarted daemon numbers its
// messages above every Seq it used before: the journal and the MQTT
// acknowledged position remember them.
func TestSeqNeverComesRoundAgain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(path string, data []byte)
	}{
		{name: "emptied", damage: func(p string, _ []byte) { os.WriteFile(p, nil, 0o644) }},
		{name: "random bytes", damage: func(p string, _ []byte) { os.WriteFile(p, []byte("\x8f\x01{]]\nseq\xff\n"), 0o644) }},
		{name: "deleted", damage: func(p string, _ []byte) { os.Remove(p) }},
		{name: "cut in half", damage: func(p string, d []byte) { os.WriteFile(p, d[:len(d)/2], 0o644) }},
		{name: "a damaged line in the middle", damage: func(p string, d []byte) {
			lines := strings.SplitAfter(string(d), "\n")
			lines[2] = "garbage\n"
			os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644)
		}},
		{name: "a damaged last line", damage: func(p string, d []byte) {
			lines := strings.SplitAfter(string(d), "\n")
			lines[len(lines)-2] = "{\"seq\":1,\"kind\":\"move\"}\n"
			os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			d, err := board.Start(context.Background(), quietConfig(dir), io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var last uint64
			for i := 0; i < 6; i++ {
				r := d.Live.Do(context.Background(), referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Round": string(rune('1' + i))}})
				if !r.OK {
					t.Fatal(r.Error)
				}
				last = r.Seq
			}
			d.Close()
			path := filepath.Join(dir, "stream.jsonl")
			data, _ := os.ReadFile(path)
			tc.damage(path, data)
			d, err = board.Start(context.Background(), quietConfig(dir), io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			r := d.Live.Do(context.Background(), referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Round": "after"}})
			if !r.OK || r.Seq <= last {
				t.Fatalf("after the restart the next message is %d (%s), but %d was used before", r.Seq, r.Error, last)
			}
		})
	}
}
