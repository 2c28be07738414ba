package main

import (
	"fmt"
	"io"

	"boardd/app/board"
	"boardd/configs"
)

func init() {
	register(command{name: "config", summary: "config check FILE: validate a config; config example: print the documented example", run: runConfig})
}

func runConfig(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("config", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd config check FILE   validate a daemon config (errors name file, line and key)")
		fmt.Fprintln(stderr, "       boardd config example      print configs/boardd.yaml: every key with its default")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 2 && fs.Arg(0) == "check":
		d, err := board.LoadConfig(fs.Arg(1)) // what boardd run checks, nothing less
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: ok (board %s, %s, switches %s, LEDs %s)\n", fs.Arg(1), d.Board, d.Game.Variant, d.Sensors.Driver, d.LEDs.Driver)
		for _, msg := range d.LEDs.Deprecated() {
			fmt.Fprintf(stdout, "%s: %s\n", fs.Arg(1), msg)
		}
		return nil
	case fs.NArg() == 1 && fs.Arg(0) == "example":
		_, err := stdout.Write(configs.Example)
		return err
	}
	fs.Usage()
	return fmt.Errorf("%w: want 'check FILE' or 'example'", errUsage)
}
