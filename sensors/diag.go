package sensors

import (
	"fmt"
	"io"
	"strings"
	"time"

	"boardd/rules/square"
)

// RenderMap writes the board as 14 lines of text, rank 14 at the top, for
// the diagnostic command: "#" occupied, "." empty, "!" a faulty square,
// "?" a square whose raw switch disagrees with the debounced state (a
// change being debounced). Corners are blank.
func RenderMap(w io.Writer, occ, raw, faults square.Set) error {
	return RenderMapOn(w, square.Cross(), occ, raw, faults)
}

// RenderMapOn is RenderMap for a board with the given squares: as many
// lines and columns as the board's highest rank and file (16 for the
// 16×16 board), squares not on the board blank.
func RenderMapOn(w io.Writer, board, occ, raw, faults square.Set) error {
	files, ranks := 0, 0
	for _, q := range board.Squares() {
		files, ranks = max(files, q.File()+1), max(ranks, q.Rank()+1)
	}
	var b strings.Builder
	for r := ranks - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%2d ", r+1)
		for f := 0; f < files; f++ {
			q := square.At(f, r)
			c := byte(' ')
			switch {
			case !board.Has(q):
			case faults.Has(q):
				c = '!'
			case occ.Has(q) != raw.Has(q):
				c = '?'
			case occ.Has(q):
				c = '#'
			default:
				c = '.'
			}
			b.WriteByte(' ')
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	b.WriteString("   ")
	for f := 0; f < files; f++ {
		b.WriteString(" " + string(rune('a'+f)))
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// Calibration walks the user through placing a piece on every square in
// turn and records which squares never closed a switch and which closed
// the bit of another square. Feed it the scanner's events with Observe and
// the time with Tick; it is not safe for concurrent use.
type Calibration struct {
	order   []square.Square
	i       int
	timeout time.Duration
	since   time.Time
	never   []square.Square
	wrong   []WrongBit
	ok      int
}

// WrongBit is a square whose piece closed the switch mapped to another.
type WrongBit struct {
	Want, Got square.Square
}

// NewCalibration tests the squares of order (all 160 in a1 order when
// nil), giving the user timeout per square, starting at now.
func NewCalibration(order []square.Square, timeout time.Duration, now time.Time) *Calibration {
	if order == nil {
		order = square.Cross().Squares()
	}
	return &Calibration{order: order, timeout: timeout, since: now}
}

// Current returns the square the user should put a piece on next, and
// false when the walk-through is over.
func (c *Calibration) Current() (square.Square, bool) {
	if c.i >= len(c.order) {
		return square.None, false
	}
	return c.order[c.i], true
}

// Observe takes one scanner event. A place on the current square passes
// it; a place anywhere else records a wrong bit for it. Either way the
// walk-through moves on; it reports whether it did. Lifts and faults are
// ignored (the user lifts each piece before the next).
func (c *Calibration) Observe(e Event) bool {
	want, ok := c.Current()
	if !ok || e.Kind != Place {
		return false
	}
	if e.Square == want {
		c.ok++
	} else {
		c.wrong = append(c.wrong, WrongBit{want, e.Square})
	}
	c.i++
	c.since = e.Time
	return true
}

// Tick records the passing of time: when the current square has waited
// longer than the timeout, it is recorded as never closed and the
// walk-through moves on; Tick reports whether it did.
func (c *Calibration) Tick(now time.Time) bool {
	if _, ok := c.Current(); !ok || now.Sub(c.since) < c.timeout {
		return false
	}
	c.never = append(c.never, c.order[c.i])
	c.i++
	c.since = now
	return true
}

// Report summarises the walk-through: passed squares, squares that never
// closed, squares that closed a wrong bit (named with m, if not nil), and
// squares not yet tested.
func (c *Calibration) Report(w io.Writer, m *Map) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d squares passed\n", c.ok, len(c.order))
	if len(c.never) > 0 {
		b.WriteString("never closed:")
		for _, q := range c.never {
			b.WriteString(" " + q.String())
		}
		b.WriteByte('\n')
	}
	for _, x := range c.wrong {
		fmt.Fprintf(&b, "%s closed the switch mapped to %s", x.Want, x.Got)
		if m != nil {
			fmt.Fprintf(&b, " (bit %d; %s is mapped to bit %d)", m.Bit(x.Got), x.Want, m.Bit(x.Want))
		}
		b.WriteByte('\n')
	}
	if rest := len(c.order) - c.i; rest > 0 {
		fmt.Fprintf(&b, "%d squares not tested (from %s)\n", rest, c.order[c.i])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Passed reports whether every square was tested and passed.
func (c *Calibration) Passed() bool { return c.ok == len(c.order) }
