package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"boardd/referee"
)

// streamTiming is the pace of the event streams; a test shortens it on
// its own Server before the first request, so tests can run in parallel.
type streamTiming struct {
	coalesce  time.Duration // at most one state/lights pair per period
	heartbeat time.Duration // a comment line on an idle stream
	write     time.Duration // a client that takes longer to accept a write is dropped
}

// defaultTiming is every Server's pace unless a test changes it.
var defaultTiming = streamTiming{
	coalesce:  50 * time.Millisecond,
	heartbeat: 20 * time.Second,
	write:     10 * time.Second,
}

// gap is the data of a "gap" event.
type gap struct {
	From  uint64 `json:"from"`
	Error string `json:"error"`
}

// stream writes one client's events.
type stream struct {
	w            http.ResponseWriter
	rc           *http.ResponseController
	writeTimeout time.Duration
	// last state and lights sent, to skip repeats
	state, lights []byte
}

func (e *stream) event(name, id string, data []byte) error {
	_ = e.rc.SetWriteDeadline(time.Now().Add(e.writeTimeout)) // not every writer supports it
	var b bytes.Buffer
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	b.WriteString("event: " + name + "\ndata: ")
	b.Write(data) // JSON from encoding/json has no raw newlines
	b.WriteString("\n\n")
	_, err := e.w.Write(b.Bytes())
	return err
}

func (e *stream) comment(text string) error {
	_ = e.rc.SetWriteDeadline(time.Now().Add(e.writeTimeout))
	_, err := e.w.Write([]byte(": " + text + "\n\n"))
	return err
}

func (e *stream) message(m referee.Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return e.event("message", strconv.FormatUint(m.Seq, 10), b)
}

// snapshot sends the board's state and lights if they differ from the
// last ones sent.
func (e *stream) snapshot(b referee.Board) error {
	st, err := json.Marshal(b.State())
	if err != nil {
		return err
	}
	if !bytes.Equal(st, e.state) {
		if err := e.event("state", "", st); err != nil {
			return err
		}
		e.state = st
	}
	li, err := json.Marshal(b.Lights())
	if err != nil {
		return err
	}
	if !bytes.Equal(li, e.lights) {
		if err := e.event("lights", "", li); err != nil {
			return err
		}
		e.lights = li
	}
	return nil
}

func (e *stream) flush() error {
	return e.rc.Flush()
}

// fromParam reads where the stream starts: ?from=N or the Last-Event-ID
// header (the last message seen, so it starts after it), whichever is
// later; ok is false when neither is given.
func fromParam(r *http.Request) (from uint64, ok bool, err error) {
	if v := r.URL.Query().Get("from"); v != "" {
		from, err = strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, false, fmt.Errorf("from=%q: want a message sequence number (0 or more)", v)
		}
		ok = true
	}
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if id, err := strconv.ParseUint(v, 10, 64); err == nil && id+1 > from {
			from, ok = id+1, true
		}
	}
	return from, ok, nil
}

func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	from, explicit, err := fromParam(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if s.ctx.Err() != nil {
		http.Error(w, "the display is shutting down", http.StatusServiceUnavailable)
		return
	}
	if n := s.streams.Add(1); n > int64(s.cfg.MaxStreams) {
		s.streams.Add(-1)
		s.log.Debug("web: event stream refused: too many open", "client", clientAddr(r), "max", s.cfg.MaxStreams)
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("too many event streams open (%d): try again later", s.cfg.MaxStreams), http.StatusServiceUnavailable)
		return
	}
	defer s.streams.Add(-1)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(s.ctx, cancel)()

	b := s.cfg.Board
	changed, stopChanged := b.Changed()
	defer stopChanged()

	// An explicit from (0: everything kept) older than what the board
	// keeps gets a gap event, then the kept messages from the oldest;
	// without one, the stream starts with the last Backlog messages, or
	// as many as the board still keeps.
	if explicit {
		from = max(from, 1)
	} else {
		from = 1
		if seq := b.State().Seq; seq >= uint64(s.cfg.Backlog) {
			from = seq + 1 - uint64(s.cfg.Backlog)
		}
	}
	sub, err := referee.Resume(b, from)
	if err != nil {
		http.Error(w, "subscribing to the board: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	var missed *gap
	if sub.Lost != nil && explicit {
		missed = &gap{From: from, Error: sub.Lost.Error()}
	}
	backlog, live, unsubscribe := sub.Backlog, sub.Live, sub.Cancel
	defer func() { unsubscribe() }()

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // tell a reverse proxy not to buffer
	w.WriteHeader(http.StatusOK)
	out := &stream{w: w, rc: http.NewResponseController(w), writeTimeout: s.timing.write}
	defer out.rc.SetWriteDeadline(time.Time{})

	var last uint64 // last message sent
	if from > 0 {
		last = from - 1
	}
	// sendAll writes messages after last, skipping any seen already.
	sendAll := func(ms []referee.Message) error {
		for _, m := range ms {
			if m.Seq <= last {
				continue
			}
			if err := out.message(m); err != nil {
				return err
			}
			last = m.Seq
		}
		return nil
	}
	// gapped tells the client what it missed.
	gapped := func(g *gap) error {
		data, _ := json.Marshal(g)
		return out.event("gap", "", data)
	}

	if _, err := w.Write([]byte("retry: 2000\n\n")); err != nil { // the browser's reconnect delay
		return
	}
	if out.snapshot(b) != nil {
		return
	}
	if missed != nil && gapped(missed) != nil {
		return
	}
	if sendAll(backlog) != nil || out.flush() != nil {
		return
	}

	heartbeat := time.NewTicker(s.timing.heartbeat)
	defer heartbeat.Stop()
	var (
		sentAt time.Time        // last state/lights check
		later  <-chan time.Time // armed while a change waits for its turn
	)
	for {
		var err error
		select {
		case <-ctx.Done():
			return
		case m, ok := <-live:
			if ok {
				err = sendAll([]referee.Message{m})
				break
			}
			// The board dropped us for falling behind: pick up after the
			// last message sent.
			unsubscribe()
			unsubscribe = func() {}
			sub, err = referee.Resume(b, last+1)
			if err != nil {
				return
			}
			backlog, live, unsubscribe = sub.Backlog, sub.Live, sub.Cancel
			if sub.Lost != nil {
				if err = gapped(&gap{From: last + 1, Error: sub.Lost.Error()}); err == nil {
					err = out.snapshot(b)
				}
			}
			if err == nil {
				err = sendAll(backlog)
			}
		case _, ok := <-changed:
			if !ok {
				changed = nil // the board stopped signalling; messages still flow
				continue
			}
			if later != nil {
				continue // already due
			}
			if wait := s.timing.coalesce - time.Since(sentAt); wait > 0 {
				later = time.After(wait)
				continue
			}
			sentAt = time.Now()
			err = out.snapshot(b)
		case <-later:
			later = nil
			sentAt = time.Now()
			err = out.snapshot(b)
		case <-heartbeat.C:
			err = out.comment("ping")
		}
		if err == nil {
			err = out.flush()
		}
		if err != nil {
			return // the client went away or stalled; it reconnects with from
		}
	}
}
