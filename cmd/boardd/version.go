package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func init() {
	register(command{name: "version", summary: "print version and build information", run: runVersion})
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stdout, "boardd (no build information)")
		return nil
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	fmt.Fprintf(stdout, "boardd %s %s\n", v, info.GoVersion)
	for _, s := range info.Settings {
		switch s.Key {
		case "GOOS", "GOARCH", "GOARM", "vcs.revision", "vcs.time", "vcs.modified":
			fmt.Fprintf(stdout, "  %s=%s\n", s.Key, s.Value)
		}
	}
	return nil
}
