package gpiomatrix

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"boardd/configs"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
	_ "boardd/sensors/sim" // the default sensors.driver
)

// A settle under SpinLimit is busy-waited, never handed to time.Sleep
// (which takes about a millisecond on Linux however short the wait); a
// longer one sleeps. The matrix's default wait is Wait.
func TestSettleSpinsUnderAMillisecond(t *testing.T) {
	defer func(f func(time.Duration)) { sleep = f }(sleep)
	var slept []time.Duration
	sleep = func(d time.Duration) { slept = append(slept, d) }
	Wait(20 * time.Microsecond)
	Wait(999 * time.Microsecond)
	if len(slept) != 0 {
		t.Errorf("sub-millisecond waits slept: %v", slept)
	}
	Wait(2 * time.Millisecond)
	if !slices.Equal(slept, []time.Duration{2 * time.Millisecond}) {
		t.Errorf("a 2 ms wait: %v, want one sleep of 2ms", slept)
	}

	slept = nil
	d, _ := decoderMatrix(nil)
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	if len(slept) != 0 {
		t.Errorf("a scan with the default 20µs settle slept %d times", len(slept))
	}
}

// decoderMatrix is the 160-square build on periph's gpiotest pins: 16 rows
// through a 74HC154 (4 address pins and an enable), 10 columns, every
// switch open.
func decoderMatrix(o *Opts) (*Dev, error) {
	addr := make([]gpio.PinOut, 4)
	for i := range addr {
		addr[i] = &gpiotest.Pin{N: fmt.Sprintf("A%d", i)}
	}
	cols := make([]gpio.PinIn, 10)
	for i := range cols {
		cols[i] = &gpiotest.Pin{N: fmt.Sprintf("C%d", i), L: gpio.High}
	}
	return New(&DecoderRows{Addr: addr, Enable: &gpiotest.Pin{N: "EN"}, N: 16}, cols, o)
}

// BenchmarkScan16x10 is one scan of the 160-square decoder matrix with
// the default 20 µs settle, on gpiotest pins: the waits and the loop,
// without a Pi's GPIO calls (ScanTime adds an estimate for those).
func BenchmarkScan16x10(b *testing.B) {
	d, err := decoderMatrix(nil)
	if err != nil {
		b.Fatal(err)
	}
	var f sensors.Frame
	b.ReportAllocs()
	for b.Loop() {
		d.Read(&f)
	}
}

// BenchmarkScan16x10TimeSleep is the same scan settling with time.Sleep,
// as the driver did before: each 20 µs wait takes about a millisecond.
func BenchmarkScan16x10TimeSleep(b *testing.B) {
	d, err := decoderMatrix(&Opts{Sleep: time.Sleep})
	if err != nil {
		b.Fatal(err)
	}
	var f sensors.Frame
	b.ReportAllocs()
	for b.Loop() {
		d.Read(&f)
	}
}

// The config check holds sensors.rate to the matrix's scan time: the
// decoder build at the default 200 Hz fits; a 1 ms settle (slept) or more
// rows than the rate allows does not, and the error gives the time and a
// rate that fits.
func TestConfigRefusesARateTheMatrixCannotKeep(t *testing.T) {
	decoder := "    decoder: true\n    rows: [GPIO5, GPIO6, GPIO12, GPIO13]\n    cols: [GPIO14, GPIO15, GPIO17, GPIO27, GPIO22, GPIO23, GPIO24, GPIO25, GPIO4, GPIO16]\n"
	tests := []struct{ name, yaml, want string }{
		{"decoder build at 200 Hz", "sensors:\n  driver: gpiomatrix\n  gpiomatrix:\n" + decoder, ""},
		{"1 ms settle at 200 Hz", "sensors:\n  driver: gpiomatrix\n  gpiomatrix:\n    settle: 1ms\n" + decoder,
			"f.yaml: line 2: sensors.rate: 200 scans per second: 16 rows × 10 columns with a 1ms settle take about 19.84ms a scan, so at most 40 scans per second fit; set sensors.rate: 25 or lower"},
		{"1 ms settle at 25 Hz", "sensors:\n  driver: gpiomatrix\n  rate: 25\n  gpiomatrix:\n    settle: 1ms\n" + decoder, ""},
		{"16 GPIO rows at 400 Hz", "sensors:\n  driver: gpiomatrix\n  rate: 400\n  gpiomatrix:\n    rows: [GPIO0, GPIO1, GPIO2, GPIO3, GPIO5, GPIO6, GPIO7, GPIO8, GPIO9, GPIO10, GPIO11, GPIO12, GPIO13, GPIO18, GPIO19, GPIO20]\n    cols: [GPIO14, GPIO15, GPIO17, GPIO27, GPIO22, GPIO23, GPIO24, GPIO25, GPIO4, GPIO16]\n",
			"sensors.rate: 400 scans per second: 16 rows × 10 columns with a 20µs settle take about 2.24ms a scan, so at most 357 scans per second fit; set sensors.rate: 200 or lower"},
		{"a settle beyond reason", "sensors:\n  gpiomatrix:\n    settle: 1s\n", "sensors.gpiomatrix.settle: 1s: want 0 (20µs) to 100ms"},
	}
	for _, tc := range tests {
		_, err := configs.Parse("f.yaml", []byte(tc.yaml), sensorreg.Check)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v\nwant %q", tc.name, err, tc.want)
		}
	}
}
