package ledreg

import (
	"fmt"

	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/leds"
)

// SPIStrip describes an LED driver whose strip hangs on an SPI port named
// in its own config section leds.<Name> (section type T); Driver makes
// the registry's Driver of it, with the checks every SPI strip shares.
type SPIStrip[T any] struct {
	// Name is the driver's leds.driver value and its section's name.
	Name string
	// Section points to the section's defaults.
	Section *T
	// Power is the per-LED current of the driver's chips
	// (Driver.Power).
	Power leds.Power
	// Port returns the SPI port a section names (its spi key).
	Port func(sec *T) string
	// Check checks the section's own limits (a clock speed, …); it runs on
	// every config, whichever driver is selected. May be nil.
	Check func(c *configs.Checking, sec *T) error
	// New makes the strip of n LEDs on the opened port.
	New func(p spi.Port, sec *T, n int) (leds.Strip, error)
}

// Driver is the registry's Driver for s.
func (s SPIStrip[T]) Driver() *Driver {
	key := "leds." + s.Name + ".spi"
	section := func(l *configs.LEDs) *T { return configs.LEDsSection[T](l, s.Name) }
	return &Driver{
		Name:    s.Name,
		Section: s.Section,
		Power:   s.Power,
		Check: func(c *configs.Checking) error {
			sec := section(&c.Config.LEDs)
			if c.Config.LEDs.Driver == s.Name && s.Port(sec) == "" {
				return c.Errorf(key, "empty: want the strip's SPI port, such as /dev/spidev0.0 (SPI0: MOSI GPIO10, SCLK GPIO11)")
			}
			if s.Check != nil {
				return s.Check(c, sec)
			}
			return nil
		},
		Pins: func(d *configs.Daemon, w *pins.Wiring) error {
			return w.SPI(s.Port(section(&d.LEDs)), "the "+s.Name+" LEDs", key)
		},
		Strip: func(l configs.LEDs, n int) (leds.Strip, error) {
			sec := section(&l)
			if err := pi.Host(); err != nil {
				return nil, err
			}
			port, err := spireg.Open(s.Port(sec))
			if err != nil {
				return nil, fmt.Errorf("%s %q: %v (on a Pi, %s)", key, s.Port(sec), err, pins.EnableSPI(s.Port(sec)))
			}
			strip, err := s.New(port, sec, n)
			if err != nil {
				port.Close()
				return nil, err
			}
			return strip, nil
		},
	}
}
