package ledreg_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "boardd/app/drivers" // the real drivers, and the checks handed to configs
	"boardd/configs"
	"boardd/leds"
	"boardd/leds/apa102"
	"boardd/leds/ledreg"
	"boardd/leds/ws2812"
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
		Name:  "rec",
		Power: leds.DefaultPower,
		Strip: func(l configs.LEDs, n int) (leds.Strip, error) {
			testStrip.n = n
			return testStrip, nil
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
		{"SPI LEDs on the switches' bus", "sensors:\n  driver: hc165\n  hc165:\n    spi: /dev/spidev0.0\nleds:\n  driver: ws2812\n", "f.yaml: line 6: leds.ws2812.spi:"},
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

// Each SPI LED driver owns its section (leds.apa102, leds.ws2812) and
// checks it; an old config's shared leds.spi and leds.speed_hz are still
// read into the sections with those keys, with a message saying where to
// move them; a driver's own key wins over the old shared one.
func TestDriverSections(t *testing.T) {
	tests := []struct {
		name       string
		yaml       string
		apa        apa102.Config
		ws         ws2812.Config
		deprecated string
		err        string
	}{
		{"defaults", "leds:\n  driver: apa102\n", apa102.Config{SPI: "/dev/spidev0.0", SpeedHz: 4000000}, ws2812.Config{SPI: "/dev/spidev0.0"}, "", ""},
		{"own sections", "leds:\n  driver: apa102\n  apa102:\n    spi: /dev/spidev0.1\n    speed_hz: 8000000\n  ws2812: {spi: /dev/spidev1.0}\n",
			apa102.Config{SPI: "/dev/spidev0.1", SpeedHz: 8000000}, ws2812.Config{SPI: "/dev/spidev1.0"}, "", ""},
		{"old shared keys", "leds:\n  driver: apa102\n  spi: /dev/spidev0.1\n  speed_hz: 2000000\n",
			apa102.Config{SPI: "/dev/spidev0.1", SpeedHz: 2000000}, ws2812.Config{SPI: "/dev/spidev0.1"},
			"line 3: leds.spi is deprecated: each LED driver has its own section now; move it to leds.apa102.spi or leds.ws2812.spi (read there for now)\n" +
				"line 4: leds.speed_hz is deprecated: each LED driver has its own section now; move it to leds.apa102.speed_hz (read there for now)", ""},
		{"the driver's own key wins", "leds:\n  driver: ws2812\n  spi: /dev/spidev0.1\n  ws2812:\n    spi: /dev/spidev1.0\n",
			apa102.Config{SPI: "/dev/spidev0.1", SpeedHz: 4000000}, ws2812.Config{SPI: "/dev/spidev1.0"},
			"line 3: leds.spi is deprecated: each LED driver has its own section now; move it to leds.apa102.spi or leds.ws2812.spi (read there for now)", ""},
		{"an old speed the driver refuses", "leds:\n  driver: apa102\n  speed_hz: 90000000\n", apa102.Config{}, ws2812.Config{}, "", "leds.apa102.speed_hz: 90000000: want 1 to 30000000 Hz"},
		{"the section's speed checked", "leds:\n  apa102: {speed_hz: 0}\n", apa102.Config{}, ws2812.Config{}, "", "f.yaml: line 2: leds.apa102.speed_hz: 0: want 1 to 30000000 Hz"},
		{"ws2812 has no speed", "leds:\n  ws2812:\n    speed_hz: 1\n", apa102.Config{}, ws2812.Config{}, "", "f.yaml: line 3: leds.ws2812: unknown key speed_hz"},
		{"a typo in a section", "leds:\n  apa102:\n    sped_hz: 1\n", apa102.Config{}, ws2812.Config{}, "", "f.yaml: line 3: leds.apa102: unknown key sped_hz (did you mean speed_hz?)"},
		{"no port for the selected driver", "leds:\n  driver: ws2812\n  ws2812: {spi: \"\"}\n", apa102.Config{}, ws2812.Config{}, "", "f.yaml: line 3: leds.ws2812.spi: empty: want the strip's SPI port"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := configs.Parse("f.yaml", []byte(tc.yaml))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := *configs.LEDsSection[apa102.Config](&d.LEDs, "apa102"); got != tc.apa {
				t.Errorf("leds.apa102 %+v, want %+v", got, tc.apa)
			}
			if got := *configs.LEDsSection[ws2812.Config](&d.LEDs, "ws2812"); got != tc.ws {
				t.Errorf("leds.ws2812 %+v, want %+v", got, tc.ws)
			}
			if got := strings.Join(d.LEDs.Deprecated(), "\n"); got != tc.deprecated {
				t.Errorf("deprecated:\n%s\nwant:\n%s", got, tc.deprecated)
			}
		})
	}
}

// The current each driver's chips draw is registered with the driver, and
// Open budgets a strip's frames with it and leds.max_amps.
func TestDriverPower(t *testing.T) {
	for name, want := range map[string]leds.Power{"apa102": apa102.Power, "ws2812": ws2812.Power, "rec": leds.DefaultPower} {
		if got := ledreg.Lookup(name).Power; got != want || got.ChannelMilliamps <= 0 {
			t.Errorf("%s: power %+v, want %+v", name, got, want)
		}
	}
	if apa102.Power.ChannelMilliamps != 20 || ws2812.Power.ChannelMilliamps != 16 {
		t.Errorf("per-channel figures: apa102 %v, ws2812 %v mA; want 20 and 16", apa102.Power.ChannelMilliamps, ws2812.Power.ChannelMilliamps)
	}
	l := configs.Defaults().LEDs
	l.Driver, l.MaxAmps, l.Gamma = "rec", 1, 1
	o, err := ledreg.Open(l, square.Cross(), ledreg.Env{})
	if err != nil {
		t.Fatal(err)
	}
	f := leds.NewFrame()
	for _, q := range square.Cross().Squares() {
		f.Set(q, leds.Color{R: 255, G: 255, B: 255})
	}
	testStrip.mu.Lock()
	before := len(testStrip.shows)
	testStrip.mu.Unlock()
	o.Show(f)
	var white []leds.Color
	for deadline := time.Now().Add(5 * time.Second); white == nil; time.Sleep(time.Millisecond) {
		testStrip.mu.Lock()
		if len(testStrip.shows) > before {
			white = testStrip.shows[before]
		}
		testStrip.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the white frame was never written")
		}
	}
	o.Close()
	ma := 0.0
	for _, c := range white {
		ma += leds.DefaultPower.IdleMilliamps + leds.DefaultPower.ChannelMilliamps*(float64(c.R)+float64(c.G)+float64(c.B))/255
	}
	if ma > 1000 || ma < 500 {
		t.Errorf("a white frame on a 1 A budget draws %.0f mA by the driver's figures, want at most 1000 (and not far below)", ma)
	}
}
