package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"boardd/configs"
	"boardd/internal/doctor"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
)

func init() {
	register(command{name: "doctor", summary: "check this Pi for what the configured hardware needs: interfaces, config.txt lines, groups, pins, time, disk, the switches", run: runDoctor})
}

func runDoctor(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("doctor", stderr)
	root := fs.String("root", "/", "file system root to check (a fixture tree in tests); the live switch read runs only with /")
	config := fs.String("config", "/etc/boardd/boardd.yaml", "the daemon config, under --root")
	user := fs.String("user", "boardd", "the service user")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	env := doctor.Env{Root: *root, ConfigPath: *config, User: *user}
	env.Config, env.ConfigErr = configs.Load(filepath.Join(*root, *config))
	if *root == "/" && env.ConfigErr == nil && !sensorreg.Lookup(env.Config.Sensors.Driver).Simulated {
		cfg := env.Config
		env.Live = func() error {
			src, closer, err := sensorreg.Open(&cfg, sensorreg.Env{Now: time.Now, Start: startOccupancy(cfg.BoardShape)})
			if err != nil {
				return err
			}
			if closer != nil {
				defer closer()
			}
			return readRepeatedly(src, 100, 2*time.Millisecond)
		}
	}
	if n := doctor.Write(stdout, doctor.Check(env)); n > 0 {
		return fmt.Errorf("%d check(s) failed: apply the fixes above and run boardd doctor again", n)
	}
	return nil
}

// readRepeatedly reads src n times, every pause, so a flickering chain
// shows too; the error counts the failed reads and wraps the first (its
// Hint, if any, names the chip and wire).
func readRepeatedly(src sensors.Source, n int, pause time.Duration) error {
	var f sensors.Frame
	var first error
	failed := 0
	for i := range n {
		if i > 0 {
			time.Sleep(pause)
		}
		if err := src.Read(&f); err != nil {
			failed++
			if first == nil {
				first = err
			}
		}
	}
	if first != nil {
		return fmt.Errorf("%d of %d reads failed, the first: %w", failed, n, first)
	}
	return nil
}
