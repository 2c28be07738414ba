package gpiomatrix

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/internal/pins"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
)

// The driver as boardd knows it: sensors.driver gpiomatrix, configured by
// the sensors.gpiomatrix section.
func init() {
	sensorreg.Register(&sensorreg.Driver{Name: "gpiomatrix", Section: &Config{RowCount: 16, Settle: 20 * time.Microsecond}, Flags: flags, Check: check, Pins: pinJobs, Bits: bits, Open: open})
}

// Config is the section sensors.gpiomatrix.
type Config struct {
	Rows          []string      `yaml:"rows"`
	Cols          []string      `yaml:"cols"`
	Decoder       bool          `yaml:"decoder"`
	DecoderEnable string        `yaml:"decoder_enable"`
	RowSPI        string        `yaml:"row_spi"`
	RowCount      int           `yaml:"row_count"`
	Settle        time.Duration `yaml:"settle"`
}

// section is d's sensors.gpiomatrix.
func section(d *configs.Daemon) *Config {
	return configs.SensorsSection[Config](&d.Sensors, "gpiomatrix")
}

func flags(fs *flag.FlagSet, s *configs.Sensors) {
	m := configs.SensorsSection[Config](s, "gpiomatrix")
	sensorreg.ListFlag(fs, &m.Rows, "rows", "gpiomatrix: row GPIOs, row 0 first (with --decoder: the address pins, A0 first)")
	sensorreg.ListFlag(fs, &m.Cols, "cols", "gpiomatrix: column GPIOs, column 0 first")
	fs.BoolVar(&m.Decoder, "decoder", m.Decoder, "gpiomatrix: rows through a 74HC138/154 decoder on the --rows address pins")
	fs.StringVar(&m.DecoderEnable, "decoder-enable", m.DecoderEnable, "gpiomatrix: the decoder's active-low enable GPIO, if wired")
	fs.StringVar(&m.RowSPI, "row-spi", m.RowSPI, "gpiomatrix: drive the rows through 74HC595s on this SPI port instead of --rows")
	fs.IntVar(&m.RowCount, "row-count", m.RowCount, "gpiomatrix: with --row-spi, the number of rows")
	fs.DurationVar(&m.Settle, "settle", m.Settle, "gpiomatrix: wait after selecting a row")
}

// check: a selected matrix needs its columns and its rows, and a scan
// rate its rows can keep (each row waits settle and costs a GPIO call per
// column and per select line).
func check(c *configs.Checking) error {
	d := c.Config
	m := section(d)
	if m.Settle < 0 || m.Settle > 100*time.Millisecond {
		return c.Errorf("sensors.gpiomatrix.settle", "%v: want 0 (20µs) to 100ms", m.Settle)
	}
	if d.Sensors.Driver != "gpiomatrix" {
		return nil
	}
	if len(m.Cols) == 0 || len(m.Rows) == 0 && m.RowSPI == "" {
		return c.Errorf("sensors.gpiomatrix", "needs cols and rows (or row_spi): GPIO names such as GPIO5")
	}
	w := wiringOf(m)
	if max := MaxRate(w); d.Sensors.Rate > max {
		return c.Errorf("sensors.rate", "%v scans per second: %d rows × %d columns with a %v settle take about %v a scan, so at most %d scans per second fit; set sensors.rate: %d or lower, or a shorter sensors.gpiomatrix.settle",
			d.Sensors.Rate, w.Rows, w.Cols, w.Settle, ScanTime(w).Round(10*time.Microsecond), int(max), sensors.RoundRate(max))
	}
	return nil
}

// wiringOf is the matrix the section describes, for ScanTime.
func wiringOf(m *Config) Wiring {
	settle := m.Settle
	if settle == 0 {
		settle = 20 * time.Microsecond
	}
	w := Wiring{Rows: len(m.Rows), Cols: len(m.Cols), SelectWrites: 2, Settle: settle}
	switch {
	case m.RowSPI != "":
		w.Rows, w.SelectWrites, w.SPIRows = m.RowCount, 0, true
	case m.Decoder:
		w.Rows, w.SelectWrites = 1<<len(m.Rows), len(m.Rows)
		if m.DecoderEnable != "" {
			w.SelectWrites += 2
		}
	}
	return w
}

// bits: rows × columns, as configured (0 when not yet configured).
func bits(d *configs.Daemon) int {
	m := section(d)
	if len(m.Cols) == 0 || len(m.Rows) == 0 && m.RowSPI == "" {
		return 0
	}
	w := wiringOf(m)
	return w.Rows * w.Cols
}

// pinJobs: the rows (GPIOs, decoder address lines or the 74HC595s' SPI
// bus) and the columns.
func pinJobs(d *configs.Daemon, w *pins.Wiring) error {
	m := section(d)
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	if m.RowSPI != "" {
		add(w.SPI(m.RowSPI, "the 74HC595 rows", "sensors.gpiomatrix.row_spi"))
	} else {
		for i, r := range m.Rows {
			what := fmt.Sprintf("matrix row %d", i)
			if m.Decoder {
				what = fmt.Sprintf("decoder address A%d", i)
			}
			add(w.GPIO(r, what, "sensors.gpiomatrix.rows"))
		}
		if m.Decoder {
			add(w.GPIO(m.DecoderEnable, "decoder enable", "sensors.gpiomatrix.decoder_enable"))
		}
	}
	for i, c := range m.Cols {
		add(w.GPIO(c, fmt.Sprintf("matrix column %d", i), "sensors.gpiomatrix.cols"))
	}
	return errors.Join(errs...)
}

func open(d *configs.Daemon, _ sensorreg.Env) (sensors.Source, func(), error) {
	m := section(d)
	if (len(m.Rows) == 0 && m.RowSPI == "") || len(m.Cols) == 0 {
		return nil, nil, fmt.Errorf("%w: gpiomatrix needs --rows (or --row-spi) and --cols (comma-separated GPIO names)", sensorreg.ErrUsage)
	}
	if err := pi.Host(); err != nil {
		return nil, nil, err
	}
	var rowPins []gpio.PinOut
	for _, n := range m.Rows {
		p, err := pi.Out(n)
		if err != nil {
			return nil, nil, fmt.Errorf("gpiomatrix: --rows: %v", err)
		}
		rowPins = append(rowPins, p)
	}
	var cols []gpio.PinIn
	for _, n := range m.Cols {
		p, err := pi.GPIO(n)
		if err != nil {
			return nil, nil, fmt.Errorf("gpiomatrix: --cols: %v", err)
		}
		cols = append(cols, p)
	}
	var rows RowSelector = NewGPIORows(rowPins...)
	var closer func()
	if m.RowSPI != "" {
		port, err := spireg.Open(m.RowSPI)
		if err != nil {
			return nil, nil, fmt.Errorf("gpiomatrix: --row-spi %q: %v (on a Pi, %s)", m.RowSPI, err, pins.EnableSPI(m.RowSPI))
		}
		c, err := port.Connect(physic.MegaHertz, spi.Mode0, 8)
		if err == nil {
			rows, err = NewShiftRows(c, m.RowCount)
		}
		if err != nil {
			port.Close()
			return nil, nil, fmt.Errorf("gpiomatrix: --row-spi %q: %v", m.RowSPI, err)
		}
		closer = func() { port.Close() }
	} else if m.Decoder {
		dr := &DecoderRows{Addr: rowPins, N: 1 << len(rowPins)}
		if m.DecoderEnable != "" {
			en, err := pi.Out(m.DecoderEnable)
			if err != nil {
				return nil, nil, fmt.Errorf("gpiomatrix: --decoder-enable: %v", err)
			}
			dr.Enable = en
		}
		rows = dr
	}
	dev, err := New(rows, cols, &Opts{Settle: m.Settle})
	if err != nil && closer != nil {
		closer()
	}
	return dev, closer, err
}
