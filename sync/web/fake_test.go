package web

import (
	"fmt"
	"strconv"
	"strings"

	"boardd/referee"
	"boardd/referee/streamtest"
)

// fakeBoard is the shared fake board (referee/streamtest) with the
// shorthands these tests use: an FFA game at the start, its game_start
// message, a lit square and moves played as the seat to move.
type fakeBoard struct {
	*streamtest.Board
}

var _ referee.Board = (*fakeBoard)(nil)

func newFake() *fakeBoard {
	f := &fakeBoard{streamtest.New(startState())}
	f.SetLights(map[string]string{"h1": "#00ff00"})
	f.Emit(referee.Message{Kind: referee.MsgGameStart, Variant: "ffa", Text: "new game: ffa"})
	return f
}

// keepFrom forgets the messages before oldest (0: keep everything).
func (f *fakeBoard) keepFrom(oldest uint64) {
	if oldest > 0 {
		f.Forget(oldest - 1)
	}
}

// fallBehind drops every subscriber, keeps n more messages that reach
// nobody live, and forgets the messages before oldest: all at once, so a
// resubscription sees the result.
func (f *fakeBoard) fallBehind(n int, oldest uint64) {
	var ms []referee.Message
	for i := range n {
		ms = append(ms, referee.Message{Kind: referee.MsgClock, Text: fmt.Sprintf("unseen %d", i)})
	}
	f.FallBehind(oldest, ms...)
}

// play moves a piece as the seat to move, records the move, emits its
// message and signals the change.
func (f *fakeBoard) play(from, to, text string) referee.Message {
	turn := f.State().Turn
	msg := f.Emit(referee.Message{Kind: referee.MsgMove, Seat: turn, Move: text, Coord: from + "-" + to,
		Text: fmt.Sprintf("%s: %s", turn, text)})
	f.Update(func(st *referee.State) {
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
