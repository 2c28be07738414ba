// Package apa102 drives APA102 / SK9822 LED strips over SPI.
//
// The wire format (APA102 datasheet): a start frame of 32 zero bits, then
// one 32-bit frame per LED — 0b111 followed by a 5-bit global brightness,
// then blue, green, red — and an end frame of at least n/2 one bits to
// clock the data through the chain (SK9822 also wants it).
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
	for i := 0; i < endBytes(len(px)); i++ {
		dst = append(dst, 0xFF)
	}
	return dst
}

// endBytes is the end frame's length: n/2 bits, at least 4 bytes.
func endBytes(n int) int {
	b := (n/2 + 7) / 8
	if b < 4 {
		b = 4
	}
	return b
}

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
	return &Dev{c: c, n: n, buf: make([]byte, 0, 4+4*n+endBytes(n)), Brightness: 31}, nil
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
