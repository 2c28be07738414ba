package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileWriter writes files into a fresh temporary directory and answers
// their paths.
func fileWriter(t *testing.T) (dir string, write func(name, text string) string) {
	dir = t.TempDir()
	return dir, func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

func TestSensorsCommand(t *testing.T) {
	_, write := fileWriter(t)
	game := write("game.txt", "lift h2\nwait 80ms\nplace h4\nbounce h4 5\nwait 100ms\n")
	calib := write("calib.txt", "place d1\nwait 50ms\nlift d1\nplace f1\nwait 50ms\nlift f1\n")
	bad := write("bad.txt", "lift h2\nfly h3\n")
	tests := []struct {
		args    []string
		code    int
		out     []string // substrings of stdout
		errText string   // substring of stderr
	}{
		{[]string{"sensors", "--script", game}, 0, []string{"0.020s lift h2\n", "0.100s place h4\n", "64 squares occupied", " 4  # # . . . . . # . . . . # #\n", " 2        # # # # . # # #"}, ""},
		{[]string{"sensors", "--start", "empty", "--test", "--timeout", "1s", "--script", calib}, 1, []string{"1 of 160 squares passed", "e1 closed the switch mapped to f1 (bit 2; e1 is mapped to bit 1)", "158 squares not tested (from f1)"}, "wiring test failed"},
		{[]string{"sensors", "--script", bad}, 1, nil, `bad.txt:2: unknown command "fly"`},
		{[]string{"sensors", "--driver", "hc165", "--script", game}, 2, nil, "--script needs --driver sim"},
		{[]string{"sensors", "--driver", "plate"}, 2, nil, `--driver "plate": want sim, hc165, gpiomatrix or mcp23017`},
	}
	for _, tc := range tests {
		code, out, errOut := runCmd(tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d; stderr %s", tc.args, code, tc.code, errOut)
		}
		for _, s := range tc.out {
			if !strings.Contains(out, s) {
				t.Errorf("%v: stdout lacks %q:\n%s", tc.args, s, out)
			}
		}
		if !strings.Contains(errOut, tc.errText) {
			t.Errorf("%v: stderr %q lacks %q", tc.args, errOut, tc.errText)
		}
	}
}

func TestSensorsWiringError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "wiring.yaml")
	if err := os.WriteFile(p, []byte("squares:\n  - [d1, d1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd("sensors", "--wiring", p, "--once")
	if code != 1 || !strings.Contains(errOut, "wiring.yaml:2: square d1 is mapped twice") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
