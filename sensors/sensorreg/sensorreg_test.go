package sensorreg_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "boardd/app/drivers" // the real drivers, and the checks handed to configs
	"boardd/configs"
	"boardd/internal/pins"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/hc165"
	"boardd/sensors/mcp23017"
	"boardd/sensors/sensorreg"
	"boardd/sensors/sim"
)

// fake is a driver registered by this test, as a new driver package
// would: a config selects it by name, its check and pin jobs run with the
// config's, and Open opens it.
type fake struct{ bits int }

func (f fake) Bits() int                    { return f.bits }
func (f fake) Read(fr *sensors.Frame) error { return nil }

func init() {
	sensorreg.Register(&sensorreg.Driver{
		Name: "fake",
		Check: func(c *configs.Checking) error {
			if c.Config.Sensors.Driver == "fake" && c.Config.Sensors.Rate > 500 {
				return c.Errorf("sensors.rate", "%v: the fake board scans at most 500 times a second", c.Config.Sensors.Rate)
			}
			return nil
		},
		Pins: func(d *configs.Daemon, w *pins.Wiring) error {
			return w.GPIO("GPIO5", "the fake's strobe", "sensors.driver")
		},
		Bits: func(*configs.Daemon) int { return 168 },
		Open: func(*configs.Daemon, sensorreg.Env) (sensors.Source, func(), error) { return fake{168}, nil, nil },
	})
}

func TestRegisteredDrivers(t *testing.T) {
	want := []string{"fake", "gpiomatrix", "hc165", "mcp23017", "sim"}
	if got := sensorreg.Names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	if got := sensorreg.Want(); got != "fake, gpiomatrix, hc165, mcp23017 or sim" {
		t.Errorf("Want() = %q", got)
	}
	if d := sensorreg.Lookup("sim"); d == nil || !d.Simulated {
		t.Errorf("sim: %+v, want a driver that plays scripts", d)
	}
	if sensorreg.Lookup("hc165").Simulated {
		t.Error("hc165 plays scripts")
	}
}

// A config selects a registered driver by name, and the driver's own
// check and pins run with the config's; an unknown name lists the drivers.
func TestConfigGoesThroughTheRegistry(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"the test's driver", "sensors:\n  driver: fake\n", ""},
		{"its own check", "sensors:\n  driver: fake\n  rate: 600\n", "f.yaml: line 3: sensors.rate: 600: the fake board scans at most 500 times a second"},
		{"not its check when not selected", "sensors:\n  rate: 600\n", ""},
		{"its pins", "sensors:\n  driver: fake\nleds:\n  driver: apa102\n  spi: /dev/spidev0.0\n", ""},
		{"an unselected driver's pins are no jobs", "sensors:\n  driver: fake\n  hc165:\n    latch: GPIO5\n", ""},
		{"unknown", "sensors:\n  driver: plate\n", `f.yaml: line 2: sensors.driver: "plate": want fake, gpiomatrix, hc165, mcp23017, sim`},
		{"listen needs scripts", "sensors:\n  driver: fake\n  listen: \"127.0.0.1:7165\"\n", "f.yaml: line 3: sensors.listen: only the sim driver takes switch scripts over the network"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := configs.Parse("f.yaml", []byte(tc.yaml))
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	d := configs.Defaults()
	d.Sensors.Driver = "fake"
	w, err := d.Pins()
	if err != nil || len(w.Jobs) != 1 || !strings.HasPrefix(w.Jobs[0].What, "the fake's strobe") {
		t.Errorf("Pins() = %+v, %v; want the fake's strobe", w, err)
	}
}

func TestBits(t *testing.T) {
	tests := []struct {
		yaml string
		want int
	}{
		{"sensors:\n  driver: sim\n", sensors.MaxBits}, // the sim's map is its own
		{"sensors:\n  driver: fake\n", 168},
		{"sensors:\n  driver: hc165\n", 160},
		{"board_shape: square16\nsensors:\n  driver: hc165\n", 256},
		{"sensors:\n  driver: hc165\n  hc165: {chips: 24}\n", 192},
		{"sensors:\n  driver: mcp23017\n  rate: 100\n", 168},
		{"sensors:\n  driver: sim\n  mcp23017: {mode: direct}\n", 14 * 8}, // read as mcp23017 below: the check refuses it selected
		{"sensors:\n  driver: gpiomatrix\n  gpiomatrix: {decoder: true, rows: [GPIO5, GPIO6, GPIO12, GPIO13], cols: [GPIO14, GPIO15, GPIO17, GPIO27, GPIO22, GPIO23, GPIO24, GPIO25, GPIO4, GPIO16]}\n", 160},
		{"sensors:\n  driver: gpiomatrix\n  gpiomatrix: {row_spi: /dev/spidev0.0, row_count: 14, cols: [GPIO14, GPIO15, GPIO17, GPIO27, GPIO22, GPIO23, GPIO24, GPIO25, GPIO4, GPIO16, GPIO5, GPIO6]}\n", 168},
	}
	for _, tc := range tests {
		d, err := configs.Parse("f.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		if strings.Contains(tc.yaml, "direct") {
			d.Sensors.Driver = "mcp23017"
		}
		if got := sensorreg.Bits(&d); got != tc.want {
			t.Errorf("%q: Bits = %d, want %d", tc.yaml, got, tc.want)
		}
	}
}

func TestOpen(t *testing.T) {
	d := configs.Defaults()
	now := func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	src, closer, err := sensorreg.Open(&d, sensorreg.Env{Now: now, Start: sim.StartPosition()})
	if err != nil || closer != nil {
		t.Fatalf("sim: %v, closer %v", err, closer != nil)
	}
	b, ok := src.(*sim.Board)
	if !ok || b.Occupied() != sim.StartPosition() {
		t.Errorf("sim opened %T with the wrong pieces", src)
	}
	d.BoardShape = "square16"
	if src, _, err := sensorreg.Open(&d, sensorreg.Env{}); err != nil || src.(*sim.Board).Squares().Len() != 256 {
		t.Errorf("sim on square16: %v", err)
	}
	d.Sensors.Driver = "plate"
	if _, _, err := sensorreg.Open(&d, sensorreg.Env{}); !errors.Is(err, sensorreg.ErrUsage) || !strings.Contains(err.Error(), `--driver "plate": want fake, gpiomatrix`) {
		t.Errorf("unknown driver: %v", err)
	}
	d.Sensors.Driver = "gpiomatrix"
	if _, _, err := sensorreg.Open(&d, sensorreg.Env{}); !errors.Is(err, sensorreg.ErrUsage) {
		t.Errorf("gpiomatrix without pins: %v, want a usage error", err)
	}
}

func TestRegisterRefusesMistakes(t *testing.T) {
	open := func(*configs.Daemon, sensorreg.Env) (sensors.Source, func(), error) { return nil, nil, nil }
	for _, d := range []*sensorreg.Driver{{Name: "sim", Open: open}, {Name: "", Open: open}, {Name: "noopen"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", d.Name)
				}
			}()
			sensorreg.Register(d)
		}()
	}
}

// board_shape: square16 sizes the hardware for 256 squares; cross14 (the
// default) for 160.
func TestBoardShape(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "")
	for _, tc := range []struct {
		yaml          string
		squares, chip int
		addrs         string
	}{
		{"", 160, 20, "[0x20 0x21 0x22]"},
		{"board_shape: cross14\n", 160, 20, "[0x20 0x21 0x22]"},
		{"board_shape: square16\n", 256, 32, "[0x20 0x21 0x22 0x23 0x24]"},
		{"board_shape: square16\nsensors: {hc165: {chips: 33}, mcp23017: {addrs: [\"0x27\"]}}\n", 256, 33, "[0x27]"},
		{"board_shape: square16\nsensors: {mcp23017: {mode: direct}}\n", 256, 32, "[0x20 0x21 0x22 0x23 0x24 0x25 0x26 0x27]"},
	} {
		d, err := configs.Parse("f.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		if d.Squares().Len() != tc.squares || hc165.Chips(&d) != tc.chip || fmt.Sprint(mcp23017.Addrs(&d)) != tc.addrs {
			t.Errorf("%q: %d squares, %d chips, addrs %v; want %d, %d, %s", tc.yaml, d.Squares().Len(), hc165.Chips(&d), mcp23017.Addrs(&d), tc.squares, tc.chip, tc.addrs)
		}
	}
}

// Whatever the driver, a configuration that reads fewer switches than
// the board has squares is refused before anything opens.
func TestTooFewSwitches(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"sensors:\n  driver: gpiomatrix\n  gpiomatrix: {rows: [GPIO5], cols: [GPIO6]}\n", "f.yaml: line 2: sensors.driver: gpiomatrix as configured reads 1 switches, but the cross14 board has 160 squares"},
		{"board_shape: square16\nsensors:\n  driver: gpiomatrix\n  gpiomatrix: {decoder: true, rows: [GPIO5, GPIO6, GPIO12, GPIO13], cols: [GPIO14, GPIO15, GPIO17, GPIO27, GPIO22, GPIO23, GPIO24, GPIO25, GPIO4, GPIO16]}\n", "reads 160 switches, but the square16 board has 256 squares"},
	} {
		if _, err := configs.Parse("f.yaml", []byte(tc.yaml)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

// The wiring map file is checked with the config: it exists, and maps the
// board's squares onto no more bits than the configured driver reads.
func TestConfigChecksTheWiringMap(t *testing.T) {
	dir := t.TempDir()
	var rows strings.Builder
	rows.WriteString("squares:\n")
	sqs := square.Cross().Squares()
	for i := 0; i < len(sqs); i += 8 {
		rows.WriteString("  - [")
		for j, q := range sqs[i : i+8] {
			if j > 0 {
				rows.WriteString(", ")
			}
			rows.WriteString(q.String())
		}
		rows.WriteString("]\n")
	}
	good := filepath.Join(dir, "wiring.yaml")
	os.WriteFile(good, []byte(rows.String()), 0o644)
	tests := []struct{ name, yaml, want string }{
		{"a map of 160 bits", "sensors:\n  wiring: " + good + "\n", ""},
		{"on a chain of 20 chips", "sensors:\n  driver: hc165\n  wiring: " + good + "\n", ""},
		{"on two expanders wired directly", "sensors:\n  driver: mcp23017\n  mcp23017: {mode: direct, addrs: [\"0x20\", \"0x21\"]}\n  wiring: " + good + "\n", "f.yaml: line 3: sensors.mcp23017.mode: direct: 2 chips read 14 switches each, 28 in all"},
		{"missing", "sensors:\n  wiring: " + filepath.Join(dir, "none.yaml") + "\n", "f.yaml: line 2: sensors.wiring: open " + filepath.Join(dir, "none.yaml")},
	}
	for _, tc := range tests {
		_, err := configs.Parse("f.yaml", []byte(tc.yaml))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
