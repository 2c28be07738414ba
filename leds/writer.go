package leds

import (
	"sync"
	"time"
)

// Writer shows frames on a Strip from its own goroutine. Show never
// blocks: it copies the pixels and returns; the goroutine writes only the
// latest frame (older unwritten ones are skipped) and only when it differs
// from what the strip already shows. A failed write is reported through
// the error callback and retried with backoff (10 ms doubling to 1 s)
// until it succeeds or a newer frame arrives. While nothing changes the
// goroutine sends the frame again every Refresh (one second), so an LED
// that took a glitch on the data line (a spike from a motor, a loose
// connector) shows the right colour again by itself.
type Writer struct {
	strip   Strip
	onErr   func(error)
	mu      sync.Mutex
	pending []Color
	dirty   bool
	closed  bool
	wake    chan struct{}
	done    chan struct{}
	shown   []Color
	showing bool // shown holds what the strip shows
	buf     []Color
	refresh time.Duration
}

// Refresh is how often NewWriter's goroutine sends an unchanged frame
// again.
const Refresh = time.Second

// NewWriter starts a writer for s that refreshes the strip every Refresh;
// onErr (may be nil) hears every failed write.
func NewWriter(s Strip, onErr func(error)) *Writer { return NewWriterEvery(s, onErr, Refresh) }

// NewWriterEvery is NewWriter with another refresh period; 0 never sends
// an unchanged frame again.
func NewWriterEvery(s Strip, onErr func(error), refresh time.Duration) *Writer {
	w := &Writer{
		strip: s, onErr: onErr, refresh: refresh,
		pending: make([]Color, s.Len()), shown: make([]Color, s.Len()), buf: make([]Color, s.Len()),
		wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	go w.run()
	return w
}

// Show queues px (len(px) == strip length) and returns at once.
func (w *Writer) Show(px []Color) {
	w.mu.Lock()
	copy(w.pending, px)
	w.dirty = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Close writes nothing more and stops the goroutine; a frame being
// retried is abandoned.
func (w *Writer) Close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	<-w.done
}

func (w *Writer) run() {
	defer close(w.done)
	backoff := time.Duration(0)
	for {
		resend := false
		switch {
		case backoff > 0:
			select {
			case <-w.wake:
			case <-time.After(backoff):
			}
		case w.refresh > 0 && w.showing:
			select {
			case <-w.wake:
			case <-time.After(w.refresh):
				resend = true
			}
		default:
			<-w.wake
		}
		w.mu.Lock()
		if w.closed {
			w.mu.Unlock()
			return
		}
		if w.dirty {
			copy(w.buf, w.pending)
			w.dirty = false
			resend = false
		} else if backoff == 0 && !resend {
			w.mu.Unlock()
			continue
		}
		w.mu.Unlock()
		if w.showing && equal(w.buf, w.shown) && !resend {
			backoff = 0
			continue
		}
		if err := w.strip.Show(w.buf); err != nil {
			if w.onErr != nil {
				w.onErr(err)
			}
			switch {
			case backoff == 0:
				backoff = 10 * time.Millisecond
			case backoff < time.Second:
				backoff *= 2
			}
			continue
		}
		backoff = 0
		copy(w.shown, w.buf)
		w.showing = true
	}
}

func equal(a, b []Color) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
