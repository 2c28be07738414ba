package board

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"boardd/configs"
	"boardd/internal/testio"
)

func TestOneOfEach(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  func(*slog.Logger)
		want string
	}{
		{"a part repeats the board", func(l *slog.Logger) { l.With("part", "mqtt").With("board", "1").Info("hi", "seq", 2) }, "msg=hi board=1 part=mqtt seq=2"},
		{"a record repeats it", func(l *slog.Logger) { l.Info("hi", "board", "1", "seq", 3) }, "msg=hi board=1 seq=3"},
		{"another value stays", func(l *slog.Logger) { l.Info("hi", "board", "2") }, "msg=hi board=1 board=2"},
		{"groups are their own namespace", func(l *slog.Logger) { l.WithGroup("g").Info("hi", "board", "1") }, "msg=hi board=1 g.board=1"},
	} {
		var buf bytes.Buffer
		h := slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == slog.LevelKey {
				return slog.Attr{}
			}
			return a
		}})
		tc.log(slog.New(oneOfEach{h: h}).With("board", "1"))
		if got := strings.TrimSpace(buf.String()); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The daemon's log, from start to shutdown with the embedded broker and
// a client connected: no field twice on a line, no record without a
// message.
func TestDaemonLogIsTidy(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	cfg.Web.Listen = "127.0.0.1:0"
	var logs testio.Buffer
	d, err := Start(context.Background(), cfg, &testio.Buffer{}, &logs)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "connected to the broker") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(line, `msg=""`) {
			t.Errorf("a record without a message: %s", line)
		}
		seen := map[string]bool{}
		for _, f := range strings.Fields(line) {
			k, _, ok := strings.Cut(f, "=")
			if !ok || strings.Contains(k, `"`) {
				continue
			}
			if seen[k] && (k == "board" || k == "part" || k == "game") {
				t.Errorf("%s= twice: %s", k, line)
			}
			seen[k] = true
		}
	}
	if !strings.Contains(logs.String(), "board=1") {
		t.Errorf("no board= at all:\n%s", logs.String())
	}
}
