package hc165

import (
	"errors"
	"flag"
	"fmt"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
)

// The driver as boardd knows it: sensors.driver hc165, configured by the
// sensors.hc165 section.
func init() {
	sensorreg.Register(&sensorreg.Driver{
		Name:    "hc165",
		Section: &Config{SPI: "/dev/spidev1.0", Latch: "GPIO16", SpeedHz: 1000000, SPIMode: int(DefaultMode)},
		Flags:   flags,
		Check:   check,
		Pins: func(d *configs.Daemon, w *pins.Wiring) error {
			h := section(d)
			return errors.Join(w.SPI(h.SPI, "the 74HC165 chain", "sensors.hc165.spi"),
				w.GPIO(h.Latch, "the 74HC165 latch", "sensors.hc165.latch"))
		},
		Bits: func(d *configs.Daemon) int { return Chips(d) * 8 },
		Open: open,
	})
}

// Config is the section sensors.hc165.
type Config struct {
	SPI        string `yaml:"spi"`
	Latch      string `yaml:"latch"`
	Chips      int    `yaml:"chips"` // 0: as many as the board needs
	SpeedHz    int64  `yaml:"speed_hz"`
	SPIMode    int    `yaml:"spi_mode"` // 2 (safe), 0 or 3
	LSBFirst   bool   `yaml:"lsb_first"`
	ActiveHigh bool   `yaml:"active_high"`
}

// section is d's sensors.hc165.
func section(d *configs.Daemon) *Config { return configs.SensorsSection[Config](&d.Sensors, "hc165") }

func flags(fs *flag.FlagSet, s *configs.Sensors) {
	h := configs.SensorsSection[Config](s, "hc165")
	fs.StringVar(&h.SPI, "spi", h.SPI, "hc165: SPI port (SPI1: the LEDs own SPI0)")
	fs.StringVar(&h.Latch, "latch", h.Latch, "hc165: GPIO on the chips' SH/LD")
	fs.IntVar(&h.Chips, "chips", h.Chips, "hc165: chips in the chain (0: as many as the board needs, 20 or 32)")
	fs.Int64Var(&h.SpeedHz, "spi-hz", h.SpeedHz, "hc165: SPI clock in Hz")
	fs.IntVar(&h.SPIMode, "spi-mode", h.SPIMode, "hc165: SPI mode: 2 samples half a clock after the chips shift (safe); 0 or 3 sample on the shifting edge")
	fs.BoolVar(&h.LSBFirst, "lsb-first", h.LSBFirst, "hc165: number each chip's inputs H..A instead of A..H")
	fs.BoolVar(&h.ActiveHigh, "active-high", h.ActiveHigh, "hc165: a closed switch reads 1 (pull-downs)")
}

// check refuses a chain the hardware cannot be: an SPI mode that loses the
// chain's first bit, more chips than a chain takes, and (when selected)
// fewer than the board's squares need.
func check(c *configs.Checking) error {
	d := c.Config
	h := section(d)
	squares := d.Squares().Len()
	if n := h.Chips; n < 0 || n > 40 {
		return c.Errorf("sensors.hc165.chips", "%d: want 1 to 40 chips, or 0 for as many as the board needs", n)
	} else if n > 0 && n*8 < squares && d.Sensors.Driver == "hc165" {
		return c.Errorf("sensors.hc165.chips", "%d chips read %d switches, but the %s board has %d squares: want %d (or 0: as many as the board needs)", n, n*8, d.BoardShape, squares, (squares+7)/8)
	}
	if m := h.SPIMode; m != 0 && m != 2 && m != 3 {
		return c.Errorf("sensors.hc165.spi_mode", "%d: want 2 (samples on the falling edge, half a clock after the 74HC165 shifts), or 0 or 3 (sample on the shifting edge); mode 1 loses the first bit", m)
	}
	return nil
}

func open(d *configs.Daemon, _ sensorreg.Env) (sensors.Source, func(), error) {
	h := section(d)
	if err := pi.Host(); err != nil {
		return nil, nil, err
	}
	port, err := spireg.Open(h.SPI)
	if err != nil {
		return nil, nil, fmt.Errorf("hc165: SPI port %q: %v (on a Pi, enable SPI: dtparam=spi=on in /boot/firmware/config.txt)", h.SPI, err)
	}
	latch, err := pi.Out(h.Latch)
	if err != nil {
		port.Close()
		return nil, nil, fmt.Errorf("hc165: --latch: %v", err)
	}
	mode := spi.Mode(h.SPIMode)
	dev, err := New(port, latch, &Opts{Chips: Chips(d), Speed: physic.Frequency(h.SpeedHz) * physic.Hertz, Mode: &mode, LSBFirst: h.LSBFirst, ActiveHigh: h.ActiveHigh})
	if err != nil {
		port.Close()
		return nil, nil, err
	}
	return dev, func() { port.Close() }, nil
}

// Chips is the configured chain's length: sensors.hc165.chips, or one
// chip per 8 squares of the board (20 for cross14, 32 for square16).
func Chips(d *configs.Daemon) int {
	if n := section(d).Chips; n > 0 {
		return n
	}
	return (d.Squares().Len() + 7) / 8
}
