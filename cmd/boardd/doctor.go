package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"boardd/configs"
	"boardd/internal/catalog"
	"boardd/internal/doctor"
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
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	env := doctor.Env{Root: *root, ConfigPath: *config, User: *user}
	env.Config, env.ConfigErr = configs.Load(filepath.Join(*root, *config))
	if *root == "/" && env.ConfigErr == nil && !sensorreg.Lookup(env.Config.Sensors.Driver).Simulated {
		cfg := env.Config
		env.Live = func() error {
			src, closer, err := sensorreg.Open(&cfg, sensorreg.Env{Now: time.Now, Start: catalog.StartOccupancy(cfg.BoardShape)})
			if err != nil {
				return err
			}
			if closer != nil {
				defer closer()
			}
			return doctor.ReadRepeatedly(src, 100, 2*time.Millisecond)
		}
	}
	if n := doctor.Write(stdout, doctor.Check(env)); n > 0 {
		return fmt.Errorf("%d check(s) failed: apply the fixes above and run boardd doctor again", n)
	}
	return nil
}
