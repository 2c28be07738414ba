// Package sim simulates the board's reed switches so the daemon runs end
// to end with no hardware: a Board (a sensors.Source) changed in-process, by
// a script file (ParseScript) or over a local control channel (Serve).
//
// # Script format
//
// One command per line; blank lines and text after # are ignored:
//
//	lift <square>            # the piece on <square> is lifted
//	place <square>           # a piece is set down on <square>
//	wait <duration>          # let time pass: 20ms, 1.5s (Go durations)
//	bounce <square> <ms>     # the contact bounces (reads random) for <ms> ms,
//	                         # 1-1000, then settles to its lifted/placed state
//	break                    # every read fails (a broken 74HC165 chain):
//	                         # the board raises its sensor fault
//	mend                     # reads work again
//
// Squares are chess.com names (a1 … n14) on the 160-square cross board.
// The control channel accepts the same lines and answers each with "ok" or
// "error: …".
package sim

import (
	"math/rand/v2"
	"sync"
	"time"

	"boardd/rules/square"
	"boardd/sensors"
)

// StartPosition returns the squares occupied at the start of a
// four-player game on chess.com's board: ranks 1–2 and 13–14 on files d–k,
// files a–b and m–n on ranks 4–11 (64 pieces).
func StartPosition() square.Set {
	var s square.Set
	for i := 3; i <= 10; i++ {
		for _, j := range []int{0, 1, 12, 13} {
			s.Add(square.At(i, j)) // Red and Yellow
			s.Add(square.At(j, i)) // Blue and Green
		}
	}
	return s
}

// Board is a simulated set of reed switches: the 160 of the cross board
// wired in the standard layout (sensors.StandardMap, New), or one under
// each square of another board (NewOn). It is safe for concurrent use.
type Board struct {
	m       *sensors.Map
	now     func() time.Time
	squares square.Set // the squares with a switch

	mu       sync.Mutex
	occ      square.Set
	bouncing square.Set
	until    [sensors.MaxBits]time.Time
	rng      *rand.PCG
	readErr  error // SetReadError: every Read fails with it
}

// New returns a board with the squares of initial occupied. now is the
// clock bounce durations are measured on; nil means time.Now.
func New(initial square.Set, now func() time.Time) *Board {
	if now == nil {
		now = time.Now
	}
	return &Board{m: sensors.StandardMap(), now: now, squares: cross, occ: initial.And(cross), rng: rand.NewPCG(1, 2)}
}

// NewOn returns a board with a switch under each of squares, wired in
// square order (a1 first), for variants played on another board than the
// cross (Russian Fortress Chess's 16×16).
func NewOn(squares, initial square.Set, now func() time.Time) (*Board, error) {
	m, err := sensors.NewMapOn(squares, squares.Squares())
	if err != nil {
		return nil, err
	}
	b := New(initial, now)
	b.m, b.squares, b.occ = m, squares, initial.And(squares)
	return b, nil
}

// SetReadError makes every Read fail with err until it is set to nil
// again: the simulated board's broken chain or bus, for the scanner's
// Unreadable fault. Pieces moved meanwhile are seen once reads work.
func (b *Board) SetReadError(err error) {
	b.mu.Lock()
	b.readErr = err
	b.mu.Unlock()
}

// Squares returns the squares with a switch: the cross, or NewOn's board.
func (b *Board) Squares() square.Set { return b.squares }

// Map returns the wiring map to scan the board with (the standard one).
func (b *Board) Map() *sensors.Map { return b.m }

// Bits implements sensors.Source: 160 on the cross board.
func (b *Board) Bits() int { return b.m.Bits() }

// Read implements sensors.Source. Bouncing squares read random values.
func (b *Board) Read(f *sensors.Frame) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.readErr != nil {
		return b.readErr
	}
	occ := b.occ
	if b.bouncing != (square.Set{}) {
		now := b.now()
		for w := range b.bouncing {
			for x := b.bouncing[w]; x != 0; x &= x - 1 {
				q := square.Square(w*64 + trailing(x))
				switch {
				case !now.Before(b.until[q]):
					b.bouncing.Remove(q)
				case b.rng.Uint64()&1 == 0:
					occ.Remove(q)
				default:
					occ.Add(q)
				}
			}
		}
	}
	b.m.Frame(occ, f)
	return nil
}

// Lift empties q.
func (b *Board) Lift(q square.Square) {
	b.mu.Lock()
	b.occ.Remove(q)
	b.mu.Unlock()
}

// Place occupies q.
func (b *Board) Place(q square.Square) {
	b.mu.Lock()
	if b.squares.Has(q) {
		b.occ.Add(q)
	}
	b.mu.Unlock()
}

// Bounce makes q's contact read random values for d (on the board's
// clock), after which it reads its lifted/placed state again.
func (b *Board) Bounce(q square.Square, d time.Duration) {
	if !b.squares.Has(q) {
		return
	}
	b.mu.Lock()
	b.bouncing.Add(q)
	b.until[q] = b.now().Add(d)
	b.mu.Unlock()
}

// SetOccupied replaces the whole occupancy.
func (b *Board) SetOccupied(s square.Set) {
	b.mu.Lock()
	b.occ = s.And(b.squares)
	b.mu.Unlock()
}

// Occupied returns the settled occupancy (ignoring bounce).
func (b *Board) Occupied() square.Set {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.occ
}

// Clock is a manual clock for deterministic simulation: time moves only
// when Advance is called. The zero Clock starts at the zero time; use
// NewClock for a readable start.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock reading start.
func NewClock(start time.Time) *Clock { return &Clock{t: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// VirtualWait returns a wait function for Script.Play that runs sc in
// simulated time: for a wait of d it advances clk by the scanner's period
// and steps sc, until d has passed. A whole game script plays in
// milliseconds, deterministically.
func VirtualWait(sc *sensors.Scanner, clk *Clock) func(time.Duration) error {
	period := sc.Config().Period
	var owed time.Duration // remainder of waits shorter than a period
	return func(d time.Duration) error {
		owed += d
		for owed >= period {
			owed -= period
			if err := sc.Step(clk.Advance(period)); err != nil {
				return err
			}
		}
		return nil
	}
}

var cross = square.Cross()
