package main

import (
	"context"
	"log/slog"
	"slices"
)

// oneOfEach is a slog handler that writes each attribute once: a part of
// the daemon that adds context the daemon's logger already carries
// (sync/mqtt adds board=, since it also runs in boardd collect and watch)
// does not repeat it. An attribute with the same key and value as one
// already attached is dropped; one with another value stays.
type oneOfEach struct {
	h    slog.Handler
	have []slog.Attr // attached so far, outside groups
	grp  bool        // in a group: keys there are another namespace
}

func (o oneOfEach) Enabled(ctx context.Context, l slog.Level) bool { return o.h.Enabled(ctx, l) }

func (o oneOfEach) seen(a slog.Attr) bool {
	return !o.grp && slices.ContainsFunc(o.have, func(b slog.Attr) bool { return b.Equal(a) })
}

func (o oneOfEach) Handle(ctx context.Context, r slog.Record) error {
	dup := false
	r.Attrs(func(a slog.Attr) bool {
		dup = dup || o.seen(a)
		return !dup
	})
	if !dup {
		return o.h.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if !o.seen(a) {
			out.AddAttrs(a)
		}
		return true
	})
	return o.h.Handle(ctx, out)
}

func (o oneOfEach) WithAttrs(as []slog.Attr) slog.Handler {
	var keep []slog.Attr
	for _, a := range as {
		if !o.seen(a) {
			keep = append(keep, a)
		}
	}
	n := oneOfEach{h: o.h.WithAttrs(keep), grp: o.grp}
	if !o.grp {
		n.have = append(slices.Clip(o.have), keep...)
	}
	return n
}

func (o oneOfEach) WithGroup(name string) slog.Handler {
	return oneOfEach{h: o.h.WithGroup(name), have: o.have, grp: true}
}
