package main

import (
	"errors"
	"fmt"
	"time"

	"boardd/app/catalog"
	"boardd/app/doctor"
	"boardd/configs"
	"boardd/internal/statelock"
	"boardd/sensors/sensorreg"
)

// holdHardware takes the hardware lock for a command that opens the
// board's switches (what: "boardd sensors"). While another process holds
// it (the service scanning, or a second boardd sensors) the command is
// refused with what to do: two scans of one chain pulse the same latch
// and corrupt each other. With nowhere to keep the lock the command goes
// on unlocked.
func holdHardware(what string) (release func(), err error) {
	l, err := statelock.Hardware(what)
	var held *statelock.HeldError
	if errors.As(err, &held) {
		return nil, &hardwareBusy{held}
	}
	return func() { l.Release() }, nil // Release of a nil Lock does nothing
}

// hardwareBusy is holdHardware's refusal.
type hardwareBusy struct{ held *statelock.HeldError }

func (e *hardwareBusy) Error() string {
	return fmt.Sprintf("the board's switches and LEDs are in use by %s (lock file %s): two programs scanning one switch chain corrupt each other's reads. %s", e.held.Holder(), e.held.Path, e.Fix())
}

// Fix says what to do.
func (e *hardwareBusy) Fix() string {
	return "Stop it first: `sudo systemctl stop boardd` for the service (`sudo systemctl start boardd` afterwards), Ctrl-C for a boardd in a terminal; " +
		"or, to see the switches while the board runs, use the daemon's own view: its web display (web.listen) shows every square it reads"
}

// doctorLive is boardd doctor's live switch read for cfg: the read
// (nil for a simulated board), or, while the daemon holds the hardware,
// the finding that says why the switches were not read. release lets
// the lock go after the checks.
func doctorLive(cfg configs.Daemon) (live func() error, busy *doctor.Finding, release func()) {
	if d := sensorreg.Lookup(cfg.Sensors.Driver); d == nil || d.Simulated {
		return nil, nil, func() {}
	}
	release, err := holdHardware("boardd doctor")
	var hb *hardwareBusy
	if errors.As(err, &hb) {
		return nil, &doctor.Finding{Level: doctor.Warn, Topic: "switches",
			Msg: fmt.Sprintf("not read: the switches are in use by %s, and a second scan would corrupt its reads", hb.held.Holder()),
			Fix: "run `sudo systemctl stop boardd`, then `sudo boardd doctor` again, then `sudo systemctl start boardd`"}, func() {}
	}
	return func() error {
		src, closer, err := sensorreg.Open(&cfg, sensorreg.Env{Now: time.Now, Start: catalog.StartOccupancy(cfg.BoardShape)})
		if err != nil {
			return err
		}
		if closer != nil {
			defer closer()
		}
		return doctor.ReadRepeatedly(src, 100, 2*time.Millisecond)
	}, nil, release
}
