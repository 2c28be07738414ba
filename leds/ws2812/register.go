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

// boot: SPI0's clock is divided from the VideoCore core clock on every Pi
// but the 5 (whose SPI is on the RP1 chip, clocked on its own). The core
// clock scales between core_freq_min (default 250 MHz) and core_freq,
// whose default (the Raspberry Pi config.txt documentation, overclocking
// options) is 250 MHz on a Pi 1 and Pi 2 (fixed), 400 on a Pi Zero, Zero
// W, Pi 3 and Zero 2 W, 500 on a Pi 4 (core_freq_min 200 or 250): on
// those the WS2812 timing drifts unless the clock is pinned. A Pi 1 shares
// its kind with the Zeros; core_freq=250 is its default anyway.
func boot(kind pi.Kind) *ledreg.Boot {
	b := &ledreg.Boot{Who: "WS2812 LEDs", Why: "SPI0's clock is divided from the core clock, which scales with load on this Pi: the WS2812 bit timing drifts and the strip shows garbage", For: "the WS2812 timing"}
	switch kind {
	case pi.Pi1, pi.Pi3:
		b.Settings = [][2]string{{"core_freq", "250"}}
	case pi.Pi4:
		b.Settings = [][2]string{{"core_freq", "500"}, {"core_freq_min", "500"}}
	default: // Pi 2: fixed at 250 MHz; Pi 5: RP1's own clock
		return nil
	}
	return b
}
