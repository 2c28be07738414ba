package apa102

import (
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"boardd/configs"
	"boardd/leds"
	"boardd/leds/ledreg"
)

// The driver as boardd knows it: leds.driver apa102 (APA102, SK9822), on
// the SPI port of its own section leds.apa102.
func init() {
	ledreg.Register(ledreg.SPIStrip[Config]{
		Name:    "apa102",
		Section: &Config{SPI: "/dev/spidev0.0", SpeedHz: 4000000},
		Power:   Power,
		Port:    func(c *Config) string { return c.SPI },
		Check:   check,
		New: func(p spi.Port, c *Config, n int) (leds.Strip, error) {
			return New(p, n, physic.Frequency(c.SpeedHz)*physic.Hertz)
		},
	}.Driver())
}

// Config is the section leds.apa102.
type Config struct {
	SPI     string `yaml:"spi"`      // the SPI port: SPI0, /dev/spidev0.0
	SpeedHz int64  `yaml:"speed_hz"` // the clock
}

// MaxSpeedHz is the fastest clock the driver accepts: the APA102's and
// SK9822's data sheets give about 30 MHz; a board's long runs want less
// (4 MHz, the default, is safe).
const MaxSpeedHz = 30000000

// Power is one APA102 or SK9822 LED's current at 5 V: about 20 mA per
// colour channel at full duty (on the high side of measurements), 1 mA
// dark. A builder who measured their strip can change leds.max_amps.
var Power = leds.Power{ChannelMilliamps: 20, IdleMilliamps: 1}

func check(c *configs.Checking, s *Config) error {
	if s.SpeedHz < 1 || s.SpeedHz > MaxSpeedHz {
		return c.Errorf("leds.apa102.speed_hz", "%d: want 1 to %d Hz (the chips clock up to about 30 MHz; 4000000 is safe on a long board)", s.SpeedHz, MaxSpeedHz)
	}
	return nil
}
