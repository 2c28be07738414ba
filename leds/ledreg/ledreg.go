// Package ledreg is the registry of LED drivers, as periph's spireg is of
// SPI ports: each driver registers one Driver when it loads (none here,
// leds/term, leds/apa102, leds/ws2812), and boardd opens, checks and lists
// LED drivers only through here. Adding a driver is one new package that
// calls Register from init, plus one blank import in app/drivers.
package ledreg

import (
	"fmt"
	"io"
	"os"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/internal/registry"
	"boardd/leds"
	"boardd/rules/square"
)

// Driver is one LED driver.
type Driver struct {
	// Name is the value of leds.driver that selects it.
	Name string
	// Check checks the config's leds section for this driver. It runs on
	// every config; checks that only matter when the driver is selected
	// test c.Config.LEDs.Driver. May be nil.
	Check func(c *configs.Checking) error
	// Pins adds the GPIOs and buses the driver uses when selected. May be
	// nil.
	Pins configs.PinsFunc
	// Section, if the driver has settings of its own, points to a struct
	// with yaml tags holding their defaults: the config's section
	// leds.<Name> (configs.RegisterLEDsSection; the driver reads a
	// config's values with configs.LEDsSection).
	Section any
	// Power is how much current one LED of the driver's chips draws
	// (ChannelMilliamps, IdleMilliamps); the budget, MaxAmps, comes from
	// leds.max_amps. The figures belong to the driver: there is no second
	// table of chips.
	Power leds.Power
	// Strip opens a strip of n LEDs. A driver with neither Strip nor
	// Draw lights nothing (none).
	Strip func(l configs.LEDs, n int) (leds.Strip, error)
	// Draw, for a driver that shows whole frames rather than pixels
	// (term), returns the function that shows one.
	Draw func(l configs.LEDs, board square.Set, w io.Writer) func(*leds.Frame)
	// Boot, for a driver that needs config.txt settings on some Pis,
	// answers them for one kind of Pi (nil: none); boardd doctor checks
	// them. May be nil.
	Boot func(kind pi.Kind) *Boot
}

// Boot is what an LED driver needs in config.txt on one kind of Pi.
type Boot struct {
	// Settings are key=value lines, such as core_freq=250.
	Settings [][2]string
	// Who needs them ("WS2812 LEDs"), why (for a failure) and what they
	// are for (for a pass: "the WS2812 timing").
	Who, Why, For string
}

var drivers = registry.New[*Driver]("ledreg")

// Register adds a driver. A driver without a name, or a name registered
// twice, is a programming error: Register panics.
func Register(d *Driver) {
	drivers.Register(d.Name, d)
	if d.Section != nil {
		configs.RegisterLEDsSection(d.Name, d.Section)
	}
}

// The driver that lights nothing.
func init() { Register(&Driver{Name: "none"}) }

// Lookup returns the driver called name, or nil.
func Lookup(name string) *Driver {
	d, _ := drivers.Lookup(name)
	return d
}

// All returns the registered drivers by name.
func All() []*Driver { return drivers.All() }

// Names returns the registered drivers' names, sorted.
func Names() []string { return drivers.Names() }

// lights reports whether a driver shows anything (so needs the LED map).
func (d *Driver) lights() bool { return d.Strip != nil || d.Draw != nil }

// Check is the config check of the leds section (a configs.CheckFunc):
// leds.driver names a registered driver, an LED map file exists and maps
// the board, and every driver's own checks pass.
func Check(c *configs.Checking) error {
	l := &c.Config.LEDs
	d := Lookup(l.Driver)
	if d == nil {
		return c.Errorf("leds.driver", "%q: want %s", l.Driver, drivers.List(", "))
	}
	for _, d := range All() {
		if d.Check != nil {
			if err := d.Check(c); err != nil {
				return err
			}
		}
	}
	if d.lights() && l.Map != "serpentine" && l.Map != "arms" {
		data, err := os.ReadFile(l.Map)
		if err != nil {
			return c.Errorf("leds.map", "%v (or serpentine, arms)", err)
		}
		if _, err := leds.ParseMap(l.Map, data, c.Config.Squares(), 0); err != nil {
			return c.Errorf("leds.map", "%v", err)
		}
	}
	return nil
}

// Pins adds the configured driver's pin jobs to w (a configs.PinsFunc).
func Pins(d *configs.Daemon, w *pins.Wiring) error {
	if drv := Lookup(d.LEDs.Driver); drv != nil && drv.Pins != nil {
		return drv.Pins(d, w)
	}
	return nil
}

// Map is the configured LED map: serpentine, arms, or a map file.
func Map(l configs.LEDs, board square.Set) (*leds.Map, error) {
	switch l.Map {
	case "serpentine":
		return leds.Serpentine(board), nil
	case "arms":
		return leds.Arms(board), nil
	}
	data, err := os.ReadFile(l.Map)
	if err != nil {
		return nil, fmt.Errorf("leds.map: %w", err)
	}
	return leds.ParseMap(l.Map, data, board, 0)
}

// Env is what opening the LEDs needs beyond the config.
type Env struct {
	// Term is where a driver that draws frames draws them.
	Term io.Writer
	// OnError hears the strip's write errors (nil: standard error).
	OnError func(error)
}

// Open opens the configured LEDs for a board with the given squares (160
// or 256 LEDs) behind an asynchronous writer; nil for a driver that
// lights nothing. A nil *Out is valid and shows nothing.
func Open(l configs.LEDs, board square.Set, env Env) (*Out, error) {
	d := Lookup(l.Driver)
	if d == nil {
		return nil, fmt.Errorf("leds.driver %q: want %s", l.Driver, drivers.List(", "))
	}
	if !d.lights() {
		return nil, nil
	}
	m, err := Map(l, board)
	if err != nil {
		return nil, err
	}
	if d.Draw != nil {
		return &Out{draw: d.Draw(l, board, env.Term), bright: uint8(l.Brightness)}, nil
	}
	strip, err := d.Strip(l, m.Len())
	if err != nil {
		return nil, err
	}
	power := d.Power
	power.MaxAmps = l.MaxAmps
	out, err := leds.NewOutput(m, l.Gamma, power)
	if err != nil {
		return nil, err
	}
	onErr := env.OnError
	if onErr == nil {
		onErr = func(err error) { fmt.Fprintln(os.Stderr, "boardd: LEDs:", err) }
	}
	return NewOut(out, strip, uint8(l.Brightness), onErr), nil
}

// Out shows frames on the LEDs: rendered through the map, gamma and
// current budget onto a strip by a leds.Writer, or drawn whole (term).
type Out struct {
	out    *leds.Output
	strip  leds.Strip
	writer *leds.Writer
	px     []leds.Color
	bright uint8
	draw   func(*leds.Frame)
}

// NewOut shows frames rendered by out on strip at a brightness (0-255)
// through an asynchronous writer that reports errors to onErr.
func NewOut(out *leds.Output, strip leds.Strip, brightness uint8, onErr func(error)) *Out {
	return &Out{out: out, strip: strip, writer: leds.NewWriter(strip, onErr), px: make([]leds.Color, out.Len()), bright: brightness}
}

// Show shows a frame at the configured brightness. It never blocks on the
// strip.
func (o *Out) Show(f *leds.Frame) {
	if o == nil {
		return
	}
	f.Brightness = o.bright
	if o.draw != nil {
		o.draw(f)
		return
	}
	o.out.Render(f, o.px)
	o.writer.Show(o.px)
}

// Close turns the LEDs off: the writer stops first (a frame it was still
// retrying is dropped), then the dark frame goes to the strip directly.
func (o *Out) Close() error {
	if o == nil || o.writer == nil {
		return nil
	}
	o.writer.Close()
	for i := range o.px {
		o.px[i] = leds.Off
	}
	return o.strip.Show(o.px)
}
