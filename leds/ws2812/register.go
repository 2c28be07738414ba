package ws2812

import (
	"periph.io/x/conn/v3/spi"

	"boardd/internal/pi"
	"boardd/leds"
	"boardd/leds/ledreg"
)

// The driver as boardd knows it: leds.driver ws2812 (WS2812B, SK6812) on
// the SPI port of its own section leds.ws2812. The clock is always Speed
// (the bit timing is built from it), so the section has no speed.
func init() {
	d := ledreg.SPIStrip[Config]{
		Name:    "ws2812",
		Section: &Config{SPI: "/dev/spidev0.0"},
		Power:   Power,
		Port:    func(c *Config) string { return c.SPI },
		New:     func(p spi.Port, _ *Config, n int) (leds.Strip, error) { return New(p, n) },
	}.Driver()
	d.Boot = boot
	ledreg.Register(d)
}

// Config is the section leds.ws2812.
type Config struct {
	SPI string `yaml:"spi"` // the SPI port: SPI0, /dev/spidev0.0 (MOSI is the data line)
}

// Power is one WS2812B or SK6812 LED's current at 5 V: 12–16 mA per
// colour channel at full duty (the high end taken), 1 mA dark.
var Power = leds.Power{ChannelMilliamps: 16, IdleMilliamps: 1}

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
