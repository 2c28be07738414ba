// Package ws2812 drives WS2812B / SK6812 LED strips from an SPI MOSI pin.
//
// The LEDs take one NRZ bit per 1.25 µs: a 0 is a short high pulse, a 1 a
// long one. At an SPI clock of 2.4 MHz each LED bit becomes three SPI bits,
// 100 for a 0 (0.42 µs high) and 110 for a 1 (0.83 µs high), within the
// WS2812B datasheet's ±150 ns. Colours go green, red, blue, most
// significant bit first; a low line for more than 280 µs (84 zero bytes at
// 2.4 MHz) latches the frame.
package ws2812

import (
	"fmt"

	"boardd/leds"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Speed is the SPI clock the encoding assumes.
const Speed = 2400 * physic.KiloHertz

// ResetBytes is the latch gap: 84 zero bytes, 280 µs at 2.4 MHz.
const ResetBytes = 84

// LeadBytes zero bytes go before the first LED: MOSI may sit high while the
// SPI controller sets up, which the first LED would read as a 1 (periph's
// nrzled does the same).
const LeadBytes = 3

// expand[b] is byte b as 24 SPI bits (three bytes).
var expand [256][3]byte

func init() {
	for b := 0; b < 256; b++ {
		var v uint32
		for i := 7; i >= 0; i-- {
			v <<= 3
			if b>>i&1 == 1 {
				v |= 0b110
			} else {
				v |= 0b100
			}
		}
		expand[b] = [3]byte{byte(v >> 16), byte(v >> 8), byte(v)}
	}
}

// Encode appends to dst LeadBytes zero bytes, the SPI bytes for px (GRB
// order, 9 bytes an LED) and the latch gap.
func Encode(dst []byte, px []leds.Color) []byte {
	dst = append(dst, 0, 0, 0)
	for _, c := range px {
		dst = append(dst, expand[c.G][:]...)
		dst = append(dst, expand[c.R][:]...)
		dst = append(dst, expand[c.B][:]...)
	}
	for i := 0; i < ResetBytes; i++ {
		dst = append(dst, 0)
	}
	return dst
}

// Dev is a WS2812 strip on an SPI port's MOSI pin.
type Dev struct {
	c   spi.Conn
	n   int
	buf []byte
}

// New connects to a strip of n LEDs on port p (clocked at Speed).
func New(p spi.Port, n int) (*Dev, error) {
	if n < 1 {
		return nil, fmt.Errorf("ws2812: need at least one LED, not %d", n)
	}
	c, err := p.Connect(Speed, spi.Mode0, 8)
	if err != nil {
		return nil, fmt.Errorf("ws2812: %w", err)
	}
	return &Dev{c: c, n: n, buf: make([]byte, 0, LeadBytes+9*n+ResetBytes)}, nil
}

// Len implements leds.Strip.
func (d *Dev) Len() int { return d.n }

// Show implements leds.Strip.
func (d *Dev) Show(px []leds.Color) error {
	if len(px) != d.n {
		return fmt.Errorf("ws2812: %d pixels for %d LEDs", len(px), d.n)
	}
	d.buf = Encode(d.buf[:0], px)
	return d.c.Tx(d.buf, nil)
}
