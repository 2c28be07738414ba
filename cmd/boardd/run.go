package main

import (
	"io"
	"os"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"

	"boardd/app/board"
	"boardd/app/termsim"
	"boardd/app/termview"
	"boardd/leds/ledreg"
)

func init() {
	register(command{name: "run", summary: "run the board: switches, referee, LEDs, archive, MQTT and the web display (no config: a simulated board on localhost)", run: runDaemon})
}

func runDaemon(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	cfgPath := fs.String("config", "", "config file (configs/boardd.yaml documents it); none: a simulated board, embedded broker and web display on localhost")
	stdin := fs.Bool("stdin", true, "with the sim driver: read moves and switch lines from standard input")
	draw := fs.Bool("draw", termview.IsTerminal(os.Stdout), "draw the board, whose turn it is and what the LEDs show in the terminal on every change (default: when standard output is a terminal and leds.driver is not term)")
	over := runFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := board.LoadConfig(*cfgPath) // the checks of boardd config check
	if err != nil {
		return err
	}
	if err := over.apply(&cfg); err != nil {
		return err
	}
	if err := board.CheckPorts(cfg); err != nil {
		return err
	}
	ctx, stop := untilInterrupted()
	defer stop()
	d, err := board.Start(ctx, cfg, stdout, stderr)
	if err != nil {
		return err
	}
	if *stdin && d.SimBoard != nil {
		// A typed move waits until the board has judged the one before:
		// the debounce, the quiet period and a margin.
		settle := time.Duration(float64(cfg.Sensors.Debounce)/cfg.Sensors.Rate*float64(time.Second)) + cfg.Sensors.Quiet + 200*time.Millisecond
		go termsim.ReadLines(ctx, os.Stdin, stdout, d.Live, d.SimBoard, settle)
	}
	if *draw && ledreg.Lookup(cfg.LEDs.Driver).Draw == nil { // not already drawn by the LED driver
		go termview.Show(ctx, d.Live, stdout, true)
	}
	sd.SdNotify(false, sd.SdNotifyReady)
	d.Watchdog(ctx)
	sd.SdNotify(false, sd.SdNotifyStopping)
	return d.Close()
}
