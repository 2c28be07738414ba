package collect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/internal/testio"
	"boardd/sync/broker/brokertest"
)

// runCollectFor runs collect until stop is called, which returns
// collect's error.
func runCollectFor(t *testing.T, url, dir string, stdout, stderr *testio.Buffer) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, brokertest.Client(url, "club", "pw-club"), dir, stdout, stderr) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				err = errors.New("collect did not stop within 10 s")
			}
		})
		return err
	}
	// A test that fails before it stops collect stops it here, before the
	// broker closes (the broker waits for its clients to go).
	t.Cleanup(func() { stop() })
	return stop
}

func pgn(event string) string {
	return fmt.Sprintf("[Event \"%s\"]\n[Variant \"Teams\"]\n\n1. h2-h4 .. b7-c7 .. g13-g11 .. m8-l8\n2. R 1-0\n", event)
}

// Games published retained for two boards end up in one file each; a
// second run writes nothing (same text), a changed game is rewritten,
// and topics that cannot be file names are refused.
func TestCollect(t *testing.T) {
	url := brokertest.Start(t)
	pub := brokertest.Publisher(t, url)
	games := map[string]string{
		"boardd/club-1/games/20261122-193000":    pgn("Club night, board 1"),
		"boardd/club-1/games/20261122-203000":    pgn("Club night, board 1, round 2"),
		"boardd/club-2/games/20261122-193000":    pgn("Club night, board 2"),
		"boardd/club-2/games/..":                 pgn("escape attempt"),
		"boardd/club-2/state":                    `{"not":"a game"}`,
		"otherprefix/club-3/games/20261122-1900": pgn("other prefix"),
	}
	for topic, text := range games {
		brokertest.Publish(t, pub, topic, text, true)
	}
	dir := t.TempDir()

	var out1, err1 testio.Buffer
	stop := runCollectFor(t, url, dir, &out1, &err1)
	err1.WaitFor(t, "collecting boardd/+/games/+")
	for _, f := range []string{"club-1/20261122-193000.pgn4", "club-1/20261122-203000.pgn4", "club-2/20261122-193000.pgn4"} {
		out1.WaitFor(t, "new "+filepath.Join(dir, f))
	}
	err1.WaitFor(t, `game id ".." cannot be a file name`)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, rel)
		}
		return nil
	})
	want := []string{"club-1/20261122-193000.pgn4", "club-1/20261122-203000.pgn4", "club-2/20261122-193000.pgn4"}
	if !slices.Equal(files, want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "club-2/20261122-193000.pgn4")); string(data) != pgn("Club night, board 2") {
		t.Errorf("club-2's game reads %q", data)
	}
	before := mustStat(t, filepath.Join(dir, want[1]))

	// Second run: the retained games come again and change nothing. A game
	// published after the subscription marks the end of the retained ones.
	var out2, err2 testio.Buffer
	stop = runCollectFor(t, url, dir, &out2, &err2)
	err2.WaitFor(t, "collecting")
	brokertest.Publish(t, pub, "boardd/club-1/games/20261122-193000", pgn("Club night, board 1 (corrected)"), true)
	brokertest.Publish(t, pub, "boardd/club-2/games/20261122-213000", pgn("late game"), true)
	out2.WaitFor(t, "new "+filepath.Join(dir, "club-2/20261122-213000.pgn4"))
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out2.String()), "\n")
	wantLines := []string{
		"updated " + filepath.Join(dir, "club-1/20261122-193000.pgn4"),
		"new " + filepath.Join(dir, "club-2/20261122-213000.pgn4"),
	}
	if !slices.Equal(lines, wantLines) {
		t.Errorf("second run reported %q, want %q", lines, wantLines)
	}
	if !os.SameFile(before, mustStat(t, filepath.Join(dir, want[1]))) {
		t.Error("an unchanged game was rewritten")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, want[0])); string(data) != pgn("Club night, board 1 (corrected)") {
		t.Errorf("corrected game reads %q", data)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".*")); len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func mustStat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func TestCollectErrors(t *testing.T) {
	url := brokertest.Start(t)
	var out, errb testio.Buffer
	err := Run(context.Background(), brokertest.Client(url, "club", "wrong"), t.TempDir(), &out, &errb)
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "authori") {
		t.Errorf("wrong password: %v", err)
	}
}
