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
		{"pi4", "Raspberry Pi 4 Model B Rev 1.4 (Pi 4)", 12, nil},
		{"pi3", "Raspberry Pi 3 Model B Plus Rev 1.3 (Pi 3/Zero 2 W)", 9, []want{
			{Fail, "spi1", "/dev/spidev1.0 is missing for the 74HC165 chain (sensors.hc165.spi /dev/spidev1.0): /boot/config.txt does not enable it",
				"add the line `dtoverlay=spi1-1cs` to /boot/config.txt, then run `sudo reboot`"},
			{Fail, "core", "need `core_freq=250`", "add the line `core_freq=250` to /boot/config.txt, then run `sudo reboot`"},
		}},
		{"pi5", "Raspberry Pi 5 Model B Rev 1.0 (Pi 5): GPIO through /dev/gpiochip* only", 6, []want{
			{Fail, "pins", "GPIO19 has two jobs: matrix column 8 (sensors.gpiomatrix.cols GPIO19) and SPI1 MISO (enabled by `dtoverlay=spi1-1cs` in /boot/firmware/config.txt, unused by boardd); give one of them another pin (docs/hardware.md lists the pins of each wiring); GPIO20 too",
				"remove the line `dtoverlay=spi1-1cs` from /boot/firmware/config.txt, then run `sudo reboot`"},
			{Fail, "groups", "boardd is not in the group gpio", "run `sudo usermod -aG gpio boardd && sudo systemctl restart boardd`"},
			{Warn, "time", "the clock is not synchronised", "run `sudo timedatectl set-ntp true` and check the network; the unit starts boardd after time-sync.target"},
		}},
		{"zero2w", "Raspberry Pi Zero 2 W Rev 1.0 (Pi 3/Zero 2 W)", 7, []want{
			{Fail, "i2c1", "the I²C bus runs at 100000 Hz (/boot/config.txt), but sensors.mcp23017.bus_hz is 400000",
				"add the line `dtparam=i2c_arm_baudrate=400000` to /boot/config.txt, then run `sudo reboot`"},
			{Fail, "groups", "there is no group spi here",
				"run `sudo groupadd --system spi && echo 'SUBSYSTEM==\"spidev\", GROUP=\"spi\", MODE=\"0660\"' | sudo tee -a /etc/udev/rules.d/60-boardd.rules && sudo udevadm control --reload && sudo udevadm trigger && sudo usermod -aG spi boardd`"},
			{Fail, "groups", "there is no group i2c here",
				"run `sudo groupadd --system i2c && echo 'SUBSYSTEM==\"i2c-dev\", GROUP=\"i2c\", MODE=\"0660\"' | sudo tee -a /etc/udev/rules.d/60-boardd.rules && sudo udevadm control --reload && sudo udevadm trigger && sudo usermod -aG i2c boardd`"},
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
	b := readBootConfig(filepath.Join(fixtures, "pi3"), 3)
	if b.setting("core_freq") != "" {
		t.Errorf("the [pi4] section's core_freq applied to a Pi 3: %q", b.setting("core_freq"))
	}
	if b.spiChipSelects(0) != 2 || b.spiChipSelects(1) != 0 {
		t.Errorf("SPI0 %d, SPI1 %d chip selects", b.spiChipSelects(0), b.spiChipSelects(1))
	}
	b = readBootConfig(filepath.Join(fixtures, "pi4"), 4)
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
