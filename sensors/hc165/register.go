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
		Section: &Config{SPI: "/dev/spidev1.0", Latch: "GPIO16", SpeedHz: 1000000, SPIMode: "auto", CheckChip: true},
		Flags:   flags,
		Check:   check,
		Pins: func(d *configs.Daemon, w *pins.Wiring) error {
			h := section(d)
			return errors.Join(w.SPI(h.SPI, "the 74HC165 chain", "sensors.hc165.spi"),
				w.GPIO(h.Latch, "the 74HC165 latch", "sensors.hc165.latch"))
		},
		Bits:    func(d *configs.Daemon) int { return Chips(d) * 8 },
		OnModel: onModel,
		Open:    open,
	})
}

// Config is the section sensors.hc165.
type Config struct {
	SPI        string `yaml:"spi"`
	Latch      string `yaml:"latch"`
	Chips      int    `yaml:"chips"` // 0: as many as the board needs
	SpeedHz    int64  `yaml:"speed_hz"`
	SPIMode    string `yaml:"spi_mode"` // auto (per controller), 0, 2 or 3
	CheckChip  bool   `yaml:"check_chip"`
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
	fs.StringVar(&h.SPIMode, "spi-mode", h.SPIMode, "hc165: SPI mode: auto (0 on a Pi 1-4's SPI1, the auxiliary controller; 2 on a full controller), or 0, 2 or 3")
	fs.BoolVar(&h.CheckChip, "check-chip", h.CheckChip, "hc165: the chain ends in a check chip wired to 0xA5 (false: the last chip's SER on GND)")
	fs.BoolVar(&h.LSBFirst, "lsb-first", h.LSBFirst, "hc165: number each chip's inputs H..A instead of A..H")
	fs.BoolVar(&h.ActiveHigh, "active-high", h.ActiveHigh, "hc165: a closed switch reads 1 (pull-downs)")
}

// check refuses a chain the hardware cannot be: an SPI mode no
// controller reads the chain in, or (when this machine is a Pi) one this
// Pi's controller cannot do or that slips a bit on it, more chips than a
// chain takes, and (when selected) fewer than the board's squares need.
func check(c *configs.Checking) error {
	d := c.Config
	h := section(d)
	squares := d.Squares().Len()
	if n := h.Chips; n < 0 || n > 40 {
		return c.Errorf("sensors.hc165.chips", "%d: want 1 to 40 chips, or 0 for as many as the board needs", n)
	} else if n > 0 && n*8 < squares && d.Sensors.Driver == "hc165" {
		return c.Errorf("sensors.hc165.chips", "%d chips read %d switches, but the %s board has %d squares: want %d (or 0: as many as the board needs)", n, n*8, d.BoardShape, squares, (squares+7)/8)
	}
	if _, err := parseMode(h.SPIMode); err != nil {
		return c.Errorf("sensors.hc165.spi_mode", "%v", err)
	}
	if d.Sensors.Driver == "hc165" {
		if kind := thisPi(); kind != pi.NotPi {
			if bus, _, ok := pins.ParseSPI(h.SPI); ok {
				if _, err := modeOn(kind, bus, h.SPIMode); err != nil {
					return c.Errorf("sensors.hc165.spi_mode", "%v", err)
				}
			}
		}
	}
	return nil
}

// thisPi is the kind of Pi this machine is (a variable for tests).
var thisPi = func() pi.Kind { return pi.KindOf(pi.Model("/")) }

// parseMode reads sensors.hc165.spi_mode: -1 for auto.
func parseMode(s string) (int, error) {
	switch s {
	case "", "auto":
		return -1, nil
	case "0", "2", "3":
		return int(s[0] - '0'), nil
	}
	return 0, fmt.Errorf("%q: want auto (the mode for the controller: 0 on a Pi 1-4's SPI1, 2 elsewhere), 0, 2 or 3; mode 1 samples after the first shift and loses a bit", s)
}

// ModeFor is the SPI mode a chain on SPI bus bus of a Pi of kind kind is
// read in: mode 0 on the auxiliary controller (pi.SPIAux: CPHA=0 only,
// and its clock idles low between transfers, so mode 2 would rise after
// the latch and lose a bit), mode 2 on a full controller (it samples half
// a clock after the chips shift).
func ModeFor(kind pi.Kind, bus int) spi.Mode {
	if pi.SPIAux(kind, bus) {
		return spi.Mode0
	}
	return DefaultMode
}

// modeOn is the mode setting s resolves to on SPI bus bus of a Pi of kind
// kind, or why that controller cannot read the chain in it.
func modeOn(kind pi.Kind, bus int, s string) (spi.Mode, error) {
	m, err := parseMode(s)
	if err != nil {
		return 0, err
	}
	if m < 0 {
		return ModeFor(kind, bus), nil
	}
	if pi.SPIAux(kind, bus) {
		switch m {
		case 2:
			return 0, fmt.Errorf("mode 2 on SPI%d of a %s loses a bit: SPI%d there is the auxiliary controller (spi-bcm2835aux), which lets the clock idle low between transfers and raises it as the next starts, after the latch; the 74HC165 shifts on that rising edge, so each scan loses chip 0's input H and every square reads one along (d1 as e1); use spi_mode: auto or 0", bus, kind, bus)
		case 3:
			return 0, fmt.Errorf("mode 3 on SPI%d of a %s: SPI%d there is the auxiliary controller (spi-bcm2835aux), which supports CPHA=0 modes only, and the kernel refuses mode 3; use spi_mode: auto or 0", bus, kind, bus)
		}
	}
	return spi.Mode(m), nil
}

// onModel checks the SPI mode against the controller of a Pi of kind
// kind (boardd doctor).
func onModel(d *configs.Daemon, kind pi.Kind) sensorreg.ModelCheck {
	h := section(d)
	bus, _, ok := pins.ParseSPI(h.SPI)
	if !ok {
		return sensorreg.ModelCheck{}
	}
	out := sensorreg.ModelCheck{Topic: "spimode"}
	m, err := modeOn(kind, bus, h.SPIMode)
	if err != nil {
		out.Err = fmt.Errorf("sensors.hc165.spi_mode: %v", err)
		out.Fix = "set sensors.hc165.spi_mode: auto (or remove the line)"
		return out
	}
	ctl := "a full controller"
	if pi.SPIAux(kind, bus) {
		ctl = "the auxiliary controller (CPHA=0 only, clock idles low between transfers)"
	}
	out.Msg = fmt.Sprintf("the 74HC165 chain is read in SPI mode %d: SPI%d on a %s is %s", m, bus, kind, ctl)
	if !h.CheckChip {
		out.Msg += "; no check chip (sensors.hc165.check_chip: false), so a chain that slips a bit goes unseen"
	}
	return out
}

func open(d *configs.Daemon, _ sensorreg.Env) (sensors.Source, func(), error) {
	h := section(d)
	if err := pi.Host(); err != nil {
		return nil, nil, err
	}
	port, err := spireg.Open(h.SPI)
	if err != nil {
		return nil, nil, fmt.Errorf("hc165: SPI port %q: %v (on a Pi, %s)", h.SPI, err, pins.EnableSPI(h.SPI))
	}
	latch, err := pi.Out(h.Latch)
	if err != nil {
		port.Close()
		return nil, nil, fmt.Errorf("hc165: --latch: %v", err)
	}
	bus, _, _ := pins.ParseSPI(h.SPI)
	mode, err := modeOn(thisPi(), bus, h.SPIMode)
	if err != nil {
		port.Close()
		return nil, nil, fmt.Errorf("hc165: sensors.hc165.spi_mode: %v", err)
	}
	dev, err := New(port, latch, &Opts{Chips: Chips(d), Speed: physic.Frequency(h.SpeedHz) * physic.Hertz, Mode: &mode, LSBFirst: h.LSBFirst, ActiveHigh: h.ActiveHigh, CheckChip: h.CheckChip})
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
