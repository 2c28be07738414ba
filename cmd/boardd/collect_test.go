package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/sync/broker"
	"boardd/sync/mqtt"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// lockedBuffer is an io.Writer safe for the goroutines of a command under
// test and the test reading it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor polls the buffer until it contains want (10 s at most).
func (l *lockedBuffer) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(l.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %q in:\n%s", want, l.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// testBroker starts the embedded broker on loopback with a writer and a
// reader account.
func testBroker(t *testing.T) string {
	t.Helper()
	b, err := broker.Start(broker.Config{Listen: "127.0.0.1:0", Users: []broker.User{
		{Name: "board", Password: "pw-board", Write: true},
		{Name: "club", Password: "pw-club"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return "tcp://" + b.Addr()
}

// publisher connects as the writer.
func publisher(t *testing.T, url string) paho.Client {
	t.Helper()
	opts, err := mqtt.ClientOptions(url, "board", "pw-board", mqtt.TLS{})
	if err != nil {
		t.Fatal(err)
	}
	c := paho.NewClient(opts.SetClientID("test-publisher"))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(0) })
	return c
}

func publish(t *testing.T, c paho.Client, topic, payload string, retain bool) {
	t.Helper()
	if tok := c.Publish(topic, 1, retain, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}

func flagsFor(url, user, password string) brokerFlags {
	s := func(v string) *string { return &v }
	return brokerFlags{url: s(url), user: s(user), password: s(password), prefix: s(mqtt.DefaultPrefix), ca: s(""), cert: s(""), key: s("")}
}

// runCollectFor runs collect until stop is called, which returns
// collect's error.
func runCollectFor(t *testing.T, url, dir string, stdout, stderr *lockedBuffer) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- collect(ctx, flagsFor(url, "club", "pw-club"), dir, stdout, stderr) }()
	return func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("collect did not stop")
			return nil
		}
	}
}

func pgn(event string) string {
	return fmt.Sprintf("[Event \"%s\"]\n[Variant \"Teams\"]\n\n1. h2-h4 .. b7-c7 .. g13-g11 .. m8-l8\n2. R 1-0\n", event)
}

// Games published retained for two boards end up in one file each; a
// second run writes nothing (same text), a changed game is rewritten,
// and topics that cannot be file names are refused.
func TestCollect(t *testing.T) {
	url := testBroker(t)
	pub := publisher(t, url)
	games := map[string]string{
		"boardd/club-1/games/20261122-193000":    pgn("Club night, board 1"),
		"boardd/club-1/games/20261122-203000":    pgn("Club night, board 1, round 2"),
		"boardd/club-2/games/20261122-193000":    pgn("Club night, board 2"),
		"boardd/club-2/games/..":                 pgn("escape attempt"),
		"boardd/club-2/state":                    `{"not":"a game"}`,
		"otherprefix/club-3/games/20261122-1900": pgn("other prefix"),
	}
	for topic, text := range games {
		publish(t, pub, topic, text, true)
	}
	dir := t.TempDir()

	var out1, err1 lockedBuffer
	stop := runCollectFor(t, url, dir, &out1, &err1)
	err1.waitFor(t, "collecting boardd/+/games/+")
	for _, f := range []string{"club-1/20261122-193000.pgn4", "club-1/20261122-203000.pgn4", "club-2/20261122-193000.pgn4"} {
		out1.waitFor(t, "new "+filepath.Join(dir, f))
	}
	err1.waitFor(t, `game id ".." cannot be a file name`)
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
	var out2, err2 lockedBuffer
	stop = runCollectFor(t, url, dir, &out2, &err2)
	err2.waitFor(t, "collecting")
	publish(t, pub, "boardd/club-1/games/20261122-193000", pgn("Club night, board 1 (corrected)"), true)
	publish(t, pub, "boardd/club-2/games/20261122-213000", pgn("late game"), true)
	out2.waitFor(t, "new "+filepath.Join(dir, "club-2/20261122-213000.pgn4"))
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
	url := testBroker(t)
	var out, errb lockedBuffer
	err := collect(context.Background(), flagsFor(url, "club", "wrong"), t.TempDir(), &out, &errb)
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "authori") {
		t.Errorf("wrong password: %v", err)
	}
	for _, args := range [][]string{
		{"collect"},
		{"collect", "--broker", url},
		{"collect", "--out", t.TempDir()},
		{"collect", "--broker", "http://x", "--out", t.TempDir()},
	} {
		code, _, stderr := runCmd(args...)
		if code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		if !strings.Contains(stderr, "collect") {
			t.Errorf("%v: stderr %q does not name the command", args, stderr)
		}
	}
}
