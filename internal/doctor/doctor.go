// Package doctor checks a Raspberry Pi for what boardd's configured
// hardware needs, before the first game: the Pi model, the kernel
// interfaces (/dev/spidev*, /dev/i2c-*, /dev/gpiochip*), the config.txt
// lines (SPI and I²C overlays, the I²C clock, the core clock for WS2812
// LEDs on a Pi 3 or 4), the service user's groups, pins with two jobs,
// time sync, free disk for the state directory, and one live read of the
// switches when the hardware is there.
//
// Every check reads files under Env.Root ("/" on the Pi), so the tests run
// against fixture trees of a Pi 3, 4, 5 and Zero 2 W. Every Finding that is
// not OK carries the exact line to add or command to run.
package doctor

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"boardd/configs"
	_ "boardd/internal/drivers" // Config.Pins asks the registered drivers
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/leds/ledreg"
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
	boot := readBootConfig(env.Root, c.kind)
	c.boot = boot
	if errors.Is(env.ConfigErr, os.ErrNotExist) {
		c.add(Fail, "config", fmt.Sprintf("%s does not exist", env.ConfigPath), fmt.Sprintf("install the package (`sudo apt install ./boardd_*.deb`), or run `boardd config example | sudo tee %s`", env.ConfigPath))
	} else if env.ConfigErr != nil {
		c.add(Fail, "config", fmt.Sprintf("%v", env.ConfigErr), fmt.Sprintf("edit %s at the line named (configs/boardd.yaml in the source lists every key), then run `boardd config check %s`", env.ConfigPath, env.ConfigPath))
	} else {
		c.add(OK, "config", fmt.Sprintf("%s: switches %s, LEDs %s", env.ConfigPath, env.Config.Sensors.Driver, env.Config.LEDs.Driver), "")
		c.buses()
		c.coreFreq()
		c.pins()
		c.groups()
	}
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
	env  Env
	kind pi.Kind
	boot bootConfig
	out  []Finding
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
	c.kind = pi.KindOf(m)
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
	w, _ := c.env.Config.Pins() // a pin error is the pins check's to report
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
			c.add(Fail, topic, fmt.Sprintf("%s is missing for %s: %s does not enable it", b.Dev, what, c.boot.shown), c.addLine(need))
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

// needGPIO says the configured drivers use single GPIOs, not only buses.
func needGPIO(d *configs.Daemon) bool {
	w, _ := d.Pins()
	return w.UsesGPIO
}

// coreFreq checks the config.txt lines the LED driver needs on this Pi
// (WS2812 over SPI on a Pi 3 or 4: a fixed core clock, which SPI0's
// clock is divided from).
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

// pins checks the config's pins together with the buses config.txt
// enables but the config does not use (their overlay still takes the
// pins).
func (c *checker) pins() {
	w, err := c.env.Config.Pins()
	if err != nil {
		c.add(Fail, "pins", err.Error(), fmt.Sprintf("edit %s", c.env.ConfigPath))
		return
	}
	used := map[string]bool{}
	for _, b := range c.usedBuses() {
		used[fmt.Sprintf("%v%d", b.I2C, b.N)] = true
	}
	lines := map[string]string{}
	for n := 0; n <= 6; n++ {
		if cs := c.boot.spiChipSelects(n); cs > 0 && !used[fmt.Sprintf("false%d", n)] {
			line := c.boot.spiLineFor(n)
			key := "config.txt:" + line
			lines[key] = line
			w.SPIBus(n, cs, fmt.Sprintf("enabled by `%s` in %s, unused by boardd", line, c.boot.shown), key)
		}
	}
	if c.boot.param("i2c_arm") == "on" && !used["true1"] {
		key := "config.txt:dtparam=i2c_arm=on"
		lines[key] = "dtparam=i2c_arm=on"
		w.I2C("1", fmt.Sprintf("enabled by `dtparam=i2c_arm=on` in %s, unused by boardd", c.boot.shown), key)
	}
	conflicts := w.Conflicts()
	if len(conflicts) == 0 {
		c.add(OK, "pins", "no pin has two jobs", "")
	}
	byLine := map[string]int{} // config.txt line → its finding
	for _, k := range conflicts {
		line := lines[k.First.Key]
		if line == "" {
			line = lines[k.Second.Key]
		}
		if line == "" {
			c.add(Fail, "pins", k.Error(), fmt.Sprintf("edit %s (%s)", c.env.ConfigPath, k.Second.Key))
			continue
		}
		if i, ok := byLine[line]; ok { // one fix for every pin the line takes
			c.out[i].Msg += fmt.Sprintf("; GPIO%d too", k.GPIO)
			continue
		}
		byLine[line] = len(c.out)
		c.add(Fail, "pins", k.Error(), fmt.Sprintf("remove the line `%s` from %s, then run `sudo reboot`", line, c.boot.shown))
	}
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
	c.add(OK, "switches", "read the switches (the 74HC165 chain's check byte is 0x00 where there is one)", "")
}

// bootConfig is the active lines of config.txt.
type bootConfig struct {
	shown    string            // the path as the Pi sees it
	params   map[string]string // dtparam=…
	overlays []string          // dtoverlay=… (name,params)
	settings map[string]string // other key=value lines
}

func readBootConfig(root string, kind pi.Kind) bootConfig {
	b := bootConfig{shown: "/boot/firmware/config.txt", params: map[string]string{}, settings: map[string]string{}}
	var f *os.File
	for _, p := range []string{"boot/firmware/config.txt", "boot/config.txt"} {
		var err error
		if f, err = os.Open(filepath.Join(root, p)); err == nil {
			b.shown = "/" + p
			break
		}
	}
	if f == nil {
		return b
	}
	defer f.Close()
	active := true
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			active = sectionApplies(strings.Trim(line, "[]"), kind)
			continue
		}
		if !active {
			continue
		}
		key, val, _ := strings.Cut(line, "=")
		switch key {
		case "dtparam":
			for _, p := range strings.Split(val, ",") {
				k, v, ok := strings.Cut(p, "=")
				if !ok {
					v = "on"
				}
				b.params[k] = v
			}
		case "dtoverlay":
			if val == "" { // a bare dtoverlay= ends the overlay's parameters
				continue
			}
			b.overlays = append(b.overlays, val)
		default:
			b.settings[key] = val
		}
	}
	return b
}

// sectionApplies tells whether a [filter] section of config.txt applies
// to kind. Filters it does not know (EDID, GPIO, serial numbers) are taken
// to apply.
func sectionApplies(filter string, kind pi.Kind) bool {
	switch filter {
	case "all":
		return true
	case "none":
		return false
	case "pi0", "pi0w", "pi1":
		return kind == pi.Pi1
	case "pi2":
		return kind == pi.Pi2
	case "pi3", "pi3+", "pi02", "cm3":
		return kind == pi.Pi3
	case "pi4", "pi400", "cm4", "cm4s":
		return kind == pi.Pi4
	case "pi5", "pi500", "cm5":
		return kind == pi.Pi5
	}
	return true
}

func (b *bootConfig) param(k string) string { return b.params[k] }

func (b *bootConfig) setting(k string) string { return b.settings[k] }

// spiChipSelects is how many chip selects config.txt gives SPI bus n (0:
// the bus is off).
func (b *bootConfig) spiChipSelects(n int) int {
	if n == 0 {
		if b.params["spi"] == "on" {
			return 2
		}
		return 0
	}
	cs := 0
	for _, o := range b.overlays {
		name, _, _ := strings.Cut(o, ",")
		var bus, k int
		if _, err := fmt.Sscanf(name, "spi%d-%dcs", &bus, &k); err == nil && bus == n {
			cs = max(cs, k)
		}
	}
	return cs
}

// spiLineFor is the config.txt line that enables SPI bus n, as written.
func (b *bootConfig) spiLineFor(n int) string {
	if n == 0 {
		return "dtparam=spi=on"
	}
	for _, o := range b.overlays {
		if strings.HasPrefix(o, fmt.Sprintf("spi%d-", n)) {
			return "dtoverlay=" + o
		}
	}
	return pins.SPILine(n, 0)
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
