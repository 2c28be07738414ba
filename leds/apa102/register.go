package apa102

import (
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"boardd/configs"
	"boardd/leds"
	"boardd/leds/ledreg"
)

// The driver as boardd knows it: leds.driver apa102 on the SPI port
// leds.spi at leds.speed_hz.
func init() {
	ledreg.Register(ledreg.SPIDriver("apa102", func(p spi.Port, l configs.LEDs, n int) (leds.Strip, error) {
		return New(p, n, physic.Frequency(l.SpeedHz)*physic.Hertz)
	}))
}
