// Package leds turns a logical frame — a colour for every square — into
// the pixels of the LED strip under the board.
//
// A Frame is what the referee decides to show, indexed by square. A Map
// says which LED sits under which square (Serpentine and Arms for the usual
// wirings, FromOrder or ParseMap for a builder's own). An Output applies global
// brightness, gamma and the power supply's current budget and lays the
// frame out in strip order. A Strip is the hardware: drivers live in
// subpackages (apa102, ws2812, term for a terminal picture), Null
// discards. A Writer sends frames to a Strip from its own goroutine, so a
// slow or failing strip never blocks the scan loop.
package leds

import (
	"boardd/rules/square"
)

// Color is an RGB colour, 8 bits a channel.
type Color struct{ R, G, B uint8 }

// Some colours for the LED language.
var (
	Off   = Color{}
	White = Color{255, 255, 255}
)

// Frame is a colour for each square of the 16×16 grid (squares off the
// board are ignored) and a global brightness, 0 (off) to 255 (full). The
// zero Frame is dark, brightness included: use NewFrame for full
// brightness.
type Frame struct {
	Colors     [square.MaxFiles * square.MaxRanks]Color
	Brightness uint8
}

// NewFrame returns an all-dark frame at full brightness (255).
func NewFrame() *Frame { return &Frame{Brightness: 255} }

// Set colours one square.
func (f *Frame) Set(s square.Square, c Color) {
	if s.Valid() {
		f.Colors[s] = c
	}
}

// At returns a square's colour.
func (f *Frame) At(s square.Square) Color {
	if !s.Valid() {
		return Off
	}
	return f.Colors[s]
}

// Clear turns every square off (brightness is kept).
func (f *Frame) Clear() { f.Colors = [len(f.Colors)]Color{} }

// Strip is LED hardware: it shows pixels in strip order.
type Strip interface {
	// Len is the number of LEDs.
	Len() int
	// Show writes one pixel per LED (len(px) == Len()).
	Show(px []Color) error
}

// Null is a Strip that shows nothing, for boards without LEDs.
type Null struct{ N int }

// Len implements Strip.
func (n Null) Len() int { return n.N }

// Show implements Strip.
func (n Null) Show(px []Color) error { return nil }
