package doctor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/internal/pi"
)

const fixtures = "../../testdata/doctor"

// env loads a fixture tree as `boardd doctor --root DIR` does, with a
// fixed amount of free disk.
func env(t *testing.T, model string) Env {
	t.Helper()
	root := filepath.Join(fixtures, model)
	e := Env{Root: root, ConfigPath: "/etc/boardd/boardd.yaml", User: "boardd",
		Free: func(string) (uint64, error) { return 8 << 30, nil }}
	e.Config, e.ConfigErr = configs.Load(filepath.Join(root, e.ConfigPath))
	if e.ConfigErr != nil {
		t.Fatal(e.ConfigErr)
	}
	return e
}

// want is one finding that is not OK.
type want struct {
	level Level
	topic string
	msg   string // a part of the message
	fix   string // the whole fix
}

// Each Pi's fixture tree gives exactly these problems, each with the line
// to add or the command to run; everything else checks OK.
func TestFixtures(t *testing.T) {
	tests := []struct {
		model string
		first string // the model line
		oks   int
		want  []want
	}{
		{"pi4", "Raspberry Pi 4 Model B Rev 1.4 (Pi 4)", 15, nil},
		{"pi3", "Raspberry Pi 3 Model B Plus Rev 1.3 (Pi 3/Zero 2 W)", 11, []want{
			{Fail, "spi1", "/dev/spidev1.0 is missing for the 74HC165 chain (sensors.hc165.spi /dev/spidev1.0): /boot/config.txt does not enable it",
				"add the line `dtoverlay=spi1-1cs` to /boot/config.txt, then run `sudo reboot`"},
			{Fail, "core", "need `core_freq=250`", "add the line `core_freq=250` to /boot/config.txt, then run `sudo reboot`"},
		}},
		{"pi5", "Raspberry Pi 5 Model B Rev 1.0 (Pi 5): GPIO through /dev/gpiochip* only", 7, []want{
			{Fail, "pins", "GPIO19 has two jobs: matrix column 8 (sensors.gpiomatrix.cols GPIO19) and SPI1 MISO (`dtoverlay=spi1-1cs` in /boot/firmware/config.txt, unused by boardd); GPIO20 too",
				"remove the line `dtoverlay=spi1-1cs` from /boot/firmware/config.txt if nothing uses it, or give sensors.gpiomatrix.cols another pin, then run `sudo reboot`"},
			{Fail, "groups", "boardd is not in the group gpio", "run `sudo usermod -aG gpio boardd && sudo systemctl restart boardd`"},
			{Warn, "time", "the clock is not synchronised", "run `sudo timedatectl set-ntp true` and check the network; the unit starts boardd after time-sync.target"},
		}},
		{"zero2w", "Raspberry Pi Zero 2 W Rev 1.0 (Pi 3/Zero 2 W)", 8, []want{
			{Fail, "i2c1", "the I²C bus runs at 100000 Hz (/boot/config.txt), but sensors.mcp23017.bus_hz is 400000",
				"add the line `dtparam=i2c_arm_baudrate=400000` to /boot/config.txt, then run `sudo reboot`"},
			{Fail, "groups", "there is no group spi here",
				"run `sudo groupadd --system spi && echo 'SUBSYSTEM==\"spidev\", GROUP=\"spi\", MODE=\"0660\"' | sudo tee -a /etc/udev/rules.d/60-boardd.rules && sudo udevadm control --reload && sudo udevadm trigger && sudo usermod -aG spi boardd`"},
			{Fail, "groups", "there is no group i2c here",
				"run `sudo groupadd --system i2c && echo 'SUBSYSTEM==\"i2c-dev\", GROUP=\"i2c\", MODE=\"0660\"' | sudo tee -a /etc/udev/rules.d/60-boardd.rules && sudo udevadm control --reload && sudo udevadm trigger && sudo usermod -aG i2c boardd`"},
		}},
		// Issue 29: the 74HC165 chain in mode 2 on a Pi 4's auxiliary SPI1.
		{"pi4-mode2", "Raspberry Pi 4 Model B Rev 1.4 (Pi 4)", 14, []want{
			{Fail, "spimode", "sensors.hc165.spi_mode: mode 2 on SPI1 of a Pi 4 loses a bit: SPI1 there is the auxiliary controller (spi-bcm2835aux)",
				"set sensors.hc165.spi_mode: auto (or remove the line) in /etc/boardd/boardd.yaml, then run `sudo systemctl restart boardd`"},
		}},
		// Issue 29: what else holds the pins. spi1-3cs takes GPIO 16 (the
		// latch) as CE2; a w1-gpio line in an included file, moved to GPIO
		// 16 by a dtparam line after it, too; a [pi4] and a [pi0] section's
		// overlays are not read on a Pi 3 B+; enable_uart=1 takes 14/15,
		// which the board does not use.
		{"pi3-overlays", "Raspberry Pi 3 Model B Plus Rev 1.3 (Pi 3/Zero 2 W)", 13, []want{
			{Fail, "pins", "GPIO16 has two jobs: the 74HC165 latch (sensors.hc165.latch GPIO16) and SPI1 CE2 (`dtoverlay=spi1-3cs` in /boot/config.txt)",
				"replace the line `dtoverlay=spi1-3cs` in /boot/config.txt with `dtoverlay=spi1-1cs` (boardd uses only CE0 of SPI1, /dev/spidev1.0), then run `sudo reboot`"},
			{Fail, "pins", "GPIO16 has two jobs: the 74HC165 latch (sensors.hc165.latch GPIO16) and 1-Wire data (`dtoverlay=w1-gpio,gpiopin=16` in /boot/extraconfig.txt)",
				"move it off GPIO16: write the line as `dtoverlay=w1-gpio,gpiopin=4` in /boot/extraconfig.txt (GPIO4 is free) and wire that pin, or remove the line if nothing uses it, then run `sudo reboot`"},
		}},
		// Issue 29: a Pi Zero W (armhf) needs the core clock pinned for
		// WS2812 like a Pi 3; its supply sags; the LEDs have no budget.
		{"zerow", "Raspberry Pi Zero W Rev 1.1 (Pi 1/Zero)", 11, []want{
			{Fail, "core", "WS2812 LEDs on a Pi 1/Zero need `core_freq=250` in /boot/config.txt", "add the line `core_freq=250` to /boot/config.txt, then run `sudo reboot`"},
			{Warn, "power", "160 ws2812 LEDs at full white draw about 7.8 A, and leds.max_amps is 0 (no limit)",
				"set leds.max_amps in /etc/boardd/boardd.yaml to what the LED supply delivers after the Pi (e.g. 4 for a 5 V 5 A supply that also feeds the Pi)"},
			{Fail, "supply", "the Pi is under-voltage now (get_throttled 0x50005)", "use a 5.1 V supply rated for this Pi (1.2 A for a Zero, 2.5 A for a Pi 2 or 3, 3 A for a Pi 4, 5 A for a Pi 5) with a short, thick cable, and feed the LEDs from their own supply or straight from the supply's terminals, never through the Pi"},
		}},
		// A Pi 4 whose config.txt enables SPI6 (the pins of SPI1, on a
		// full controller) while the config names SPI1: use SPI6's device.
		{"pi4-spi6", "Raspberry Pi 4 Model B Rev 1.4 (Pi 4)", 13, []want{
			{Fail, "spi1", "/dev/spidev1.0 is missing for the 74HC165 chain (sensors.hc165.spi /dev/spidev1.0): /boot/firmware/config.txt does not enable it",
				"set sensors.hc165.spi: /dev/spidev6.0 in /etc/boardd/boardd.yaml (`dtoverlay=spi6-1cs` in /boot/firmware/config.txt enables SPI6 on the pins of SPI1, a full SPI controller), then run `sudo systemctl restart boardd`"},
			{Fail, "pins", "GPIO18 has two jobs: SPI1 CE0 (the 74HC165 chain, sensors.hc165.spi /dev/spidev1.0) and SPI6 CE0 (`dtoverlay=spi6-1cs` in /boot/firmware/config.txt, unused by boardd); GPIO19 too; GPIO20 too; GPIO21 too",
				"set sensors.hc165.spi: /dev/spidev6.0 in /etc/boardd/boardd.yaml (`dtoverlay=spi6-1cs` in /boot/firmware/config.txt enables SPI6 on the pins of SPI1, a full SPI controller), then run `sudo systemctl restart boardd`"},
		}},
		// A Pi 5 counts its own SPI pins: SPI3 is GPIO 4-7 there (0-3 on a
		// Pi 4), and it has no SPI6.
		{"pi5-spi", "Raspberry Pi 5 Model B Rev 1.0 (Pi 5)", 12, []want{
			{Warn, "pins", "`dtoverlay=spi6-1cs` in /boot/firmware/config.txt does nothing on a Pi 5",
				"remove the line from /boot/firmware/config.txt (docs/hardware.md lists the buses of each Pi), then run `sudo reboot`"},
			{Fail, "pins", "GPIO5 has two jobs: SPI3 MISO (the 74HC165 chain, sensors.hc165.spi /dev/spidev3.0) and the 74HC165 latch (sensors.hc165.latch GPIO5)",
				"edit /etc/boardd/boardd.yaml (sensors.hc165.latch)"},
			{Fail, "pins", "GPIO7 has two jobs: SPI3 SCLK (the 74HC165 chain, sensors.hc165.spi /dev/spidev3.0) and SPI0 CE1 (the ws2812 LEDs, leds.ws2812.spi /dev/spidev0.0)",
				"edit /etc/boardd/boardd.yaml (leds.ws2812.spi)"},
		}},
		// Issue 29: a Pi 2 has no Bluetooth, so its serial console holds
		// GPIO 14 and 15 unless config.txt says enable_uart=0.
		{"pi2", "Raspberry Pi 2 Model B Rev 1.1 (Pi 2)", 6, []want{
			{Fail, "pins", "GPIO14 has two jobs: matrix column 0 (sensors.gpiomatrix.cols GPIO14) and serial console TXD (on by default on a Pi 2: no enable_uart line, /boot/config.txt); GPIO15 too",
				"add the line `enable_uart=0` to /boot/config.txt (turns off the serial console on GPIO 14 and 15; remove any `enable_uart=1`), or give sensors.gpiomatrix.cols another pin, then run `sudo reboot`"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.model, func(t *testing.T) {
			got := Check(env(t, tc.model))
			if got[0].Topic != "model" || got[0].Level != OK || !strings.HasPrefix(got[0].Msg, tc.first) {
				t.Errorf("first finding %+v, want the model %q", got[0], tc.first)
			}
			oks := 0
			var bad []Finding
			for _, f := range got {
				if f.Level == OK {
					oks++
					if f.Fix != "" {
						t.Errorf("an OK finding with a fix: %+v", f)
					}
				} else {
					bad = append(bad, f)
				}
			}
			if oks != tc.oks {
				t.Errorf("%d OK findings, want %d", oks, tc.oks)
			}
			if len(bad) != len(tc.want) {
				t.Fatalf("findings:\n%s\nwant %d not OK", dump(got), len(tc.want))
			}
			for i, w := range tc.want {
				f := bad[i]
				if f.Level != w.level || f.Topic != w.topic || !strings.Contains(f.Msg, w.msg) || f.Fix != w.fix {
					t.Errorf("finding %d:\n got %v %s %q\n     fix %q\nwant %v %s …%q…\n     fix %q", i, f.Level, f.Topic, f.Msg, f.Fix, w.level, w.topic, w.msg, w.fix)
				}
			}
			var out bytes.Buffer
			if fails := Write(&out, got); fails != countFails(tc.want) {
				t.Errorf("Write counts %d failures, want %d", fails, countFails(tc.want))
			}
		})
	}
}

// The checks that do not depend on the Pi: a missing or bad config, a
// full disk, the live read of the switches, a machine that is not a Pi.
func TestOtherFindings(t *testing.T) {
	e := env(t, "pi4")
	e.Free = func(string) (uint64, error) { return 10 << 20, nil }
	e.Live = func() error {
		return errors.New("hc165: chain check failed: the byte after 20 chips read 0xff, want 0x00")
	}
	got := Check(e)
	if f := find(got, "disk"); f.Level != Fail || !strings.Contains(f.Msg, "only 10 MB free for the state directory /var/lib/boardd") {
		t.Errorf("disk: %+v", f)
	}
	if f := find(got, "switches"); f.Level != Fail || !strings.Contains(f.Msg, "chain check failed") || !strings.Contains(f.Fix, "boardd sensors --test") {
		t.Errorf("switches: %+v", f)
	}
	// A driver's error with a Hint (hc165's ChainError) puts the chip and
	// the wire to check first in the fix.
	e.Live = func() error {
		return fmt.Errorf("hc165: %w", hintErr("check the wire from chip 10's QH (pin 9) to chip 9's SER (pin 10) first"))
	}
	if f := find(Check(e), "switches"); f.Level != Fail || !strings.HasPrefix(f.Fix, "check the wire from chip 10's QH (pin 9) to chip 9's SER (pin 10) first; then ") || !strings.Contains(f.Fix, "boardd sensors --test") {
		t.Errorf("switches with a hint: %+v", f)
	}
	e.Live = func() error { return nil }
	if f := find(Check(e), "switches"); f.Level != OK {
		t.Errorf("switches read fine: %+v", f)
	}

	e = env(t, "pi4")
	e.ConfigErr = fmt.Errorf("config: open /etc/boardd/boardd.yaml: %w", os.ErrNotExist)
	if f := find(Check(e), "config"); f.Level != Fail || f.Fix != "install the package (`sudo apt install ./boardd_*.deb`), or run `boardd config example | sudo tee /etc/boardd/boardd.yaml`" {
		t.Errorf("no config: %+v", f)
	}
	e.User = "nobody-here"
	e.ConfigErr = nil
	if f := find(Check(e), "groups"); f.Level != Fail || f.Fix != "install the package (`sudo apt install ./boardd_*.deb` creates it), or run `sudo useradd --system --no-create-home nobody-here`" {
		t.Errorf("no user: %+v", f)
	}

	e = env(t, "pi4")
	e.Root = t.TempDir()
	got = Check(e)
	if got[0].Level != Warn || !strings.Contains(got[0].Msg, "not a Raspberry Pi") {
		t.Errorf("empty root: %+v", got[0])
	}
	if f := find(got, "spi1"); f.Level != Fail || f.Fix != "add the line `dtoverlay=spi1-1cs` to /boot/firmware/config.txt, then run `sudo reboot`" {
		t.Errorf("empty root, spi1: %+v", f)
	}
}

// config.txt: sections for other models are skipped, dtparam lists are
// split, and an overlay line is not an unused bus when the config uses it.
func TestBootConfigSections(t *testing.T) {
	b := readBootConfig(filepath.Join(fixtures, "pi3"), "Raspberry Pi 3 Model B Plus Rev 1.3", 3)
	if b.setting("core_freq") != "" {
		t.Errorf("the [pi4] section's core_freq applied to a Pi 3: %q", b.setting("core_freq"))
	}
	if b.spiChipSelects(0) != 2 || b.spiChipSelects(1) != 0 {
		t.Errorf("SPI0 %d, SPI1 %d chip selects", b.spiChipSelects(0), b.spiChipSelects(1))
	}
	b = readBootConfig(filepath.Join(fixtures, "pi4"), "Raspberry Pi 4 Model B Rev 1.4", 4)
	if b.setting("core_freq") != "500" || b.spiChipSelects(1) != 1 || b.shown != "/boot/firmware/config.txt" {
		t.Errorf("pi4: %+v", b)
	}
}

func find(fs []Finding, topic string) Finding {
	for _, f := range fs {
		if f.Topic == topic {
			return f
		}
	}
	return Finding{Topic: "none", Level: -1}
}

func countFails(ws []want) (n int) {
	for _, w := range ws {
		if w.level == Fail {
			n++
		}
	}
	return n
}

func dump(fs []Finding) string {
	var b bytes.Buffer
	Write(&b, fs)
	return b.String()
}

// hintErr is a driver error that knows where the fault is.
type hintErr string

func (h hintErr) Error() string { return "chain check failed" }
func (h hintErr) Hint() string  { return string(h) }

// The model filters of config.txt, as the Raspberry Pi documentation
// gives them: [pi0] is every Zero, [pi02] the Zero 2 W (which does not
// see [pi3]), [pi3+] a 3 B+/A+, [pi400] and [cm4] also see [pi4]; [all]
// resets; a filter this does not know leaves the state as it was.
func TestSectionApplies(t *testing.T) {
	models := map[string]string{
		"zero":   "Raspberry Pi Zero Rev 1.3",
		"zerow":  "Raspberry Pi Zero W Rev 1.1",
		"zero2w": "Raspberry Pi Zero 2 W Rev 1.0",
		"pi1":    "Raspberry Pi Model B Plus Rev 1.2",
		"pi2":    "Raspberry Pi 2 Model B Rev 1.1",
		"pi3":    "Raspberry Pi 3 Model B Rev 1.2",
		"pi3+":   "Raspberry Pi 3 Model B Plus Rev 1.3",
		"pi4":    "Raspberry Pi 4 Model B Rev 1.4",
		"pi400":  "Raspberry Pi 400 Rev 1.0",
		"cm4":    "Raspberry Pi Compute Module 4 Rev 1.0",
		"pi5":    "Raspberry Pi 5 Model B Rev 1.0",
	}
	tests := []struct {
		filter string
		on     string // the models it applies to
	}{
		{"pi0", "zero zerow zero2w"},
		{"pi0w", "zerow zero2w"},
		{"pi02", "zero2w"},
		{"pi1", "pi1"},
		{"pi2", "pi2"},
		{"pi3", "pi3 pi3+"},
		{"pi3+", "pi3+"},
		{"pi4", "pi4 pi400 cm4"},
		{"pi400", "pi400"},
		{"cm4", "cm4"},
		{"pi5", "pi5"},
		{"all", "zero zerow zero2w pi1 pi2 pi3 pi3+ pi4 pi400 cm4 pi5"},
		{"none", ""},
	}
	order := []string{"zero", "zerow", "zero2w", "pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "cm4", "pi5"}
	for _, tc := range tests {
		var on []string
		for _, m := range order {
			if sectionApplies(tc.filter, models[m], pi.KindOf(models[m]), false) {
				on = append(on, m)
			}
		}
		if strings.Join(on, " ") != tc.on {
			t.Errorf("[%s] applies to %v, want %s", tc.filter, on, tc.on)
		}
	}
	if !sectionApplies("EDID=VSC-TD2220", models["pi4"], pi.Pi4, true) || sectionApplies("gpio4=1", models["pi4"], pi.Pi4, false) {
		t.Error("an unknown filter changed the state")
	}
}

// An include file is read where it stands; a dtparam after a dtoverlay
// sets the overlay's own parameter, a base one otherwise; a bare
// dtoverlay= ends the overlay's parameters.
func TestBootConfigIncludesAndOverlayParams(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, "boot/firmware", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config.txt", "dtoverlay=w1-gpio\ndtparam=gpiopin=17\ndtparam=spi=on\ninclude more.txt\ninclude config.txt\n")
	write("more.txt", "dtoverlay=pwm\ndtoverlay=\ndtparam=pin=12\n[pi5]\ndtoverlay=uart0\n")
	b := readBootConfig(root, "Raspberry Pi 4 Model B Rev 1.4", pi.Pi4)
	var got []string
	for _, o := range b.overlays {
		got = append(got, o.line+" ("+o.file+")")
	}
	want := "[dtoverlay=w1-gpio,gpiopin=17 (/boot/firmware/config.txt) dtoverlay=pwm (/boot/firmware/more.txt)]"
	// config.txt including itself is read once more at most maxIncludes
	// deep; its overlays repeat, which changes no pin.
	if fmt.Sprint(got[:2]) != want || b.param("spi") != "on" || b.param("pin") != "12" {
		t.Errorf("overlays %v, params %v; want %s, spi and pin base params", got, b.params, want)
	}
}

// The firmware's flags: under-voltage now fails, since boot warns, heat
// warns, none is OK; no file (not a Pi, an old kernel) says nothing. The
// LEDs' budget: within it, dimmed to it.
func TestSupplyAndLEDBudget(t *testing.T) {
	for flags, want := range map[string]string{"0x50000": "WARN supply the Pi was under-voltage since it booted", "0x80008": "WARN supply the Pi throttled its clock for heat", "0x0": "ok supply no under-voltage", "junk": "WARN supply cannot read"} {
		e := env(t, "pi4")
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(e.Root)); err != nil {
			t.Fatal(err)
		}
		e.Root = root
		if err := os.WriteFile(filepath.Join(root, "sys/devices/platform/soc/soc:firmware/get_throttled"), []byte(flags+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f := find(Check(e), "supply")
		if got := fmt.Sprintf("%s %s %s", f.Level, f.Topic, f.Msg); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q…", flags, got, want)
		}
	}
	e := env(t, "pi4")
	if f := find(Check(e), "power"); f.Level != OK || !strings.Contains(f.Msg, "would draw about 7.8 A: frames are dimmed to leds.max_amps 4 A") {
		t.Errorf("budget under full white: %+v", f)
	}
	e.Config.LEDs.MaxAmps = 10
	if f := find(Check(e), "power"); f.Level != OK || !strings.Contains(f.Msg, "within leds.max_amps 10 A") {
		t.Errorf("budget over full white: %+v", f)
	}
	e.Root = t.TempDir()
	if f := find(Check(e), "supply"); f.Topic != "none" {
		t.Errorf("no flags file: %+v", f)
	}
}
