package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"boardd/app/hub/live"
	"boardd/internal/connlimit"
)

// The event streams (Server-Sent Events):
//
//	GET /api/live                  every board: "board" events (a board's
//	                                 View without its move list: at once for
//	                                 every board, then whenever one changes)
//	                                 and "message" events (every message the
//	                                 database holds, in the order of its
//	                                 commits, id: its number N there)
//	GET /api/boards/{board}/events   one board, as the board's own page
//	                                 reads its stream: "state" (the View's
//	                                 state) and "message" (id: the board's seq)
//
// /api/live resumes with Last-Event-ID (or ?after=N), N being the
// database's number of the message (store.Message.N), the same on every
// hub of one database: the messages after N follow in order, on any hub,
// while N is no more than live.Config.Keep behind; otherwise a "reset"
// event comes first and the boards' current views follow.
// /api/boards/{board}/events resumes with Last-Event-ID (the board's seq)
// or ?from=SEQ from the database, so a board's display never misses a
// message the database holds. Last-Event-ID comes before the query.

// streamTiming paces the streams.
type streamTiming struct {
	heartbeat time.Duration // a comment line on an idle stream
	write     time.Duration // a client that takes longer to accept a write is dropped
}

var defaultTiming = streamTiming{heartbeat: 20 * time.Second, write: 10 * time.Second}

// sse writes one client's events.
type sse struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	buf     bytes.Buffer
}

func newSSE(w http.ResponseWriter, timeout time.Duration) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // tell a reverse proxy not to buffer
	w.WriteHeader(http.StatusOK)
	s := &sse{w: w, rc: http.NewResponseController(w), timeout: timeout}
	s.buf.WriteString("retry: 2000\n\n")
	return s
}

// event queues one event (data is one line of JSON); flush sends them.
func (s *sse) event(name, id string, data []byte) {
	if id != "" {
		s.buf.WriteString("id: " + id + "\n")
	}
	s.buf.WriteString("event: " + name + "\ndata: ")
	s.buf.Write(data)
	s.buf.WriteString("\n\n")
}

// flushFull sends the events queued once they pass sseBatch, so that
// what a stream holds for its client stays small (a viewer resuming with
// thousands of messages among them).
func (s *sse) flushFull() error {
	if s.buf.Len() < sseBatch {
		return nil
	}
	return s.flush()
}

// sseBatch is about the most a stream writes at once; a buffer grown
// past four times it (a large message) is let go after its write.
const sseBatch = 32 << 10

func (s *sse) flush() error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.timeout)) // not every writer supports it
	if s.buf.Len() > 0 {
		if _, err := s.w.Write(s.buf.Bytes()); err != nil {
			return err
		}
		s.buf.Reset()
		if s.buf.Cap() > 4*sseBatch {
			s.buf = bytes.Buffer{}
		}
	}
	return s.rc.Flush()
}

// openStream takes a place for an event stream under the caps, or
// answers 503 and returns nil.
func (h *handler) openStream(w http.ResponseWriter, r *http.Request) *connlimit.Slot {
	if h.live == nil {
		writeError(w, http.StatusNotFound, "this hub has no live broadcast")
		return nil
	}
	slot := h.streams.Acquire(r.RemoteAddr, nil)
	if slot == nil {
		w.Header().Set("Retry-After", "10")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("too many event streams open (at most %d from one address, %d in all): try again later",
			h.cfg.MaxStreamsPerAddress, h.cfg.MaxStreams))
		return nil
	}
	return slot
}

// lastID reads Last-Event-ID, else the query parameter key; ok is false
// when neither is given, seen true when the number is Last-Event-ID (the
// last message the client had). Last-Event-ID comes first: a browser's
// EventSource reconnecting by itself sends it with the URL it opened,
// whose query is older.
func lastID(r *http.Request, key string) (n uint64, ok, seen bool, err error) {
	v, seen := r.Header.Get("Last-Event-ID"), true
	if v == "" {
		v, seen = r.URL.Query().Get(key), false
	}
	if v == "" {
		return 0, false, false, nil
	}
	n, err = strconv.ParseUint(v, 10, 64)
	if err != nil {
		if seen {
			key = "Last-Event-ID"
		}
		return 0, false, false, fmt.Errorf("%s %q: want the number of a message (0 or more)", key, v)
	}
	return n, true, seen, nil
}

// handleEvents is GET /api/live: every board.
func (h *handler) handleEvents(w http.ResponseWriter, r *http.Request) {
	after, resume, _, err := lastID(r, "after")
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	slot := h.openStream(w, r)
	if slot == nil {
		return
	}
	defer slot.Release()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(h.ctx, cancel)()

	if resume && after > h.live.Last() {
		// The viewer had messages from another hub that this one has not
		// handed on yet: read them from the database first.
		_ = h.live.CatchUp(ctx)
	}
	sub := h.live.Subscribe(ctx, "", after, resume)
	defer sub.Cancel() // pump cancels the one it ends with
	out := newSSE(w, h.timing.write)
	last := after
	// start sends what a (re)subscription begins with: the messages
	// missed, or a reset; then every board's view.
	start := func(sub *live.Sub) error {
		if sub.Reset {
			out.event("reset", "", []byte(`{"error":"messages after the one you had are no longer kept: here is every board as it is now"}`))
			last = 0 // what comes now is new
		}
		for items := sub.Backlog; len(items) > 0; {
			for _, it := range items {
				out.event("message", strconv.FormatUint(it.N, 10), it.Message)
				last = it.N
				if err := out.flushFull(); err != nil {
					return err
				}
			}
			var err error
			if items, err = sub.MoreBacklog(ctx); err != nil {
				return err
			}
		}
		for _, v := range h.live.Views(false) {
			data, _ := json.Marshal(v)
			out.event("board", "", data)
			if err := out.flushFull(); err != nil {
				return err
			}
		}
		return nil
	}
	if start(sub) != nil || out.flush() != nil {
		return
	}
	h.pump(ctx, out, sub, func(it live.Item, ok bool) *live.Sub {
		if !ok {
			// Dropped for falling behind: pick up after the last message
			// sent.
			sub := h.live.Subscribe(ctx, "", last, true)
			if start(sub) != nil {
				cancel()
			}
			return sub
		}
		if it.N > 0 {
			if it.N <= last {
				return nil
			}
			out.event("message", strconv.FormatUint(it.N, 10), it.Message)
			last = it.N
		}
		out.event("board", "", it.Tile)
		return nil
	})
}

// pump writes a stream's items until ctx ends or the client goes away or
// stalls (it comes back resuming): take queues an item's events (ok
// false: the subscription was dropped for falling behind) and returns
// the subscription that replaces it, if any. The items taken at once
// go into one write (of sseBatch or so); an idle stream gets a comment
// line now and then.
func (h *handler) pump(ctx context.Context, out *sse, sub *live.Sub, take func(it live.Item, ok bool) *live.Sub) {
	defer func() { sub.Cancel() }()
	heartbeat := time.NewTicker(h.timing.heartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-heartbeat.C:
			out.buf.WriteString(": ping\n\n")
		case <-sub.Ready():
			items, ok := sub.Take()
			for _, it := range items {
				take(it, true)
				if out.flushFull() != nil {
					return
				}
			}
			if !ok {
				if next := take(live.Item{}, false); next != nil {
					sub = next
				}
			}
		}
		if out.flush() != nil {
			return
		}
	}
}

// handleBoardEvents is GET /api/boards/{board}/events: one board, as its
// own page reads it.
func (h *handler) handleBoardEvents(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("board")
	from, explicit, seen, err := lastID(r, "from")
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if seen {
		from++ // Last-Event-ID is the last message seen
	}
	if h.live == nil {
		writeError(w, http.StatusNotFound, "this hub has no live broadcast")
		return
	}
	v, ok := h.live.View(name)
	if !ok {
		writeError(w, http.StatusNotFound, "no board "+clip(name)+" has joined this hub (GET /api/boards lists them)")
		return
	}
	slot := h.openStream(w, r)
	if slot == nil {
		return
	}
	defer slot.Release()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(h.ctx, cancel)()

	if !explicit && v.Seq >= backlog {
		from = v.Seq + 1 - backlog // as the board's page: the last messages
	}
	from = max(from, 1)
	// Subscribe first, then read the store: a message stored in between
	// comes both ways and is sent once.
	sub := h.live.Subscribe(ctx, name, 0, false)
	defer sub.Cancel() // pump cancels the one it ends with
	out := newSSE(w, h.timing.write)
	last := from - 1
	// catchUp sends the stored messages after last, and the view.
	catchUp := func() error {
		for {
			ms, err := h.store.BoardMessages(ctx, name, last+1, 500)
			if err != nil {
				return err
			}
			for _, m := range ms {
				out.event("message", strconv.FormatUint(m.Seq, 10), m.Body)
				last = m.Seq
			}
			if len(ms) < 500 {
				break
			}
			if err := out.flush(); err != nil {
				return err
			}
		}
		v, _ := h.live.View(name)
		data, _ := json.Marshal(v.State)
		out.event("state", "", data)
		return nil
	}
	if catchUp() != nil || out.flush() != nil {
		return
	}
	h.pump(ctx, out, sub, func(it live.Item, ok bool) *live.Sub {
		switch {
		case !ok: // dropped for falling behind: the store has what came meanwhile
			sub := h.live.Subscribe(ctx, name, 0, false)
			if catchUp() != nil {
				cancel()
			}
			return sub
		case it.N > 0 && it.Seq == 1 && last > 1:
			// The name's history was retired (boardd hub forget) and a
			// board numbering from 1 took it: follow the new stream.
			out.event("message", "1", it.Message)
			last = 1
		case it.N > 0 && it.Seq <= last:
			return nil // sent already, from the store
		case it.N > 0 && it.Seq > last+1: // cannot be: the ingest stores in order; read the store
			if catchUp() != nil {
				cancel()
			}
			return nil
		case it.N > 0:
			out.event("message", strconv.FormatUint(it.Seq, 10), it.Message)
			last = it.Seq
		}
		out.event("state", "", it.State)
		return nil
	})
}

// backlog is how many recent messages a board's stream opened without
// from starts with, as the board's own page.
const backlog = 50
