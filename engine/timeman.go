package engine

import (
	"fmt"
	"time"
)

// Clock is a seat's game clock as the bot plays on it: what is left now,
// what each move brings back, and what the move costs besides thinking.
// The bot spends a share of what is left over the moves still to come,
// plus what the increment or delay gives back each move, and never more
// in one move than a quarter of what it may take without flagging.
type Clock struct {
	// Left is the seat's time left now, as the search starts.
	Left time.Duration
	// Increment is added to the clock after each of the seat's moves
	// (Fischer).
	Increment time.Duration
	// Delay is the control's simple delay: the first Delay of each turn
	// is free, the clock runs only after it.
	Delay time.Duration
	// Used is the time of this turn already gone before the search starts
	// (the board's state travelling, a process starting): it eats into
	// this turn's Delay first; Left is already what remains after it.
	Used time.Duration
	// Hand is the time a person takes to make the bot's move on the board
	// once it is lit: the clock runs meanwhile. 0 for a program that plays
	// the move itself.
	Hand time.Duration
	// Safety is kept on the clock whatever happens, for what the plan
	// cannot see (a slow machine, a late message); 0 means DefaultSafety.
	Safety time.Duration
	// MovesToGo is the number of the seat's moves still to come, this one
	// included; 0 estimates it from the position (fewer as the pieces
	// come off, more in the singles modes, whose games run longer).
	MovesToGo int
}

// DefaultSafety is what the bot keeps on its clock when Clock.Safety is 0.
const DefaultSafety = 300 * time.Millisecond

// DefaultHand is the usual time a person takes to make a lit move of a
// bot seat on the board (the clock runs meanwhile).
const DefaultHand = time.Second

// Plan is the time for one move: no new iteration of the search starts
// after Soft, and the search stops at Hard, returning its best move so
// far (the first iteration, one ply and captures, always finishes).
type Plan struct {
	Soft, Hard time.Duration
}

// Check refuses a clock that cannot be: negative times, or no time left
// and nothing coming back.
func (c Clock) Check() error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"time left", c.Left}, {"increment", c.Increment}, {"delay", c.Delay}, {"time used", c.Used}, {"hand time", c.Hand}, {"safety", c.Safety}} {
		if f.d < 0 {
			return fmt.Errorf("clock: the %s %v is negative", f.name, f.d)
		}
	}
	if c.MovesToGo < 0 {
		return fmt.Errorf("clock: %d moves to go is negative", c.MovesToGo)
	}
	if c.Left == 0 {
		return fmt.Errorf("clock: no time left")
	}
	return nil
}

// Plan divides the clock for this move, with movesToGo the seat's moves
// still to come (this one included; below 1 counts as 1):
//
//   - cost: what the move takes besides thinking, the person's hand and
//     moveOverhead;
//   - free: what is left of this turn's delay after the cost, thinking
//     the clock does not charge;
//   - bank: what the clock may still give to thinking this turn, after
//     the safety margin and the part of the cost the delay does not cover;
//   - the share of the bank for this move: the bank and what the later
//     moves give back (the increment, minus the cost beyond the delay),
//     spread over the moves to go, never more than a quarter of the bank.
//
// The target is free + share; Soft is half of it (an iteration started
// then usually ends near the target), Hard two and a half times it, never
// more than free plus a quarter of the bank, so the clock is never
// charged more than a quarter of what it holds above the safety margin
// and the hand. With no bank and no free time the plan is zero: the bot
// answers at once with its first iteration's move.
func (c Clock) Plan(movesToGo int) Plan {
	mtg := time.Duration(max(movesToGo, 1))
	safety := c.Safety
	if safety == 0 {
		safety = DefaultSafety
	}
	delayNow := max(c.Delay-c.Used, 0)
	cost := c.Hand + moveOverhead // what the move takes besides thinking
	free := max(delayNow-cost, 0)
	excessNow := max(cost-delayNow, 0) // the part the clock charges this turn
	excessLater := max(cost-c.Delay, 0)
	bank := c.Left - safety - excessNow
	if bank < 0 {
		// The safety margin is not on the clock: it comes out of the
		// free time, and the clock gives nothing.
		free, bank = max(free+bank, 0), 0
	}
	capped := bank / 4
	share := (bank + (mtg-1)*(c.Increment-excessLater)) / mtg
	share = min(max(share, 0), capped)
	target := free + share
	return Plan{Soft: target / 2, Hard: min(target*5/2, free+capped)}
}

// moveOverhead is what a move costs beyond its plan and the hand: the
// first iteration, which always finishes, and the messages to the board.
// The plan counts it with the hand, this move's and the later ones', so
// that a clock whose increment only just covers the person's hand keeps
// a reserve for it.
const moveOverhead = 50 * time.Millisecond

// Moves to go (the seat's own moves) at the start and at the end of a
// game, by mode: chess.com's Teams games last some 30 to 40 moves a seat,
// its free-for-all games 30 to 180, half of them more than 60 (the
// chess.com games in testdata/games). The estimate falls with the
// pieces on the board and never below the floor, so a game longer than
// expected still leaves the bot a share of what it has left.
const (
	partnersMovesStart, partnersMovesFloor = 40, 15
	singlesMovesStart, singlesMovesFloor   = 65, 20
)

// movesToGo estimates the seat's moves still to come from the pieces
// other than pawns and kings still in play (28 at the start).
func (b *board) movesToGo(singles bool) int {
	n := 0
	for i := range b.cells {
		if p := b.piece(i); p.kind > kPawn && p.kind < kKing && !p.dead {
			n++
		}
	}
	phase := min(float64(n)/28, 1)
	start, floor := partnersMovesStart, partnersMovesFloor
	if singles {
		start, floor = singlesMovesStart, singlesMovesFloor
	}
	return floor + int(phase*float64(start-floor)+0.5)
}

// singles says whether no seat has a partner (the singles modes).
func (b *board) singles() bool {
	for s := Seat(0); s < numSeats; s++ {
		if b.partner[s] != noSeat {
			return false
		}
	}
	return true
}
