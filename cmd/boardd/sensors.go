package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/rules"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/gpiomatrix"
	"boardd/sensors/hc165"
	"boardd/sensors/mcp23017"
	"boardd/sensors/sim"
)

func init() {
	register(command{name: "sensors", summary: "show the reed switches live; --test walks through every square to check the wiring", run: runSensors})
}

type sensorFlags struct {
	driver, wiring, script, start, listen string
	shape                                 string // board_shape: cross14 or square16
	rate                                  float64
	debounce                              int
	test, once                            bool
	timeout, redraw                       time.Duration
	// hc165
	spiPort, latch string
	chips          int
	spiHz          int64
	spiMode        int
	lsbFirst, high bool
	// gpiomatrix
	rows, cols, enable string
	rowSPI             string
	rowCount           int
	decoder            bool
	settle             time.Duration
	// mcp23017
	i2cBus, mcpAddr, mcpMode string
}

func runSensors(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sensors", stderr)
	var f sensorFlags
	fs.StringVar(&f.driver, "driver", "sim", "switch hardware: sim, hc165, gpiomatrix or mcp23017")
	fs.StringVar(&f.shape, "board-shape", "cross14", "the board: cross14 (160 squares) or square16 (16×16, 256 squares)")
	fs.StringVar(&f.wiring, "wiring", "", "wiring map YAML (bit → square); default the standard layout of docs/hardware.md")
	fs.Float64Var(&f.rate, "rate", 200, "scans per second")
	fs.IntVar(&f.debounce, "debounce", sensors.DefaultDebounce, "scans a change must hold before it counts")
	fs.BoolVar(&f.test, "test", false, "walk through every square: put a piece on the square shown, lift it, repeat")
	fs.DurationVar(&f.timeout, "timeout", 20*time.Second, "with --test: time to wait on each square before marking it 'never closed'")
	fs.BoolVar(&f.once, "once", false, "print the map once (after the debounce settles) and exit")
	fs.DurationVar(&f.redraw, "redraw", 200*time.Millisecond, "live map redraw interval")
	fs.StringVar(&f.script, "script", "", "sim: play this sensor script in simulated time, print the events and the final map")
	fs.StringVar(&f.start, "start", "start", "sim: initial occupancy, start (the four-player array) or empty")
	fs.StringVar(&f.listen, "listen", "", "sim: accept script lines on this address (127.0.0.1:7165, or a unix socket path)")
	fs.StringVar(&f.spiPort, "spi", "/dev/spidev1.0", "hc165: SPI port (SPI1: the LEDs own SPI0)")
	fs.StringVar(&f.latch, "latch", "GPIO16", "hc165: GPIO on the chips' SH/LD")
	fs.IntVar(&f.chips, "chips", 0, "hc165: chips in the chain (0: as many as the board needs, 20 or 32)")
	fs.Int64Var(&f.spiHz, "spi-hz", 1000000, "hc165: SPI clock in Hz")
	fs.IntVar(&f.spiMode, "spi-mode", int(hc165.DefaultMode), "hc165: SPI mode: 2 samples half a clock after the chips shift (safe); 0 or 3 sample on the shifting edge")
	fs.BoolVar(&f.lsbFirst, "lsb-first", false, "hc165: number each chip's inputs H..A instead of A..H")
	fs.BoolVar(&f.high, "active-high", false, "hc165: a closed switch reads 1 (pull-downs)")
	fs.StringVar(&f.rows, "rows", "", "gpiomatrix: row GPIOs, row 0 first (with --decoder: the address pins, A0 first)")
	fs.StringVar(&f.cols, "cols", "", "gpiomatrix: column GPIOs, column 0 first")
	fs.BoolVar(&f.decoder, "decoder", false, "gpiomatrix: rows through a 74HC138/154 decoder on the --rows address pins")
	fs.StringVar(&f.enable, "decoder-enable", "", "gpiomatrix: the decoder's active-low enable GPIO, if wired")
	fs.StringVar(&f.rowSPI, "row-spi", "", "gpiomatrix: drive the rows through 74HC595s on this SPI port instead of --rows")
	fs.IntVar(&f.rowCount, "row-count", 16, "gpiomatrix: with --row-spi, the number of rows")
	fs.DurationVar(&f.settle, "settle", 20*time.Microsecond, "gpiomatrix: wait after selecting a row")
	fs.StringVar(&f.i2cBus, "i2c", "", "mcp23017: I²C bus (default: the first)")
	fs.StringVar(&f.mcpAddr, "mcp-addr", "", "mcp23017: chip addresses (none: as many as the board needs from 0x20 up, 0x20-0x22 or 0x20-0x24 as a matrix)")
	fs.StringVar(&f.mcpMode, "mcp-mode", "matrix", "mcp23017: matrix or direct")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if f.rate <= 0 || f.rate > 2000 {
		return fmt.Errorf("%w: --rate %v: want 1-2000 scans per second", errUsage, f.rate)
	}
	if f.script != "" && f.driver != "sim" {
		return fmt.Errorf("%w: --script needs --driver sim", errUsage)
	}
	if !slices.Contains(configs.BoardShapes, f.shape) {
		return fmt.Errorf("%w: --board-shape %q: want %s", errUsage, f.shape, strings.Join(configs.BoardShapes, " or "))
	}
	board := configs.BoardSquares(f.shape)
	f.fillSizes()

	var clk *sim.Clock
	now := time.Now
	if f.script != "" {
		clk = sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		now = clk.Now
	}
	src, closer, err := openSource(&f, now)
	if err != nil {
		return err
	}
	if closer != nil {
		defer closer()
	}
	m, err := sourceMap(src, board, f.wiring)
	if err != nil {
		return err
	}

	var mu sync.Mutex // guards log and cal; OnEvent runs on the scan goroutine
	var log []sensors.Event
	var cal *sensors.Calibration
	cfg := sensors.Config{
		Period:   time.Duration(float64(time.Second) / f.rate),
		Debounce: f.debounce,
		Now:      now,
		OnEvent: func(e sensors.Event) {
			mu.Lock()
			defer mu.Unlock()
			log = append(log, e)
			if cal != nil {
				cal.Observe(e)
			}
		},
	}
	sc, err := sensors.NewScanner(src, m, cfg)
	if err != nil {
		return err
	}
	if err := sc.Step(now()); err != nil {
		return fmt.Errorf("first scan: %w", err)
	}
	if f.test {
		cal = sensors.NewCalibration(board.Squares(), f.timeout, now())
	}

	// Scripted: everything in simulated time, then print.
	if f.script != "" {
		file, err := os.Open(f.script)
		if err != nil {
			return err
		}
		script, err := sim.ParseScriptOn(f.script, file, board)
		file.Close()
		if err != nil {
			return err
		}
		b := src.(*sim.Board)
		step := sim.VirtualWait(sc, clk)
		wait := step
		if cal != nil {
			wait = func(d time.Duration) error {
				for ; d > 0; d -= cfg.Period {
					if err := step(min(d, cfg.Period)); err != nil {
						return err
					}
					mu.Lock()
					cal.Tick(clk.Now())
					mu.Unlock()
				}
				return nil
			}
		}
		if err := script.Play(b, wait); err != nil {
			return err
		}
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, e := range log {
			fmt.Fprintf(stdout, "%8.3fs %s\n", e.Time.Sub(start).Seconds(), e)
		}
		occ, _ := sc.Snapshot()
		fmt.Fprintf(stdout, "after %s: %d squares occupied\n", clk.Now().Sub(start), occ.Len())
		sensors.RenderMapOn(stdout, board, occ, sc.Raw(), sc.Faults())
		if cal != nil {
			return calReport(cal, m, stdout)
		}
		return nil
	}

	if f.once {
		for i := 0; i < cfg.Debounce+1; i++ {
			time.Sleep(cfg.Period)
			if err := sc.Step(now()); err != nil {
				return err
			}
		}
		occ, _ := sc.Snapshot()
		fmt.Fprintf(stdout, "%s: %d squares occupied\n", f.driver, occ.Len())
		return sensors.RenderMapOn(stdout, board, occ, sc.Raw(), sc.Faults())
	}

	// Live: scan in the background, redraw until interrupted (or the test
	// walk-through ends).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	go func() { errc <- sc.Run(ctx) }()
	if b, ok := src.(*sim.Board); ok && f.listen != "" {
		network := "tcp"
		if strings.ContainsRune(f.listen, '/') {
			network = "unix"
		}
		ln, err := net.Listen(network, f.listen)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "sim: send script lines to %s %s\n", network, ln.Addr())
		go func() { errc <- sim.Serve(ctx, ln, b) }()
	}
	t := time.NewTicker(f.redraw)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(stdout)
			if cal != nil {
				return calReport(cal, m, stdout)
			}
			return nil
		case err := <-errc:
			if err != nil {
				return err
			}
		case <-t.C:
		}
		occ, at := sc.Snapshot()
		var b strings.Builder
		b.WriteString("\x1b[H\x1b[2J")
		fmt.Fprintf(&b, "boardd sensors: %s, %.0f Hz, %d scans, %d occupied (Ctrl-C to stop)\n\n", f.driver, f.rate, sc.Scans(), occ.Len())
		sensors.RenderMapOn(&b, board, occ, sc.Raw(), sc.Faults())
		mu.Lock()
		b.WriteString("\n")
		for _, e := range log[max(0, len(log)-8):] {
			fmt.Fprintf(&b, "%s %s\n", e.Time.Format("15:04:05.000"), e)
		}
		done := false
		if cal != nil {
			cal.Tick(at)
			if q, ok := cal.Current(); ok {
				fmt.Fprintf(&b, "\nTEST: put a piece on %s, then lift it\n", q)
			} else {
				done = true
			}
		}
		mu.Unlock()
		io.WriteString(stdout, b.String())
		if done {
			cancel()
		}
	}
}

func calReport(cal *sensors.Calibration, m *sensors.Map, w io.Writer) error {
	if err := cal.Report(w, m); err != nil {
		return err
	}
	if !cal.Passed() {
		return errors.New("wiring test failed")
	}
	return nil
}

// fillSizes gives the hardware's size options left at 0 or empty their
// board's values (configs.Daemon.HC165Chips, MCP23017Addrs).
func (f *sensorFlags) fillSizes() {
	d := configs.Defaults()
	d.BoardShape, d.Sensors.HC165.Chips, d.Sensors.MCP23017.Mode = f.shape, f.chips, f.mcpMode
	d.Sensors.MCP23017.Addrs = splitList(f.mcpAddr)
	f.chips, f.mcpAddr = d.HC165Chips(), strings.Join(d.MCP23017Addrs(), ",")
}

// sourceMap is the wiring map for src under a board with the given
// squares: the simulated board's own, a wiring map file checked against
// the board, or the board's standard layout for as many bits as the
// driver reads.
func sourceMap(src sensors.Source, board square.Set, wiring string) (*sensors.Map, error) {
	if wiring != "" {
		data, err := os.ReadFile(wiring)
		if err != nil {
			return nil, fmt.Errorf("sensors.wiring: %w", err)
		}
		return sensors.ParseMapOn(wiring, data, src.Bits(), board)
	}
	if sb, ok := src.(*sim.Board); ok {
		return sb.Map(), nil
	}
	m, err := sensors.StandardMapOn(board, src.Bits())
	if err != nil {
		return nil, fmt.Errorf("%v (a wiring map: sensors.wiring, --wiring FILE)", err)
	}
	return m, nil
}

// startOccupancy is where the pieces stand when a board of this shape is
// set up: the four-player start on the cross, Russian Fortress Chess's
// start (fortress pieces included) on 16×16.
func startOccupancy(shape string) square.Set {
	if shape == "square16" {
		if occ, ok := variantStart(square.Full(), "russian-fortress", ""); ok {
			return occ
		}
	}
	return sim.StartPosition()
}

// variantStart is the occupancy of a new game of variant (start: a start
// array's name or a FEN4, as the game.start key takes them), if the
// variant fits the board.
func variantStart(board square.Set, variant, start string) (square.Set, bool) {
	if variant == "" {
		variant = "teams"
	}
	array, fen := rules.SplitStart(start)
	v, err := loadFitting(board)(variant, array)
	if err != nil {
		return square.Set{}, false
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return square.Set{}, false
	}
	return g.Position().Occupancy(), true
}

// openSource opens the switch driver the flags name.
func openSource(f *sensorFlags, now func() time.Time) (sensors.Source, func(), error) {
	if f.driver == "sim" {
		board := configs.BoardSquares(f.shape)
		var occ square.Set
		switch f.start {
		case "start":
			occ = startOccupancy(f.shape)
		case "empty":
		default:
			return nil, nil, fmt.Errorf("%w: --start %q: want start or empty", errUsage, f.start)
		}
		if board == square.Cross() {
			return sim.New(occ, now), nil, nil
		}
		b, err := sim.NewOn(board, occ, now)
		return b, nil, err
	}
	switch f.driver {
	case "hc165", "gpiomatrix", "mcp23017":
	default:
		return nil, nil, fmt.Errorf("%w: --driver %q: want sim, hc165, gpiomatrix or mcp23017", errUsage, f.driver)
	}
	if _, err := host.Init(); err != nil {
		return nil, nil, fmt.Errorf("periph host init: %v", err)
	}
	switch f.driver {
	case "hc165":
		port, err := spireg.Open(f.spiPort)
		if err != nil {
			return nil, nil, fmt.Errorf("hc165: SPI port %q: %v (on a Pi, enable SPI: dtparam=spi=on in /boot/firmware/config.txt)", f.spiPort, err)
		}
		latch, err := pinOut(f.latch)
		if err != nil {
			port.Close()
			return nil, nil, fmt.Errorf("hc165: --latch: %v", err)
		}
		mode := spi.Mode(f.spiMode)
		d, err := hc165.New(port, latch, &hc165.Opts{Chips: f.chips, Speed: physic.Frequency(f.spiHz) * physic.Hertz, Mode: &mode, LSBFirst: f.lsbFirst, ActiveHigh: f.high})
		if err != nil {
			port.Close()
			return nil, nil, err
		}
		return d, func() { port.Close() }, nil
	case "gpiomatrix":
		rowNames, colNames := splitList(f.rows), splitList(f.cols)
		if (len(rowNames) == 0 && f.rowSPI == "") || len(colNames) == 0 {
			return nil, nil, fmt.Errorf("%w: gpiomatrix needs --rows (or --row-spi) and --cols (comma-separated GPIO names)", errUsage)
		}
		var rowPins []gpio.PinOut
		for _, n := range rowNames {
			p, err := pinOut(n)
			if err != nil {
				return nil, nil, fmt.Errorf("gpiomatrix: --rows: %v", err)
			}
			rowPins = append(rowPins, p)
		}
		var cols []gpio.PinIn
		for _, n := range colNames {
			p, err := pi.GPIO(n)
			if err != nil {
				return nil, nil, fmt.Errorf("gpiomatrix: --cols: %v", err)
			}
			cols = append(cols, p)
		}
		var rows gpiomatrix.RowSelector = gpiomatrix.NewGPIORows(rowPins...)
		var closer func()
		if f.rowSPI != "" {
			port, err := spireg.Open(f.rowSPI)
			if err != nil {
				return nil, nil, fmt.Errorf("gpiomatrix: --row-spi %q: %v", f.rowSPI, err)
			}
			c, err := port.Connect(physic.MegaHertz, spi.Mode0, 8)
			if err == nil {
				rows, err = gpiomatrix.NewShiftRows(c, f.rowCount)
			}
			if err != nil {
				port.Close()
				return nil, nil, fmt.Errorf("gpiomatrix: --row-spi %q: %v", f.rowSPI, err)
			}
			closer = func() { port.Close() }
		} else if f.decoder {
			dr := &gpiomatrix.DecoderRows{Addr: rowPins, N: 1 << len(rowPins)}
			if f.enable != "" {
				en, err := pinOut(f.enable)
				if err != nil {
					return nil, nil, fmt.Errorf("gpiomatrix: --decoder-enable: %v", err)
				}
				dr.Enable = en
			}
			rows = dr
		}
		d, err := gpiomatrix.New(rows, cols, &gpiomatrix.Opts{Settle: f.settle})
		if err != nil && closer != nil {
			closer()
		}
		return d, closer, err
	default: // mcp23017
		bus, err := i2creg.Open(f.i2cBus)
		if err != nil {
			return nil, nil, fmt.Errorf("mcp23017: I²C bus %q: %v (on a Pi, enable I²C: dtparam=i2c_arm=on)", f.i2cBus, err)
		}
		var addrs []uint16
		for _, s := range splitList(f.mcpAddr) {
			a, err := strconv.ParseUint(s, 0, 16)
			if err != nil {
				bus.Close()
				return nil, nil, fmt.Errorf("%w: --mcp-addr %q: not a number", errUsage, s)
			}
			addrs = append(addrs, uint16(a))
		}
		mode := mcp23017.Matrix
		switch f.mcpMode {
		case "matrix":
		case "direct":
			mode = mcp23017.Direct
		default:
			bus.Close()
			return nil, nil, fmt.Errorf("%w: --mcp-mode %q: want matrix or direct", errUsage, f.mcpMode)
		}
		d, err := mcp23017.New(bus, mode, addrs...)
		if err != nil {
			bus.Close()
			return nil, nil, err
		}
		return d, func() { bus.Close() }, nil
	}
}

// pinOut opens a GPIO by name; on a Pi 5 always through the character
// device (internal/pi).
func pinOut(name string) (gpio.PinOut, error) {
	p, err := pi.GPIO(name)
	if err != nil {
		return nil, fmt.Errorf("%v (is this a Raspberry Pi?)", err)
	}
	return p, nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
