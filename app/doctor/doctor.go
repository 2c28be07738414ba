// Package doctor checks a Raspberry Pi for what boardd's configured
// hardware needs, before the first game: the Pi model, the kernel
// interfaces (/dev/spidev*, /dev/i2c-*, /dev/gpiochip*), the config.txt
// lines (SPI and I²C overlays, the I²C clock, the core clock for WS2812
// LEDs where it scales), the SPI mode on this Pi's controller, every pin
// config.txt gives a job against the board's pins, the LEDs' full-white
// current against leds.max_amps, the service user's groups, the
// firmware's under-voltage flags, time sync, free disk for the state
// directory, and one live read of the switches when the hardware is
// there.
//
// Every check reads files under Env.Root ("/" on the Pi), so the tests run
// against fixture trees of a Pi 3, 4, 5 and Zero 2 W. Every Finding that is
// not OK carries the exact line to add or command to run.
package doctor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	_ "boardd/app/drivers" // Config.Pins asks the registered drivers
	"boardd/configs"
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/leds/ledreg"
	"boardd/sensors/sensorreg"
)

// Level is how bad a Finding is.
type Level int

// The levels.
const (
	// OK: the check passed.
	OK Level = iota
	// Warn: boardd runs, but something will bite (unsynchronised clock,
	// little disk).
	Warn
	// Fail: the configured hardware will not work until it is fixed.
	Fail
)

func (l Level) String() string { return [...]string{"ok", "WARN", "FAIL"}[l] }

// Finding is the result of one check.
type Finding struct {
	Level Level
	// Topic names the check: "model", "spi1", "groups", "pins", …
	Topic string
	// Msg says what was found.
	Msg string
	// Fix is the exact line to add or command to run; empty when OK.
	Fix string
}

// Env is what the checks look at.
type Env struct {
	// Root is the file system root: "/" on the Pi, a fixture tree in tests.
	Root string
	// Config is the daemon config; ConfigErr the error loading it gave
	// (then Config is ignored).
	Config    configs.Daemon
	ConfigErr error
	// ConfigPath names the config file in messages.
	ConfigPath string
	// User is the service user (boardd).
	User string
	// Free returns the free bytes of the file system holding path; nil
	// uses statfs.
	Free func(path string) (uint64, error)
	// Live reads the switches, repeatedly so a flickering chain shows (nil:
	// no live check, as with --root).
	Live func() error
}

// MinFree is the free space below which the state directory fails the
// check: a game is a few kilobytes, but a full disk stops the board.
const MinFree = 50 << 20

// Check runs every check and returns the findings in a fixed order.
func Check(env Env) []Finding {
	c := &checker{env: env}
	c.model()
	c.boot = readBootConfig(env.Root, c.modelName, c.kind)
	if errors.Is(env.ConfigErr, os.ErrNotExist) {
		c.add(Fail, "config", fmt.Sprintf("%s does not exist", env.ConfigPath), fmt.Sprintf("install the package (`sudo apt install ./boardd_*.deb`), or run `boardd config example | sudo tee %s`", env.ConfigPath))
	} else if env.ConfigErr != nil {
		c.add(Fail, "config", fmt.Sprintf("%v", env.ConfigErr), fmt.Sprintf("edit %s at the line named (configs/boardd.yaml in the source lists every key), then run `boardd config check %s`", env.ConfigPath, env.ConfigPath))
	} else {
		c.add(OK, "config", fmt.Sprintf("%s: switches %s, LEDs %s", env.ConfigPath, env.Config.Sensors.Driver, env.Config.LEDs.Driver), "")
		c.buses()
		c.onModel()
		c.coreFreq()
		c.pins()
		c.ledPower()
		c.groups()
	}
	c.power()
	c.timeSync()
	c.disk()
	c.live()
	return c.out
}

// Write prints the findings, one block each, and returns how many failed.
func Write(w io.Writer, fs []Finding) (fails int) {
	for _, f := range fs {
		fmt.Fprintf(w, "%-4s  %-8s %s\n", f.Level, f.Topic, f.Msg)
		if f.Fix != "" {
			fmt.Fprintf(w, "      %-8s fix: %s\n", "", f.Fix)
		}
		if f.Level == Fail {
			fails++
		}
	}
	return fails
}

type checker struct {
	env       Env
	kind      pi.Kind
	modelName string
	boot      bootConfig
	out       []Finding
}

func (c *checker) add(l Level, topic, msg, fix string) {
	c.out = append(c.out, Finding{Level: l, Topic: topic, Msg: msg, Fix: fix})
}

func (c *checker) path(p string) string { return filepath.Join(c.env.Root, p) }

func (c *checker) exists(p string) bool {
	_, err := os.Stat(c.path(p))
	return err == nil
}

func (c *checker) model() {
	m := pi.Model(c.env.Root)
	c.kind, c.modelName = pi.KindOf(m), m
	if c.kind == pi.NotPi {
		c.add(Warn, "model", fmt.Sprintf("not a Raspberry Pi (device tree model %q): the checks below assume a Pi's pins and config.txt", m), "run `boardd doctor` on the Pi under the board")
		return
	}
	msg := fmt.Sprintf("%s (%s)", m, c.kind)
	if c.kind == pi.Pi5 {
		msg += ": GPIO through /dev/gpiochip* only (boardd never maps /dev/mem on a Pi 5)"
	}
	c.add(OK, "model", msg, "")
}

// usedBuses are the SPI and I²C buses the configured drivers use, as
// they report them (configs.Daemon.Pins).
func (c *checker) usedBuses() []pins.Bus {
	w, _ := c.env.Config.PinsOn(c.kind == pi.Pi5) // a pin error is the pins check's to report
	return w.Buses
}

func (c *checker) addLine(line string) string {
	return fmt.Sprintf("add the line `%s` to %s, then run `sudo reboot`", line, c.boot.shown)
}

func (c *checker) buses() {
	d := &c.env.Config
	for _, b := range c.usedBuses() {
		topic := fmt.Sprintf("spi%d", b.N)
		enabled := c.boot.spiChipSelects(b.N) > b.CS
		need := pins.SPILine(b.N, b.CS)
		if b.I2C {
			topic = fmt.Sprintf("i2c%d", b.N)
			enabled = b.N != 1 || c.boot.param("i2c_arm") == "on"
			need = "dtparam=i2c_arm=on"
		}
		present := c.exists(b.Dev)
		what := fmt.Sprintf("%s (%s %s)", b.Who, b.Key, b.Dev)
		switch {
		case present && enabled:
			c.add(OK, topic, fmt.Sprintf("%s is there for %s", b.Dev, what), "")
		case present:
			c.add(Warn, topic, fmt.Sprintf("%s is there for %s, but %s does not enable it: it may be gone after the next config change", b.Dev, what, c.boot.shown), fmt.Sprintf("add the line `%s` to %s", need, c.boot.shown))
		case enabled:
			c.add(Fail, topic, fmt.Sprintf("%s is missing for %s, though %s enables it: the Pi has not rebooted since", b.Dev, what, c.boot.shown), "run `sudo reboot`")
		default:
			fix := c.addLine(need)
			if twin := c.twinSPI(b); twin != "" {
				fix = twin
			}
			c.add(Fail, topic, fmt.Sprintf("%s is missing for %s: %s does not enable it", b.Dev, what, c.boot.shown), fix)
		}
		if b.I2C && b.N == 1 && b.HzKey != "" {
			have := c.boot.param("i2c_arm_baudrate")
			if have == "" {
				have = "100000" // the firmware's default
			}
			want := strconv.FormatInt(b.Hz, 10)
			if have != want {
				c.add(Fail, topic, fmt.Sprintf("the I²C bus runs at %s Hz (%s), but %s is %s: the scan rate was checked against the wrong clock", have, c.boot.shown, b.HzKey, want),
					c.addLine("dtparam=i2c_arm_baudrate="+want))
			} else {
				c.add(OK, topic, fmt.Sprintf("I²C clock %s Hz, as %s says", have, b.HzKey), "")
			}
		}
	}
	if needGPIO(d) {
		chips, _ := filepath.Glob(c.path("dev/gpiochip*"))
		if len(chips) == 0 {
			c.add(Fail, "gpio", "no /dev/gpiochip*: the GPIO character device is missing (a kernel older than 4.8, or not a Pi)", "run `sudo apt full-upgrade && sudo reboot` for a current Raspberry Pi OS kernel")
		} else {
			c.add(OK, "gpio", fmt.Sprintf("/dev/%s for the GPIO pins", filepath.Base(chips[0])), "")
		}
	}
}

// onModel asks the switch driver whether its config suits this Pi's
// model (the 74HC165 chain's SPI mode on this Pi's controller).
func (c *checker) onModel() {
	if c.kind == pi.NotPi {
		return
	}
	m := sensorreg.CheckModel(&c.env.Config, c.kind)
	switch {
	case m.Topic == "":
	case m.Err != nil:
		c.add(Fail, m.Topic, m.Err.Error(), fmt.Sprintf("%s in %s, then run `sudo systemctl restart boardd`", m.Fix, c.env.ConfigPath))
	default:
		c.add(OK, m.Topic, m.Msg, "")
	}
}

// needGPIO says the configured drivers use single GPIOs, not only buses.
func needGPIO(d *configs.Daemon) bool {
	w, _ := d.Pins()
	return w.UsesGPIO
}

// coreFreq checks the config.txt lines the LED driver needs on this Pi
// (WS2812 over SPI: a fixed core clock, which SPI0's clock is divided
// from, on every Pi whose core clock scales: Pi 1/Zero, 3/Zero 2 W, 4).
func (c *checker) coreFreq() {
	d := ledreg.Lookup(c.env.Config.LEDs.Driver)
	if d == nil || d.Boot == nil {
		return
	}
	b := d.Boot(c.kind)
	if b == nil {
		return
	}
	for _, kv := range b.Settings {
		line := kv[0] + "=" + kv[1]
		if got := c.boot.setting(kv[0]); got != kv[1] {
			msg := fmt.Sprintf("%s on a %s need `%s` in %s (%s)", b.Who, c.kind, line, c.boot.shown, b.Why)
			if got != "" {
				msg = fmt.Sprintf("%s has %s=%s; %s on a %s need `%s`", c.boot.shown, kv[0], got, b.Who, c.kind, line)
			}
			c.add(Fail, "core", msg, c.addLine(line))
		} else {
			c.add(OK, "core", fmt.Sprintf("%s for %s", line, b.For), "")
		}
	}
}

// pins checks the config's pins together with every pin config.txt
// gives a job (SPI, I²C and I²S buses, overlays with their parameters,
// the serial console), include files and [filter] sections followed. A
// bus boardd itself uses through a line is not a clash with its own
// driver; the chip selects the line adds beyond the one boardd uses are.
func (c *checker) pins() {
	w, err := c.env.Config.PinsOn(c.kind == pi.Pi5)
	if err != nil {
		c.add(Fail, "pins", err.Error(), fmt.Sprintf("edit %s", c.env.ConfigPath))
		return
	}
	used := c.usedBuses()
	own := func(i2c bool, n int) *pins.Bus {
		for i, b := range used {
			if b.I2C == i2c && b.N == n {
				return &used[i]
			}
		}
		return nil
	}
	lines := map[string]*bootClaim{}
	claim := func(bc *bootClaim, ps []pins.BootPin) {
		if bc.own != nil {
			ps = slices.DeleteFunc(ps, func(p pins.BootPin) bool { return slices.Contains(w.BusPins(*bc.own), p.GPIO) })
		}
		key := "config.txt:" + bc.line
		who := fmt.Sprintf("`%s` in %s", bc.line, bc.file)
		if bc.implicit {
			who = fmt.Sprintf("%s, %s", bc.line, bc.file)
		}
		if bc.bus && bc.own == nil {
			who += ", unused by boardd"
		}
		bc.pins = ps
		lines[key] = bc
		w.Boot(ps, who, key)
	}
	for _, p := range []string{"spi", "i2c_arm", "i2c", "i2c_vc", "i2s"} {
		if c.boot.param(p) != "on" {
			continue
		}
		bc := &bootClaim{line: "dtparam=" + p + "=on", file: c.boot.shown, bus: p != "i2s"}
		switch p {
		case "spi":
			bc.own = own(false, 0)
		case "i2c_arm", "i2c":
			bc.own = own(true, 1)
		case "i2c_vc":
			bc.own = own(true, 0)
		}
		claim(bc, pins.BaseParam(p))
	}
	for _, o := range c.boot.unloaded {
		c.add(Warn, "pins", fmt.Sprintf("`%s` in %s does nothing on a %s: the overlay is not made for this Pi (a Pi 5 has no SPI4 or SPI6 on its header; *-pi5 overlays are for a Pi 5 only)", o.line, o.file, c.kind),
			fmt.Sprintf("remove the line from %s (docs/hardware.md lists the buses of each Pi), then run `sudo reboot`", o.file))
	}
	for _, o := range c.boot.overlays {
		what, ps, known := pins.Overlay(o.name, o.params)
		if !known {
			continue
		}
		bc := &bootClaim{line: o.line, file: o.file, name: o.name}
		var n int
		if _, err := fmt.Sscanf(what, "SPI%d", &n); err == nil {
			bc.bus, bc.own = true, own(false, n)
		} else if _, err := fmt.Sscanf(what, "I2C%d", &n); err == nil {
			bc.bus, bc.own = true, own(true, n)
		}
		claim(bc, ps)
	}
	if on, implicit := c.uart(); on {
		bc := &bootClaim{line: "enable_uart=1", file: c.boot.shown}
		if implicit {
			bc.line, bc.implicit = fmt.Sprintf("on by default on a %s: no enable_uart line", c.kind), true
		}
		claim(bc, pins.UARTPins)
	}
	conflicts := w.Conflicts()
	if len(conflicts) == 0 {
		c.add(OK, "pins", fmt.Sprintf("no pin has two jobs (%s read)", strings.Join(c.boot.files, ", ")), "")
	}
	byLine := map[string]int{} // config.txt line → its finding
	for _, k := range conflicts {
		first, second := lines[k.First.Key], lines[k.Second.Key]
		switch {
		case first == nil && second == nil:
			c.add(Fail, "pins", k.Error(), fmt.Sprintf("edit %s (%s)", c.env.ConfigPath, k.Second.Key))
			continue
		case first != nil && second != nil:
			c.add(Warn, "pins", fmt.Sprintf("GPIO%d has two jobs in config.txt: %s and %s; the later line takes the pin from the earlier", k.GPIO, k.First.What, k.Second.What),
				fmt.Sprintf("remove whichever of `%s` and `%s` nothing uses, then run `sudo reboot`", first.line, second.line))
			continue
		}
		bc, mine := first, k.Second
		if bc == nil {
			bc, mine = second, k.First
		}
		if i, ok := byLine[bc.line]; ok { // one fix for every pin the line takes
			c.out[i].Msg += fmt.Sprintf("; GPIO%d too", k.GPIO)
			continue
		}
		byLine[bc.line] = len(c.out)
		c.add(Fail, "pins", fmt.Sprintf("GPIO%d has two jobs: %s and %s", k.GPIO, mine.What, lines[bc.key()].whatOn(k)), c.bootFix(bc, k.GPIO, mine, w))
	}
}

// bootClaim is a config.txt line that takes pins.
type bootClaim struct {
	line, file, name string
	bus              bool      // the line enables an SPI or I²C bus
	implicit         bool      // no line: a default of this Pi
	own              *pins.Bus // the bus boardd uses through it
	pins             []pins.BootPin
}

func (b *bootClaim) key() string { return "config.txt:" + b.line }

// whatOn is the job the line gives the conflict's GPIO.
func (b *bootClaim) whatOn(k pins.Conflict) string {
	if k.First.Key == b.key() {
		return k.First.What
	}
	return k.Second.What
}

// twinSPI is the fix for SPI bus b when config.txt enables, instead of
// b's bus, another on the same pins (SPI6 for SPI1 on a Pi 4): use that
// bus's device. "" when there is none.
func (c *checker) twinSPI(b pins.Bus) string {
	if b.I2C {
		return ""
	}
	w, _ := c.env.Config.PinsOn(c.kind == pi.Pi5)
	for _, o := range c.boot.overlays {
		var n, k int
		if _, err := fmt.Sscanf(o.name, "spi%d-%dcs", &n, &k); err != nil || n == b.N || k <= b.CS || !w.SameSPIPins(n, b.N) {
			continue
		}
		dev := fmt.Sprintf("/dev/spidev%d.%d", n, b.CS)
		return fmt.Sprintf("set %s: %s in %s (`%s` in %s enables SPI%d on the pins of SPI%d, a full SPI controller), then run `sudo systemctl restart boardd`",
			b.Key, dev, c.env.ConfigPath, o.line, o.file, n, b.N)
	}
	return ""
}

// bootFix is the fix for a config.txt line that takes boardd's pin gpio.
func (c *checker) bootFix(bc *bootClaim, gpio int, mine pins.Job, w *pins.Wiring) string {
	reboot := ", then run `sudo reboot`"
	if bc.bus && bc.own == nil {
		for _, b := range w.Buses {
			if b.Key == mine.Key {
				if twin := c.twinSPI(b); twin != "" && strings.Contains(twin, "`"+bc.line+"`") {
					return twin
				}
			}
		}
	}
	if bc.own != nil && !bc.own.I2C && bc.own.N != 0 {
		return fmt.Sprintf("replace the line `%s` in %s with `%s` (boardd uses only CE%d of SPI%d, %s)", bc.line, bc.file, pins.SPILine(bc.own.N, bc.own.CS), bc.own.CS, bc.own.N, bc.own.Dev) + reboot
	}
	if strings.Contains(bc.line, "enable_uart") {
		return fmt.Sprintf("add the line `enable_uart=0` to %s (turns off the serial console on GPIO 14 and 15; remove any `enable_uart=1`), or give %s another pin", bc.file, mine.Key) + reboot
	}
	for _, p := range bc.pins {
		if p.GPIO == gpio && p.Param != "" {
			name, _ := pins.ParseOverlay(strings.TrimPrefix(bc.line, "dtoverlay="))
			if free := freeGPIO(w); free >= 0 {
				return fmt.Sprintf("move it off GPIO%d: write the line as `dtoverlay=%s,%s=%d` in %s (GPIO%d is free) and wire that pin, or remove the line if nothing uses it", gpio, name, p.Param, free, bc.file, free) + reboot
			}
		}
	}
	return fmt.Sprintf("remove the line `%s` from %s if nothing uses it, or give %s another pin", bc.line, bc.file, mine.Key) + reboot
}

// freeGPIO is the lowest header GPIO from 4 up that no job takes (0–3 are
// the ID EEPROM's and I²C1's), or -1.
func freeGPIO(w *pins.Wiring) int {
	for g := 4; g <= 27; g++ {
		if !slices.ContainsFunc(w.Jobs, func(j pins.Job) bool { return j.GPIO == g }) {
			return g
		}
	}
	return -1
}

// uart says the serial console holds GPIO 14 and 15: enable_uart=1, or
// (implicit) on a Pi without Bluetooth (Pi 1, Pi 2, Zero) unless
// enable_uart=0: the config.txt documentation gives enable_uart's default
// as 1 where the primary UART is UART0, 0 where it is the mini UART. A Pi
// 5's console has its own connector; its 40-pin UART needs
// dtparam=uart0=on.
func (c *checker) uart() (on, implicit bool) {
	if c.kind == pi.Pi5 {
		return c.boot.param("uart0") == "on", false
	}
	switch c.boot.setting("enable_uart") {
	case "1":
		return true, false
	case "0":
		return false, false
	}
	noBT := (c.kind == pi.Pi1 || c.kind == pi.Pi2) && !strings.Contains(c.modelName, "Zero W")
	return noBT, noBT
}

// deviceGroups are the groups that own the board's devices on Raspberry
// Pi OS, with the udev subsystem that gives a device to the group where
// the group does not exist (Ubuntu, DietPi).
var deviceGroups = []struct{ group, subsystem, what string }{
	{"gpio", "gpio", "/dev/gpiochip*"},
	{"spi", "spidev", "/dev/spidev*"},
	{"i2c", "i2c-dev", "/dev/i2c-*"},
}

func (c *checker) groups() {
	user := c.env.User
	groups, err := readGroups(c.path("etc/group"))
	if err != nil {
		c.add(Warn, "groups", fmt.Sprintf("cannot read /etc/group: %v", err), "")
		return
	}
	if !userExists(c.path("etc/passwd"), user) {
		c.add(Fail, "groups", fmt.Sprintf("there is no user %s for the service", user), fmt.Sprintf("install the package (`sudo apt install ./boardd_*.deb` creates it), or run `sudo useradd --system --no-create-home %s`", user))
		return
	}
	d := &c.env.Config
	need := map[string]bool{}
	for _, b := range c.usedBuses() {
		if b.I2C {
			need["i2c"] = true
		} else {
			need["spi"] = true
		}
	}
	if needGPIO(d) {
		need["gpio"] = true
	}
	for _, g := range deviceGroups {
		if !need[g.group] {
			continue
		}
		members, ok := groups[g.group]
		switch {
		case !ok:
			c.add(Fail, "groups", fmt.Sprintf("there is no group %s here (Ubuntu, DietPi): %s belong to root, and %s cannot open them", g.group, g.what, user),
				fmt.Sprintf("run `sudo groupadd --system %s && echo 'SUBSYSTEM==\"%s\", GROUP=\"%s\", MODE=\"0660\"' | sudo tee -a /etc/udev/rules.d/60-boardd.rules && sudo udevadm control --reload && sudo udevadm trigger && sudo usermod -aG %s %s`", g.group, g.subsystem, g.group, g.group, user))
		case !members[user]:
			c.add(Fail, "groups", fmt.Sprintf("%s is not in the group %s, which owns %s", user, g.group, g.what), fmt.Sprintf("run `sudo usermod -aG %s %s && sudo systemctl restart boardd`", g.group, user))
		default:
			c.add(OK, "groups", fmt.Sprintf("%s is in the group %s (%s)", user, g.group, g.what), "")
		}
	}
}

// ledPower compares the LEDs' full-white current with leds.max_amps.
func (c *checker) ledPower() {
	l := c.env.Config.LEDs
	d := ledreg.Lookup(l.Driver)
	if d == nil || d.Strip == nil || d.Power.ChannelMilliamps == 0 {
		return
	}
	m, err := ledreg.Map(l, c.env.Config.Squares())
	if err != nil {
		return // the config check reports a bad map
	}
	n := m.Len()
	full := float64(n) * (3*d.Power.ChannelMilliamps + d.Power.IdleMilliamps) / 1000
	switch {
	case l.MaxAmps == 0:
		c.add(Warn, "power", fmt.Sprintf("%d %s LEDs at full white draw about %.1f A, and leds.max_amps is 0 (no limit): a bright frame can draw more than the LED supply gives, and its voltage drops (flicker, a Pi on the same supply resets)", n, l.Driver, full),
			fmt.Sprintf("set leds.max_amps in %s to what the LED supply delivers after the Pi (e.g. 4 for a 5 V 5 A supply that also feeds the Pi)", c.env.ConfigPath))
	case l.MaxAmps < full:
		c.add(OK, "power", fmt.Sprintf("%d %s LEDs at full white would draw about %.1f A: frames are dimmed to leds.max_amps %g A, which the LED supply must deliver", n, l.Driver, full, l.MaxAmps), "")
	default:
		c.add(OK, "power", fmt.Sprintf("%d %s LEDs at full white draw about %.1f A, within leds.max_amps %g A", n, l.Driver, full, l.MaxAmps), "")
	}
}

// power reads the firmware's throttling flags (get_throttled: bit 0
// under-voltage now, bit 16 under-voltage since boot; bits 2/18
// throttled, 3/19 the soft temperature limit), where the kernel exposes
// them.
func (c *checker) power() {
	files, _ := filepath.Glob(c.path("sys/devices/platform/soc*/soc*:firmware/get_throttled"))
	if len(files) == 0 {
		return
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(string(data)), "0x"), 16, 32)
	if err != nil {
		c.add(Warn, "supply", fmt.Sprintf("cannot read the throttling flags %q", strings.TrimSpace(string(data))), "")
		return
	}
	supply := "use a 5.1 V supply rated for this Pi (1.2 A for a Zero, 2.5 A for a Pi 2 or 3, 3 A for a Pi 4, 5 A for a Pi 5) with a short, thick cable, and feed the LEDs from their own supply or straight from the supply's terminals, never through the Pi"
	switch {
	case v&1 != 0:
		c.add(Fail, "supply", fmt.Sprintf("the Pi is under-voltage now (get_throttled %#x): scans and SPI transfers can fail, and the SD card can be corrupted mid-game", v), supply)
	case v&(1<<16) != 0:
		c.add(Warn, "supply", fmt.Sprintf("the Pi was under-voltage since it booted (get_throttled %#x): the supply sags under load (LEDs lit, CPU busy)", v), supply)
	case v&(1<<3|1<<19|1<<2|1<<18) != 0:
		c.add(Warn, "supply", fmt.Sprintf("the Pi throttled its clock for heat (get_throttled %#x)", v), "give the Pi a heatsink or airflow under the board")
	default:
		c.add(OK, "supply", "no under-voltage or throttling since boot (get_throttled 0x0)", "")
	}
}

func (c *checker) timeSync() {
	if c.exists("run/systemd/timesync/synchronized") {
		c.add(OK, "time", "the clock is synchronised (systemd-timesyncd)", "")
		return
	}
	c.add(Warn, "time", "the clock is not synchronised (no /run/systemd/timesync/synchronized): a Pi has no real-time clock, and games started now are dated wrongly",
		"run `sudo timedatectl set-ntp true` and check the network; the unit starts boardd after time-sync.target")
}

func (c *checker) disk() {
	dir := "boardd-state"
	if c.env.ConfigErr == nil {
		dir = c.env.Config.StateDir
	}
	p := dir
	if filepath.IsAbs(dir) {
		p = c.path(dir)
	}
	for {
		if _, err := os.Stat(p); err == nil || p == filepath.Dir(p) {
			break
		}
		p = filepath.Dir(p)
	}
	free := c.env.Free
	if free == nil {
		free = statfsFree
	}
	n, err := free(p)
	switch {
	case err != nil:
		c.add(Warn, "disk", fmt.Sprintf("free space for the state directory %s: %v", dir, err), "")
	case n < MinFree:
		c.add(Fail, "disk", fmt.Sprintf("only %d MB free for the state directory %s: a full disk stops the board mid-game", n>>20, dir), "free space (`sudo apt clean`, `sudo journalctl --vacuum-size=50M`) or move state_dir to a larger disk")
	default:
		c.add(OK, "disk", fmt.Sprintf("%d MB free for the state directory %s", n>>20, dir), "")
	}
}

func statfsFree(path string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}

func (c *checker) live() {
	if c.env.Live == nil {
		return
	}
	if err := c.env.Live(); err != nil {
		fix := "check the wiring against docs/hardware.md, then run `boardd sensors --test` with the same settings"
		// A driver's error that knows where the fault is (hc165's
		// ChainError: the chip and the wire) says so first.
		var where interface{ Hint() string }
		if errors.As(err, &where) {
			fix = where.Hint() + "; then " + fix
		}
		c.add(Fail, "switches", fmt.Sprintf("reading the switches failed: %v", err), fix)
		return
	}
	c.add(OK, "switches", "read the switches (the 74HC165 chain's check bytes as wired, where there is one)", "")
}

// readGroups reads /etc/group: group name → members.
func readGroups(path string) (map[string]map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 4 {
			continue
		}
		m := map[string]bool{}
		for _, u := range strings.Split(f[3], ",") {
			if u = strings.TrimSpace(u); u != "" {
				m[u] = true
			}
		}
		out[f[0]] = m
	}
	return out, nil
}

func userExists(passwd, user string) bool {
	data, err := os.ReadFile(passwd)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(strings.Split(string(data), "\n"), func(l string) bool { return strings.HasPrefix(l, user+":") })
}
