package sensors_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func sq(t testing.TB, name string) square.Square {
	t.Helper()
	q, err := square.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// rig is a scanner over a sim board with a manual clock, recording events.
type rig struct {
	b      *sim.Board
	clk    *sim.Clock
	sc     *sensors.Scanner
	events []sensors.Event
}

func newRig(t testing.TB, initial square.Set, cfg sensors.Config) *rig {
	t.Helper()
	r := &rig{clk: sim.NewClock(t0)}
	r.b = sim.New(initial, r.clk.Now)
	cfg.OnEvent = func(e sensors.Event) { r.events = append(r.events, e) }
	sc, err := sensors.NewScanner(r.b, r.b.Map(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.sc = sc
	if err := sc.Step(r.clk.Now()); err != nil { // seed
		t.Fatal(err)
	}
	return r
}

// scan advances one period and scans.
func (r *rig) scan(t testing.TB, n int) {
	t.Helper()
	for range n {
		if err := r.sc.Step(r.clk.Advance(sensors.DefaultPeriod)); err != nil {
			t.Fatal(err)
		}
	}
}

func names(evs []sensors.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.String())
	}
	return out
}

// TestDebounceSequences feeds one square a raw sequence, one value per
// scan, and checks exactly when events come.
func TestDebounceSequences(t *testing.T) {
	const P, E = true, false // piece present / empty
	tests := []struct {
		name     string
		raw      []bool // raw state at scans 1..n (scan 0 seeds empty)
		want     []int  // scan indices (1-based) at which an event fires
		rejected uint64 // raw changes the debounce threw away
	}{
		{"clean place", []bool{P, P, P, P, P, P}, []int{4}, 0},
		{"three scans is not enough", []bool{P, P, P, E, E, E}, nil, 1},
		{"bounce then settle", []bool{P, E, P, E, P, P, P, P}, []int{8}, 2},
		{"single glitch", []bool{E, P, E, E, E, E}, nil, 1},
		{"place then lift", []bool{P, P, P, P, E, E, E, E}, []int{4, 8}, 0},
		{"glitch during hold", []bool{P, P, P, P, P, E, P, P, P}, []int{4}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, square.Set{}, sensors.Config{})
			e4 := sq(t, "e4")
			var got []int
			for i, v := range tc.raw {
				if v {
					r.b.Place(e4)
				} else {
					r.b.Lift(e4)
				}
				before := len(r.events)
				r.scan(t, 1)
				for _, e := range r.events[before:] {
					if e.Square != e4 {
						t.Fatalf("event on wrong square: %v", e)
					}
					got = append(got, i+1)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("events at scans %v, want %v (%v)", got, tc.want, names(r.events))
			}
			if n := r.sc.Rejected(); n != tc.rejected {
				t.Errorf("%d changes rejected, want %d", n, tc.rejected)
			}
			for i, e := range r.events {
				wantKind := sensors.Place
				if i%2 == 1 {
					wantKind = sensors.Lift
				}
				if e.Kind != wantKind {
					t.Errorf("event %d is %v, want %v", i, e.Kind, wantKind)
				}
				if d := e.Time.Sub(e.Began); d != 3*sensors.DefaultPeriod {
					t.Errorf("event %d: debounce delay %v, want %v", i, d, 3*sensors.DefaultPeriod)
				}
				if e.Occupied.Has(e4) != (e.Kind == sensors.Place) {
					t.Errorf("event %d: snapshot %v disagrees with %v", i, e.Occupied, e)
				}
			}
		})
	}
}

// TestRandomBounce plays many lifts and places, each followed by contact
// bounce of a random 0-5 ms starting at a random point between scans, and
// checks the events are exactly the settled changes, each confirmed within
// the debounce contract.
func TestRandomBounce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 160))
	start := sim.StartPosition()
	r := newRig(t, start, sensors.Config{})
	squares := square.Cross().Squares()
	var want []string
	const P = sensors.DefaultPeriod
	for i := 0; i < 400; i++ {
		q := squares[rng.IntN(len(squares))]
		// Move to a random instant between scans.
		r.clk.Advance(time.Duration(rng.Int64N(int64(P))))
		if r.b.Occupied().Has(q) {
			r.b.Lift(q)
			want = append(want, "lift "+q.String())
		} else {
			r.b.Place(q)
			want = append(want, "place "+q.String())
		}
		if ms := rng.IntN(6); ms > 0 {
			r.b.Bounce(q, time.Duration(ms)*time.Millisecond)
		}
		before := len(r.events)
		// Finish the current period, then scan; allow bounce (2 scans)
		// plus the debounce.
		r.scan(t, sensors.DefaultDebounce+3)
		got := r.events[before:]
		if len(got) != 1 {
			t.Fatalf("change %d (%s): got events %v", i, want[len(want)-1], names(got))
		}
		if got[0].Occupied != r.b.Occupied() {
			t.Fatalf("change %d: snapshot %v, board %v", i, got[0].Occupied, r.b.Occupied())
		}
	}
	if g := names(r.events); !slices.Equal(g, want) {
		t.Errorf("events differ from settled changes:\n got %v\nwant %v", g, want)
	}
	if f := r.sc.Faults(); f.Len() != 0 {
		t.Errorf("bounce raised faults on %v", f)
	}
}

// TestHandling covers realistic hand movements: sliding a piece across a
// square on the way, nudging a neighbour, lifting and putting back.
func TestHandling(t *testing.T) {
	const P = sensors.DefaultPeriod
	type act struct {
		op   string // lift, place, bounce, wait
		sq   string
		wait time.Duration
	}
	tests := []struct {
		name string
		acts []act
		want []string
	}{
		{"slide across a square quickly", []act{
			{"lift", "d4", 0}, {"wait", "", 30 * time.Millisecond},
			{"place", "e4", 0}, {"wait", "", 10 * time.Millisecond},
			{"lift", "e4", 0}, {"wait", "", 5 * time.Millisecond},
			{"place", "f4", 0}, {"bounce", "f4", 4 * time.Millisecond}, {"wait", "", 100 * time.Millisecond},
		}, []string{"lift d4", "place f4"}},
		{"slide that dwells is reported", []act{
			{"lift", "d4", 0}, {"wait", "", 30 * time.Millisecond},
			{"place", "e4", 0}, {"wait", "", 60 * time.Millisecond},
			{"lift", "e4", 0}, {"wait", "", 30 * time.Millisecond},
			{"place", "f4", 0}, {"wait", "", 100 * time.Millisecond},
		}, []string{"lift d4", "place e4", "lift e4", "place f4"}},
		{"nudge a neighbour", []act{
			{"lift", "d5", 0}, {"bounce", "d5", 5 * time.Millisecond}, {"wait", "", 9 * time.Millisecond},
			{"place", "d5", 0}, {"bounce", "d5", 3 * time.Millisecond}, {"wait", "", 100 * time.Millisecond},
		}, nil},
		{"lift and put back", []act{
			{"lift", "d4", 0}, {"wait", "", 200 * time.Millisecond},
			{"place", "d4", 0}, {"bounce", "d4", 5 * time.Millisecond}, {"wait", "", 100 * time.Millisecond},
		}, []string{"lift d4", "place d4"}},
		{"two hands at once", []act{
			{"lift", "d4", 0}, {"lift", "k11", 0}, {"wait", "", 100 * time.Millisecond},
		}, []string{"lift d4", "lift k11"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var occ square.Set
			occ.Add(sq(t, "d4"))
			occ.Add(sq(t, "d5"))
			occ.Add(sq(t, "k11"))
			r := newRig(t, occ, sensors.Config{})
			wait := sim.VirtualWait(r.sc, r.clk)
			for _, a := range tc.acts {
				switch a.op {
				case "lift":
					r.b.Lift(sq(t, a.sq))
				case "place":
					r.b.Place(sq(t, a.sq))
				case "bounce":
					r.b.Bounce(sq(t, a.sq), a.wait)
				case "wait":
					if err := wait(a.wait); err != nil {
						t.Fatal(err)
					}
				}
			}
			if got := names(r.events); !slices.Equal(got, tc.want) {
				t.Errorf("events %v, want %v", got, tc.want)
			}
			snap, _ := r.sc.Snapshot()
			if snap != r.b.Occupied() {
				t.Errorf("snapshot %v, board %v", snap, r.b.Occupied())
			}
			_ = P
		})
	}
}

func TestChatterFault(t *testing.T) {
	r := newRig(t, square.Set{}, sensors.Config{})
	e4 := sq(t, "e4")
	// A broken switch flips every scan for a second.
	for i := 0; i < 200; i++ {
		if i%2 == 0 {
			r.b.Place(e4)
		} else {
			r.b.Lift(e4)
		}
		r.scan(t, 1)
	}
	if got := names(r.events); !slices.Equal(got, []string{"fault e4 (chatter)"}) {
		t.Fatalf("events %v, want one chatter fault", got)
	}
	if f := r.sc.Faults(); !f.Has(e4) || f.Len() != 1 {
		t.Fatalf("faults %v", f)
	}
	// Now it settles occupied: the change needs FaultDebounce scans.
	r.events = nil
	r.b.Place(e4)
	r.scan(t, sensors.DefaultFaultDebounce-2) // the last flip may have left it placed already
	if len(r.events) != 0 {
		t.Fatalf("faulty square reported after %d scans: %v", sensors.DefaultFaultDebounce-2, names(r.events))
	}
	r.scan(t, 2)
	if got := names(r.events); !slices.Equal(got, []string{"place e4"}) {
		t.Fatalf("events %v, want place e4", got)
	}
	// Cleared: normal debounce again.
	r.sc.ClearFault(e4)
	r.events = nil
	r.b.Lift(e4)
	r.scan(t, sensors.DefaultDebounce)
	if got := names(r.events); !slices.Equal(got, []string{"lift e4"}) {
		t.Fatalf("after ClearFault: events %v, want lift e4", got)
	}
}

func TestReportSuspect(t *testing.T) {
	r := newRig(t, square.Set{}, sensors.Config{})
	h7 := sq(t, "h7")
	r.sc.ReportSuspect(h7)
	r.sc.ReportSuspect(h7)
	r.scan(t, 1)
	r.sc.ReportSuspect(h7) // already faulty: no second event
	r.scan(t, 1)
	if got := names(r.events); !slices.Equal(got, []string{"fault h7 (suspect)"}) {
		t.Fatalf("events %v", got)
	}
	r.b.Place(h7)
	r.scan(t, sensors.DefaultDebounce)
	if len(r.events) != 1 {
		t.Errorf("suspect square debounced normally: %v", names(r.events))
	}
}

func TestStepNoAlloc(t *testing.T) {
	r := newRig(t, sim.StartPosition(), sensors.Config{})
	e2 := sq(t, "e2")
	i := 0
	allocs := testing.AllocsPerRun(500, func() {
		if i%20 == 0 {
			r.b.Lift(e2)
		} else if i%20 == 10 {
			r.b.Place(e2)
		}
		i++
		r.sc.Step(r.clk.Advance(sensors.DefaultPeriod))
	})
	if allocs != 0 {
		t.Errorf("Step allocates %.1f times per scan", allocs)
	}
	if len(r.events) == 0 {
		t.Error("no events: the test did not exercise the event path")
	}
}

func TestNewScannerBitMismatch(t *testing.T) {
	b := sim.New(square.Set{}, nil)
	m, err := sensors.ParseMap("w.yaml", []byte("bits: 168\nsquares:\n"+rowsYAML()), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sensors.NewScanner(b, m, sensors.Config{}); err == nil {
		t.Error("NewScanner accepted a 168-bit map for a 160-bit source")
	}
}

// BenchmarkStep is one scan + debounce on the simulated board (no driver
// decoding), with a move every 50 scans.
func BenchmarkStep(b *testing.B) {
	r := newRig(b, sim.StartPosition(), sensors.Config{})
	e2 := sq(b, "e2")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%100 == 0 {
			r.b.Lift(e2)
		} else if i%100 == 50 {
			r.b.Place(e2)
		}
		if err := r.sc.Step(r.clk.Advance(sensors.DefaultPeriod)); err != nil {
			b.Fatal(err)
		}
	}
}
