// Package mcp23017 reads reed switches through MCP23017 16-bit I/O
// expanders on an I²C bus, wired directly or as a matrix.
//
// Current datasheets (DS20001952C and later) make GPA7 and GPB7 output
// only, so each chip has 14 usable inputs. The driver always configures
// GPA7 and GPB7 as outputs (driven low, or high as a matrix row).
//
//   - Direct: every switch on its own input (GPA0–6, GPB0–6) with the
//     chip's internal 100 kΩ pull-up, closing to ground. 14 switches per
//     chip, 8 chips (112 squares) per bus: a full board needs two buses.
//     Frame bit 14·k+i is chip k, GPA i (i < 7) or GPB i−7.
//   - Matrix: GPA0–7 drive 8 rows (low = selected), GPB0–6 read 7 columns
//     with pull-ups, one diode per switch. 56 switches per chip: 3 chips
//     (0x20–0x22) cover the 160 squares. Frame bit 56·k + 7·row + col.
//
// The driver talks to registers directly with IOCON.BANK = 0, so every
// byte on the bus is what the datasheet says: IODIRA 0x00, IPOLA 0x02,
// IOCON 0x0A, GPPUA 0x0C, GPIOA 0x12, OLATA 0x14, with the B registers one
// above. It does not trust the power-on defaults (a Pi rebooted without a
// power cycle finds the chips as the last program left them): New first
// writes 0x00 to address 0x05, which is IOCON if a program left BANK = 1
// (so BANK returns to 0) and GPINTENB, harmless, if not; then IOCON = 0x00
// (BANK 0, sequential addressing on, which the two-byte reads and writes
// rely on, push-pull INT, no mirroring), IPOLA/IPOLB = 0 (no inversion),
// then the mode's direction, pull-ups and outputs.
//
// I²C is slow: ScanTime estimates a scan from the bytes on the bus. A
// direct scan is one 2-byte read per chip (~0.2 ms per chip at 400 kHz); a
// matrix scan is 8 row writes and 8 reads per chip: ~6 ms for 3 chips at
// 400 kHz, ~19 ms at the Pi's default 100 kHz. Set the bus to 400 kHz
// (dtparam=i2c_arm_baudrate=400000) and scan the matrix at 100 Hz.
package mcp23017

import (
	"fmt"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"boardd/sensors"
)

// Register addresses with IOCON.BANK = 0.
const (
	IODIRA = 0x00
	IODIRB = 0x01
	IPOLA  = 0x02
	IPOLB  = 0x03
	IOCON  = 0x0A
	GPPUA  = 0x0C
	GPPUB  = 0x0D
	GPIOA  = 0x12
	GPIOB  = 0x13
	OLATA  = 0x14
	OLATB  = 0x15
)

// bank1IOCON is IOCON's address while IOCON.BANK = 1 (GPINTENB with
// BANK = 0).
const bank1IOCON = 0x05

// Mode is how the switches are wired to the chips.
type Mode int

// The wirings.
const (
	Direct Mode = iota
	Matrix
)

func (m Mode) String() string {
	if m == Matrix {
		return "matrix"
	}
	return "direct"
}

// Dev is a set of MCP23017s on one bus. It implements sensors.Source.
type Dev struct {
	bus   i2c.Bus
	addrs []uint16
	mode  Mode
	wrow  [8][2]byte // matrix: OLATA write selecting each row
	wIdle [2]byte
	wGPIO [1]byte
	wGPB  [1]byte
	r     [2]byte
}

// New configures the chips at addrs (0x20–0x27) on bus for mode.
func New(bus i2c.Bus, mode Mode, addrs ...uint16) (*Dev, error) {
	if bus == nil {
		return nil, fmt.Errorf("mcp23017: no I²C bus")
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("mcp23017: no chip addresses")
	}
	seen := map[uint16]bool{}
	for _, a := range addrs {
		if a < 0x20 || a > 0x27 {
			return nil, fmt.Errorf("mcp23017: address %#x: want 0x20-0x27 (A2 A1 A0 pins)", a)
		}
		if seen[a] {
			return nil, fmt.Errorf("mcp23017: address %#x listed twice", a)
		}
		seen[a] = true
	}
	d := &Dev{bus: bus, addrs: addrs, mode: mode, wIdle: [2]byte{OLATA, 0xFF}, wGPIO: [1]byte{GPIOA}, wGPB: [1]byte{GPIOB}}
	for r := range d.wrow {
		d.wrow[r] = [2]byte{OLATA, ^byte(1 << r)}
	}
	if d.Bits() > sensors.MaxBits {
		return nil, fmt.Errorf("mcp23017: %d chips × %d switches is more than %d", len(addrs), d.Bits()/len(addrs), sensors.MaxBits)
	}
	// IOCON first, whatever bank the chip is in (see the package doc).
	setup := [][]byte{
		{bank1IOCON, 0x00},
		{IOCON, 0x00},
		{IPOLA, 0x00, 0x00},
	}
	switch mode {
	case Direct:
		setup = append(setup,
			[]byte{OLATA, 0x00, 0x00},  // GPA7/GPB7 drive low
			[]byte{IODIRA, 0x7F, 0x7F}, // bits 0-6 in, bit 7 out
			[]byte{GPPUA, 0x7F, 0x7F},  // pull-ups on the inputs
		)
	case Matrix:
		setup = append(setup,
			[]byte{OLATA, 0xFF, 0x00},  // rows idle high, GPB7 low
			[]byte{IODIRA, 0x00, 0x7F}, // port A rows out; GPB0-6 columns in, GPB7 out
			[]byte{GPPUA, 0x00, 0x7F},  // pull-ups on the columns
		)
	default:
		return nil, fmt.Errorf("mcp23017: unknown mode %d", mode)
	}
	for _, a := range addrs {
		for _, w := range setup {
			if err := bus.Tx(a, w, nil); err != nil {
				return nil, fmt.Errorf("mcp23017 at %#x on %s: no answer (%v); check the address pins and wiring", a, bus, err)
			}
		}
	}
	return d, nil
}

// Bits implements sensors.Source: 14 per chip direct, 56 per chip matrix.
func (d *Dev) Bits() int {
	if d.mode == Matrix {
		return 56 * len(d.addrs)
	}
	return 14 * len(d.addrs)
}

// Read implements sensors.Source.
func (d *Dev) Read(f *sensors.Frame) error {
	*f = sensors.Frame{}
	for k, a := range d.addrs {
		if d.mode == Direct {
			// Sequential read: GPIOA then GPIOB.
			if err := d.bus.Tx(a, d.wGPIO[:], d.r[:2]); err != nil {
				return fmt.Errorf("mcp23017 at %#x: %w", a, err)
			}
			v := uint64(^d.r[0]&0x7F) | uint64(^d.r[1]&0x7F)<<7
			set(f, 14*k, v, 14)
			continue
		}
		for r := range d.wrow {
			if err := d.bus.Tx(a, d.wrow[r][:], nil); err != nil {
				return fmt.Errorf("mcp23017 at %#x row %d: %w", a, r, err)
			}
			if err := d.bus.Tx(a, d.wGPB[:], d.r[:1]); err != nil {
				return fmt.Errorf("mcp23017 at %#x row %d: %w", a, r, err)
			}
			set(f, 56*k+7*r, uint64(^d.r[0]&0x7F), 7)
		}
		if err := d.bus.Tx(a, d.wIdle[:], nil); err != nil {
			return fmt.Errorf("mcp23017 at %#x: %w", a, err)
		}
	}
	return nil
}

// set ORs the n low bits of v into f at bit offset off.
func set(f *sensors.Frame, off int, v uint64, n int) {
	for i := 0; i < n; i++ {
		if v>>i&1 != 0 {
			b := off + i
			f[b>>6] |= 1 << (uint(b) & 63)
		}
	}
}

// txOverhead is what one I²C transaction costs beyond its bits on a Pi:
// the ioctl, the controller's start-up and the gaps between bytes.
const txOverhead = 20 * time.Microsecond

// ScanTime estimates one Read of chips chips in mode on a bus clocked at
// bus: the bits on the wire (address and data bytes of 9 clocks each,
// start, repeated start and stop) plus a fixed cost per transaction. It
// is what the config check holds a scan rate against.
func ScanTime(mode Mode, chips int, bus physic.Frequency) time.Duration {
	if bus <= 0 || chips <= 0 {
		return 0
	}
	// A write of n bytes: start, address, n bytes, stop. A register read
	// of n bytes: start, address, register, repeated start, address, n
	// bytes, stop.
	write := func(n int) int { return 1 + 9*(1+n) + 1 }
	read := func(n int) int { return 1 + 9*2 + 1 + 9*(1+n) + 1 }
	var clocks, txs int
	if mode == Matrix {
		clocks = 8*(write(2)+read(1)) + write(2) // select each row, read GPIOB, rows idle
		txs = 17
	} else {
		clocks = read(2)
		txs = 1
	}
	clocks *= chips
	txs *= chips
	wire := time.Duration(int64(clocks) * int64(time.Second) / int64(bus/physic.Hertz))
	return wire + time.Duration(txs)*txOverhead
}

// MaxRate is the fastest scan rate (scans per second) that leaves a fifth
// of every period idle, for chips chips in mode on a bus clocked at bus.
func MaxRate(mode Mode, chips int, bus physic.Frequency) float64 {
	t := ScanTime(mode, chips, bus)
	if t <= 0 {
		return 0
	}
	return 0.8 / t.Seconds()
}
