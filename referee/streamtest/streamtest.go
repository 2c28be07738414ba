// Package streamtest is a fake referee.Board for the tests of the
// stream's consumers (MQTT, the web display, speech), as periph's gpiotest
// is for GPIO drivers: messages kept in memory with Subscribe's rules as
// referee.Live has them, a state and lights the test edits, Changed
// signalling, and Do recording the commands it is given.
//
// Subscribe follows the contract of referee.Board exactly: from 0 means
// only new messages; from at or below the last message but older than
// the oldest kept is a *referee.NotKeptError; from inside a gap of
// numbers the board skipped (Skip: after an unclean stop the board's
// stream numbers on after its reservation) is no loss: the backlog
// starts at the first message after the gap; a subscriber whose buffer
// is full when a message comes has its live channel closed.
package streamtest

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"boardd/referee"
)

// Epoch is the time of message 0: message n is stamped Epoch + n seconds
// unless the test gives it a time.
var Epoch = time.Date(2025, 5, 1, 18, 0, 0, 0, time.UTC)

// Board is a fake referee.Board. Its zero value is not ready: use New.
type Board struct {
	mu     sync.Mutex
	state  referee.State
	lights referee.Lights
	msgs   []referee.Message // kept messages, Seq ascending (gaps where Skip skipped)
	seq    uint64            // Seq of the newest message
	buf    int               // capacity of new live channels
	subs   map[chan referee.Message]uint64
	notify map[chan struct{}]struct{}
	froms  []uint64
	cmds   []referee.Command
	reply  func(referee.Command) referee.Reply
}

var _ referee.Board = (*Board)(nil)

// New returns a board with no messages, the given state (its Seq is
// kept equal to the newest message's), no lights, and live channels of
// 64 messages.
func New(st referee.State) *Board {
	if st.Pieces == nil {
		st.Pieces = map[string]string{}
	}
	return &Board{
		state: st, lights: referee.Lights{Squares: map[string]string{}}, buf: 64,
		subs: map[chan referee.Message]uint64{}, notify: map[chan struct{}]struct{}{},
	}
}

// Emit numbers m, stamps it (Board, Game from the state; Time when
// zero), keeps it, delivers it to the subscribers and signals Changed. A
// subscriber whose buffer is full has its channel closed, as Live does.
func (f *Board) Emit(m referee.Message) referee.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.emitLocked(m)
}

func (f *Board) emitLocked(m referee.Message) referee.Message {
	f.seq++
	f.state.Seq = f.seq
	m.Seq = f.seq
	if m.Time.IsZero() {
		m.Time = Epoch.Add(time.Duration(m.Seq) * time.Second)
	}
	if m.Board == "" {
		m.Board = f.state.Board
	}
	if m.Game == "" {
		m.Game = f.state.Game
	}
	f.msgs = append(f.msgs, m)
	for ch, from := range f.subs {
		if m.Seq < from {
			continue
		}
		select {
		case ch <- m:
		default:
			close(ch)
			delete(f.subs, ch)
		}
	}
	f.signalLocked()
	return m
}

// Skip skips n numbers, as a board restarted after an unclean stop does
// (archive.Stream numbers on after its reservation): the next message has
// Seq n+1 above the newest, and Subscribe from a skipped Seq starts its
// backlog at the first message after the gap (nothing was lost).
func (f *Board) Skip(n uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq += n
	f.state.Seq = f.seq
}

// Forget drops the kept messages up to Seq upTo: Subscribe from them is
// then a *referee.NotKeptError.
func (f *Board) Forget(upTo uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgetLocked(upTo)
}

func (f *Board) forgetLocked(upTo uint64) {
	for len(f.msgs) > 0 && f.msgs[0].Seq <= upTo {
		f.msgs = f.msgs[1:]
	}
}

// DropSubscribers closes every live channel, as if all had fallen behind.
func (f *Board) DropSubscribers() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dropLocked()
}

func (f *Board) dropLocked() {
	for ch := range f.subs {
		close(ch)
		delete(f.subs, ch)
	}
}

// FallBehind drops every subscriber, emits the messages ms that reach
// nobody live, and forgets the kept ones before oldest: all at once, so a
// resubscription sees the result.
func (f *Board) FallBehind(oldest uint64, ms ...referee.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dropLocked()
	for _, m := range ms {
		f.emitLocked(m)
	}
	f.forgetLocked(oldest - 1)
}

// SetBuffer sets the capacity of the live channels of later
// subscriptions (1: the smallest; bursts overflow it).
func (f *Board) SetBuffer(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf = n
}

// SetReply makes reply answer Do (nil: every command is OK). reply runs
// without the board's lock: it may Emit.
func (f *Board) SetReply(reply func(referee.Command) referee.Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reply = reply
}

// Update edits a copy of the state (the old one may still be read by
// whoever got it from State) and signals Changed. Seq stays the newest
// message's.
func (f *Board) Update(edit func(st *referee.State)) {
	f.mu.Lock()
	st := Clone(f.state)
	edit(&st)
	st.Seq = f.seq
	f.state = st
	f.signalLocked()
	f.mu.Unlock()
}

// SetLights sets the lit squares (Seq: the newest message's) and signals
// Changed.
func (f *Board) SetLights(squares map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lights = referee.Lights{Seq: f.seq, Squares: squares}
	f.signalLocked()
}

// Signal signals Changed without changing anything.
func (f *Board) Signal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.signalLocked()
}

func (f *Board) signalLocked() {
	for ch := range f.notify {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Commands lists the commands Do was given, in order.
func (f *Board) Commands() []referee.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]referee.Command(nil), f.cmds...)
}

// SubscribeFroms lists the from of every Subscribe call, in order.
func (f *Board) SubscribeFroms() []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint64(nil), f.froms...)
}

// Watchers counts the open subscriptions and Changed channels.
func (f *Board) Watchers() (subs, changed int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs), len(f.notify)
}

// Subscribe implements referee.Board with Live's rules.
func (f *Board) Subscribe(from uint64) ([]referee.Message, <-chan referee.Message, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.froms = append(f.froms, from)
	var backlog []referee.Message
	if from != 0 && from <= f.seq {
		i := sort.Search(len(f.msgs), func(i int) bool { return f.msgs[i].Seq >= from })
		if len(f.msgs) == 0 || from < f.msgs[0].Seq {
			// Forgotten: Oldest is the first message kept.
			oldest := f.seq + 1
			if len(f.msgs) > 0 {
				oldest = f.msgs[0].Seq
			}
			return nil, nil, nil, &referee.NotKeptError{From: from, Oldest: oldest}
		}
		backlog = append(backlog, f.msgs[i:]...)
	}
	ch := make(chan referee.Message, f.buf)
	f.subs[ch] = from
	cancel := func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if _, ok := f.subs[ch]; ok {
			delete(f.subs, ch)
			close(ch)
		}
	}
	return backlog, ch, cancel, nil
}

// State implements referee.Board.
func (f *Board) State() referee.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state // never changed in place: Update stores a copy
}

// Lights implements referee.Board.
func (f *Board) Lights() referee.Lights {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lights
}

// Changed implements referee.Board.
func (f *Board) Changed() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	f.mu.Lock()
	f.notify[ch] = struct{}{}
	f.mu.Unlock()
	return ch, func() {
		f.mu.Lock()
		delete(f.notify, ch)
		f.mu.Unlock()
	}
}

// Do implements referee.Board: it records c and answers with the reply
// function (OK without one); the reply carries c's ID.
func (f *Board) Do(ctx context.Context, c referee.Command) referee.Reply {
	f.mu.Lock()
	f.cmds = append(f.cmds, c)
	reply := f.reply
	f.mu.Unlock()
	r := referee.Reply{OK: true}
	if reply != nil {
		r = reply(c)
	}
	if r.ID == "" {
		r.ID = c.ID
	}
	return r
}

// Clone is a deep copy of a state (through JSON), with a non-nil Pieces.
func Clone(st referee.State) referee.State {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err) // State has only JSON-safe fields
	}
	var out referee.State
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	if out.Pieces == nil {
		out.Pieces = map[string]string{}
	}
	return out
}
