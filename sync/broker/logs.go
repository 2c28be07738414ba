package broker

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	gosync "sync"
	"time"
)

// At most errorBurst of the broker's error records a client can cause
// (a refused login, a CONNECT over its limit, a connection reset) are
// logged in any errorWindow; the next record logged says how many were
// left out. Every connection of an attack would otherwise be a line in
// the journal: on a Pi's SD card, writes without end.
const (
	errorBurst  = 20
	errorWindow = 10 * time.Second
)

// errorBudget counts the error records of one broker's log in the current
// window (shared by the handlers WithAttrs and WithGroup derive).
type errorBudget struct {
	mu            gosync.Mutex
	start         time.Time
	used, dropped int
}

// take reports whether a record at now may be logged, and how many were
// left out since the last one logged.
func (e *errorBudget) take(now time.Time) (ok bool, left int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if now.Sub(e.start) >= errorWindow || now.Before(e.start) {
		e.start, e.used = now, 0
	}
	if e.used >= errorBurst {
		e.dropped++
		return false, 0
	}
	e.used++
	left, e.dropped = e.dropped, 0
	return true, left
}

// brokerLog tidies what mochi-mqtt logs: it writes many records with an
// empty message (`WARN msg=""`, the error only in an attribute), which
// gain one that says what they are about; and a listener's "use of closed
// network connection" is the broker shutting down, not a problem, so it is
// logged at debug level.
//
// Error records a client can cause are limited (errorBurst in
// errorWindow); the next one logged says how many were left out.
type brokerLog struct {
	h      slog.Handler
	errors *errorBudget
}

// newBrokerLog wraps h.
func newBrokerLog(h slog.Handler) brokerLog { return brokerLog{h, &errorBudget{}} }

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
	if errText != "" && level > slog.LevelDebug && b.errors != nil {
		ok, left := b.errors.take(r.Time)
		if !ok {
			return nil
		}
		if left > 0 {
			note := slog.NewRecord(r.Time, slog.LevelWarn, fmt.Sprintf("mqtt broker: %d more client errors not logged (at most %d in %v)", left, errorBurst, errorWindow), r.PC)
			if err := b.h.Handle(ctx, note); err != nil {
				return err
			}
		}
	}
	out := slog.NewRecord(r.Time, level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool { out.AddAttrs(a); return true })
	return b.h.Handle(ctx, out)
}

func (b brokerLog) WithAttrs(as []slog.Attr) slog.Handler {
	return brokerLog{b.h.WithAttrs(as), b.errors}
}
func (b brokerLog) WithGroup(name string) slog.Handler {
	return brokerLog{b.h.WithGroup(name), b.errors}
}
