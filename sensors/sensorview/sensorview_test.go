package sensorview

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/rules/square"
	"boardd/sensors/sim"
)

// config is a view of simulated switches at the start position, in
// simulated time.
func config(t *testing.T, script string) Config {
	t.Helper()
	clk := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := sim.New(sim.StartPosition(), clk.Now)
	c := Config{Source: b, Map: b.Map(), Board: square.Cross(), Driver: "sim", Rate: 200, Debounce: 4, Now: clk.Now, Clock: clk, Redraw: time.Second}
	if script != "" {
		c.Script = filepath.Join(t.TempDir(), "s.txt")
		if err := os.WriteFile(c.Script, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// A script's debounced events are printed with their simulated times, then
// the final map; bounce on a placed piece gives no extra event.
func TestScript(t *testing.T) {
	var out bytes.Buffer
	if err := Run(context.Background(), config(t, "lift h2\nwait 80ms\nplace h4\nbounce h4 5\nwait 100ms\n"), &out, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Count(got, "lift h2") != 1 || strings.Count(got, "place h4") != 1 || !strings.Contains(got, "squares occupied") {
		t.Errorf("want one lift of h2, one place on h4 and the map:\n%s", got)
	}
}

// The wiring test fails, naming the squares never closed, when the script
// does not visit them all.
func TestWiringTest(t *testing.T) {
	c := config(t, "place d1\nwait 50ms\nlift d1\nwait 50ms\n")
	c.Test, c.Timeout = true, 100*time.Millisecond
	var out bytes.Buffer
	err := Run(context.Background(), c, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "wiring test failed") {
		t.Errorf("a test that visits one square: %v\n%s", err, out.String())
	}
}
