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
	"strings"
	"sync"
	"syscall"
	"time"

	"boardd/internal/catalog"

	"boardd/configs"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
	"boardd/sensors/sim"
)

func init() {
	register(command{name: "sensors", summary: "show the reed switches live; --test walks through every square to check the wiring", run: runSensors})
}

// sensorFlags are the options of 'boardd sensors' that are the command's
// own; the hardware's options are the config's sensors section (cfg),
// bound to flags by each driver (sensorreg.BindFlags).
type sensorFlags struct {
	cfg             configs.Daemon
	script, start   string
	test, once      bool
	timeout, redraw time.Duration
}

func runSensors(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sensors", stderr)
	f := sensorFlags{cfg: configs.Defaults()}
	s := &f.cfg.Sensors
	fs.StringVar(&s.Driver, "driver", "sim", "switch hardware: "+sensorreg.Want())
	fs.StringVar(&f.cfg.BoardShape, "board-shape", "cross14", "the board: cross14 (160 squares) or square16 (16×16, 256 squares)")
	fs.StringVar(&s.Wiring, "wiring", "", "wiring map YAML (bit → square); default the standard layout of docs/hardware.md")
	fs.Float64Var(&s.Rate, "rate", 200, "scans per second")
	fs.IntVar(&s.Debounce, "debounce", sensors.DefaultDebounce, "scans a change must hold before it counts")
	fs.BoolVar(&f.test, "test", false, "walk through every square: put a piece on the square shown, lift it, repeat")
	fs.DurationVar(&f.timeout, "timeout", 20*time.Second, "with --test: time to wait on each square before marking it 'never closed'")
	fs.BoolVar(&f.once, "once", false, "print the map once (after the debounce settles) and exit")
	fs.DurationVar(&f.redraw, "redraw", 200*time.Millisecond, "live map redraw interval")
	fs.StringVar(&f.script, "script", "", "sim: play this sensor script in simulated time, print the events and the final map")
	fs.StringVar(&f.start, "start", "start", "sim: initial occupancy, start (the four-player array) or empty")
	fs.StringVar(&s.Listen, "listen", "", "sim: accept script lines on this address (127.0.0.1:7165, or a unix socket path)")
	sensorreg.BindFlags(fs, s)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if s.Rate <= 0 || s.Rate > 2000 {
		return fmt.Errorf("%w: --rate %v: want 1-2000 scans per second", errUsage, s.Rate)
	}
	drv := sensorreg.Lookup(s.Driver)
	if drv == nil {
		return fmt.Errorf("%w: --driver %q: want %s", errUsage, s.Driver, sensorreg.Want())
	}
	if f.script != "" && !drv.Simulated {
		return fmt.Errorf("%w: --script needs --driver sim", errUsage)
	}
	if !slices.Contains(configs.BoardShapes, f.cfg.BoardShape) {
		return fmt.Errorf("%w: --board-shape %q: want %s", errUsage, f.cfg.BoardShape, strings.Join(configs.BoardShapes, " or "))
	}
	board := f.cfg.Squares()
	var start square.Set
	switch f.start {
	case "start":
		start = catalog.StartOccupancy(f.cfg.BoardShape)
	case "empty":
	default:
		return fmt.Errorf("%w: --start %q: want start or empty", errUsage, f.start)
	}

	var clk *sim.Clock
	now := time.Now
	if f.script != "" {
		clk = sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		now = clk.Now
	}
	src, closer, err := sensorreg.Open(&f.cfg, sensorreg.Env{Now: now, Start: start})
	if err != nil {
		return err
	}
	if closer != nil {
		defer closer()
	}
	m, err := sensors.SourceMap(src, board, s.Wiring)
	if err != nil {
		return err
	}

	var mu sync.Mutex // guards log and cal; OnEvent runs on the scan goroutine
	var log []sensors.Event
	var cal *sensors.Calibration
	cfg := sensors.Config{
		Period:   time.Duration(float64(time.Second) / s.Rate),
		Debounce: s.Debounce,
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
		fmt.Fprintf(stdout, "%s: %d squares occupied\n", s.Driver, occ.Len())
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
	if b, ok := src.(*sim.Board); ok && s.Listen != "" {
		network := "tcp"
		if strings.ContainsRune(s.Listen, '/') {
			network = "unix"
		}
		ln, err := net.Listen(network, s.Listen)
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
		fmt.Fprintf(&b, "boardd sensors: %s, %.0f Hz, %d scans, %d occupied (Ctrl-C to stop)\n\n", s.Driver, s.Rate, sc.Scans(), occ.Len())
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
