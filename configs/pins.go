package configs

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"periph.io/x/conn/v3/physic"

	"boardd/internal/pins"
	"boardd/internal/yamlpos"
	"boardd/sensors/mcp23017"

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

// checkHardware refuses what the hardware cannot do: a config that gives
// one GPIO two jobs (a matrix column on the SPI bus of the rows, a latch on
// an I²C line, the LEDs and the switches on one SPI bus) or names a pin
// that is not a GPIO, an SPI mode that loses the 74HC165 chain's first
// bit, and a scan rate the MCP23017s' I²C bus cannot keep up with.
func (d *Daemon) checkHardware(file string, root *yaml.Node) error {
	bad := func(key, format string, a ...any) error {
		return &Error{File: file, Line: yamlpos.LineOf(root, key), Key: key, Msg: fmt.Sprintf(format, a...)}
	}
	s := &d.Sensors
	if m := s.HC165.SPIMode; m != 0 && m != 2 && m != 3 {
		return bad("sensors.hc165.spi_mode", "%d: want 2 (samples on the falling edge, half a clock after the 74HC165 shifts), or 0 or 3 (sample on the shifting edge); mode 1 loses the first bit", m)
	}
	if hz := s.MCP23017.BusHz; hz < 10000 || hz > 1000000 {
		return bad("sensors.mcp23017.bus_hz", "%d: want the I²C clock config.txt sets, 100000 (the Pi's default) or 400000 (dtparam=i2c_arm_baudrate=400000)", hz)
	}
	if s.Driver == "mcp23017" {
		mode := mcp23017.Matrix
		if s.MCP23017.Mode == "direct" {
			mode = mcp23017.Direct
		}
		chips := len(d.MCP23017Addrs())
		hz := physic.Frequency(s.MCP23017.BusHz) * physic.Hertz
		if max := mcp23017.MaxRate(mode, chips, hz); s.Rate > max {
			faster := ""
			if s.MCP23017.BusHz < 400000 {
				faster = ", or raise the bus to 400 kHz (dtparam=i2c_arm_baudrate=400000 in config.txt and sensors.mcp23017.bus_hz: 400000)"
			}
			return bad("sensors.rate", "%v scans per second: %d MCP23017s as a %s take about %v a scan on a %d Hz I²C bus, so at most %d scans per second fit; set sensors.rate: %d or lower%s",
				s.Rate, chips, mode, mcp23017.ScanTime(mode, chips, hz).Round(100*time.Microsecond), s.MCP23017.BusHz, int(max), rateBelow(max), faster)
		}
	}
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

// rateBelow is a round scan rate at or under max: 200, 100, 50, 25 or 10.
func rateBelow(max float64) int {
	for _, r := range []int{200, 100, 50, 25} {
		if float64(r) <= max {
			return r
		}
	}
	return 10
}
