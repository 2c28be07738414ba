package broker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestBrokerLogGivesMessages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		log   func(*slog.Logger)
		level slog.Level
		want  string
	}{
		{"empty message", func(l *slog.Logger) { l.Warn("", "listener", "tcp", "error", errors.New("boom")) }, slog.LevelInfo, `level=WARN msg="mqtt broker: listener tcp error" listener=tcp error=boom`},
		{"a client", func(l *slog.Logger) { l.Warn("", "client", "c1", "error", errors.New("EOF")) }, slog.LevelInfo, `msg="mqtt broker: client c1 error"`},
		{"closed at shutdown, hidden", func(l *slog.Logger) {
			l.Warn("", "listener", "tcp", "error", errors.New("read tcp 127.0.0.1:1->127.0.0.1:2: use of closed network connection"))
		}, slog.LevelInfo, ``},
		{"closed at shutdown, at debug", func(l *slog.Logger) {
			l.Warn("", "listener", "tcp", "error", errors.New("use of closed network connection"))
		}, slog.LevelDebug, `level=DEBUG msg="mqtt broker: listener tcp error"`},
		{"a message kept", func(l *slog.Logger) { l.Info("started", "listener", "tcp") }, slog.LevelInfo, `level=INFO msg=started listener=tcp`},
	} {
		var buf bytes.Buffer
		h := slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tc.level, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}})
		tc.log(slog.New(newBrokerLog(h)))
		got := strings.TrimSpace(buf.String())
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// An attack's connections each cause an error record: at most errorBurst
// of them are logged in errorWindow, and the next one logged says how
// many were left out. Records without an error are never held back.
func TestBrokerLogLimitsClientErrors(t *testing.T) {
	var buf bytes.Buffer
	h := newBrokerLog(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	rec := func(at time.Duration, msg string, attrs ...slog.Attr) {
		r := slog.NewRecord(t0.Add(at), slog.LevelWarn, msg, 0)
		r.AddAttrs(attrs...)
		if err := h.Handle(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1000 { // a thousand refused logins in one second
		rec(time.Duration(i)*time.Millisecond, "", slog.String("listener", "tcp"), slog.String("error", "bad username or password"))
	}
	rec(2*time.Second, "a warning of the broker's own")
	rec(errorWindow+time.Second, "", slog.String("listener", "tcp"), slog.String("error", "bad username or password"))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if n := strings.Count(buf.String(), "error=\"bad username or password\""); n != errorBurst+1 {
		t.Errorf("%d refused logins logged, want %d (the burst, then one in the next window)", n, errorBurst+1)
	}
	if !strings.Contains(buf.String(), "a warning of the broker's own") {
		t.Error("a record without an error was held back")
	}
	if last := lines[len(lines)-2]; !strings.Contains(last, fmt.Sprintf("%d more client errors not logged", 1000-errorBurst)) {
		t.Errorf("before the next window's record: %q, want how many were left out (%d)", last, 1000-errorBurst)
	}
}
