package main

import (
	"fmt"
	"io"
	"os"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"boardd/configs"
	"boardd/leds"
	"boardd/leds/apa102"
	"boardd/leds/ws2812"
	"boardd/rules/square"
)

// openLEDs opens the configured LED strip behind an async writer (nil
// for driver none).
// board is the configured board's squares (board_shape): 160 or 256 LEDs.
func openLEDs(c configs.LEDs, board square.Set, stdout io.Writer) (*ledOut, error) {
	if c.Driver == "none" {
		return nil, nil
	}
	var m *leds.Map
	switch c.Map {
	case "serpentine":
		m = leds.Serpentine(board)
	case "arms":
		m = leds.Arms(board)
	default:
		data, err := os.ReadFile(c.Map)
		if err != nil {
			return nil, fmt.Errorf("leds.map: %w", err)
		}
		if m, err = leds.ParseMap(c.Map, data, board, 0); err != nil {
			return nil, err
		}
	}
	if c.Driver == "term" { // the frames themselves, drawn in colour
		return &ledOut{termW: stdout, board: board, bright: uint8(c.Brightness)}, nil
	}
	var strip leds.Strip
	power := leds.DefaultPower
	power.MaxAmps = c.MaxAmps
	switch c.Driver {
	case "apa102", "ws2812":
		p, err := leds.PowerFor(c.Driver, c.MaxAmps)
		if err != nil {
			return nil, err
		}
		power = p
		if _, err := host.Init(); err != nil {
			return nil, fmt.Errorf("periph host init: %v", err)
		}
		port, err := spireg.Open(c.SPI)
		if err != nil {
			return nil, fmt.Errorf("leds.spi %q: %v (on a Pi, enable SPI: dtparam=spi=on)", c.SPI, err)
		}
		if c.Driver == "apa102" {
			strip, err = apa102.New(port, m.Len(), physic.Frequency(c.SpeedHz)*physic.Hertz)
		} else {
			strip, err = ws2812.New(port, m.Len())
		}
		if err != nil {
			port.Close()
			return nil, err
		}
	}
	out, err := leds.NewOutput(m, c.Gamma, power)
	if err != nil {
		return nil, err
	}
	o := &ledOut{out: out, strip: strip, px: make([]leds.Color, out.Len()), bright: uint8(c.Brightness)}
	o.writer = leds.NewWriter(strip, func(err error) { fmt.Fprintln(os.Stderr, "boardd: LEDs:", err) })
	return o, nil
}
