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

// SPIDriver is the Driver of an LED strip on the SPI port leds.spi: name
// is its leds.driver value and its LED type for leds.PowerFor; newStrip
// makes the strip of n LEDs on the opened port.
func SPIDriver(name string, newStrip func(p spi.Port, l configs.LEDs, n int) (leds.Strip, error)) *Driver {
	return &Driver{
		Name: name,
		Check: func(c *configs.Checking) error {
			if l := c.Config.LEDs; l.Driver == name {
				if _, err := leds.PowerFor(name, l.MaxAmps); err != nil {
					return c.Errorf("leds.max_amps", "%v", err)
				}
			}
			return nil
		},
		Pins: func(d *configs.Daemon, w *pins.Wiring) error {
			return w.SPI(d.LEDs.SPI, "the "+name+" LEDs", "leds.spi")
		},
		Strip: func(l configs.LEDs, n int) (leds.Strip, leds.Power, error) {
			power, err := leds.PowerFor(name, l.MaxAmps)
			if err != nil {
				return nil, power, err
			}
			if err := pi.Host(); err != nil {
				return nil, power, err
			}
			port, err := spireg.Open(l.SPI)
			if err != nil {
				return nil, power, fmt.Errorf("leds.spi %q: %v (on a Pi, enable SPI: dtparam=spi=on)", l.SPI, err)
			}
			s, err := newStrip(port, l, n)
			if err != nil {
				port.Close()
				return nil, power, err
			}
			return s, power, nil
		},
	}
}
