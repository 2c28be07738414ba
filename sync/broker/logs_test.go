package broker

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
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
		tc.log(slog.New(brokerLog{h}))
		got := strings.TrimSpace(buf.String())
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
