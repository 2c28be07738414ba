package main

import (
	"fmt"
	"io"
	"path/filepath"

	"boardd/app/board"
	"boardd/app/doctor"
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
	env.Config, env.ConfigErr = board.LoadConfig(filepath.Join(*root, *config)) // what boardd run and config check refuse
	var busy *doctor.Finding
	if *root == "/" && env.ConfigErr == nil {
		var release func()
		env.Live, busy, release = doctorLive(env.Config)
		defer release()
	}
	findings := doctor.Check(env)
	if env.ConfigErr == nil {
		findings = append(findings, doctor.Finding{Level: doctor.OK, Topic: "state",
			Msg: fmt.Sprintf("the board's state directory is %s (%s): boardd games reads it", env.Config.StateDir, env.Config.StateDirFrom())})
	}
	if busy != nil {
		findings = append(findings, *busy)
	}
	if n := doctor.Write(stdout, findings); n > 0 {
		return fmt.Errorf("%d check(s) failed: apply the fixes above and run boardd doctor again", n)
	}
	return nil
}
