// Package live is the club hub's live broadcast: every message the
// database holds, of every board, handed on to the viewers' event
// streams in the order the database committed them, and each board's
// display rebuilt from those messages (View).
//
// Every stored message has a number N (store.Message.N), which the
// database gives it in the order of the commits, from 1 without a hole:
// message N is committed only after every message before it. The
// page's event stream sends N as the SSE id, and N means the same
// message on every hub of one database. The ingest calls Stored after
// each message's commit (this hub's or another's on the same database),
// never before; the Hub hands the messages on strictly in N's order,
// reading from the database any it was not told of (a message another
// hub stored that this one has not heard yet; CatchUp does the same now
// and then), so within a board the messages come in seq order and a
// viewer sees only what the database holds.
//
// The last Config.Keep messages are kept in memory: a viewer that comes
// back with the last N it saw (Last-Event-ID), to this hub or another,
// gets every message after it, in order: from memory, or from the
// database while it is no more than Keep behind. Further behind, Subscribe
// says Reset and the viewer starts again from every board's current
// View.
//
// A subscriber that cannot keep up is dropped: when Config.Buffer items
// wait for it, or when the items waiting for all subscribers together
// pass Config.Budget bytes (the slowest subscribers dropped first). Its
// items are let go at once; it subscribes again from the last N it had
// and misses nothing, so a slow viewer never holds up the ingest or the
// other viewers, and lagging viewers never hold more than the budget.
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
	// Keep is how many of the last messages a viewer may be behind and
	// still resume with every message it missed (default 4096); the
	// last Keep are kept in memory.
	Keep int
	// Buffer is how many items a subscriber may have waiting before it is
	// dropped (default 1024).
	Buffer int
	// Budget bounds the bytes of the items waiting for all subscribers
	// together (each item counted once however many wait for it; default
	// DefaultBudget): past it the slowest subscribers are dropped.
	Budget int
	// Lookup finds the boards' variants (default rules.NewVariant).
	Lookup Lookup
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// DefaultBudget is Config.Budget's default: with items of a few KiB, some
// thousands waiting; a club's viewers that keep up hold a few dozen.
const DefaultBudget = 32 << 20

// Item is what a subscriber receives: a stored message (N > 0), or a
// board whose status changed without a message (N == 0).
type Item struct {
	// N is the message's number in the database (0: no message).
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

// size is about what the item holds in memory.
func (it Item) size() int {
	return 128 + len(it.Board) + len(it.Message) + len(it.Tile) + len(it.State)
}

// Hub is the broadcast. Make it with New.
type Hub struct {
	cfg Config

	// fill is held while messages are handed on (Stored, CatchUp), so
	// that they go in N's order; taken before mu.
	fill  sync.Mutex
	store *store.Store // set by Load: where messages not heard of are read

	mu      sync.Mutex
	n       uint64 // the last message's N
	ring    []Item // the last Keep messages, oldest first (Message set, Tile and State not)
	boards  map[string]*board
	subs    map[*Sub]struct{}
	sent    uint64 // numbers the entries in the order sent
	waiting int    // the bytes of the entries some subscriber holds
}

// New makes a Hub with no boards; Load fills it from the store.
func New(cfg Config) *Hub {
	if cfg.Keep <= 0 {
		cfg.Keep = 4096
	}
	if cfg.Buffer <= 0 {
		cfg.Buffer = 1024
	}
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
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
// messages and its last status) up to the last message committed, which
// becomes the hub's N; later messages come through Stored and CatchUp,
// which read them from the store when the hub was not told of them. Call
// it once, before the ingest starts.
func (h *Hub) Load(ctx context.Context, s *store.Store) error {
	n, err := s.LastN(ctx)
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
				if m.N <= n && json.Unmarshal(m.Body, &rm) == nil {
					b.apply(rm, now) // the later ones come as the hub catches up
				}
			}
		}
		loaded[sb.Board] = b
	}
	h.mu.Lock()
	h.n, h.boards, h.store = n, loaded, s
	h.mu.Unlock()
	return nil
}

// Stored hands on message m of a board, number n in the database, which
// the database has just committed (by this hub or another; body is the
// message as the board published it). The ingest calls it after each
// commit, from one goroutine. A message the hub handed on already is
// ignored; the messages before n it was not told of are read from the
// store first (when they cannot be, n waits for CatchUp).
func (h *Hub) Stored(n uint64, m referee.Message, body []byte) {
	h.fill.Lock()
	defer h.fill.Unlock()
	h.mu.Lock()
	last, s := h.n, h.store
	h.mu.Unlock()
	if n <= last {
		return
	}
	if n > last+1 && s != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if h.catchUp(ctx, n-1) != nil {
			return // the store is away: CatchUp hands them on, n with them
		}
	}
	h.handOn(n, m, body)
}

// CatchUp hands on every message the store committed after the last one
// the hub handed on: those another hub stored that this one has not
// heard of (its ingest behind, or idle while the other's took them in).
// The hub's server calls it now and then, and before a viewer resumes
// after an N this hub has not reached.
func (h *Hub) CatchUp(ctx context.Context) error {
	h.fill.Lock()
	defer h.fill.Unlock()
	return h.catchUp(ctx, 1<<63-1)
}

// catchUp hands on the stored messages after h.n up to N upto; h.fill is
// held.
func (h *Hub) catchUp(ctx context.Context, upto uint64) error {
	h.mu.Lock()
	s := h.store
	h.mu.Unlock()
	if s == nil {
		return nil
	}
	for {
		h.mu.Lock()
		last := h.n
		h.mu.Unlock()
		if last >= upto {
			return nil
		}
		ms, err := s.MessagesAfter(ctx, last, int(min(upto-last, 500)))
		if err != nil {
			return fmt.Errorf("hub live: %w", err)
		}
		for _, sm := range ms {
			var m referee.Message
			if err := json.Unmarshal(sm.Body, &m); err != nil {
				m = referee.Message{Board: sm.Board, Seq: sm.Seq, Game: sm.Game, Kind: sm.Kind}
			}
			m.Board, m.Seq = sm.Board, sm.Seq
			h.handOn(sm.N, m, sm.Body)
		}
		if len(ms) < 500 {
			return nil
		}
	}
}

// handOn applies message m, number n, to its board's view and sends it to
// the subscribers; h.fill is held.
func (h *Hub) handOn(n uint64, m referee.Message, body []byte) {
	now := h.cfg.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if n <= h.n {
		return
	}
	b := h.board(m.Board)
	b.apply(m, now)
	h.n = n
	it := Item{N: n, Board: m.Board, Seq: m.Seq, Message: slices.Clone(body)}
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

// entry is one item sent, shared by the subscribers it waits for.
type entry struct {
	it   Item
	size int
	refs int    // how many subscribers' queues hold it
	sent uint64 // the order sent: the oldest waiting is the slowest subscriber's
}

// send gives it, with the board's views, to every subscriber; one with
// Buffer items waiting is dropped, and while the items waiting pass the
// budget the one with the oldest is. h.mu is held.
func (h *Hub) send(it Item, b *board, now time.Time) {
	if len(h.subs) == 0 {
		return
	}
	it.Tile, _ = json.Marshal(b.view(now, false))
	it.State, _ = json.Marshal(b.view(now, true).State)
	h.sent++
	e := &entry{it: it, size: it.size(), sent: h.sent}
	for s := range h.subs {
		if s.board != "" && s.board != it.Board {
			continue
		}
		if len(s.q) >= h.cfg.Buffer {
			h.drop(s)
			continue
		}
		s.q = append(s.q, e)
		e.refs++
		s.signal()
	}
	if e.refs > 0 {
		h.waiting += e.size
	}
	for h.waiting > h.cfg.Budget {
		var slowest *Sub
		for s := range h.subs {
			if len(s.q) > 0 && (slowest == nil || s.q[0].sent < slowest.q[0].sent) {
				slowest = s
			}
		}
		if slowest == nil {
			break
		}
		h.drop(slowest)
	}
}

// release lets go of the entries a subscriber took or lost; h.mu is held.
func (h *Hub) release(q []*entry) {
	for _, e := range q {
		if e.refs--; e.refs == 0 {
			h.waiting -= e.size
		}
	}
}

// drop ends a subscription, letting go of what waited for it; h.mu is
// held.
func (h *Hub) drop(s *Sub) {
	if _, ok := h.subs[s]; !ok {
		return
	}
	delete(h.subs, s)
	h.release(s.q)
	s.q, s.done = nil, true
	s.signal()
}

// Waiting is how many bytes of items wait for the subscribers (each item
// counted once): at most Config.Budget after every send.
func (h *Hub) Waiting() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.waiting
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

// Last is the N of the last message handed on.
func (h *Hub) Last() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Sub is one subscription. Wait on Ready, then Take what waits.
type Sub struct {
	// Backlog is the first page of the messages after the N asked for
	// (BacklogPage at most); MoreBacklog returns the next ones, up to the
	// first item Take returns.
	Backlog []Item
	// Reset is true when messages after the N asked for cannot all be
	// had (too far behind, or an N the database never gave): start from
	// the current Views.
	Reset bool

	board string
	h     *Hub
	ready chan struct{} // a token when items wait or the subscription ended
	q     []*entry      // h.mu
	done  bool          // h.mu: dropped or cancelled
	// next and upto: the backlog still to come is N next+1 to upto.
	next, upto uint64
}

// BacklogPage is how many messages Backlog and MoreBacklog look at once.
const BacklogPage = 256

// signal tells the subscriber something waits; h.mu is held.
func (s *Sub) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Ready has a value when Take has something to return.
func (s *Sub) Ready() <-chan struct{} { return s.ready }

// Take returns the items waiting, in order, about TakeBytes of them at
// most (Ready has a value again when more wait); ok is false once the
// subscription has ended: dropped for falling behind (subscribe again
// from the last N had: the items that waited are gone) or cancelled.
// What waits counts toward the budget until taken, so a reader takes
// again only once it has written what it took.
func (s *Sub) Take() (items []Item, ok bool) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	if s.done {
		return nil, false
	}
	k, size := 0, 0
	for k < len(s.q) && (k == 0 || size+s.q[k].size <= TakeBytes) {
		size += s.q[k].size
		k++
	}
	items = make([]Item, k)
	for i, e := range s.q[:k] {
		items[i] = e.it
	}
	s.h.release(s.q[:k])
	s.q = slices.Delete(s.q, 0, k)
	if len(s.q) > 0 {
		s.signal()
	}
	return items, true
}

// TakeBytes is about the most Take returns at once.
const TakeBytes = 32 << 10

// Subscribe subscribes to every board's items (board ""), or to one
// board's. With resume, Backlog and MoreBacklog hold the messages after
// message after (only the board's for one board), or Reset says they
// cannot all be had; without, the subscription starts with the next
// item. A backlog older than the hub keeps in memory is read from the
// store.
func (h *Hub) Subscribe(ctx context.Context, board string, after uint64, resume bool) *Sub {
	s := &Sub{board: board, h: h, ready: make(chan struct{}, 1)}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	last := h.n
	oldest := h.n + 1 - uint64(len(h.ring)) // the first kept N
	switch {
	case !resume || after == last:
	case after > last || last-after > uint64(h.cfg.Keep), after+1 < oldest && h.store == nil:
		s.Reset = true
	default:
		s.next, s.upto = after, last
	}
	h.mu.Unlock()
	var err error
	if s.Backlog, err = s.MoreBacklog(ctx); err != nil {
		s.Backlog, s.Reset, s.next, s.upto = nil, true, 0, 0
	}
	return s
}

// MoreBacklog returns the next page of the backlog (after Backlog, or
// the page it returned last), none once it is all had. An error means the
// rest cannot be had (the store is away): end the stream, so that the
// viewer comes back.
func (s *Sub) MoreBacklog(ctx context.Context) ([]Item, error) {
	h := s.h
	for s.next < s.upto {
		var items []Item
		h.mu.Lock()
		oldest := h.n + 1 - uint64(len(h.ring))
		st := h.store
		through := min(s.upto, s.next+BacklogPage)
		if s.next+1 >= oldest {
			for _, it := range h.ring[s.next+1-oldest : through+1-oldest] {
				if s.board == "" || it.Board == s.board {
					items = append(items, it)
				}
			}
		}
		h.mu.Unlock()
		if s.next+1 < oldest {
			// From the store: every message up to upto is in it.
			if st == nil {
				return nil, fmt.Errorf("hub live: messages after %d are no longer kept", s.next)
			}
			ms, err := st.MessagesAfter(ctx, s.next, int(through-s.next))
			if err != nil {
				return nil, err
			}
			if len(ms) == 0 || ms[0].N != s.next+1 {
				return nil, fmt.Errorf("hub live: the store has no message %d", s.next+1)
			}
			through = ms[len(ms)-1].N
			for _, m := range ms {
				if s.board == "" || m.Board == s.board {
					items = append(items, Item{N: m.N, Board: m.Board, Seq: m.Seq, Message: m.Body})
				}
			}
		}
		s.next = through
		if len(items) > 0 {
			return items, nil
		}
	}
	return nil, nil
}

// Cancel ends the subscription.
func (s *Sub) Cancel() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.drop(s)
}

// Subscribers is how many subscriptions are open.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
