package term_test

import (
	"fmt"
	"strings"

	"boardd/leds"
	"boardd/leds/term"
	"boardd/rules/square"
)

// The simulated board draws the referee's frame with the pieces on it.
// With color false the picture is plain text: a lit empty square is "**",
// a dark one "..", corners are blank; with color true each square gets
// its LED colour as a 24-bit ANSI background.
func ExampleRender() {
	f := leds.NewFrame()
	h1, _ := square.Parse("h1")
	h3, _ := square.Parse("h3")
	f.Set(h3, leds.Color{G: 255}) // a legal target for the king's pawn
	label := func(s square.Square) string {
		if s == h1 {
			return "rK"
		}
		return ""
	}
	var b strings.Builder
	term.Render(&b, square.Cross(), f, label, false)
	for _, line := range strings.Split(b.String(), "\n") {
		fmt.Println(strings.TrimRight(line, " ")) // trailing blanks trimmed for this example only
	}
	// Output:
	// 14          .. .. .. .. .. .. .. ..
	// 13          .. .. .. .. .. .. .. ..
	// 12          .. .. .. .. .. .. .. ..
	// 11 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	// 10 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	//  9 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	//  8 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	//  7 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	//  6 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	//  5 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	//  4 .. .. .. .. .. .. .. .. .. .. .. .. .. ..
	//  3          .. .. .. .. ** .. .. ..
	//  2          .. .. .. .. .. .. .. ..
	//  1          .. .. .. .. rK .. .. ..
	//    a  b  c  d  e  f  g  h  i  j  k  l  m  n
}
