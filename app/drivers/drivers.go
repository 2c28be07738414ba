// Package drivers links every switch and LED driver into the program and
// hands the two registries' config checks to configs, sensors first: a
// program (boardd, or a test) that checks or opens the configured
// hardware imports it for its side effects. A new driver is one more
// blank import here.
package drivers

import (
	"boardd/configs"
	"boardd/leds/ledreg"
	"boardd/sensors/sensorreg"

	_ "boardd/leds/apa102"
	_ "boardd/leds/term"
	_ "boardd/leds/ws2812"
	_ "boardd/sensors/gpiomatrix"
	_ "boardd/sensors/hc165"
	_ "boardd/sensors/mcp23017"
	_ "boardd/sensors/sim"
)

func init() {
	// The order is the order of the config's sections (and of the pin
	// jobs a conflict names first).
	configs.RegisterHardware(sensorreg.Check, sensorreg.Pins)
	configs.RegisterHardware(ledreg.Check, ledreg.Pins)
}
