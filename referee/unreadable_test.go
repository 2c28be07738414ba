package referee

import (
	"context"
	"errors"
	"slices"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"boardd/referee/clock"
	"boardd/rules"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

// Switches that cannot be read (the scanner's Unreadable fault, here a
// simulated board whose reads fail as a broken 74HC165 chain's do): one
// sensor_fault message, State.SensorFault, every square lit in the fault
// colour, the running clock stopped; a flickering chain adds nothing;
// mended, one sensor_ok, the clock runs again and what was moved while
// the board was blind is read.
func TestLiveUnreadableSwitches(t *testing.T) {
	var mu gosync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clk := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	v, _ := rules.NewVariant("teams", "")
	g, _ := rules.NewGame(v, "")
	var suspects []square.Square
	b := startLive(t, LiveConfig{Now: clk, Clock: &clock.Control{Base: time.Minute}, SuspectAfter: time.Second,
		Suspect: func(q square.Square) { mu.Lock(); suspects = append(suspects, q); mu.Unlock() }})

	// The switches, scanned on their own clock; their events are fed to
	// the board in order (Feed), so the test decides when it judges.
	sclk := sim.NewClock(now)
	board := sim.New(g.Position().Occupancy(), sclk.Now)
	var events []sensors.Event
	sc, err := sensors.NewScanner(board, board.Map(), sensors.Config{OnEvent: func(e sensors.Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	scan := func(d time.Duration) {
		t.Helper()
		for end := sclk.Now().Add(d); sclk.Now().Before(end); {
			sc.Step(sclk.Advance(sensors.DefaultPeriod))
		}
		if err := b.Feed(context.Background(), events, true); err != nil {
			t.Fatal(err)
		}
		events = events[:0]
	}
	if err := sc.Step(sclk.Now()); err != nil { // the first scan: what stands
		t.Fatal(err)
	}
	board.Lift(sq("h2"))
	board.Place(sq("h4"))
	scan(100 * time.Millisecond)
	if m := b.next(); m.Kind != MsgMove || m.Move != "h2-h4" {
		t.Fatalf("first move %+v", m)
	}
	if !b.State().Seats[1].Running {
		t.Fatal("Blue's clock is not running after Red's move")
	}

	chain := errors.New("hc165: chain check failed: the byte after 20 chips read 0xff, want 0x00 (…): check the wire from chip 10's QH (pin 9) to chip 9's SER (pin 10) first")
	board.SetReadError(chain)
	scan(time.Second)
	m := b.next()
	if m.Kind != MsgSensorFault || m.Square != "" || !strings.Contains(m.Text, "cannot read its switches") || !strings.Contains(m.Text, "chip 10's QH (pin 9) to chip 9's SER") {
		t.Fatalf("message %+v, want a sensor_fault naming the chain's break", m)
	}
	st := b.State()
	if st.SensorFault != m.Text || st.Seats[1].Running {
		t.Errorf("state: sensor_fault %q, Blue running %v; want the message and the clock stopped", st.SensorFault, st.Seats[1].Running)
	}
	lit := b.Lights().Squares
	if len(lit) != 160 || lit["a4"] != "#00c8c8" || lit["h4"] != "#00c8c8" {
		t.Errorf("%d squares lit, a4 %q: want all 160 in the fault colour", len(lit), lit["a4"])
	}
	blue := st.Seats[1].ClockMS

	// Blind for a minute and flickering: nothing more is said, no time
	// runs, no square is suspected; Blue's move, seen in a good scan
	// between the failures, is played with the clocks held.
	board.Lift(sq("b7"))
	board.Place(sq("c7"))
	for range 30 {
		advance(2 * time.Second)
		board.SetReadError(nil)
		scan(time.Second)
		board.SetReadError(chain)
		scan(time.Second)
	}
	if m := b.next(); m.Kind != MsgMove || m.Move != "b7-c7" {
		t.Fatalf("message %+v, want Blue's move read between the failures", m)
	}
	st = b.State()
	if st.Seats[1].ClockMS != blue || st.Seats[2].Running || st.SensorFault == "" {
		t.Errorf("after a minute blind: Blue's clock %d ms (was %d), Yellow running %v, fault %q", st.Seats[1].ClockMS, blue, st.Seats[2].Running, st.SensorFault)
	}
	yellow := st.Seats[2].ClockMS
	mu.Lock()
	if len(suspects) > 0 {
		t.Errorf("squares suspected while the switches could not be read: %v", suspects)
	}
	mu.Unlock()

	// Mended: one sensor_ok, and Yellow's clock runs.
	board.SetReadError(nil)
	scan(10 * time.Second)
	if m := b.next(); m.Kind != MsgSensorOK || !strings.Contains(m.Text, "read well again") {
		t.Fatalf("message %+v, want sensor_ok", m)
	}
	st = b.State()
	if st.SensorFault != "" || !st.Seats[2].Running || st.Seats[2].ClockMS != yellow {
		t.Errorf("after mending: fault %q, Yellow running %v with %d ms (want %d)", st.SensorFault, st.Seats[2].Running, st.Seats[2].ClockMS, yellow)
	}
	if lit := b.Lights().Squares; lit["a4"] == "#00c8c8" {
		t.Error("the fault colour stayed on after mending")
	}
	backlog, _, cancel, err := b.Subscribe(1)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	var kinds []string
	for _, m := range backlog {
		kinds = append(kinds, m.Kind)
	}
	if want := []string{MsgGameStart, MsgMove, MsgSensorFault, MsgMove, MsgSensorOK}; !slices.Equal(kinds, want) {
		t.Errorf("messages %v, want %v", kinds, want)
	}
}
