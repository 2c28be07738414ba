// Package sensorreg is the registry of switch drivers, as periph's spireg
// is of SPI ports: each driver package registers one Driver when it loads
// (sensors/sim, sensors/hc165, sensors/gpiomatrix, sensors/mcp23017), and
// boardd opens, checks and lists drivers only through here. Adding a
// driver is one new package that calls Register from init, plus one blank
// import in app/drivers.
package sensorreg

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/internal/registry"
	"boardd/rules/square"
	"boardd/sensors"
)

// ErrUsage marks an error in the settings a driver was opened with (a
// flag or key it cannot read); boardd exits 2 on it.
var ErrUsage = errors.New("usage")

// Env is what opening a driver needs beyond the config.
type Env struct {
	// Now is the clock the driver stamps its reads with (sim).
	Now func() time.Time
	// Start is where the pieces stand when the board is switched on: a
	// simulated board starts with these squares occupied.
	Start square.Set
}

// Driver is one switch driver.
type Driver struct {
	// Name is the value of sensors.driver and --driver that selects it.
	Name string
	// Simulated says the driver is a simulated board: it plays switch
	// scripts (--script, sensors.listen) and has no hardware to check.
	Simulated bool
	// Section, if the driver has settings of its own, points to a struct
	// with yaml tags holding their defaults: the config's section
	// sensors.<Name> (configs.RegisterSensorsSection; the driver reads a
	// config's values with configs.SensorsSection).
	Section any
	// Flags binds the driver's options of 'boardd sensors' to its config
	// section in s, so the command line and the config set the same
	// values. May be nil.
	Flags func(fs *flag.FlagSet, s *configs.Sensors)
	// Check checks the driver's config section. It runs on every config,
	// whichever driver is selected (an unused section must still be
	// valid); checks that only matter when the driver is selected test
	// c.Config.Sensors.Driver. May be nil.
	Check func(c *configs.Checking) error
	// Pins adds the GPIOs and buses the driver uses when selected. May be
	// nil.
	Pins configs.PinsFunc
	// Bits is how many switches the configured driver reads, 0 when only
	// opening the hardware tells. May be nil.
	Bits func(d *configs.Daemon) int
	// OnModel checks the configured (selected) driver against the Pi
	// model it will run on (an SPI mode the controller cannot do or that
	// loses a bit there): boardd doctor calls it with the model it reads,
	// the config check and Open with this machine's. May be nil.
	OnModel func(d *configs.Daemon, kind pi.Kind) ModelCheck
	// Open opens the switch hardware the config describes. close (may be
	// nil) releases it.
	Open func(d *configs.Daemon, env Env) (src sensors.Source, close func(), err error)
}

// ModelCheck is a driver's verdict on its config for one Pi model.
type ModelCheck struct {
	// Topic names the check in boardd doctor ("spimode"); empty: nothing
	// to say.
	Topic string
	// Err is the problem, nil when the config suits the model.
	Err error
	// Msg says what was checked (the OK line), Fix what to change.
	Msg, Fix string
}

// CheckModel asks the configured driver about the Pi model kind.
func CheckModel(d *configs.Daemon, kind pi.Kind) ModelCheck {
	if drv := Lookup(d.Sensors.Driver); drv != nil && drv.OnModel != nil {
		return drv.OnModel(d, kind)
	}
	return ModelCheck{}
}

var drivers = registry.New[*Driver]("sensorreg")

// Register adds a driver. A driver without a name or Open, or a name
// registered twice, is a programming error: Register panics.
func Register(d *Driver) {
	if d.Open == nil {
		panic("sensorreg: a driver needs a Name and an Open")
	}
	drivers.Register(d.Name, d)
	if d.Section != nil {
		configs.RegisterSensorsSection(d.Name, d.Section)
	}
}

// Lookup returns the driver called name, or nil.
func Lookup(name string) *Driver {
	d, _ := drivers.Lookup(name)
	return d
}

// All returns the registered drivers by name.
func All() []*Driver { return drivers.All() }

// Names returns the registered drivers' names, sorted.
func Names() []string { return drivers.Names() }

// Want lists the names for an error: "gpiomatrix, hc165, mcp23017 or sim".
func Want() string {
	n := Names()
	if len(n) < 2 {
		return strings.Join(n, "")
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// Check is the config check of the sensors section's drivers (a
// configs.CheckFunc): sensors.driver names a registered driver, only a
// simulated board listens for switch scripts, every driver's own section
// is valid, and a wiring map file exists and maps the board's squares
// (with the driver's bit count where the config fixes it, else the most a
// map may have: the driver checks the rest when it opens).
func Check(c *configs.Checking) error {
	s := &c.Config.Sensors
	d := Lookup(s.Driver)
	if d == nil {
		return c.Errorf("sensors.driver", "%q: want %s", s.Driver, drivers.List(", "))
	}
	if s.Listen != "" && !d.Simulated {
		return c.Errorf("sensors.listen", "only the sim driver takes switch scripts over the network")
	}
	for _, d := range All() {
		if d.Check != nil {
			if err := d.Check(c); err != nil {
				return err
			}
		}
	}
	// Whatever the driver, fewer switches than squares cannot read the
	// board (each driver names the setting first where it can).
	if n, sq := Bits(c.Config), c.Config.Squares().Len(); n < sq {
		return c.Errorf("sensors.driver", "%s as configured reads %d switches, but the %s board has %d squares: docs/hardware.md gives each wiring's size", s.Driver, n, c.Config.BoardShape, sq)
	}
	if s.Wiring == "" {
		return nil
	}
	data, err := os.ReadFile(s.Wiring)
	if err != nil {
		return c.Errorf("sensors.wiring", "%v", err)
	}
	if _, err := sensors.ParseMapOn(s.Wiring, data, Bits(c.Config), c.Config.Squares()); err != nil {
		return c.Errorf("sensors.wiring", "%v", err)
	}
	return nil
}

// Pins adds the configured driver's pin jobs to w (a configs.PinsFunc).
func Pins(d *configs.Daemon, w *pins.Wiring) error {
	if drv := Lookup(d.Sensors.Driver); drv != nil && drv.Pins != nil {
		return drv.Pins(d, w)
	}
	return nil
}

// Bits is how many switches the configured driver reads, or
// sensors.MaxBits when the config does not fix it.
func Bits(d *configs.Daemon) int {
	if drv := Lookup(d.Sensors.Driver); drv != nil && drv.Bits != nil {
		if n := drv.Bits(d); n > 0 {
			return n
		}
	}
	return sensors.MaxBits
}

// Open opens the configured switch driver.
func Open(d *configs.Daemon, env Env) (sensors.Source, func(), error) {
	drv := Lookup(d.Sensors.Driver)
	if drv == nil {
		return nil, nil, fmt.Errorf("%w: --driver %q: want %s", ErrUsage, d.Sensors.Driver, Want())
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	return drv.Open(d, env)
}

// BindFlags binds every driver's options of 'boardd sensors' to s.
func BindFlags(fs *flag.FlagSet, s *configs.Sensors) {
	for _, d := range All() {
		if d.Flags != nil {
			d.Flags(fs, s)
		}
	}
}

// ListFlag binds a comma-separated flag (GPIO5,GPIO6) to a list.
func ListFlag(fs *flag.FlagSet, p *[]string, name, usage string) {
	fs.Func(name, usage, func(v string) error {
		*p = SplitList(v)
		return nil
	})
}

// SplitList splits a comma-separated list, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
