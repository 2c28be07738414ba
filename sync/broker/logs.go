package broker

import (
	"context"
	"log/slog"
	"strings"
)

// brokerLog tidies what mochi-mqtt logs: it writes many records with an
// empty message (`WARN msg=""`, the error only in an attribute), which
// gain one that says what they are about; and a listener's "use of closed
// network connection" is the broker shutting down, not a problem, so it is
// logged at debug level.
type brokerLog struct{ h slog.Handler }

func (b brokerLog) Enabled(ctx context.Context, l slog.Level) bool {
	return b.h.Enabled(ctx, l) || b.h.Enabled(ctx, slog.LevelDebug)
}

func (b brokerLog) Handle(ctx context.Context, r slog.Record) error {
	var errText, listener, client string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "error":
			errText = a.Value.String()
		case "listener":
			listener = a.Value.String()
		case "client":
			client = a.Value.String()
		}
		return true
	})
	level := r.Level
	if strings.Contains(errText, "use of closed network connection") && level > slog.LevelDebug {
		level = slog.LevelDebug // a connection closed by the shutdown
	}
	msg := r.Message
	if msg == "" {
		switch {
		case listener != "" && errText != "":
			msg = "mqtt broker: listener " + listener + " error"
		case client != "" && errText != "":
			msg = "mqtt broker: client " + client + " error"
		case errText != "":
			msg = "mqtt broker: error"
		default:
			msg = "mqtt broker"
		}
	}
	if !b.h.Enabled(ctx, level) {
		return nil
	}
	out := slog.NewRecord(r.Time, level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool { out.AddAttrs(a); return true })
	return b.h.Handle(ctx, out)
}

func (b brokerLog) WithAttrs(as []slog.Attr) slog.Handler { return brokerLog{b.h.WithAttrs(as)} }
func (b brokerLog) WithGroup(name string) slog.Handler    { return brokerLog{b.h.WithGroup(name)} }
