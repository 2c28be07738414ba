// Package sensors turns the reed switches under the board into debounced
// occupancy snapshots and lift/place events.
//
// The package follows periph.io's shape. A Source is the hardware: it reads
// every switch once into a raw bit Frame, numbered the way the wiring
// numbers them (chip 0 bit 0 first for a 74HC165 chain, row-major for a
// matrix). A Map says which bit is which square; it comes from the wiring
// config (ParseMap) or StandardMap. A Scanner reads the Source at a fixed
// rate, applies the Map, debounces every square and reports Events.
//
// Drivers live in subpackages: hc165 (74HC165 chain over SPI, the
// recommended build), gpiomatrix (row×column matrix on GPIO pins), mcp23017
// (I²C expanders) and sim (simulated switches for tests and laptops).
//
// # Debounce contract
//
// A square's debounced state changes only after the raw switch has read the
// new value for Config.Debounce consecutive scans (default 4 scans at
// 200 Hz: the change must hold for 15–20 ms). Anything shorter — contact
// bounce of a few milliseconds, a neighbour's piece nudged and settling back
// — produces no event. Anything that holds that long is reported exactly
// once, Debounce scans after it began. A hand sliding a piece across a
// square it dwells on for longer than that does produce a place and a lift
// on that square; the referee, which knows the game, resolves those.
//
// # Faults
//
// A switch that changes raw state Config.ChatterEdges times within
// Config.ChatterWindow is reported once with a Fault event and from then on
// debounced with Config.FaultDebounce scans. Faults that contradict the
// game (a switch stuck closed on a square the referee knows is empty) need
// the game: the referee reports them with Scanner.ReportSuspect, which has
// the same effect.
//
// # Unreadable hardware
//
// A Source whose Read fails (a 74HC165 chain whose check byte is wrong, an
// I²C error) changes nothing: the scanner keeps the last good state. When
// Config.ReadFaultAfter reads have failed with no stretch of
// Config.ReadClearAfter of good reads between them, the scanner reports
// one Fault event with Cause Unreadable (Square is square.None, Err the
// latest error); once reads have been good for the hold time it reports
// one Restored event. The hold starts at ReadClearAfter and doubles, up to
// Config.ReadClearMax, each time the fault comes back within a minute of
// clearing, so a flickering chain stays faulted instead of raising and
// clearing a message on every flicker.
package sensors

import (
	"fmt"
	"time"

	"boardd/rules/square"
)

// MaxBits is the most switch bits a Source may read in one frame: 320,
// room for the 256 squares of the 16×16 board with a driver that reads
// more bits than it uses (five MCP23017s as a matrix read 280).
const MaxBits = 320

// Frame is one raw reading of every switch: bit i set means switch i is
// closed (a piece is on it), whatever the electrical polarity. Drivers
// convert polarity, so a Frame always reads 1 for "occupied".
type Frame [MaxBits / 64]uint64

// Bit reports whether bit i is set.
func (f *Frame) Bit(i int) bool {
	return i >= 0 && i < MaxBits && f[i>>6]&(1<<(uint(i)&63)) != 0
}

// Set sets bit i to v; bits out of range are ignored.
func (f *Frame) Set(i int, v bool) {
	if i < 0 || i >= MaxBits {
		return
	}
	if v {
		f[i>>6] |= 1 << (uint(i) & 63)
	} else {
		f[i>>6] &^= 1 << (uint(i) & 63)
	}
}

// Clear resets every bit.
func (f *Frame) Clear() { *f = Frame{} }

// Source is switch hardware that can be scanned. Implementations must not
// allocate in Read.
type Source interface {
	// Bits returns how many switch bits one Read fills (at most MaxBits).
	Bits() int
	// Read scans every switch once and overwrites f with the result.
	Read(f *Frame) error
}

// Kind says what an Event reports.
type Kind uint8

// The kinds of Event.
const (
	// Lift: a square became empty (debounced).
	Lift Kind = iota + 1
	// Place: a square became occupied (debounced).
	Place
	// Fault: a square's switch is misbehaving, or (Cause Unreadable) the
	// switch hardware cannot be read at all; see Event.Cause.
	Fault
	// Restored: the switch hardware reads well again after an Unreadable
	// fault (Square is square.None).
	Restored
)

func (k Kind) String() string {
	switch k {
	case Lift:
		return "lift"
	case Place:
		return "place"
	case Fault:
		return "fault"
	case Restored:
		return "restored"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Cause says why a Fault event was raised.
type Cause uint8

// The causes of a Fault.
const (
	// NoCause is the Cause of every non-fault event.
	NoCause Cause = iota
	// Chatter: the switch changed state too often in a short window.
	Chatter
	// Suspect: the referee reported the square (ReportSuspect), for
	// instance a switch that stays closed on a square the game says is
	// empty.
	Suspect
	// Unreadable: the Source's reads fail (a broken 74HC165 chain, a bus
	// error); the event's Square is square.None and Err is the latest
	// read error. See the package doc, "Unreadable hardware".
	Unreadable
)

func (c Cause) String() string {
	switch c {
	case NoCause:
		return ""
	case Chatter:
		return "chatter"
	case Suspect:
		return "suspect"
	case Unreadable:
		return "unreadable"
	}
	return fmt.Sprintf("Cause(%d)", uint8(c))
}

// Event is one debounced change or one fault.
type Event struct {
	Kind   Kind
	Square square.Square
	// Time is when the scanner confirmed the change (the scan that
	// completed the debounce) or detected the fault.
	Time time.Time
	// Began is the scan at which the raw change that this event confirms
	// was first seen; Time-Began is the debounce delay. Equal to Time for
	// faults.
	Began time.Time
	// Cause is set for Fault events.
	Cause Cause
	// Occupied is the debounced occupancy right after this event.
	Occupied square.Set
	// Err is the read error behind an Unreadable fault; nil otherwise.
	Err error
}

func (e Event) String() string {
	switch {
	case e.Kind == Fault && e.Cause == Unreadable:
		return fmt.Sprintf("fault (unreadable: %v)", e.Err)
	case e.Kind == Fault:
		return fmt.Sprintf("fault %s (%s)", e.Square, e.Cause)
	case e.Kind == Restored:
		return "restored"
	}
	return e.Kind.String() + " " + e.Square.String()
}

// RoundRate is a round scan rate at or under max scans per second (200,
// 100, 50, 25, else 10): what a driver's rate check suggests.
func RoundRate(max float64) int {
	for _, r := range []int{200, 100, 50, 25} {
		if float64(r) <= max {
			return r
		}
	}
	return 10
}
