// Package term draws the board's LEDs as a picture in a terminal: the
// 14×14 cross with each square's LED colour as its background and a short
// label (a piece like "rK") on it, files a–n below, ranks 1–14 beside,
// Red at the bottom. It is the LED "driver" of the simulated board.
package term

import (
	"fmt"
	"io"
	"strings"

	"boardd/leds"
	"boardd/rules/square"
)

// Render draws frame f over the given board squares to w. label returns
// up to two characters for a square (a piece, or "" for none). With color
// false it draws plain text: labels, "**" for a lit empty square and ".."
// for a dark one, so tests and logs can read it.
func Render(w io.Writer, board square.Set, f *leds.Frame, label func(square.Square) string, color bool) error {
	var b strings.Builder
	files, ranks := 0, 0
	for _, s := range board.Squares() {
		if s.File()+1 > files {
			files = s.File() + 1
		}
		if s.Rank()+1 > ranks {
			ranks = s.Rank() + 1
		}
	}
	for r := ranks - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%2d ", r+1)
		for fl := 0; fl < files; fl++ {
			s := square.At(fl, r)
			if !board.Has(s) {
				b.WriteString("   ")
				continue
			}
			text := label(s)
			c := f.At(s)
			lit := c != leds.Off && f.Brightness > 0
			switch {
			case text == "" && lit:
				text = "**"
			case text == "":
				text = ".."
			}
			if len(text) < 2 {
				text += " "
			}
			if color {
				k := uint32(f.Brightness)
				fmt.Fprintf(&b, "\x1b[48;2;%d;%d;%dm%s\x1b[0m ", uint32(c.R)*k/255, uint32(c.G)*k/255, uint32(c.B)*k/255, text[:2])
			} else {
				b.WriteString(text[:2] + " ")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("   ")
	for fl := 0; fl < files; fl++ {
		fmt.Fprintf(&b, "%c  ", 'a'+fl)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Strip is a leds.Strip that keeps the last pixels shown, so a simulated
// board can draw them (through the map back to squares) with Render.
type Strip struct {
	N    int
	Last []leds.Color
}

// Len implements leds.Strip.
func (s *Strip) Len() int { return s.N }

// Show implements leds.Strip.
func (s *Strip) Show(px []leds.Color) error {
	s.Last = append(s.Last[:0], px...)
	return nil
}
