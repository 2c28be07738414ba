// Package pins knows which Raspberry Pi GPIOs the board's hardware takes
// and finds pins given two jobs: a matrix column on an SPI bus's MOSI, a
// latch on an I²C line, two drivers on one SPI bus.
//
// A Wiring collects Jobs: single GPIOs (a latch, a matrix row or column,
// a decoder address pin), whole SPI buses (every pin the kernel's overlay
// claims for the bus: MOSI, MISO, SCLK and the chip select in use) and
// I²C buses (SDA, SCL). Conflicts lists every GPIO that has more than one
// job. Numbers are BCM GPIO numbers, the same on every Pi with the 40-pin
// header (Pi 1 B+ to Pi 5, Zero, Zero 2 W).
//
// SPI buses are counted as the overlays docs/hardware.md gives set them
// up: SPI0 (dtparam=spi=on) takes GPIO 7–11 (both chip selects); SPI1
// (dtoverlay=spi1-1cs) takes GPIO 18–21; SPI3–6 (Pi 4 and 5, the *-1cs
// overlays) take their four pins; a Pi 5 (Wiring.Pi5) has SPI2, SPI3 and
// SPI5 on other pins and no SPI4 or SPI6 on the header. None of the board's chips has a chip
// select input that keeps it off the bus (a 74HC165 drives QH whenever it
// is clocked, an APA102 or WS2812 takes whatever comes down MOSI), so two
// drivers on one bus conflict even on different chip selects.
package pins

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Job is one use of one GPIO.
type Job struct {
	// GPIO is the BCM number.
	GPIO int
	// What says what the pin does, e.g. "SPI1 MISO (sensors.hc165.spi /dev/spidev1.0)".
	What string
	// Key is the config key that gave the pin this job.
	Key string
	// owner groups the pins of one bus claim (a bus job conflicts with
	// another claim, never with itself).
	owner int
}

// Conflict is a GPIO with two jobs.
type Conflict struct {
	GPIO int
	// First and Second are the jobs in the order they were added.
	First, Second Job
}

// Error says which pin has which two jobs and what to do.
func (c Conflict) Error() string {
	return fmt.Sprintf("GPIO%d has two jobs: %s and %s; give one of them another pin (docs/hardware.md lists the pins of each wiring)", c.GPIO, c.First.What, c.Second.What)
}

// Wiring is the set of pin jobs of one board. The zero value is empty.
type Wiring struct {
	Jobs []Job
	// Buses are the SPI and I²C buses the jobs use, in the order they
	// were added, including buses whose pins this package does not know.
	Buses []Bus
	// UsesGPIO says a job drives or reads a single GPIO (through the GPIO
	// character device, /dev/gpiochip*), not only buses.
	UsesGPIO bool
	// Pi5 says the wiring is on a Pi 5, whose SPI2, SPI3 and SPI5 sit on
	// other pins (set it before adding jobs; the zero value counts the
	// buses as a Pi 1-4 has them).
	Pi5    bool
	owners int
}

// Bus is one SPI or I²C bus a wiring uses.
type Bus struct {
	I2C bool
	// N is the bus number, CS the SPI chip select.
	N, CS int
	// Dev is the device file: /dev/spidev1.0, /dev/i2c-1.
	Dev string
	// Who uses it ("the 74HC165 chain") and Key is the config key that
	// names it.
	Who, Key string
	// Hz is the clock the config says an I²C bus runs at (0: not said),
	// set by HzKey.
	Hz    int64
	HzKey string
}

func (w *Wiring) claim() int {
	w.owners++
	return w.owners
}

// GPIO adds a single-pin job: name is a GPIO name as the config writes it
// (GPIO16, 16, or a header pin P1_36), what says what it does and key
// where the config sets it. An empty name adds nothing.
func (w *Wiring) GPIO(name, what, key string) error {
	if name == "" {
		return nil
	}
	w.UsesGPIO = true
	n, err := ParseGPIO(name)
	if err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	w.Jobs = append(w.Jobs, Job{GPIO: n, What: fmt.Sprintf("%s (%s %s)", what, key, name), Key: key, owner: w.claim()})
	return nil
}

// spiBuses are the pins of each SPI bus as its overlay sets them up:
// MISO, MOSI, SCLK, then CE0, CE1, CE2.
var spiBuses = map[int]struct {
	miso, mosi, sclk int
	ce               []int
}{
	0: {9, 10, 11, []int{8, 7}},
	1: {19, 20, 21, []int{18, 17, 16}},
	3: {1, 2, 3, []int{0, 24}},
	4: {5, 6, 7, []int{4, 25}},
	5: {13, 14, 15, []int{12, 26}},
	6: {19, 20, 21, []int{18, 27}},
}

// spiBusesPi5 are a Pi 5's: its RP1 chip has SPI0 and SPI1 where the
// earlier Pis have them, SPI2, SPI3 and SPI5 on the header pins the
// kernel's spiN-Mcs-pi5 overlays give (which the firmware loads for
// spiN-Mcs on a Pi 5: overlay_map), and no SPI4 or SPI6 on the header.
var spiBusesPi5 = map[int]struct {
	miso, mosi, sclk int
	ce               []int
}{
	0: spiBuses[0],
	1: spiBuses[1],
	2: {1, 2, 3, []int{0, 24}},
	3: {5, 6, 7, []int{4, 25}},
	5: {13, 14, 15, []int{12, 26}},
}

// spiBus is the pins of SPI bus n on the wiring's Pi.
func (w *Wiring) spiBus(n int) (b struct {
	miso, mosi, sclk int
	ce               []int
}, ok bool) {
	if w.Pi5 {
		b, ok = spiBusesPi5[n]
	} else {
		b, ok = spiBuses[n]
	}
	return b, ok
}

// SameSPIPins says SPI buses a and b use the same MISO, MOSI and SCLK
// pins on the wiring's Pi (SPI1 and SPI6 of a Pi 4: the auxiliary
// controller and a full one on GPIO 19-21).
func (w *Wiring) SameSPIPins(a, b int) bool {
	x, ok1 := w.spiBus(a)
	y, ok2 := w.spiBus(b)
	return ok1 && ok2 && x.miso == y.miso && x.mosi == y.mosi && x.sclk == y.sclk
}

// SPI adds the pins of the SPI device dev (/dev/spidev1.0 or SPI1.0),
// used by who (e.g. "the 74HC165 chain"), set by key. A device on a bus
// this package does not know adds nothing: its pins are not checked.
func (w *Wiring) SPI(dev, who, key string) error {
	if dev == "" {
		return nil
	}
	bus, cs, ok := parseSPI(dev)
	if !ok {
		return nil
	}
	w.Buses = append(w.Buses, Bus{N: bus, CS: cs, Dev: fmt.Sprintf("/dev/spidev%d.%d", bus, cs), Who: who, Key: key})
	b, ok := w.spiBus(bus)
	if !ok || cs >= len(b.ce) {
		return nil
	}
	o := w.claim()
	add := func(gpio int, signal string) {
		w.Jobs = append(w.Jobs, Job{GPIO: gpio, What: fmt.Sprintf("SPI%d %s (%s, %s %s)", bus, signal, who, key, dev), Key: key, owner: o})
	}
	add(b.miso, "MISO")
	add(b.mosi, "MOSI")
	add(b.sclk, "SCLK")
	if bus == 0 { // dtparam=spi=on claims both chip selects
		add(b.ce[0], "CE0")
		add(b.ce[1], "CE1")
	} else {
		add(b.ce[cs], fmt.Sprintf("CE%d", cs))
	}
	return nil
}

// SPIBus adds every pin an overlay claims for SPI bus bus with
// chipSelects chip selects (dtoverlay=spi1-3cs: 3), as one claim: what a
// bus enabled in config.txt takes even when nothing uses it.
func (w *Wiring) SPIBus(bus, chipSelects int, who, key string) {
	b, ok := w.spiBus(bus)
	if !ok {
		return
	}
	o := w.claim()
	add := func(gpio int, signal string) {
		w.Jobs = append(w.Jobs, Job{GPIO: gpio, What: fmt.Sprintf("SPI%d %s (%s)", bus, signal, who), Key: key, owner: o})
	}
	add(b.miso, "MISO")
	add(b.mosi, "MOSI")
	add(b.sclk, "SCLK")
	for cs := 0; cs < chipSelects && cs < len(b.ce); cs++ {
		add(b.ce[cs], fmt.Sprintf("CE%d", cs))
	}
}

// SPILine is the config.txt line that enables SPI bus n with chip select
// cs: dtparam=spi=on for SPI0 (both chip selects), dtoverlay=spiN-Mcs
// (M = cs+1) for the others (SPI1 is the auxiliary controller, which
// dtparam=spi=on does not enable).
func SPILine(n, cs int) string {
	if n == 0 {
		return "dtparam=spi=on"
	}
	return fmt.Sprintf("dtoverlay=spi%d-%dcs", n, cs+1)
}

// EnableSPI says how to enable the SPI device dev (/dev/spidev1.0) on a
// Pi: the config.txt line for its bus, then a reboot.
func EnableSPI(dev string) string {
	bus, cs, ok := parseSPI(dev)
	if !ok {
		return "enable SPI (dtparam=spi=on for /dev/spidev0.*, dtoverlay=spiN-1cs for /dev/spidevN.0) in /boot/firmware/config.txt"
	}
	return fmt.Sprintf("enable SPI%d: add `%s` to /boot/firmware/config.txt, then run `sudo reboot`", bus, SPILine(bus, cs))
}

// ParseSPI reads an SPI device name (/dev/spidevB.C, SPIB.C or B.C) as
// its bus and chip select.
func ParseSPI(dev string) (bus, cs int, ok bool) { return parseSPI(dev) }

// parseSPI reads /dev/spidevB.C, SPIB.C or B.C.
func parseSPI(dev string) (bus, cs int, ok bool) {
	s := strings.TrimPrefix(dev, "/dev/spidev")
	s = strings.TrimPrefix(s, "SPI")
	b, c, found := strings.Cut(s, ".")
	if !found {
		return 0, 0, false
	}
	bus, err1 := strconv.Atoi(b)
	cs, err2 := strconv.Atoi(c)
	return bus, cs, err1 == nil && err2 == nil && cs >= 0
}

// I2C adds SDA and SCL of bus ("" or "1": the Pi's I²C bus on GPIO 2 and
// 3; "0": GPIO 0 and 1; /dev/i2c-N and I2CN also work). Other buses add
// nothing.
func (w *Wiring) I2C(bus, who, key string) error {
	n, ok := I2CBus(bus)
	if !ok {
		return nil
	}
	w.Buses = append(w.Buses, Bus{I2C: true, N: n, Dev: fmt.Sprintf("/dev/i2c-%d", n), Who: who, Key: key})
	var sda, scl int
	switch n {
	case 1:
		sda, scl = 2, 3
	case 0:
		sda, scl = 0, 1
	default:
		return nil
	}
	o := w.claim()
	name := bus
	if name == "" {
		name = `"" = /dev/i2c-1`
	}
	w.Jobs = append(w.Jobs,
		Job{GPIO: sda, What: fmt.Sprintf("I2C%d SDA (%s, %s %s)", n, who, key, name), Key: key, owner: o},
		Job{GPIO: scl, What: fmt.Sprintf("I2C%d SCL (%s, %s %s)", n, who, key, name), Key: key, owner: o})
	return nil
}

// I2CClock is I2C for a driver whose config also says the bus's clock:
// hz, set by hzKey (boardd doctor compares it with config.txt's).
func (w *Wiring) I2CClock(bus string, hz int64, hzKey, who, key string) error {
	n := len(w.Buses)
	err := w.I2C(bus, who, key)
	if len(w.Buses) > n {
		w.Buses[n].Hz, w.Buses[n].HzKey = hz, hzKey
	}
	return err
}

// I2CBus reads a bus name as the drivers take it: "" (the first, 1 on a
// Pi), "1", "/dev/i2c-1" or "I2C1".
func I2CBus(bus string) (int, bool) {
	if bus == "" {
		return 1, true
	}
	s := strings.TrimPrefix(bus, "/dev/i2c-")
	s = strings.TrimPrefix(s, "I2C")
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// Conflicts returns every GPIO that has two jobs, by GPIO number; a pin
// with three jobs gives one conflict per job after the first.
func (w *Wiring) Conflicts() []Conflict {
	var out []Conflict
	first := map[int]Job{}
	for _, j := range w.Jobs {
		f, ok := first[j.GPIO]
		if !ok {
			first[j.GPIO] = j
			continue
		}
		if f.owner != j.owner {
			out = append(out, Conflict{GPIO: j.GPIO, First: f, Second: j})
		}
	}
	slices.SortStableFunc(out, func(a, b Conflict) int { return a.GPIO - b.GPIO })
	return out
}

// header maps the 40-pin header's pin numbers to BCM GPIOs.
var header = map[int]int{
	3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
	18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
	31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}

// ParseGPIO reads a GPIO name: GPIO16, 16, or the header pin P1_36.
func ParseGPIO(name string) (int, error) {
	if p, ok := strings.CutPrefix(name, "P1_"); ok {
		if n, err := strconv.Atoi(p); err == nil {
			if g, ok := header[n]; ok {
				return g, nil
			}
		}
		return 0, fmt.Errorf("%q: not a GPIO pin of the 40-pin header (power and ground pins have no GPIO)", name)
	}
	n, err := strconv.Atoi(strings.TrimPrefix(name, "GPIO"))
	if err != nil || n < 0 || n > 27 {
		return 0, fmt.Errorf("%q: want a GPIO name such as GPIO16 (GPIO0 to GPIO27 on the 40-pin header)", name)
	}
	return n, nil
}
