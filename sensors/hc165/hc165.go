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
// The transaction is one byte longer than the chain. The last chip's SER
// is tied to ground, so after the chips' bytes the chain shifts out zeros:
// the extra byte must read 0x00. Anything else — a QH→SER link open, a
// chip missing or dead, MISO floating, Opts.Chips shorter than the chain —
// makes Read return a *ChainError and no frame, so the scanner keeps the
// last good state and the daemon reports a sensor fault instead of a board
// full of wrong squares.
//
// # SPI mode
//
// A 74HC165 shifts on CLK's rising edge. In SPI mode 0 (and 3) the Pi
// samples MISO on that same rising edge and gets the old bit only thanks
// to the chip's ~20 ns propagation delay. The default, mode 2 (clock idles
// high), samples on the falling edge, half a clock period after the chip
// shifted and half before the next shift: the first bit (chip 0's H, on QH
// since the latch) is sampled on the first falling edge before any shift.
// SPI1's auxiliary controller on a Pi 1–4 supports CPOL, so mode 2 works
// there; mode 1 would sample after the first shift and lose a bit, so it
// is refused.
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

// Opts configures a chain. The zero value is the standard 20-chip board.
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
}

// DefaultMode is the SPI mode a chain is read in unless Opts.Mode says
// otherwise: clock idle high, MISO sampled on the falling edge.
const DefaultMode = spi.Mode2

// ChainError is a scan whose check byte (the byte after the last chip)
// was not 0x00: the chain is broken or longer than configured.
type ChainError struct {
	// Chips is the configured chain length.
	Chips int
	// Got is the check byte as read.
	Got byte
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
	return fmt.Sprintf("hc165: chain check failed: the byte after %d chips read %#02x, want 0x00 (the last chip's SER tied to GND): %s", e.Chips, e.Got, e.Hint())
}

// Hint says which chip and which wire to check first, from where the
// bytes start reading like the check byte.
func (e *ChainError) Hint() string {
	switch {
	case e.From <= 0:
		return fmt.Sprintf("every byte read %#02x, so no chip answers: check the wire from chip 0's QH (pin 9) to MISO, the clock (pin 2), the latch SH/LD (pin 1), CLK INH (pin 15) to GND and chip 0's power (3.3 V on pin 16, GND on pin 8)", e.Got)
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
	// One byte more than the chain: the check byte.
	return &Dev{c: c, latch: latch, opts: opts, w: make([]byte, opts.Chips+1), r: make([]byte, opts.Chips+1)}, nil
}

// String names the device.
func (d *Dev) String() string {
	return fmt.Sprintf("hc165(%d chips, latch %s)", d.opts.Chips, d.latch)
}

// Bits implements sensors.Source: 8 per chip.
func (d *Dev) Bits() int { return d.opts.Chips * 8 }

// Read implements sensors.Source: latch pulse, then one transaction of
// Chips+1 bytes; a check byte other than 0x00 returns a *ChainError and
// leaves f unchanged.
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
	if c := d.r[d.opts.Chips]; c != 0 {
		from := d.opts.Chips
		for from > 0 && d.r[from-1] == c {
			from--
		}
		return &ChainError{Chips: d.opts.Chips, Got: c, From: from}
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
