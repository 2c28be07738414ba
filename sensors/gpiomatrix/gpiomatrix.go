// Package gpiomatrix reads reed switches wired as a row × column matrix
// with one diode per switch.
//
// Rows are selected one at a time by pulling them low; every other row is
// held high. Columns are inputs with pull-ups. A closed switch on the
// selected row pulls its column low through its diode (anode on the
// column, cathode towards the row); the diodes stop closed switches on
// other rows from ghosting. After selecting a row the driver waits
// Opts.Settle for the column lines to charge through the pull-ups before
// reading.
//
// Rows come from a RowSelector: GPIORows (one GPIO per row), DecoderRows
// (a 74HC138/74HC154 decoder with active-low outputs, 4 GPIOs for 16 rows)
// or ShiftRows (74HC595 shift registers on an SPI port). Bit row*len(cols)+col of the frame is the switch at that
// row and column.
package gpiomatrix

import (
	"errors"
	"fmt"
	"time"

	"periph.io/x/conn/v3/gpio"

	"boardd/sensors"
)

// RowSelector drives the matrix rows.
type RowSelector interface {
	// Rows returns how many rows it drives.
	Rows() int
	// Select makes row r the only active (low) row.
	Select(r int) error
	// Release deselects every row.
	Release() error
}

// GPIORows drives one GPIO per row, active low; idle rows are driven high.
// Make one with NewGPIORows.
type GPIORows struct {
	pins   []gpio.PinOut
	active int
}

// NewGPIORows returns a selector for the row pins, row 0 first.
func NewGPIORows(pins ...gpio.PinOut) *GPIORows { return &GPIORows{pins: pins, active: -1} }

// Rows implements RowSelector.
func (g *GPIORows) Rows() int { return len(g.pins) }

// Select implements RowSelector: the previous row goes high before r goes
// low, so two rows are never active together.
func (g *GPIORows) Select(r int) error {
	if g.active >= 0 && g.active != r {
		if err := g.pins[g.active].Out(gpio.High); err != nil {
			return fmt.Errorf("row %d (%s): %w", g.active, g.pins[g.active], err)
		}
	}
	g.active = -1
	if err := g.pins[r].Out(gpio.Low); err != nil {
		return fmt.Errorf("row %d (%s): %w", r, g.pins[r], err)
	}
	g.active = r
	return nil
}

// Release implements RowSelector: every row high.
func (g *GPIORows) Release() error {
	g.active = -1
	for i, p := range g.pins {
		if p == nil || p == gpio.INVALID {
			return fmt.Errorf("row %d: no such pin", i)
		}
		if err := p.Out(gpio.High); err != nil {
			return fmt.Errorf("row %d (%s): %w", i, p, err)
		}
	}
	return nil
}

// DecoderRows drives rows through a binary decoder with active-low outputs
// (74HC138: 3 address pins, 8 rows; 74HC154: 4 pins, 16 rows).
type DecoderRows struct {
	// Addr are the address pins, least significant (A0) first.
	Addr []gpio.PinOut
	// Enable is the decoder's active-low enable (G1/G2 tied together), or
	// nil if it is wired permanently enabled.
	Enable gpio.PinOut
	// N is the number of rows used (at most 1<<len(Addr)).
	N int
}

// Rows implements RowSelector.
func (d *DecoderRows) Rows() int { return d.N }

// Select implements RowSelector: disable, set the address, enable.
func (d *DecoderRows) Select(r int) error {
	if d.Enable != nil {
		if err := d.Enable.Out(gpio.High); err != nil {
			return fmt.Errorf("decoder enable: %w", err)
		}
	}
	for i, p := range d.Addr {
		if err := p.Out(gpio.Level(r>>i&1 == 1)); err != nil {
			return fmt.Errorf("decoder A%d (%s): %w", i, p, err)
		}
	}
	if d.Enable != nil {
		if err := d.Enable.Out(gpio.Low); err != nil {
			return fmt.Errorf("decoder enable: %w", err)
		}
	}
	return nil
}

// Release implements RowSelector: disables the decoder if it can.
func (d *DecoderRows) Release() error {
	if d.Enable != nil {
		return d.Enable.Out(gpio.High)
	}
	return nil
}

// Opts configures a matrix.
type Opts struct {
	// Settle is the wait between selecting a row and reading the columns;
	// 0 means 20 µs (the Pi's ~50 kΩ pull-ups against a few hundred pF of
	// cable).
	Settle time.Duration
	// Sleep waits; nil means Wait (busy-waits under SpinLimit). Tests
	// inject a recorder.
	Sleep func(time.Duration)
}

// SpinLimit is the longest settle Wait busy-waits; longer ones sleep.
// Go's time.Sleep on Linux takes about a millisecond however short the
// wait (BenchmarkSleep20us: 1.08 ms for 20 µs on the project's build
// machine), which made a 16-row scan 10–17 ms instead of well under one.
const SpinLimit = time.Millisecond

// Wait waits d: a busy-wait on the monotonic clock below SpinLimit (a
// 16-row scan spins 16 × 20 µs, about 6 % of one core at 200 scans a
// second), time.Sleep from SpinLimit up.
func Wait(d time.Duration) {
	if d >= SpinLimit {
		sleep(d)
		return
	}
	for start := time.Now(); time.Since(start) < d; {
	}
}

// sleep is time.Sleep (a variable for tests).
var sleep = time.Sleep

// Dev is a switch matrix. It implements sensors.Source.
type Dev struct {
	rows  RowSelector
	cols  []gpio.PinIn
	opts  Opts
	nbits int
}

// New sets the columns to inputs with pull-ups, releases every row and
// returns the matrix.
func New(rows RowSelector, cols []gpio.PinIn, o *Opts) (*Dev, error) {
	var opts Opts
	if o != nil {
		opts = *o
	}
	if opts.Settle == 0 {
		opts.Settle = 20 * time.Microsecond
	}
	if opts.Sleep == nil {
		opts.Sleep = Wait
	}
	if rows == nil || rows.Rows() < 1 || len(cols) < 1 {
		return nil, errors.New("gpiomatrix: needs at least one row and one column")
	}
	n := rows.Rows() * len(cols)
	if n > sensors.MaxBits {
		return nil, fmt.Errorf("gpiomatrix: %d rows × %d columns = %d switches, at most %d", rows.Rows(), len(cols), n, sensors.MaxBits)
	}
	for i, c := range cols {
		if c == nil || c == gpio.INVALID {
			return nil, fmt.Errorf("gpiomatrix: column %d: no such pin", i)
		}
		if err := c.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return nil, fmt.Errorf("gpiomatrix: column %d (%s): %v", i, c, err)
		}
	}
	if err := rows.Release(); err != nil {
		return nil, fmt.Errorf("gpiomatrix: %v", err)
	}
	return &Dev{rows: rows, cols: cols, opts: opts, nbits: n}, nil
}

// Bits implements sensors.Source: rows × columns.
func (d *Dev) Bits() int { return d.nbits }

// Read implements sensors.Source: each row in turn, settle, read columns.
func (d *Dev) Read(f *sensors.Frame) error {
	*f = sensors.Frame{}
	nc := len(d.cols)
	for r := 0; r < d.rows.Rows(); r++ {
		if err := d.rows.Select(r); err != nil {
			d.rows.Release()
			return fmt.Errorf("gpiomatrix: %w", err)
		}
		d.opts.Sleep(d.opts.Settle)
		for c, p := range d.cols {
			if p.Read() == gpio.Low {
				b := r*nc + c
				f[b>>6] |= 1 << (uint(b) & 63)
			}
		}
	}
	if err := d.rows.Release(); err != nil {
		return fmt.Errorf("gpiomatrix: %w", err)
	}
	return nil
}

// The costs ScanTime counts. gpioOp is one GPIO write or read through the
// Linux GPIO character device (an ioctl each; boardd runs unprivileged, so
// periph's memory-mapped path is not used): an estimate for a Pi 3 or 4,
// not a measurement, generous so the check errs towards a lower rate.
// spiTx is one short SPI transaction (an ioctl and a few bytes at 1 MHz).
// sleepSlack is what a time.Sleep of a millisecond or more overshoots.
const (
	gpioOp     = 10 * time.Microsecond
	spiTx      = 50 * time.Microsecond
	sleepSlack = 100 * time.Microsecond
)

// Wiring is what ScanTime needs to know of a matrix.
type Wiring struct {
	// Rows and Cols are the matrix's size.
	Rows, Cols int
	// SelectWrites is how many GPIO writes select a row (GPIORows: 2,
	// DecoderRows: its address pins, plus 2 with an enable); 0 with
	// SPIRows.
	SelectWrites int
	// SPIRows: rows through 74HC595s, one SPI transaction a row.
	SPIRows bool
	// Settle is the wait after each select.
	Settle time.Duration
}

// ScanTime estimates one Read: per row, the select, the settle (as Wait
// does it) and one read per column. It is what the config check holds a
// scan rate against.
func ScanTime(w Wiring) time.Duration {
	sel := time.Duration(w.SelectWrites) * gpioOp
	if w.SPIRows {
		sel = spiTx
	}
	settle := w.Settle
	if settle >= SpinLimit {
		settle += sleepSlack
	}
	return time.Duration(w.Rows) * (sel + settle + time.Duration(w.Cols)*gpioOp)
}

// MaxRate is the fastest scan rate (scans per second) that leaves a fifth
// of every period idle.
func MaxRate(w Wiring) float64 {
	t := ScanTime(w)
	if t <= 0 {
		return 0
	}
	return 0.8 / t.Seconds()
}
