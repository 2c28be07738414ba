package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"boardd/referee"
)

// fakeBoard is a referee.Board for tests: a state the test edits, a kept
// message list with Subscribe's semantics, Changed signalling and a record
// of the commands Do received.
type fakeBoard struct {
	mu     sync.Mutex
	state  referee.State
	lights referee.Lights
	msgs   []referee.Message // kept messages, Seq ascending
	seq    uint64
	oldest uint64 // Subscribe from below this fails (0: everything kept)
	buf    int    // live channel buffer
	subs   map[chan referee.Message]struct{}
	notify map[chan struct{}]struct{}
	froms  []uint64 // every Subscribe's from
	cmds   []referee.Command
	reply  func(referee.Command) referee.Reply // nil: OK
}

var _ referee.Board = (*fakeBoard)(nil)

func newFake() *fakeBoard {
	f := &fakeBoard{buf: 64, subs: map[chan referee.Message]struct{}{}, notify: map[chan struct{}]struct{}{}}
	f.state = startState()
	f.lights = referee.Lights{Squares: map[string]string{"h1": "#00ff00"}}
	f.emit(referee.Message{Kind: referee.MsgGameStart, Variant: "ffa", Text: "new game: ffa"})
	return f
}

func (f *fakeBoard) Subscribe(from uint64) ([]referee.Message, <-chan referee.Message, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.froms = append(f.froms, from)
	if from < f.oldest && from <= f.seq {
		return nil, nil, nil, fmt.Errorf("messages from %d are no longer kept (the oldest is %d)", from, f.oldest)
	}
	var backlog []referee.Message
	for _, m := range f.msgs {
		if m.Seq >= from {
			backlog = append(backlog, m)
		}
	}
	ch := make(chan referee.Message, f.buf)
	f.subs[ch] = struct{}{}
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

func (f *fakeBoard) State() referee.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state // never changed in place: update stores a copy
}

func (f *fakeBoard) Lights() referee.Lights {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lights
}

func (f *fakeBoard) Changed() (<-chan struct{}, func()) {
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

func (f *fakeBoard) Do(ctx context.Context, c referee.Command) referee.Reply {
	f.mu.Lock()
	f.cmds = append(f.cmds, c)
	reply := f.reply
	f.mu.Unlock()
	if reply != nil {
		r := reply(c)
		r.ID = c.ID
		return r
	}
	return referee.Reply{ID: c.ID, OK: true}
}

// emit numbers a message, keeps it and delivers it live; a subscriber
// whose buffer is full is dropped (its channel closed), as Live does.
func (f *fakeBoard) emit(m referee.Message) referee.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.emitLocked(m)
}

func (f *fakeBoard) emitLocked(m referee.Message) referee.Message {
	f.seq++
	f.state.Seq = f.seq
	m.Seq = f.seq
	m.Time = time.Date(2025, 5, 1, 18, 0, 0, 0, time.UTC).Add(time.Duration(m.Seq) * time.Second)
	m.Board, m.Game = f.state.Board, f.state.Game
	f.msgs = append(f.msgs, m)
	for ch := range f.subs {
		select {
		case ch <- m:
		default:
			close(ch)
			delete(f.subs, ch)
		}
	}
	return m
}

// update edits a copy of the state (Seq becomes the last message's) and
// signals the watchers.
func (f *fakeBoard) update(edit func(st *referee.State)) {
	f.mu.Lock()
	st := cloneState(f.state)
	edit(&st)
	st.Seq = f.seq
	f.state = st
	f.mu.Unlock()
	f.signal()
}

func (f *fakeBoard) setLights(squares map[string]string) {
	f.mu.Lock()
	f.lights = referee.Lights{Seq: f.seq, Squares: squares}
	f.mu.Unlock()
	f.signal()
}

func (f *fakeBoard) signal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.notify {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// dropSubscribers closes every live channel, as if all had fallen behind.
func (f *fakeBoard) dropSubscribers() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		close(ch)
		delete(f.subs, ch)
	}
}

// fallBehind drops every subscriber, keeps n more messages that reach
// nobody live, and forgets the messages before oldest: all at once, so a
// resubscription sees the result.
func (f *fakeBoard) fallBehind(n int, oldest uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		close(ch)
		delete(f.subs, ch)
	}
	for i := range n {
		f.emitLocked(referee.Message{Kind: referee.MsgClock, Text: fmt.Sprintf("unseen %d", i)})
	}
	f.oldest = oldest
}

// watchers counts the open subscriptions and Changed channels.
func (f *fakeBoard) watchers() (subs, notify int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs), len(f.notify)
}

func (f *fakeBoard) setReply(reply func(referee.Command) referee.Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reply = reply
}

func (f *fakeBoard) commands() []referee.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]referee.Command(nil), f.cmds...)
}

func (f *fakeBoard) subscribeFroms() []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint64(nil), f.froms...)
}

// play moves a piece as the seat to move, records the move, emits its
// message and signals the change.
func (f *fakeBoard) play(from, to, text string) referee.Message {
	turn := f.State().Turn
	msg := f.emit(referee.Message{Kind: referee.MsgMove, Seat: turn, Move: text, Coord: from + "-" + to,
		Text: fmt.Sprintf("%s: %s", turn, text)})
	f.update(func(st *referee.State) {
		st.Pieces[to] = st.Pieces[from]
		delete(st.Pieces, from)
		st.Moves = append(st.Moves, referee.MoveInfo{Seat: turn, Move: text})
		st.LastMove = []string{from, to}
		st.Lifted, st.Destinations, st.Checks = "", nil, nil
		st.Turn = nextSeat(turn)
		for i := range st.Seats {
			st.Seats[i].Running = st.Seats[i].Seat == st.Turn && st.Seats[i].ClockMS >= 0
		}
	})
	return msg
}

func nextSeat(s string) string {
	seats := []string{"Red", "Blue", "Yellow", "Green"}
	for i, x := range seats {
		if x == s {
			return seats[(i+1)%4]
		}
	}
	return "Red"
}

func cloneState(st referee.State) referee.State {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err)
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

// modernStart is chess.com's four-player start (FFA "modern" array).
const modernStart = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x"

// placement reads the pieces of a FEN4 (ranks 14 to 1, "x" a cut
// square, a number that many empty squares) into State.Pieces' form.
func placement(fen string) map[string]string {
	rows := strings.Split(fen[strings.LastIndex(fen, "-")+1:], "/")
	pieces := map[string]string{}
	for i, row := range rows {
		rank, file := 14-i, 0
		for _, tok := range strings.Split(row, ",") {
			if n, err := strconv.Atoi(tok); err == nil {
				file += n
				continue
			}
			if tok != "x" {
				pieces[squareName(file, rank)] = strings.ToLower(tok[:1]) + tok[1:]
			}
			file++
		}
	}
	return pieces
}

func squareName(file, rank int) string { return string(rune('a'+file)) + strconv.Itoa(rank) }

// crossSquares lists the 160 squares of the cross board.
func crossSquares() []string {
	var out []string
	for rank := 1; rank <= 14; rank++ {
		for file := 0; file < 14; file++ {
			armF, armR := file >= 3 && file <= 10, rank >= 4 && rank <= 11
			if armF || armR {
				out = append(out, squareName(file, rank))
			}
		}
	}
	return out
}

func startState() referee.State {
	seats := []referee.SeatState{}
	players := map[string]string{"Red": "Anna", "Blue": "Bruno", "Yellow": "Chen", "Green": "Dara"}
	for i, s := range []string{"Red", "Blue", "Yellow", "Green"} {
		seats = append(seats, referee.SeatState{Seat: s, Player: players[s], Status: "playing", ClockMS: 600000 - int64(i)*1000, Running: s == "Red"})
	}
	return referee.State{
		Board: "test", Game: "g1", Seq: 1, Variant: "ffa", Status: "playing",
		FEN4: modernStart, Turn: "Red", Squares: crossSquares(), Pieces: placement(modernStart),
		Seats: seats, Moves: []referee.MoveInfo{}, Occupancy: []string{},
		Tags: map[string]string{"Red": "Anna", "Blue": "Bruno", "Yellow": "Chen", "Green": "Dara"},
	}
}
