package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"boardd/internal/connlimit"
	"boardd/referee"
)

// streamTiming is the pace of the event streams and the time a request's
// body may take; a test shortens it on its own Server before the first
// request, so tests can run in parallel.
type streamTiming struct {
	coalesce  time.Duration // at most one state/lights pair per period
	heartbeat time.Duration // a comment line on an idle stream
	write     time.Duration // a client that takes longer to accept a write is dropped
	body      time.Duration // a request's body must arrive within this (login, commands)
}

// defaultTiming is every Server's pace unless a test changes it.
var defaultTiming = streamTiming{
	coalesce:  50 * time.Millisecond,
	heartbeat: 20 * time.Second,
	write:     10 * time.Second,
	body:      10 * time.Second,
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
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	open, why := s.openStream(r, cancel)
	if open == nil {
		s.log.Debug("web: event stream refused", "client", clientAddr(r), "why", why)
		w.Header().Set("Retry-After", "10")
		http.Error(w, why+": try again later", http.StatusServiceUnavailable)
		return
	}
	defer s.closeStream(open)
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

// maxOwnerStreams bounds the streams of logged-in sessions; past it the
// oldest of them ends (its page reconnects), so the owner always gets a
// stream.
const maxOwnerStreams = 16

// openStream is one event stream's place under the caps.
type openStream struct {
	key    string             // the client's address (connlimit.Key)
	owner  bool               // opened by a logged-in session
	cancel context.CancelFunc // ends it
}

// streamTable holds the open event streams by address.
type streamTable struct {
	mu     sync.Mutex
	byAddr map[string][]*openStream // anonymous streams, oldest first
	anon   int
	owner  []*openStream // logged-in streams, oldest first
}

// openStream takes a place for a new stream, or answers nil and why not.
// A logged-in session always gets one (ending its own oldest past
// maxOwnerStreams). Anyone else gets one unless its address holds
// MaxStreamsPerAddress already (the board's own address, as a reverse
// proxy on the Pi, counts only toward the total); when MaxStreams are
// open, the address holding the most gives up its oldest, if it holds
// more than this address would: so one client, or a few, cannot blank
// every display.
func (s *Server) openStream(r *http.Request, cancel context.CancelFunc) (*openStream, string) {
	t := &s.streamTab
	o := &openStream{key: connlimit.Key(r.RemoteAddr), owner: s.authed(r), cancel: cancel}
	var end *openStream
	t.mu.Lock()
	if t.byAddr == nil {
		t.byAddr = map[string][]*openStream{}
	}
	switch {
	case o.owner:
		if len(t.owner) >= maxOwnerStreams {
			end, t.owner = t.owner[0], t.owner[1:]
		}
		t.owner = append(t.owner, o)
	case len(t.byAddr[o.key]) >= s.cfg.MaxStreamsPerAddress && !connlimit.Local(o.key):
		t.mu.Unlock()
		return nil, fmt.Sprintf("too many event streams open from %s (%d)", clientAddr(r), s.cfg.MaxStreamsPerAddress)
	default:
		if t.anon >= s.cfg.MaxStreams {
			var most string
			for k, l := range t.byAddr {
				if most == "" || len(l) > len(t.byAddr[most]) {
					most = k
				}
			}
			if len(t.byAddr[most]) <= len(t.byAddr[o.key])+1 {
				t.mu.Unlock()
				return nil, fmt.Sprintf("too many event streams open (%d)", s.cfg.MaxStreams)
			}
			end = t.byAddr[most][0]
			t.removeAnon(end)
		}
		t.byAddr[o.key] = append(t.byAddr[o.key], o)
		t.anon++
	}
	t.mu.Unlock()
	s.streams.Add(1)
	if end != nil {
		end.cancel() // its handler ends and calls closeStream, which finds it gone
	}
	return o, ""
}

// closeStream gives a stream's place back.
func (s *Server) closeStream(o *openStream) {
	t := &s.streamTab
	t.mu.Lock()
	if o.owner {
		for i, x := range t.owner {
			if x == o {
				t.owner = append(t.owner[:i], t.owner[i+1:]...)
				break
			}
		}
	} else {
		t.removeAnon(o)
	}
	t.mu.Unlock()
	s.streams.Add(-1)
}

// removeAnon takes an anonymous stream out of the table if it is there;
// t.mu is held.
func (t *streamTable) removeAnon(o *openStream) {
	l := t.byAddr[o.key]
	for i, x := range l {
		if x == o {
			l = append(l[:i], l[i+1:]...)
			t.anon--
			if len(l) == 0 {
				delete(t.byAddr, o.key)
			} else {
				t.byAddr[o.key] = l
			}
			return
		}
	}
}
