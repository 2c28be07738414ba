package pins

import (
	"slices"
	"strings"
	"testing"
)

// The cross board's documented wirings (docs/hardware.md) and the
// mistakes a builder can make, each with the exact GPIOs that end up with
// two jobs.
func TestConflicts(t *testing.T) {
	crossCols := []string{"GPIO17", "GPIO27", "GPIO22", "GPIO23", "GPIO24", "GPIO25", "GPIO4", "GPIO16", "GPIO19", "GPIO20"}
	rowSPICols := []string{"GPIO17", "GPIO27", "GPIO22", "GPIO23", "GPIO24", "GPIO25", "GPIO4", "GPIO16", "GPIO5", "GPIO6"}
	square16Cols := append(slices.Clone(crossCols), "GPIO18", "GPIO21", "GPIO2", "GPIO3", "GPIO14", "GPIO15")
	square16RowSPICols := []string{"GPIO17", "GPIO27", "GPIO22", "GPIO23", "GPIO24", "GPIO25", "GPIO4", "GPIO16", "GPIO5", "GPIO6", "GPIO13", "GPIO26", "GPIO12", "GPIO2", "GPIO3", "GPIO14"}
	decoder := func(w *Wiring) {
		for i, p := range []string{"GPIO5", "GPIO6", "GPIO13", "GPIO26"} {
			must(t, w.GPIO(p, "decoder A"+string(rune('0'+i)), "rows"))
		}
		must(t, w.GPIO("GPIO12", "decoder enable", "decoder_enable"))
	}
	cols := func(c []string) func(*Wiring) {
		return func(w *Wiring) {
			for _, p := range c {
				must(t, w.GPIO(p, "column", "cols"))
			}
		}
	}
	spi := func(dev, key string) func(*Wiring) {
		return func(w *Wiring) { must(t, w.SPI(dev, key, key)) }
	}
	gpio := func(name, key string) func(*Wiring) {
		return func(w *Wiring) { must(t, w.GPIO(name, key, key)) }
	}
	i2c := func(bus string) func(*Wiring) {
		return func(w *Wiring) { must(t, w.I2C(bus, "mcp", "bus")) }
	}
	tests := []struct {
		name  string
		build []func(*Wiring)
		want  []int // GPIOs with two jobs
	}{
		{"74HC165 on SPI1, APA102 on SPI0", []func(*Wiring){spi("/dev/spidev1.0", "hc165"), gpio("GPIO16", "latch"), spi("/dev/spidev0.0", "leds")}, nil},
		{"74HC165, WS2812 on SPI0", []func(*Wiring){spi("/dev/spidev1.0", "hc165"), gpio("GPIO16", "latch"), spi("/dev/spidev0.0", "leds")}, nil},
		{"matrix with decoder, APA102", []func(*Wiring){decoder, cols(crossCols), spi("/dev/spidev0.0", "leds")}, nil},
		{"matrix with 74HC595 rows, fixed columns", []func(*Wiring){spi("/dev/spidev1.0", "row_spi"), cols(rowSPICols), spi("/dev/spidev0.0", "leds")}, nil},
		{"matrix with 74HC595 rows, the old table's columns", []func(*Wiring){spi("/dev/spidev1.0", "row_spi"), cols(crossCols)}, []int{19, 20}},
		{"square16 matrix with decoder", []func(*Wiring){decoder, cols(square16Cols), spi("/dev/spidev0.0", "leds")}, nil},
		{"square16 matrix with 74HC595 rows", []func(*Wiring){spi("/dev/spidev1.0", "row_spi"), cols(square16RowSPICols), spi("/dev/spidev0.0", "leds")}, nil},
		{"square16 decoder columns with 74HC595 rows", []func(*Wiring){spi("/dev/spidev1.0", "row_spi"), cols(square16Cols)}, []int{18, 19, 20, 21}},
		{"switches and LEDs on one bus", []func(*Wiring){spi("/dev/spidev1.0", "hc165"), gpio("GPIO16", "latch"), spi("SPI1.0", "leds")}, []int{18, 19, 20, 21}},
		{"LEDs on SPI0 CE1 with switches on CE0", []func(*Wiring){spi("/dev/spidev0.0", "hc165"), gpio("GPIO16", "latch"), spi("/dev/spidev0.1", "leds")}, []int{7, 8, 9, 10, 11}},
		{"latch on the LEDs' MOSI", []func(*Wiring){spi("/dev/spidev1.0", "hc165"), gpio("GPIO10", "latch"), spi("/dev/spidev0.0", "leds")}, []int{10}},
		{"latch on CE2 of SPI1", []func(*Wiring){spi("/dev/spidev1.2", "hc165"), gpio("P1_36", "latch")}, []int{16}},
		{"column on I2C SCL", []func(*Wiring){i2c(""), cols([]string{"GPIO4", "3"})}, []int{3}},
		{"I2C bus 0 is the HAT EEPROM pins", []func(*Wiring){i2c("/dev/i2c-0"), gpio("GPIO0", "latch"), gpio("GPIO2", "x")}, []int{0}},
		{"one column listed twice", []func(*Wiring){cols([]string{"GPIO5", "GPIO6", "GPIO5"})}, []int{5}},
		{"header pin and GPIO name of one pin", []func(*Wiring){gpio("P1_40", "latch"), spi("/dev/spidev1.0", "hc165")}, []int{21}},
		{"SPI6 shares SPI1's pins", []func(*Wiring){spi("/dev/spidev6.0", "hc165"), spi("/dev/spidev1.0", "rows")}, []int{18, 19, 20, 21}},
		{"unknown SPI bus: not checked", []func(*Wiring){spi("/dev/spidev7.0", "hc165"), gpio("GPIO19", "latch")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w Wiring
			for _, b := range tc.build {
				b(&w)
			}
			var got []int
			for _, c := range w.Conflicts() {
				got = append(got, c.GPIO)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("GPIOs with two jobs: %v, want %v\n%v", got, tc.want, w.Conflicts())
			}
		})
	}
}

func TestConflictNamesBothJobs(t *testing.T) {
	var w Wiring
	must(t, w.SPI("/dev/spidev1.0", "the 74HC595 rows", "sensors.gpiomatrix.row_spi"))
	must(t, w.GPIO("GPIO19", "matrix column 8", "sensors.gpiomatrix.cols"))
	c := w.Conflicts()
	if len(c) != 1 {
		t.Fatalf("conflicts %v, want one", c)
	}
	want := "GPIO19 has two jobs: SPI1 MISO (the 74HC595 rows, sensors.gpiomatrix.row_spi /dev/spidev1.0) and matrix column 8 (sensors.gpiomatrix.cols GPIO19); give one of them another pin"
	if !strings.HasPrefix(c[0].Error(), want) || c[0].Second.Key != "sensors.gpiomatrix.cols" {
		t.Errorf("got %q (key %s)\nwant %q…", c[0].Error(), c[0].Second.Key, want)
	}
}

func TestSPIPins(t *testing.T) {
	tests := []struct {
		dev  string
		want []int
	}{
		{"/dev/spidev0.0", []int{9, 10, 11, 8, 7}},
		{"/dev/spidev1.0", []int{19, 20, 21, 18}},
		{"/dev/spidev1.1", []int{19, 20, 21, 17}},
		{"SPI1.2", []int{19, 20, 21, 16}},
		{"/dev/spidev3.0", []int{1, 2, 3, 0}},
		{"/dev/spidev4.0", []int{5, 6, 7, 4}},
		{"/dev/spidev5.0", []int{13, 14, 15, 12}},
		{"/dev/spidev6.1", []int{19, 20, 21, 27}},
		{"/dev/spidev0.5", nil},
		{"spi", nil},
	}
	for _, tc := range tests {
		var w Wiring
		must(t, w.SPI(tc.dev, "x", "k"))
		var got []int
		for _, j := range w.Jobs {
			got = append(got, j.GPIO)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: GPIOs %v, want %v", tc.dev, got, tc.want)
		}
	}
}

func TestParseGPIO(t *testing.T) {
	tests := []struct {
		name string
		want int
		err  string
	}{
		{"GPIO16", 16, ""}, {"16", 16, ""}, {"P1_36", 16, ""}, {"P1_3", 2, ""}, {"P1_27", 0, ""}, {"GPIO27", 27, ""},
		{"P1_1", 0, `"P1_1": not a GPIO pin`}, {"GPIO28", 0, `"GPIO28": want a GPIO name`}, {"LATCH", 0, `"LATCH": want a GPIO name`},
	}
	for _, tc := range tests {
		got, err := ParseGPIO(tc.name)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A wiring records the buses its jobs use (for boardd doctor's bus
// checks), including buses whose pins it does not know, and whether any
// job is a single GPIO.
func TestBusesAndSingleGPIOs(t *testing.T) {
	tests := []struct {
		name     string
		add      func(w *Wiring)
		buses    []Bus
		usesGPIO bool
	}{
		{"nothing", func(w *Wiring) {}, nil, false},
		{"74HC165 chain and APA102s", func(w *Wiring) {
			w.SPI("/dev/spidev1.0", "the 74HC165 chain", "sensors.hc165.spi")
			w.GPIO("GPIO16", "the 74HC165 latch", "sensors.hc165.latch")
			w.SPI("/dev/spidev0.0", "the apa102 LEDs", "leds.spi")
		}, []Bus{{N: 1, Dev: "/dev/spidev1.0", Who: "the 74HC165 chain", Key: "sensors.hc165.spi"}, {N: 0, Dev: "/dev/spidev0.0", Who: "the apa102 LEDs", Key: "leds.spi"}}, true},
		{"MCP23017s on the default bus", func(w *Wiring) { w.I2C("", "the MCP23017s", "sensors.mcp23017.bus") },
			[]Bus{{I2C: true, N: 1, Dev: "/dev/i2c-1", Who: "the MCP23017s", Key: "sensors.mcp23017.bus"}}, false},
		{"a bus whose pins are unknown", func(w *Wiring) {
			w.I2C("/dev/i2c-22", "the MCP23017s", "sensors.mcp23017.bus")
			w.SPI("SPI2.1", "rows", "k")
		},
			[]Bus{{I2C: true, N: 22, Dev: "/dev/i2c-22", Who: "the MCP23017s", Key: "sensors.mcp23017.bus"}, {N: 2, CS: 1, Dev: "/dev/spidev2.1", Who: "rows", Key: "k"}}, false},
		{"a bad pin name still uses GPIOs", func(w *Wiring) { w.GPIO("GPIO99", "latch", "k") }, nil, true},
		{"an empty pin name is no job", func(w *Wiring) { w.GPIO("", "decoder enable", "k"); w.SPI("", "x", "k") }, nil, false},
	}
	for _, tc := range tests {
		var w Wiring
		tc.add(&w)
		if !slices.Equal(w.Buses, tc.buses) || w.UsesGPIO != tc.usesGPIO {
			t.Errorf("%s: buses %+v, single GPIOs %v; want %+v, %v", tc.name, w.Buses, w.UsesGPIO, tc.buses, tc.usesGPIO)
		}
	}
}

// A Pi 5's RP1 has SPI2, SPI3 and SPI5 on other header pins than a Pi 4
// (the firmware's overlay_map loads spiN-Mcs-pi5 for spiN-Mcs there) and
// no SPI4 or SPI6 on the header.
func TestPi5SPIBuses(t *testing.T) {
	tests := []struct {
		dev  string
		pi5  bool
		want []int
	}{
		{"/dev/spidev3.0", false, []int{1, 2, 3, 0}},
		{"/dev/spidev3.0", true, []int{5, 6, 7, 4}},
		{"/dev/spidev2.0", true, []int{1, 2, 3, 0}},
		{"/dev/spidev5.1", true, []int{13, 14, 15, 26}},
		{"/dev/spidev1.0", true, []int{19, 20, 21, 18}},
		{"/dev/spidev6.0", false, []int{19, 20, 21, 18}},
		{"/dev/spidev6.0", true, nil},
		{"/dev/spidev4.0", true, nil},
	}
	for _, tc := range tests {
		w := &Wiring{Pi5: tc.pi5}
		if err := w.SPI(tc.dev, "chain", "sensors.hc165.spi"); err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, j := range w.Jobs {
			got = append(got, j.GPIO)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s (Pi 5 %v): pins %v, want %v", tc.dev, tc.pi5, got, tc.want)
		}
	}
	if w := (&Wiring{}); !w.SameSPIPins(1, 6) || w.SameSPIPins(1, 3) {
		t.Error("on a Pi 4 SPI6 is on SPI1's pins and SPI3 is not")
	}
}

func TestLoadedOverlays(t *testing.T) {
	tests := []struct {
		name   string
		pi5    bool
		loaded string
		ok     bool
	}{
		{"spi3-1cs", false, "spi3-1cs", true},
		{"spi3-1cs", true, "spi3-1cs-pi5", true},
		{"spi5-2cs", true, "spi5-2cs-pi5", true},
		{"spi1-1cs", true, "spi1-1cs", true},
		{"spi6-1cs", true, "", false},
		{"spi4-2cs", true, "", false},
		{"spi2-1cs-pi5", false, "spi2-1cs-pi5", false},
		{"w1-gpio", true, "w1-gpio", true},
	}
	for _, tc := range tests {
		loaded, ok := Loaded(tc.name, tc.pi5)
		if ok != tc.ok || ok && loaded != tc.loaded {
			t.Errorf("Loaded(%q, pi5 %v) = %q, %v; want %q, %v", tc.name, tc.pi5, loaded, ok, tc.loaded, tc.ok)
		}
	}
	if what, ps, known := Overlay("spi3-1cs-pi5", nil); !known || what != "SPI3" || len(ps) != 4 || ps[0].GPIO != 5 {
		t.Errorf("spi3-1cs-pi5: %s %v %v", what, ps, known)
	}
}
