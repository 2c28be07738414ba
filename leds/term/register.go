package term

import (
	"io"

	"boardd/configs"
	"boardd/leds"
	"boardd/leds/ledreg"
	"boardd/rules/square"
)

// The driver as boardd knows it: leds.driver term draws each new frame in
// colour on the daemon's terminal.
func init() {
	ledreg.Register(&ledreg.Driver{
		Name: "term",
		Draw: func(_ configs.LEDs, board square.Set, w io.Writer) func(*leds.Frame) {
			var last leds.Frame
			return func(f *leds.Frame) {
				if *f != last { // only changed frames
					last = *f
					Render(w, board, f, func(square.Square) string { return "" }, true)
				}
			}
		},
	})
}
