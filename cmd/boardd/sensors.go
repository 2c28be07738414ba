package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"boardd/app/catalog"
	"boardd/configs"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
	"boardd/sensors/sensorview"
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
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if s.Rate <= 0 || s.Rate > 2000 {
		return fmt.Errorf("%w: --rate %v: want 1-2000 scans per second", errUsage, s.Rate)
	}
	if err := configs.CheckControlListen(s.Listen); err != nil {
		return fmt.Errorf("%w: --listen %v", errUsage, err)
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
	if !drv.Simulated { // simulated switches are this process's own
		release, err := holdHardware("boardd sensors")
		if err != nil {
			return err
		}
		defer release()
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

	c := sensorview.Config{Source: src, Map: m, Board: board, Driver: s.Driver, Rate: s.Rate, Debounce: s.Debounce, Now: now, Clock: clk,
		Script: f.script, Once: f.once, Test: f.test, Timeout: f.timeout, Redraw: f.redraw, Listen: s.Listen}
	ctx := context.Background()
	if f.script == "" && !f.once { // live until interrupted
		var stop context.CancelFunc
		ctx, stop = untilInterrupted()
		defer stop()
	}
	return sensorview.Run(ctx, c, stdout, stderr)
}
