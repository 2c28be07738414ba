package configs

import (
	"errors"
	"strings"
	"sync"

	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/internal/yamlpos"

	"go.yaml.in/yaml/v3"
)

// PinsFunc adds the GPIO jobs one part of the hardware gives its pins and
// buses to w (internal/pins), from the config d.
type PinsFunc func(d *Daemon, w *pins.Wiring) error

// hardware are the checks the driver registries add (RegisterHardware).
var hardware struct {
	mu     sync.Mutex
	checks []CheckFunc
	pins   []PinsFunc
}

// RegisterHardware adds a check that Daemon.Check runs on every config
// after its own, and the pin jobs Daemon.Pins collects. The driver
// registries (sensors/sensorreg, leds/ledreg) call it once each when they
// load, so a config is checked by the drivers compiled into the program
// and configs itself names no driver. Either may be nil.
func RegisterHardware(check CheckFunc, pinsOf PinsFunc) {
	hardware.mu.Lock()
	defer hardware.mu.Unlock()
	if check != nil {
		hardware.checks = append(hardware.checks, check)
	}
	if pinsOf != nil {
		hardware.pins = append(hardware.pins, pinsOf)
	}
}

func runHardwareChecks(c *Checking) error {
	hardware.mu.Lock()
	checks := hardware.checks
	hardware.mu.Unlock()
	return runChecks(c, checks)
}

// Pins returns the GPIO jobs of the configured hardware: the switch
// driver's pins and buses and the LED driver's SPI bus, as the registered
// drivers give them (internal/pins), on the Pi this runs on (a Pi 5 has
// some SPI buses on other pins; any other machine counts them as a Pi 4
// does).
func (d *Daemon) Pins() (*pins.Wiring, error) {
	return d.PinsOn(pi.KindOf(pi.Model("/")) == pi.Pi5)
}

// PinsOn is Pins on a Pi 5 (pi5) or an earlier Pi, whatever this machine
// is: boardd doctor --root checks another Pi's tree.
func (d *Daemon) PinsOn(pi5 bool) (*pins.Wiring, error) {
	hardware.mu.Lock()
	all := hardware.pins
	hardware.mu.Unlock()
	w := &pins.Wiring{Pi5: pi5}
	var errs []error
	for _, f := range all {
		errs = append(errs, f(d, w))
	}
	return w, errors.Join(errs...)
}

// checkPins refuses a config that gives one GPIO two jobs (a matrix column
// on the SPI bus of the rows, a latch on an I²C line, the LEDs and the
// switches on one SPI bus) or names a pin that is not a GPIO.
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
