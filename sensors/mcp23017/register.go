package mcp23017

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
)

// The driver as boardd knows it: sensors.driver mcp23017, configured by the
// sensors.mcp23017 section.
func init() {
	sensorreg.Register(&sensorreg.Driver{
		Name:    "mcp23017",
		Section: &Config{Mode: "matrix", BusHz: 400000},
		Flags:   flags,
		Check:   check,
		Pins: func(d *configs.Daemon, w *pins.Wiring) error {
			m := section(d)
			return w.I2CClock(m.Bus, m.BusHz, "sensors.mcp23017.bus_hz", "the MCP23017s", "sensors.mcp23017.bus")
		},
		Bits: func(d *configs.Daemon) int { return perChip(section(d).Mode) * len(Addrs(d)) },
		Open: open,
	})
}

// perChip is how many switches one expander reads in a mode (config
// name): 56 as a matrix, 14 wired directly.
func perChip(mode string) int {
	if mode == "direct" {
		return 14
	}
	return 56
}

func modeOf(name string) Mode {
	if name == "direct" {
		return Direct
	}
	return Matrix
}

// Config is the section sensors.mcp23017.
type Config struct {
	Bus   string   `yaml:"bus"`
	Addrs []string `yaml:"addrs"`  // empty: as many as the board needs
	Mode  string   `yaml:"mode"`   // matrix, direct
	BusHz int64    `yaml:"bus_hz"` // the bus clock config.txt sets
}

// section is d's sensors.mcp23017.
func section(d *configs.Daemon) *Config {
	return configs.SensorsSection[Config](&d.Sensors, "mcp23017")
}

func flags(fs *flag.FlagSet, s *configs.Sensors) {
	m := configs.SensorsSection[Config](s, "mcp23017")
	fs.StringVar(&m.Bus, "i2c", m.Bus, "mcp23017: I²C bus (default: the first)")
	sensorreg.ListFlag(fs, &m.Addrs, "mcp-addr", "mcp23017: chip addresses (none: as many as the board needs from 0x20 up, 0x20-0x22 or 0x20-0x24 as a matrix)")
	fs.StringVar(&m.Mode, "mcp-mode", m.Mode, "mcp23017: matrix or direct")
}

// check refuses what the expanders cannot do: an unknown mode, addresses
// outside 0x20-0x27, more chips than one bus takes, fewer than the board
// needs (as a matrix or wired directly, where even eight chips are too
// few), a bus clock config.txt cannot set, and (when selected) a scan
// rate the bus cannot keep up with.
func check(c *configs.Checking) error {
	d := c.Config
	s := &d.Sensors
	m := section(d)
	if m.Mode != "matrix" && m.Mode != "direct" {
		return c.Errorf("sensors.mcp23017.mode", "%q: want matrix, direct", m.Mode)
	}
	squares := d.Squares().Len()
	if n := len(m.Addrs); s.Driver == "mcp23017" && m.Mode == "matrix" && n > 0 && n*56 < squares {
		return c.Errorf("sensors.mcp23017.addrs", "%d chips as a matrix read %d switches, but the %s board has %d squares: want %d addresses (or none: as many as the board needs)", n, n*56, d.BoardShape, squares, (squares+55)/56)
	}
	if n := len(Addrs(d)); s.Driver == "mcp23017" && m.Mode == "direct" && n*14 < squares {
		return c.Errorf("sensors.mcp23017.mode", "direct: %d chips read 14 switches each, %d in all, but the %s board has %d squares, and one I²C bus takes at most 8 chips (112 switches): use mode: matrix (56 switches a chip, %d chips)", n, n*14, d.BoardShape, squares, (squares+55)/56)
	}
	if n := len(m.Addrs); n > 8 || m.Mode == "matrix" && n*56 > 320 {
		return c.Errorf("sensors.mcp23017.addrs", "%d chips: one bus takes at most 8 (0x20-0x27), and at most 5 as a matrix", n)
	}
	for _, a := range m.Addrs {
		if v, err := strconv.ParseUint(a, 0, 16); err != nil || v < 0x20 || v > 0x27 {
			return c.Errorf("sensors.mcp23017.addrs", "%q: want an MCP23017 address 0x20 to 0x27", a)
		}
	}
	if hz := m.BusHz; hz < 10000 || hz > 1000000 {
		return c.Errorf("sensors.mcp23017.bus_hz", "%d: want the I²C clock config.txt sets, 100000 (the Pi's default) or 400000 (dtparam=i2c_arm_baudrate=400000)", hz)
	}
	if s.Driver != "mcp23017" {
		return nil
	}
	mode := modeOf(m.Mode)
	chips := len(Addrs(d))
	hz := physic.Frequency(m.BusHz) * physic.Hertz
	if max := MaxRate(mode, chips, hz); s.Rate > max {
		faster := ""
		if m.BusHz < 400000 {
			faster = ", or raise the bus to 400 kHz (dtparam=i2c_arm_baudrate=400000 in config.txt and sensors.mcp23017.bus_hz: 400000)"
		}
		return c.Errorf("sensors.rate", "%v scans per second: %d MCP23017s as a %s take about %v a scan on a %d Hz I²C bus, so at most %d scans per second fit; set sensors.rate: %d or lower%s",
			s.Rate, chips, mode, ScanTime(mode, chips, hz).Round(100*time.Microsecond), m.BusHz, int(max), sensors.RoundRate(max), faster)
	}
	return nil
}

func open(d *configs.Daemon, _ sensorreg.Env) (sensors.Source, func(), error) {
	m := section(d)
	if err := pi.Host(); err != nil {
		return nil, nil, err
	}
	bus, err := i2creg.Open(m.Bus)
	if err != nil {
		return nil, nil, fmt.Errorf("mcp23017: I²C bus %q: %v (on a Pi, enable I²C: dtparam=i2c_arm=on)", m.Bus, err)
	}
	var addrs []uint16
	for _, s := range Addrs(d) {
		a, err := strconv.ParseUint(s, 0, 16)
		if err != nil {
			bus.Close()
			return nil, nil, fmt.Errorf("%w: --mcp-addr %q: not a number", sensorreg.ErrUsage, s)
		}
		addrs = append(addrs, uint16(a))
	}
	if m.Mode != "matrix" && m.Mode != "direct" {
		bus.Close()
		return nil, nil, fmt.Errorf("%w: --mcp-mode %q: want matrix or direct", sensorreg.ErrUsage, m.Mode)
	}
	dev, err := New(bus, modeOf(m.Mode), addrs...)
	if err != nil {
		bus.Close()
		return nil, nil, err
	}
	return dev, func() { bus.Close() }, nil
}

// Addrs are the configured expanders' addresses: sensors.mcp23017.addrs,
// or from 0x20 up as many as the board needs (as a matrix, 56 switches a
// chip: 0x20-0x22 for cross14, 0x20-0x24 for square16; wired directly, 14
// a chip, at most the eight one bus takes).
func Addrs(d *configs.Daemon) []string {
	m := section(d)
	if len(m.Addrs) > 0 {
		return m.Addrs
	}
	n := min((d.Squares().Len()+perChip(m.Mode)-1)/perChip(m.Mode), 8)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%#x", 0x20+i)
	}
	return out
}
