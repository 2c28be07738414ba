package ledreg_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"boardd/configs"
	_ "boardd/internal/drivers" // the real drivers, and the checks handed to configs
	"boardd/leds"
	"boardd/leds/ledreg"
	"boardd/rules/square"
)

// recStrip keeps what it was shown.
type recStrip struct {
	mu    sync.Mutex
	n     int
	shows [][]leds.Color
}

func (s *recStrip) Len() int { return s.n }
func (s *recStrip) Show(px []leds.Color) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shows = append(s.shows, append([]leds.Color(nil), px...))
	return nil
}

var testStrip = &recStrip{}

// A driver registered by this test, as a new driver package would.
func init() {
	ledreg.Register(&ledreg.Driver{
		Name: "rec",
		Strip: func(l configs.LEDs, n int) (leds.Strip, leds.Power, error) {
			testStrip.n = n
			return testStrip, leds.DefaultPower, nil
		},
	})
}

func TestRegisteredDrivers(t *testing.T) {
	if got := strings.Join(ledreg.Names(), " "); got != "apa102 none rec term ws2812" {
		t.Errorf("Names() = %s", got)
	}
}

func TestConfigGoesThroughTheRegistry(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "leds.yaml")
	os.WriteFile(bad, []byte("order:\n  - a1\n"), 0o644)
	tests := []struct{ name, yaml, want string }{
		{"the test's driver", "leds:\n  driver: rec\n", ""},
		{"unknown", "leds:\n  driver: neon\n", `f.yaml: line 2: leds.driver: "neon": want apa102, none, rec, term, ws2812`},
		{"a map that does not fit", "leds:\n  driver: term\n  map: " + bad + "\n", "f.yaml: line 3: leds.map: " + bad + ": line 2: LED 0: \"a1\" is not a square of the board"},
		{"none reads no map", "leds:\n  driver: none\n  map: " + filepath.Join(dir, "missing.yaml") + "\n", ""},
		{"SPI LEDs on the switches' bus", "sensors:\n  driver: hc165\n  hc165:\n    spi: /dev/spidev0.0\nleds:\n  driver: ws2812\n", "f.yaml: line 6: leds.spi:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := configs.Parse("f.yaml", []byte(tc.yaml))
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestOpen(t *testing.T) {
	l := configs.Defaults().LEDs
	if o, err := ledreg.Open(l, square.Cross(), ledreg.Env{}); o != nil || err != nil {
		t.Errorf("none: %v, %v; want nothing", o, err)
	}
	var nilOut *ledreg.Out
	nilOut.Show(leds.NewFrame()) // a nil Out shows nothing
	if err := nilOut.Close(); err != nil {
		t.Error(err)
	}

	// term draws changed frames only.
	var term bytes.Buffer
	l.Driver = "term"
	o, err := ledreg.Open(l, square.Cross(), ledreg.Env{Term: &term})
	if err != nil {
		t.Fatal(err)
	}
	f := leds.NewFrame()
	f.Set(square.Cross().Squares()[0], leds.Color{R: 255})
	o.Show(f)
	n := term.Len()
	o.Show(f)
	if n == 0 || term.Len() != n {
		t.Errorf("term drew %d bytes, then %d more for the same frame", n, term.Len()-n)
	}

	// A strip: rendered through the map, dark after Close.
	l.Driver, l.Brightness = "rec", 128
	o, err = ledreg.Open(l, square.Full(), ledreg.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if testStrip.n != 256 {
		t.Errorf("strip of %d LEDs on 16×16, want 256", testStrip.n)
	}
	o.Show(f)
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	testStrip.mu.Lock()
	last := testStrip.shows[len(testStrip.shows)-1]
	testStrip.mu.Unlock()
	for i, c := range last {
		if c != leds.Off {
			t.Fatalf("LED %d is %v after Close", i, c)
		}
	}

	l.Driver = "neon"
	if _, err := ledreg.Open(l, square.Cross(), ledreg.Env{}); err == nil || !strings.Contains(err.Error(), `leds.driver "neon": want apa102, none, rec`) {
		t.Errorf("unknown driver: %v", err)
	}
}
