package sensors_test

import (
	"strings"
	"testing"
	"time"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

func TestRenderMap(t *testing.T) {
	occ := sim.StartPosition()
	raw := occ
	raw.Remove(sq(t, "h2")) // being lifted
	var faults square.Set
	faults.Add(sq(t, "g7"))
	var b strings.Builder
	if err := sensors.RenderMap(&b, occ, raw, faults); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := map[int]string{
		0:  "14        # # # # # # # #      ",
		7:  " 7  # # . . . . ! . . . . . # #",
		12: " 2        # # # # ? # # #",
		14: "    a b c d e f g h i j k l m n",
	}
	for i, w := range want {
		if strings.TrimRight(lines[i], " ") != strings.TrimRight(w, " ") {
			t.Errorf("line %d = %q, want %q", i, lines[i], w)
		}
	}
	if strings.Count(b.String(), "#")+strings.Count(b.String(), "?") != 64 {
		t.Errorf("map shows %d pieces", strings.Count(b.String(), "#"))
	}
}

func TestRenderMapSixteenBySixteen(t *testing.T) {
	var occ square.Set
	occ.Add(sq(t, "a1"))
	occ.Add(sq(t, "p16"))
	var b strings.Builder
	if err := sensors.RenderMapOn(&b, square.Full(), occ, occ, square.Set{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := map[int]string{
		0:  "16  . . . . . . . . . . . . . . . #",
		15: " 1  # . . . . . . . . . . . . . . .",
		16: "    a b c d e f g h i j k l m n o p",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i, lines[i], w)
		}
	}
}

func TestCalibration(t *testing.T) {
	order := []square.Square{sq(t, "d1"), sq(t, "e1"), sq(t, "f1"), sq(t, "g1")}
	c := sensors.NewCalibration(order, 10*time.Second, t0)
	m := sensors.StandardMap()
	ev := func(k sensors.Kind, name string, s int) sensors.Event {
		return sensors.Event{Kind: k, Square: sq(t, name), Time: t0.Add(time.Duration(s) * time.Second)}
	}
	steps := []struct {
		e    *sensors.Event
		tick int
		next string // current square after the step
	}{
		{e: ptr(ev(sensors.Place, "d1", 2)), next: "e1"},
		{e: ptr(ev(sensors.Lift, "d1", 3)), next: "e1"},
		{e: ptr(ev(sensors.Place, "f1", 4)), next: "f1"}, // e1 wired as f1
		{tick: 13, next: "f1"},
		{tick: 14, next: "g1"}, // f1 never closed
		{e: ptr(ev(sensors.Place, "g1", 15)), next: "-"},
	}
	for i, s := range steps {
		if s.e != nil {
			c.Observe(*s.e)
		} else {
			c.Tick(t0.Add(time.Duration(s.tick) * time.Second))
		}
		cur, _ := c.Current()
		if cur.String() != s.next {
			t.Fatalf("step %d: current %s, want %s", i, cur, s.next)
		}
	}
	var b strings.Builder
	c.Report(&b, m)
	want := "2 of 4 squares passed\nnever closed: f1\ne1 closed the switch mapped to f1 (bit 2; e1 is mapped to bit 1)\n"
	if b.String() != want {
		t.Errorf("report\n%s\nwant\n%s", b.String(), want)
	}
	if c.Passed() {
		t.Error("Passed with failures")
	}
}

func ptr[T any](v T) *T { return &v }
