// Package apa102 drives APA102 and SK9822 LED strips over SPI.
//
// The wire format (APA102 datasheet): a start frame of 32 zero bits, then
// one 32-bit frame per LED — 0b111 followed by a 5-bit global brightness,
// then blue, green, red — then extra clock edges to push the data through
// the chain: each LED delays the data by half a clock, so n LEDs need n/2
// more edges after the last LED's frame.
//
// The SK9822, a clone sold as "APA102" by many shops, differs in one
// place that matters: it shows the frame it received only when the next
// frame starts (the next 32 zero bits), where the APA102 shows each LED's
// colour as soon as its frame arrives. An end frame of one bits, as the
// APA102 datasheet draws it, leaves an SK9822 strip one picture behind.
// So every frame ends with a reset frame of 32 zero bits (the SK9822
// latches on it; to an APA102 it is a start frame for LEDs that are not
// there) followed by n/2 zero bits of end frame: zero rather than one
// bits, because only the clock edges matter to an APA102, and a zero end
// frame cannot be mistaken for an LED frame (0b111…) by a chain longer
// than configured. This is the frame periph.io's apa102 driver and the
// analyses of both chips (cpldcpu, "SK9822 – a clone of the APA102?")
// arrive at.
package apa102

import (
	"fmt"

	"boardd/leds"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Encode appends the bytes for px at a 5-bit brightness (0–31) to dst.
func Encode(dst []byte, px []leds.Color, brightness uint8) []byte {
	if brightness > 31 {
		brightness = 31
	}
	dst = append(dst, 0, 0, 0, 0)
	for _, c := range px {
		dst = append(dst, 0xE0|brightness, c.B, c.G, c.R)
	}
	for i := 0; i < ResetBytes+endBytes(len(px)); i++ {
		dst = append(dst, 0)
	}
	return dst
}

// ResetBytes is the SK9822's reset frame after the LED data: 32 zero bits.
const ResetBytes = 4

// endBytes is the end frame's length: n/2 zero bits, rounded up to bytes.
func endBytes(n int) int { return (n/2 + 7) / 8 }

// FrameBytes is how long the SPI transaction for n LEDs is: start frame,
// n LED frames, reset frame, end frame.
func FrameBytes(n int) int { return 4 + 4*n + ResetBytes + endBytes(n) }

// Dev is an APA102 strip on an SPI port.
type Dev struct {
	c   spi.Conn
	n   int
	buf []byte
	// Brightness is the chip's 5-bit global current (0–31, default 31);
	// colour brightness is better set in the frame.
	Brightness uint8
}

// New connects to a strip of n LEDs on port p at the given clock (APA102
// takes up to ~20 MHz; 4–8 MHz is safe over a level shifter and long
// wires).
func New(p spi.Port, n int, speed physic.Frequency) (*Dev, error) {
	if n < 1 {
		return nil, fmt.Errorf("apa102: need at least one LED, not %d", n)
	}
	c, err := p.Connect(speed, spi.Mode0, 8)
	if err != nil {
		return nil, fmt.Errorf("apa102: %w", err)
	}
	return &Dev{c: c, n: n, buf: make([]byte, 0, FrameBytes(n)), Brightness: 31}, nil
}

// Len implements leds.Strip.
func (d *Dev) Len() int { return d.n }

// Show implements leds.Strip: one SPI transaction for the whole strip.
func (d *Dev) Show(px []leds.Color) error {
	if len(px) != d.n {
		return fmt.Errorf("apa102: %d pixels for %d LEDs", len(px), d.n)
	}
	d.buf = Encode(d.buf[:0], px, d.Brightness)
	return d.c.Tx(d.buf, nil)
}
