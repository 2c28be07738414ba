// Package sensorview is what boardd sensors shows of a switch source:
// the debounced map of the switches redrawn live with the last events
// (and, with a simulated source, script lines taken on a socket), the map
// once after the debounce settles, a sensor script played in simulated
// time with its events, and the wiring test that walks through every
// square (sensors.Calibration).
package sensorview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

// Config is a view of one switch source.
type Config struct {
	Source   sensors.Source
	Map      *sensors.Map // bit → square
	Board    square.Set   // the board's squares
	Driver   string       // the driver's name, for the headings
	Rate     float64      // scans per second
	Debounce int          // scans a change must hold
	Now      func() time.Time
	Clock    *sim.Clock // with Script: the simulated clock Now reads

	Script  string        // a sensor script to play in simulated time (a sim source)
	Once    bool          // print the map once and return
	Test    bool          // the wiring test: every square in turn
	Timeout time.Duration // with Test: time on each square before it is marked never closed
	Redraw  time.Duration // the live map's redraw interval
	Listen  string        // a sim source: take script lines on this address (tcp, or a unix socket path)
}

// Run shows the switches as c asks: a script's events and final map, the
// map once, or the live map until ctx ends (or the wiring test is done),
// on stdout; where the sim takes lines goes to stderr. A failed wiring
// test is an error.
func Run(ctx context.Context, c Config, stdout, stderr io.Writer) error {
	var mu sync.Mutex // guards log and cal; OnEvent runs on the scan goroutine
	var log []sensors.Event
	var cal *sensors.Calibration
	cfg := sensors.Config{
		Period:   time.Duration(float64(time.Second) / c.Rate),
		Debounce: c.Debounce,
		Now:      c.Now,
		OnEvent: func(e sensors.Event) {
			mu.Lock()
			defer mu.Unlock()
			log = append(log, e)
			if cal != nil {
				cal.Observe(e)
			}
		},
	}
	sc, err := sensors.NewScanner(c.Source, c.Map, cfg)
	if err != nil {
		return err
	}
	if err := sc.Step(c.Now()); err != nil {
		return fmt.Errorf("first scan: %w", err)
	}
	if c.Test {
		cal = sensors.NewCalibration(c.Board.Squares(), c.Timeout, c.Now())
	}

	// Scripted: everything in simulated time, then print.
	if c.Script != "" {
		file, err := os.Open(c.Script)
		if err != nil {
			return err
		}
		script, err := sim.ParseScriptOn(c.Script, file, c.Board)
		file.Close()
		if err != nil {
			return err
		}
		b := c.Source.(*sim.Board)
		step := sim.VirtualWait(sc, c.Clock)
		wait := step
		if cal != nil {
			wait = func(d time.Duration) error {
				for ; d > 0; d -= cfg.Period {
					if err := step(min(d, cfg.Period)); err != nil {
						return err
					}
					mu.Lock()
					cal.Tick(c.Clock.Now())
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
		fmt.Fprintf(stdout, "after %s: %d squares occupied\n", c.Clock.Now().Sub(start), occ.Len())
		sensors.RenderMapOn(stdout, c.Board, occ, sc.Raw(), sc.Faults())
		if cal != nil {
			return calReport(cal, c.Map, stdout)
		}
		return nil
	}

	if c.Once {
		for i := 0; i < cfg.Debounce+1; i++ {
			time.Sleep(cfg.Period)
			if err := sc.Step(c.Now()); err != nil {
				return err
			}
		}
		occ, _ := sc.Snapshot()
		fmt.Fprintf(stdout, "%s: %d squares occupied\n", c.Driver, occ.Len())
		return sensors.RenderMapOn(stdout, c.Board, occ, sc.Raw(), sc.Faults())
	}

	// Live: scan in the background, redraw until interrupted (or the test
	// walk-through ends).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	go func() { errc <- sc.Run(ctx) }()
	if b, ok := c.Source.(*sim.Board); ok && c.Listen != "" {
		network := "tcp"
		if strings.ContainsRune(c.Listen, '/') {
			network = "unix"
		}
		ln, err := net.Listen(network, c.Listen)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "sim: send script lines to %s %s\n", network, ln.Addr())
		go func() { errc <- sim.Serve(ctx, ln, b) }()
	}
	t := time.NewTicker(c.Redraw)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(stdout)
			if cal != nil {
				return calReport(cal, c.Map, stdout)
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
		fmt.Fprintf(&b, "boardd sensors: %s, %.0f Hz, %d scans, %d occupied (Ctrl-C to stop)\n\n", c.Driver, c.Rate, sc.Scans(), occ.Len())
		sensors.RenderMapOn(&b, c.Board, occ, sc.Raw(), sc.Faults())
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

// calReport prints the wiring test's report; a failed test is an error.
func calReport(cal *sensors.Calibration, m *sensors.Map, w io.Writer) error {
	if err := cal.Report(w, m); err != nil {
		return err
	}
	if !cal.Passed() {
		return errors.New("wiring test failed")
	}
	return nil
}
