package sensors_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

// The Unreadable fault: raised once after ReadFaultAfter failed reads,
// cleared once after ReadClearAfter of good reads, never a message per
// flicker. Each step is a run of scans at the default period, failing or
// not; the events are what the whole sequence reports.
func TestUnreadableFault(t *testing.T) {
	broken := errors.New("hc165: chain check failed")
	ok := func(d time.Duration) readRun { return readRun{false, d} }
	bad := func(d time.Duration) readRun { return readRun{true, d} }
	tests := []struct {
		name string
		runs []readRun
		want string // events, "F" fault, "R" restored
	}{
		{"sound source", []readRun{ok(10 * time.Second)}, ""},
		{"one lost scan is a glitch", []readRun{ok(time.Second), bad(5 * time.Millisecond), ok(10 * time.Second)}, ""},
		{"two lost scans too", []readRun{bad(10 * time.Millisecond), ok(10 * time.Second)}, ""},
		{"glitches further apart than the hold never add up", []readRun{bad(10 * time.Millisecond), ok(3 * time.Second), bad(10 * time.Millisecond), ok(3 * time.Second)}, ""},
		{"a broken chain, mended", []readRun{bad(time.Second), ok(10 * time.Second)}, "FR"},
		{"mended only after the hold", []readRun{bad(time.Second), ok(1990 * time.Millisecond)}, "F"},
		{"a broken chain stays reported once", []readRun{bad(5 * time.Minute)}, "F"},
		// Flickering every 500 ms for a minute: never 2 s of good reads,
		// so one fault and nothing else.
		{"flicker keeps one fault", flicker(500*time.Millisecond, 500*time.Millisecond, 60), "F"},
		// A chain failing for 0.5 s every 3 s: the first clear after 2 s;
		// the fault comes back within a minute, so the hold doubles (4 s,
		// 8 s, …) and it stays raised.
		{"a flicker slower than the hold clears once, then holds", flicker(500*time.Millisecond, 2500*time.Millisecond, 40), "FRF"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := sim.NewClock(t0)
			b := sim.New(sim.StartPosition(), clk.Now)
			var events []sensors.Event
			sc, err := sensors.NewScanner(b, b.Map(), sensors.Config{OnEvent: func(e sensors.Event) { events = append(events, e) }})
			if err != nil {
				t.Fatal(err)
			}
			if err := sc.Step(clk.Now()); err != nil {
				t.Fatal(err)
			}
			failed := 0
			for _, r := range tc.runs {
				if r.fail {
					b.SetReadError(broken)
				} else {
					b.SetReadError(nil)
				}
				for end := clk.Now().Add(r.d); clk.Now().Before(end); {
					if err := sc.Step(clk.Advance(sensors.DefaultPeriod)); err != nil {
						if !errors.Is(err, broken) {
							t.Fatalf("Step: %v, want the source's error", err)
						}
						failed++
					}
				}
			}
			var got strings.Builder
			for _, e := range events {
				switch {
				case e.Kind == sensors.Fault && e.Cause == sensors.Unreadable:
					got.WriteByte('F')
					if e.Square != square.None || !errors.Is(e.Err, broken) {
						t.Errorf("fault event %v: want no square and the read error", e)
					}
					if e.Occupied != sim.StartPosition() {
						t.Errorf("fault event's occupancy changed: %v", e.Occupied.Len())
					}
				case e.Kind == sensors.Restored:
					got.WriteByte('R')
				default:
					t.Errorf("unexpected event %v", e)
				}
			}
			if got.String() != tc.want {
				t.Errorf("events %q, want %q", got.String(), tc.want)
			}
			if n := sc.ReadErrors(); n != uint64(failed) {
				t.Errorf("ReadErrors %d, want %d", n, failed)
			}
			if un, _ := sc.Unreadable(); un != strings.HasSuffix(tc.want, "F") {
				t.Errorf("Unreadable() = %v after events %q", un, tc.want)
			}
		})
	}
}

// readRun is scans every DefaultPeriod for d, failing or not.
type readRun struct {
	fail bool
	d    time.Duration
}

// flicker is n cycles of failing for bad then reading well for good.
func flicker(bad, good time.Duration, n int) []readRun {
	var out []readRun
	for range n {
		out = append(out, readRun{true, bad}, readRun{false, good})
	}
	return out
}

// What moved while the source could not be read is reported once it can:
// the scanner kept the last good state and debounces the difference.
func TestUnreadableKeepsTheLastGoodState(t *testing.T) {
	r := newRig(t, sim.StartPosition(), sensors.Config{})
	r.b.SetReadError(fmt.Errorf("bus gone"))
	for range 10 {
		if err := r.sc.Step(r.clk.Advance(sensors.DefaultPeriod)); err == nil {
			t.Fatal("a failing read returned no error")
		}
	}
	if occ, _ := r.sc.Snapshot(); occ != sim.StartPosition() {
		t.Fatal("a failed read changed the debounced state")
	}
	r.b.Lift(sq(t, "h2"))
	r.b.SetReadError(nil)
	r.scan(t, 10)
	if got := names(r.events); fmt.Sprint(got) != "[fault (unreadable: bus gone) lift h2]" {
		t.Errorf("events %v", got)
	}
	r.scan(t, 400) // 2 s of good reads
	if got := names(r.events); fmt.Sprint(got) != "[fault (unreadable: bus gone) lift h2 restored]" {
		t.Errorf("events %v", got)
	}
}

// A board that cannot be read from the very first scan starts from an
// empty state: the fault is raised as usual, and once it reads, every
// piece standing on it is reported placed, then the fault clears.
func TestUnreadableFromTheStart(t *testing.T) {
	clk := sim.NewClock(t0)
	b := sim.New(sim.StartPosition(), clk.Now)
	b.SetReadError(errors.New("hc165: chain check failed"))
	var events []sensors.Event
	sc, err := sensors.NewScanner(b, b.Map(), sensors.Config{OnEvent: func(e sensors.Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if sc.Step(clk.Advance(sensors.DefaultPeriod)) == nil {
			t.Fatal("a failing read returned no error")
		}
	}
	if len(events) != 1 || events[0].Cause != sensors.Unreadable {
		t.Fatalf("events %v, want the unreadable fault", names(events))
	}
	b.SetReadError(nil)
	for range 400 {
		if err := sc.Step(clk.Advance(sensors.DefaultPeriod)); err != nil {
			t.Fatal(err)
		}
	}
	var placed square.Set
	for _, e := range events[1 : len(events)-1] {
		if e.Kind != sensors.Place {
			t.Fatalf("event %v, want only places between the fault and its end", e)
		}
		placed.Add(e.Square)
	}
	if placed != sim.StartPosition() || events[len(events)-1].Kind != sensors.Restored {
		t.Errorf("%d squares placed (want the %d of the start), last event %v", placed.Len(), sim.StartPosition().Len(), events[len(events)-1])
	}
	if occ, _ := sc.Snapshot(); occ != sim.StartPosition() {
		t.Error("the debounced state is not the board")
	}
}
