package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// boardd sim takes a bare move ("h2-h4", "Nj1-i3", "O-O") as boardd run
// does, besides "move TOKEN" and the switch lines.
func TestSimBareMoves(t *testing.T) {
	for _, tc := range []struct {
		name, script, want, errHas string
	}{
		{name: "bare", script: "h2-h4\nb7-c7\ng13-g11\nm8-l8\nNj1-i3\n", want: "1. h2-h4 .. b7-c7 .. g13-g11 .. m8-l8\n2. Nj1-i3"},
		{name: "mixed with move and switches", script: "move h2-h4\n-b7\n+c7\nwait\ng13-g11\n", want: "1. h2-h4 .. b7-c7 .. g13-g11"},
		{name: "an illegal bare move", script: "h2-h6\n", errHas: "h2-h6"},
		{name: "neither move nor command", script: "hello\n", errHas: `"hello": want a move such as h2-h4, Nj1-i3 or O-O (files a–n, ranks 1–14)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "game.txt")
			if err := os.WriteFile(path, []byte(tc.script), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCmd("sim", "-q", "--script", path)
			if tc.errHas != "" {
				if !strings.Contains(out+errOut, tc.errHas) {
					t.Errorf("exit %d, output\n%s%s\nwant %q", code, out, errOut, tc.errHas)
				}
				return
			}
			if code != 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output\n%s%s\nwant the moves %q", code, out, errOut, tc.want)
			}
		})
	}
}
