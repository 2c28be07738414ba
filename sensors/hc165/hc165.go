// Package hc165 reads the board's reed switches through a chain of
// 74HC165 parallel-in/serial-out shift registers on an SPI bus: the
// recommended build (20 chips for 160 squares, four Pi pins, no diodes).
//
// Wiring (see docs/hardware.md): every chip's SH/LD pin goes to one GPIO
// (the latch), CLK to SCLK, CLK INH to ground, the first chip's QH to MISO,
// each further chip's QH to the previous chip's SER. Each input has a
// 10 kΩ pull-up and its reed switch closes it to ground, so a closed switch
// reads 0; the driver inverts that (Opts.ActiveHigh for the opposite).
//
// One Read pulses the latch low then high (the chips load all 160 inputs at
// once) and clocks all the bytes in with a single SPI transaction. Byte k
// comes from chip k counted from MISO; its input A is frame bit 8k, input H
// bit 8k+7.
//
// # Chain check
//
// The transaction is longer than the chain. In the recommended wiring
// (Opts.CheckChip) one more 74HC165, the check chip, ends the chain: its
// inputs A–H are tied to the fixed pattern CheckPattern (0xA5: H, F, C and
// A to 3.3 V, G, E, D and B to GND) and its SER to GND, so after the
// board's bytes the chain must read 0xA5 then 0x00. The pattern is latched
// with the switches, so a chain that shifted before the first bit (an
// extra clock edge after the latch, below) reads it moved by as many bits
// and the scan is refused: a grounded SER alone reads 0x00 whatever the
// shift, and a board whose squares all moved by one would pass. Without
// the check chip the last board chip's SER is tied to GND and the one
// check byte must read 0x00. Anything else — a QH→SER link open, a chip
// missing or dead, MISO floating, Opts.Chips shorter than the chain, a
// slipped bit — makes Read return a *ChainError and no frame, so the
// scanner keeps the last good state and the daemon reports a sensor fault
// instead of a board full of wrong squares.
//
// # SPI mode
//
// The 74HC165 datasheet (NXP 74HC_HCT165, rev. 03): "When PL is HIGH data
// enters the register serially at DS. When the clock enable input (CE) is
// LOW data is shifted on the LOW-to-HIGH transitions of the CP input"
// (PL is SH/LD, CE is CLK INH, CP is CLK, DS is SER), and PL LOW loads
// A–H asynchronously. The propagation delay CP to Q7 is 52 ns typical at
// 2.0 V and 19 ns at 4.5 V, with no minimum given. So every rising edge of
// SCLK after the latch rises costs one bit, the first (chip 0's H)
// included. Which mode reads the first bit depends on
// the controller, not only on the chip:
//
//   - A full controller (SPI0 on every Pi, SPI3–6 on a Pi 4, every SPI
//     on a Pi 5) holds the clock at its CPOL level between transfers: on
//     a Pi 1–4, drivers/spi/spi-bcm2835.c's bcm2835_spi_reset_hw clears
//     only "BCM2835_SPI_CS_INTR | BCM2835_SPI_CS_INTD |
//     BCM2835_SPI_CS_DMAEN | BCM2835_SPI_CS_TA" after a transfer and keeps
//     CPOL in the CS register (a Pi 5's DesignWare controller is taken to
//     do the same: not checked against its source).
//     Mode 2 (clock idles high) samples on the falling edge, half a clock
//     after the chip shifted: the first bit is sampled before any rising
//     edge. Modes 0 and 3 sample on the rising edge the chip shifts on and
//     get the old bit only thanks to the chip's propagation delay.
//   - SPI1 and SPI2 of a Pi 1–4, Zero, Zero W and Zero 2 W are the
//     auxiliary controller, Linux drivers/spi/spi-bcm2835aux.c. Its probe
//     sets "master->mode_bits = (SPI_CPOL | SPI_CS_HIGH | SPI_NO_CS)": no
//     SPI_CPHA, so modes 1 and 3 are refused by the kernel (the commit
//     "spi: bcm2835aux: fix CPOL/CPHA setting": "The auxiliary spi supports
//     only CPHA=0 modes as the first bit is always output to the pin before
//     the first clock cycle"). Its prepare_message writes CNTL0 with
//     BCM2835_AUX_SPI_CNTL0_CPOL for SPI_CPOL, and unprepare_message calls
//     bcm2835aux_spi_reset_hw, which writes CNTL0 = CLEARFIFO: CPOL is
//     cleared after every message. In mode 2 SCLK therefore idles low
//     between scans and rises when the next message starts — after the
//     latch pulse — and the chain loses chip 0's input H: every square
//     reads one bit along. Mode 0 ("else ... CNTL0_IN_RISING": MISO
//     sampled on the rising edge, MOSI changed on the falling one) has no
//     such edge and is the mode to use there.
//
// New takes the mode it is given (Opts.Mode, default spi.Mode2, right for
// a full controller); ModeFor picks it from the Pi model and the bus.
package hc165

import (
	"errors"
	"fmt"
	"math/bits"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"boardd/sensors"
)

// Opts configures a chain. The zero value is a 20-chip chain whose last
// chip's SER is grounded, read in mode 2.
type Opts struct {
	// Chips in the chain; 0 means 20. At most sensors.MaxBits/8.
	Chips int
	// Speed of the SPI clock; 0 means 1 MHz (160 bits in 160 µs, safe on
	// long ribbon cables; the chips manage 25 MHz at 3.3 V).
	Speed physic.Frequency
	// Mode is the SPI mode: nil means DefaultMode (spi.Mode2, sampling
	// on the falling edge); spi.Mode0 and spi.Mode3 sample on the edge the
	// chip shifts on (see the package doc). spi.Mode1 is refused.
	Mode *spi.Mode
	// LSBFirst numbers each chip's inputs H..A as bits 0..7 instead of
	// A..H, for boards wired the other way round. Done in software: the
	// Pi's SPI controller cannot shift LSB first.
	LSBFirst bool
	// ActiveHigh: a closed switch reads 1 (pull-downs, switch to 3.3 V).
	ActiveHigh bool
	// CheckChip: the chain ends in a check chip whose inputs are wired to
	// CheckPattern and whose SER is grounded (the recommended wiring: it
	// sees a chain that slipped a bit). False: the last board chip's SER
	// is grounded and only 0x00 is checked.
	CheckChip bool
}

// CheckPattern is what the check chip's inputs are wired to, read as a
// byte (input H is bit 7, A bit 0): H, F, C and A to 3.3 V, G, E, D and B
// to GND. Any pattern other than 0x00 changes when the chain slips (zeros
// from the grounded SER come in behind it); 0xA5 also reads differently
// for each slip of 1–7 bits, so the error can say by how much.
const CheckPattern byte = 0xA5

// DefaultMode is the SPI mode a chain is read in unless Opts.Mode says
// otherwise: clock idle high, MISO sampled on the falling edge.
const DefaultMode = spi.Mode2

// ChainError is a scan whose check bytes (after the last board chip) did
// not read as wired: the chain is broken, longer than configured, or
// shifted.
type ChainError struct {
	// Chips is the configured chain length.
	Chips int
	// Got is the first check byte as read; Want what it should read
	// (CheckPattern with a check chip, else 0x00).
	Got, Want byte
	// Slip, when not 0, is how many bits the chain shifted before the
	// first was read: the check chip's pattern came in moved by Slip
	// bits, so every square read Slip bits along.
	Slip int
	// From is the first chip (0 is the one on MISO) from which every byte
	// up to the check byte read Got: a chain open at chip k's SER shifts
	// the open input's level out of chips k+1 onwards, so the break is at
	// the link into chip From-1's SER or further along (a chip past it
	// with all its squares empty reads the same as a floating input).
	// Chips when only the check byte was wrong; 0 when every byte was.
	From int
}

// Chip names the chip to check first: the one whose SER link is the
// nearest suspect (-1 when no chip answered at all: MISO, clock, latch or
// power of chip 0).
func (e *ChainError) Chip() int { return e.From - 1 }

func (e *ChainError) Error() string {
	wired := "the last chip's SER tied to GND"
	if e.Want != 0 {
		wired = fmt.Sprintf("the check chip's inputs wired to %#02x", e.Want)
	}
	return fmt.Sprintf("hc165: chain check failed: the byte after %d chips read %#02x, want %#02x (%s): %s", e.Chips, e.Got, e.Want, wired, e.Hint())
}

// Hint says which chip and which wire to check first, from where the
// bytes start reading like the check byte, or which SPI mode to use when
// the chain slipped.
func (e *ChainError) Hint() string {
	switch {
	case e.Slip > 0:
		return fmt.Sprintf("the check chip's pattern arrived %d bit(s) along, so the clock rose %d time(s) between the latch and the first bit and every square read %d bit(s) along: on a Pi 1-4 or Zero, SPI1 is the auxiliary controller, whose clock idles low between transfers whatever the mode says: set sensors.hc165.spi_mode: auto (mode 0 there); else check SCLK for ringing (a 33-100 Ω series resistor at the Pi's pin)", e.Slip, e.Slip, e.Slip)
	case e.Want != 0 && e.Got == 0 && e.From >= e.Chips:
		return fmt.Sprintf("only the check byte is wrong and it read 0x00: a chain without a check chip (the last chip's SER on GND) reads that; add the check chip (docs/hardware.md) or set sensors.hc165.check_chip: false, or if the chain has more than %d board chips set sensors.hc165.chips to their number", e.Chips)
	case e.From <= 0:
		return fmt.Sprintf("every byte read %#02x, so no chip answers: check the wire from chip 0's QH (pin 9) to MISO, the clock (pin 2), the latch SH/LD (pin 1), CLK INH (pin 15) to GND and chip 0's power (3.3 V on pin 16, GND on pin 8)", e.Got)
	case e.From >= e.Chips && e.Want != 0:
		return fmt.Sprintf("only the check bytes are wrong: check the check chip after chip %d: its inputs A-H wired to %#02x (H, F, C, A to 3.3 V; G, E, D, B to GND), its SER (pin 10) to GND, its QH (pin 9) to chip %d's SER, its power and clock; or if the chain has more than %d board chips set sensors.hc165.chips to their number", e.Chips-1, e.Want, e.Chips-1, e.Chips)
	case e.From >= e.Chips:
		return fmt.Sprintf("only the check byte is wrong: tie the last chip's (chip %d's) SER (pin 10) to GND, or if the chain has more than %d chips set sensors.hc165.chips to their number", e.Chips-1, e.Chips)
	}
	return fmt.Sprintf("chips %d to %d read %#02x like the check byte, so the chain breaks between chip %d and chip %d or further along: check the wire from chip %d's QH (pin 9) to chip %d's SER (pin 10) first, then that chip %d is powered (pin 16 3.3 V, pin 8 GND) and clocked (pin 2); "+
		"if those are sound, go on along the chain (a chip whose squares are all empty reads the same)", e.From, e.Chips-1, e.Got, e.From-1, e.From, e.From, e.From-1, e.From)
}

// Dev is a 74HC165 chain. It implements sensors.Source.
type Dev struct {
	c     spi.Conn
	latch gpio.PinOut
	opts  Opts
	w, r  []byte
}

// New connects to the chain on port p with the latch (SH/LD) on pin latch.
func New(p spi.Port, latch gpio.PinOut, o *Opts) (*Dev, error) {
	var opts Opts
	if o != nil {
		opts = *o
	}
	if opts.Chips == 0 {
		opts.Chips = 20
	}
	if opts.Chips < 0 || opts.Chips*8 > sensors.MaxBits {
		return nil, fmt.Errorf("hc165: %d chips: want 1-%d", opts.Chips, sensors.MaxBits/8)
	}
	if opts.Speed == 0 {
		opts.Speed = physic.MegaHertz
	}
	mode := DefaultMode
	if opts.Mode != nil {
		mode = *opts.Mode
	}
	if mode != spi.Mode0 && mode != spi.Mode2 && mode != spi.Mode3 {
		return nil, fmt.Errorf("hc165: SPI mode %d: want 2 (the default), 0 or 3; mode 1 samples after the first shift and loses a bit", mode)
	}
	if p == nil || latch == nil || latch == gpio.INVALID {
		return nil, errors.New("hc165: needs an SPI port and a latch pin")
	}
	// Latch idles high: shifting enabled, inputs not loading.
	if err := latch.Out(gpio.High); err != nil {
		return nil, fmt.Errorf("hc165: latch pin %s: %v", latch, err)
	}
	c, err := p.Connect(opts.Speed, mode, 8)
	if err != nil {
		return nil, fmt.Errorf("hc165: SPI %s in mode %d: %v", p, mode, err)
	}
	// The check bytes after the chain: the check chip's pattern and the
	// zeros of its grounded SER, or the zeros of the last chip's SER.
	n := opts.Chips + 1
	if opts.CheckChip {
		n++
	}
	return &Dev{c: c, latch: latch, opts: opts, w: make([]byte, n), r: make([]byte, n)}, nil
}

// String names the device.
func (d *Dev) String() string {
	return fmt.Sprintf("hc165(%d chips, latch %s)", d.opts.Chips, d.latch)
}

// Bits implements sensors.Source: 8 per chip.
func (d *Dev) Bits() int { return d.opts.Chips * 8 }

// Read implements sensors.Source: latch pulse, then one transaction of
// the chain's bytes and the check bytes; check bytes other than wired
// (CheckPattern, 0x00 with a check chip; 0x00 without) return a
// *ChainError and leave f unchanged.
func (d *Dev) Read(f *sensors.Frame) error {
	if err := d.latch.Out(gpio.Low); err != nil {
		return fmt.Errorf("hc165: latch low: %w", err)
	}
	if err := d.latch.Out(gpio.High); err != nil {
		return fmt.Errorf("hc165: latch high: %w", err)
	}
	if err := d.c.Tx(d.w, d.r); err != nil {
		return fmt.Errorf("hc165: SPI read of %d bytes: %w", len(d.r), err)
	}
	if err := d.check(); err != nil {
		return err
	}
	*f = sensors.Frame{}
	for i, b := range d.r[:d.opts.Chips] {
		if !d.opts.ActiveHigh {
			b = ^b
		}
		if d.opts.LSBFirst {
			b = bits.Reverse8(b)
		}
		f[i>>3] |= uint64(b) << (8 * uint(i&7))
	}
	return nil
}

// check compares the check bytes with the wiring.
func (d *Dev) check() error {
	n := d.opts.Chips
	want := []byte{0}
	if d.opts.CheckChip {
		want = []byte{CheckPattern, 0}
	}
	if string(d.r[n:]) == string(want) {
		return nil
	}
	c := d.r[n]
	e := &ChainError{Chips: n, Got: c, Want: want[0]}
	if d.opts.CheckChip {
		// A chain that shifted k bits before the first read shows the
		// pattern k bits along (its top k bits in the last board chip's
		// byte), the zeros of SER behind it.
		for k := 1; k < 8; k++ {
			if c == CheckPattern<<k && d.r[n+1] == 0 {
				e.Slip = k
				return e
			}
		}
	}
	e.From = n
	for e.From > 0 && d.r[e.From-1] == c {
		e.From--
	}
	return e
}
