// Package live is the club hub's live broadcast: every message the hub
// stored, of every board, handed on to the viewers' event streams in the
// order the hub stored them, and each board's display rebuilt from those
// messages (View).
//
// The ingest calls Stored after each message's database commit, never
// before: a viewer sees only what the hub holds. Each stored message gets
// the next hub-wide number N, which the page's event stream sends as the
// SSE id. N counts the messages the database holds (Load starts it at
// their number), so it goes on rising across restarts of the hub. The
// last Config.Keep messages are kept in memory: a viewer that comes back
// with the last N it saw (Last-Event-ID) gets every message after it, in
// order, when they are still kept; otherwise (it was away too long, or
// the hub restarted while it lagged behind) Subscribe says Reset and the
// viewer starts again from every board's current View.
//
// A subscriber that cannot keep up (its buffer is full) is dropped: its
// channel closes, and it subscribes again from the last N it had, so a
// slow viewer never holds up the ingest or the other viewers.
package live

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"boardd/app/hub/store"
	"boardd/referee"
	"boardd/rules"
)

// Lookup builds a variant by name and start array, as catalog.Variant.
type Lookup func(name, start string) (*rules.Variant, error)

// Config configures a Hub; zero fields take the defaults.
type Config struct {
	// Keep is how many of the last messages are kept for viewers that
	// resume (default 4096).
	Keep int
	// Buffer is how many items a subscriber may have waiting before it is
	// dropped (default 1024).
	Buffer int
	// Lookup finds the boards' variants (default rules.NewVariant).
	Lookup Lookup
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Item is what a subscriber receives: a stored message (N > 0), or a
// board whose status changed without a message (N == 0).
type Item struct {
	// N is the message's hub-wide number (0: no message).
	N uint64
	// Board names the board; Seq is the message's seq on it (0: none).
	Board string
	Seq   uint64
	// Message is the message as the board published it (JSON); nil when
	// N == 0.
	Message json.RawMessage
	// Tile is the board's View after the item, without the move list (the
	// page of all boards), and State the View's full state (the board's
	// own display), as JSON. Empty for backlog items: the views sent after
	// a backlog are the current ones.
	Tile, State json.RawMessage
}

// Hub is the broadcast. Make it with New.
type Hub struct {
	cfg Config

	mu     sync.Mutex
	n      uint64 // the last message's N
	ring   []Item // the last Keep messages, oldest first (Message set, Tile and Full not)
	boards map[string]*board
	subs   map[*Sub]struct{}
}

// New makes a Hub with no boards; Load fills it from the store.
func New(cfg Config) *Hub {
	if cfg.Keep <= 0 {
		cfg.Keep = 4096
	}
	if cfg.Buffer <= 0 {
		cfg.Buffer = 1024
	}
	if cfg.Lookup == nil {
		cfg.Lookup = rules.NewVariant
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Hub{cfg: cfg, boards: map[string]*board{}, subs: map[*Sub]struct{}{}}
}

// Load rebuilds every board's View from the store (its current game's
// messages and its last status) and starts N at the number of messages
// the store holds. Call it once, before the ingest starts.
func (h *Hub) Load(ctx context.Context, s *store.Store) error {
	n, err := s.MessageCount(ctx)
	if err != nil {
		return fmt.Errorf("hub live: %w", err)
	}
	boards, err := s.Boards(ctx)
	if err != nil {
		return fmt.Errorf("hub live: %w", err)
	}
	conns, err := s.BoardConns(ctx)
	if err != nil {
		return fmt.Errorf("hub live: %w", err)
	}
	now := h.cfg.Now()
	loaded := map[string]*board{}
	for _, sb := range boards {
		b := newBoard(sb.Board, h.cfg.Lookup)
		b.conn = conns[sb.Board]
		if sb.Game != "" {
			msgs, err := s.GameMessages(ctx, sb.Board, sb.Game)
			if err != nil {
				return fmt.Errorf("hub live: %w", err)
			}
			for _, m := range msgs {
				var rm referee.Message
				if json.Unmarshal(m.Body, &rm) == nil {
					b.apply(rm, now)
				}
			}
		}
		loaded[sb.Board] = b
	}
	h.mu.Lock()
	h.n, h.boards = uint64(n), loaded
	h.mu.Unlock()
	return nil
}

// Stored hands on message m of a board, which the hub has just committed
// (body is the message as the board published it). The ingest calls it
// in the order it stores, from one goroutine.
func (h *Hub) Stored(m referee.Message, body []byte) {
	now := h.cfg.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.board(m.Board)
	b.apply(m, now)
	h.n++
	it := Item{N: h.n, Board: m.Board, Seq: m.Seq, Message: slices.Clone(body)}
	if len(h.ring) >= h.cfg.Keep {
		h.ring = slices.Delete(h.ring, 0, len(h.ring)-h.cfg.Keep+1)
	}
	h.ring = append(h.ring, it)
	h.send(it, b, now)
}

// Status hands on a board's MQTT status (online, offline, paused,
// sensor_fault), which the hub has just stored.
func (h *Hub) Status(name, status string) {
	now := h.cfg.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.board(name)
	if b.conn == status {
		return
	}
	b.conn = status
	h.send(Item{Board: name}, b, now)
}

// board returns the board, adding it; h.mu is held.
func (h *Hub) board(name string) *board {
	b := h.boards[name]
	if b == nil {
		b = newBoard(name, h.cfg.Lookup)
		h.boards[name] = b
	}
	return b
}

// send gives it, with the board's views, to every subscriber; one whose
// buffer is full is dropped. h.mu is held.
func (h *Hub) send(it Item, b *board, now time.Time) {
	if len(h.subs) == 0 {
		return
	}
	it.Tile, _ = json.Marshal(b.view(now, false))
	it.State, _ = json.Marshal(b.view(now, true).State)
	for s := range h.subs {
		if s.board != "" && s.board != it.Board {
			continue
		}
		select {
		case s.c <- it:
		default:
			delete(h.subs, s)
			close(s.c)
		}
	}
}

// Views returns every board's current View, by name; full keeps the move
// lists.
func (h *Hub) Views(full bool) []View {
	now := h.cfg.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]View, 0, len(h.boards))
	for _, b := range h.boards {
		out = append(out, b.view(now, full))
	}
	slices.SortFunc(out, func(a, b View) int {
		switch {
		case a.Board < b.Board:
			return -1
		case a.Board > b.Board:
			return 1
		}
		return 0
	})
	return out
}

// View returns one board's current View, with its move list.
func (h *Hub) View(name string) (View, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[name]
	if b == nil {
		return View{}, false
	}
	return b.view(h.cfg.Now(), true), true
}

// Last is the N of the last message stored.
func (h *Hub) Last() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Sub is one subscription.
type Sub struct {
	// C delivers the items after Backlog, in order. It closes when the
	// subscriber fell behind (subscribe again from the last N had) or
	// after Cancel.
	C <-chan Item
	// Backlog are the kept messages after the N asked for.
	Backlog []Item
	// Reset is true when messages after the N asked for are no longer
	// kept: start from the current Views.
	Reset bool

	c     chan Item
	board string
	h     *Hub
}

// Subscribe subscribes to every board's items (board ""), or to one
// board's. With resume, Backlog holds the kept messages after message
// after (all boards' even for one board: filter them), or Reset says they
// are not all kept; without, the subscription starts with the next item.
func (h *Hub) Subscribe(board string, after uint64, resume bool) *Sub {
	s := &Sub{c: make(chan Item, h.cfg.Buffer), board: board, h: h}
	s.C = s.c
	h.mu.Lock()
	defer h.mu.Unlock()
	if resume && after != h.n {
		oldest := h.n + 1 - uint64(len(h.ring)) // the first kept N
		if after > h.n || after+1 < oldest {
			s.Reset = true
		} else {
			for _, it := range h.ring[after+1-oldest:] {
				if board == "" || it.Board == board {
					s.Backlog = append(s.Backlog, it)
				}
			}
		}
	}
	h.subs[s] = struct{}{}
	return s
}

// Cancel ends the subscription; C closes.
func (s *Sub) Cancel() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	if _, ok := s.h.subs[s]; ok {
		delete(s.h.subs, s)
		close(s.c)
	}
}

// Subscribers is how many subscriptions are open.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
