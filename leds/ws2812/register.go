package ws2812

import (
	"periph.io/x/conn/v3/spi"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/leds"
	"boardd/leds/ledreg"
)

// The driver as boardd knows it: leds.driver ws2812 (WS2812B, SK6812) on
// the SPI port leds.spi.
func init() {
	d := ledreg.SPIDriver("ws2812", func(p spi.Port, _ configs.LEDs, n int) (leds.Strip, error) {
		return New(p, n)
	})
	d.Boot = boot
	ledreg.Register(d)
}

// boot: on a Pi 3 or 4, SPI0's clock is divided from the core clock,
// which drops when idle; the WS2812 timing needs it fixed.
func boot(kind pi.Kind) *ledreg.Boot {
	b := &ledreg.Boot{Who: "WS2812 LEDs", Why: "SPI0's clock follows the core clock, which drops when idle: the strip shows garbage", For: "the WS2812 timing"}
	switch kind {
	case pi.Pi3:
		b.Settings = [][2]string{{"core_freq", "250"}}
	case pi.Pi4:
		b.Settings = [][2]string{{"core_freq", "500"}, {"core_freq_min", "500"}}
	default:
		return nil
	}
	return b
}
