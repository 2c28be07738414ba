package main

import (
	"strings"
	"testing"

	"boardd/sync/broker/brokertest"
)

// boardd collect refuses bad use, naming the command.
func TestCollectUsage(t *testing.T) {
	url := brokertest.Start(t)
	for _, args := range [][]string{
		{"collect"},
		{"collect", "--broker", url},
		{"collect", "--out", t.TempDir()},
		{"collect", "--broker", "http://x", "--out", t.TempDir()},
	} {
		code, _, stderr := runCmd(args...)
		if code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		if !strings.Contains(stderr, "collect") {
			t.Errorf("%v: stderr %q does not name the command", args, stderr)
		}
	}
}
