package ws2812

import (
	"periph.io/x/conn/v3/spi"

	"boardd/configs"
	"boardd/leds"
	"boardd/leds/ledreg"
)

// The driver as boardd knows it: leds.driver ws2812 (WS2812B, SK6812) on
// the SPI port leds.spi.
func init() {
	ledreg.Register(ledreg.SPIDriver("ws2812", func(p spi.Port, _ configs.LEDs, n int) (leds.Strip, error) {
		return New(p, n)
	}))
}
