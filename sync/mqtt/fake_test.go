package mqtt

import (
	"context"
	"fmt"
	"sync"
	"time"

	"boardd/referee"
)

// fakeBoard is a referee.Board for tests: messages kept in memory with the
// Subscribe semantics of stream.go, a mutable state, a Changed signal, and
// Do recording the commands it is given.
type fakeBoard struct {
	mu       sync.Mutex
	id       string
	game     string
	msgs     []referee.Message // kept messages, Seq contiguous
	last     uint64            // Seq of the newest message
	subs     map[*fakeSub]bool
	changed  map[chan struct{}]bool
	status   string
	lights   map[string]string
	dos      []referee.Command
	subCalls []uint64
	buf      int // live channel capacity
	// reply, when set, answers Do; by default Do answers OK.
	reply func(referee.Command) referee.Reply
}

type fakeSub struct{ ch chan referee.Message }

func newFakeBoard(id string) *fakeBoard {
	return &fakeBoard{
		id: id, game: id + "-g1",
		subs: map[*fakeSub]bool{}, changed: map[chan struct{}]bool{},
		status: "playing", lights: map[string]string{}, buf: 64,
	}
}

// emit appends a message and delivers it to the subscribers.
func (f *fakeBoard) emit(kind, text string) referee.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.emitLocked(kind, text)
}

func (f *fakeBoard) emitLocked(kind, text string) referee.Message {
	f.last++
	m := referee.Message{
		Seq: f.last, Time: time.Date(2026, 5, 1, 12, 0, 0, int(f.last), time.UTC),
		Board: f.id, Game: f.game, Kind: kind, Text: text,
	}
	if kind == referee.MsgMove {
		m.Seat, m.Move, m.Coord = "Red", "h2-h3", "h2-h3"
	}
	f.msgs = append(f.msgs, m)
	for s := range f.subs {
		select {
		case s.ch <- m:
		default: // too slow: close, as the real board does
			close(s.ch)
			delete(f.subs, s)
		}
	}
	f.signalLocked()
	return m
}

// moves emits n move messages.
func (f *fakeBoard) moves(n int) {
	for i := 0; i < n; i++ {
		f.emit(referee.MsgMove, fmt.Sprintf("move %d", i+1))
	}
}

// forget drops the kept messages up to Seq upTo.
func (f *fakeBoard) forget(upTo uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.msgs) > 0 && f.msgs[0].Seq <= upTo {
		f.msgs = f.msgs[1:]
	}
}

func (f *fakeBoard) setStatus(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status = s
	f.signalLocked()
}

func (f *fakeBoard) setLight(sq, color string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lights[sq] = color
	f.signalLocked()
}

func (f *fakeBoard) signalLocked() {
	for ch := range f.changed {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (f *fakeBoard) commands() []referee.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]referee.Command(nil), f.dos...)
}

func (f *fakeBoard) subscribeCalls() []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint64(nil), f.subCalls...)
}

func (f *fakeBoard) Subscribe(from uint64) ([]referee.Message, <-chan referee.Message, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subCalls = append(f.subCalls, from)
	if from == 0 {
		from = 1
	}
	var backlog []referee.Message
	if from <= f.last {
		if len(f.msgs) == 0 || f.msgs[0].Seq > from {
			oldest := f.last + 1
			if len(f.msgs) > 0 {
				oldest = f.msgs[0].Seq
			}
			return nil, nil, nil, fmt.Errorf("messages from %d are no longer kept (the oldest is %d)", from, oldest)
		}
		backlog = append(backlog, f.msgs[from-f.msgs[0].Seq:]...)
	}
	s := &fakeSub{ch: make(chan referee.Message, f.buf)}
	f.subs[s] = true
	cancel := func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, s)
	}
	return backlog, s.ch, cancel, nil
}

func (f *fakeBoard) State() referee.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return referee.State{
		Board: f.id, Game: f.game, Seq: f.last, Variant: "teams", Status: f.status,
		FEN4: "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/14",
		Turn: "Red", Squares: []string{"d1", "h1"}, Pieces: map[string]string{"h1": "rK"},
		Seats: []referee.SeatState{{Seat: "Red", Status: "playing", ClockMS: -1}},
		Moves: []referee.MoveInfo{}, Occupancy: []string{"h1"}, Tags: map[string]string{},
	}
}

func (f *fakeBoard) Lights() referee.Lights {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := referee.Lights{Seq: f.last, Squares: map[string]string{}}
	for k, v := range f.lights {
		l.Squares[k] = v
	}
	return l
}

func (f *fakeBoard) Changed() (<-chan struct{}, func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan struct{}, 1)
	f.changed[ch] = true
	return ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.changed, ch)
	}
}

func (f *fakeBoard) Do(ctx context.Context, c referee.Command) referee.Reply {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dos = append(f.dos, c)
	if f.reply != nil {
		return f.reply(c)
	}
	if c.Name == referee.CmdResign {
		m := f.emitLocked(referee.MsgResign, c.Seat+" resigns")
		return referee.Reply{OK: true, Seq: m.Seq}
	}
	return referee.Reply{OK: true}
}
