package configs

import (
	"errors"
	"fmt"
	"strings"

	"boardd/internal/pins"
	"boardd/internal/yamlpos"

	"go.yaml.in/yaml/v3"
)

// Pins returns the GPIO jobs of the configured hardware: the switch
// driver's pins and buses and the LED driver's SPI bus (internal/pins).
func (d *Daemon) Pins() (*pins.Wiring, error) {
	w := &pins.Wiring{}
	s := &d.Sensors
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	switch s.Driver {
	case "hc165":
		add(w.SPI(s.HC165.SPI, "the 74HC165 chain", "sensors.hc165.spi"))
		add(w.GPIO(s.HC165.Latch, "the 74HC165 latch", "sensors.hc165.latch"))
	case "gpiomatrix":
		m := &s.GPIOMatrix
		if m.RowSPI != "" {
			add(w.SPI(m.RowSPI, "the 74HC595 rows", "sensors.gpiomatrix.row_spi"))
		} else {
			for i, r := range m.Rows {
				what := fmt.Sprintf("matrix row %d", i)
				if m.Decoder {
					what = fmt.Sprintf("decoder address A%d", i)
				}
				add(w.GPIO(r, what, "sensors.gpiomatrix.rows"))
			}
			if m.Decoder {
				add(w.GPIO(m.DecoderEnable, "decoder enable", "sensors.gpiomatrix.decoder_enable"))
			}
		}
		for i, c := range m.Cols {
			add(w.GPIO(c, fmt.Sprintf("matrix column %d", i), "sensors.gpiomatrix.cols"))
		}
	case "mcp23017":
		add(w.I2C(s.MCP23017.Bus, "the MCP23017s", "sensors.mcp23017.bus"))
	}
	if d.LEDs.Driver == "apa102" || d.LEDs.Driver == "ws2812" {
		add(w.SPI(d.LEDs.SPI, "the "+d.LEDs.Driver+" LEDs", "leds.spi"))
	}
	return w, errors.Join(errs...)
}

// checkPins refuses a config that gives one GPIO two jobs (a matrix
// column on the SPI bus of the rows, a latch on an I²C line, the LEDs and
// the switches on one SPI bus) or names a pin that is not a GPIO.
func (d *Daemon) checkPins(file string, root *yaml.Node) error {
	w, err := d.Pins()
	if err != nil {
		key, msg, _ := strings.Cut(strings.SplitN(err.Error(), "\n", 2)[0], ": ")
		return &Error{File: file, Line: yamlpos.LineOf(root, key), Key: key, Msg: msg}
	}
	if c := w.Conflicts(); len(c) > 0 {
		return &Error{File: file, Line: yamlpos.LineOf(root, c[0].Second.Key), Key: c[0].Second.Key, Msg: c[0].Error()}
	}
	return nil
}
