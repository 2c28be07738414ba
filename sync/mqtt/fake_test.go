package mqtt

import (
	"fmt"

	"boardd/referee"
	"boardd/referee/streamtest"
)

// fakeBoard is the shared fake board (referee/streamtest) with the
// shorthands these tests use: a fixed Teams state, move messages, and a
// Do that answers a resignation with its message.
type fakeBoard struct {
	*streamtest.Board
}

func newFakeBoard(id string) *fakeBoard {
	f := &fakeBoard{streamtest.New(referee.State{
		Board: id, Game: id + "-g1", Variant: "teams", Status: "playing",
		FEN4: "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/14",
		Turn: "Red", Squares: []string{"d1", "h1"}, Pieces: map[string]string{"h1": "rK"},
		Seats: []referee.SeatState{{Seat: "Red", Status: "playing", ClockMS: -1}},
		Moves: []referee.MoveInfo{}, Occupancy: []string{"h1"}, Tags: map[string]string{},
	})}
	f.SetReply(func(c referee.Command) referee.Reply {
		if c.Name == referee.CmdResign {
			m := f.emit(referee.MsgResign, c.Seat+" resigns")
			return referee.Reply{OK: true, Seq: m.Seq}
		}
		return referee.Reply{OK: true}
	})
	return f
}

// emit appends a message of kind and delivers it to the subscribers; a
// move is Red's h2-h3.
func (f *fakeBoard) emit(kind, text string) referee.Message {
	m := referee.Message{Kind: kind, Text: text}
	if kind == referee.MsgMove {
		m.Seat, m.Move, m.Coord = "Red", "h2-h3", "h2-h3"
	}
	return f.Emit(m)
}

// moves emits n move messages.
func (f *fakeBoard) moves(n int) {
	for i := 0; i < n; i++ {
		f.emit(referee.MsgMove, fmt.Sprintf("move %d", i+1))
	}
}

func (f *fakeBoard) setStatus(s string) {
	f.Update(func(st *referee.State) { st.Status = s })
}

func (f *fakeBoard) setLight(sq, color string) {
	l := f.Lights()
	squares := map[string]string{sq: color}
	for k, v := range l.Squares {
		if k != sq {
			squares[k] = v
		}
	}
	f.SetLights(squares)
}
