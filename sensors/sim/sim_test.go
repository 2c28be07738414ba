package sim_test

import (
	"bufio"
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

func TestStartPosition(t *testing.T) {
	s := sim.StartPosition()
	if s.Len() != 64 {
		t.Fatalf("%d squares, want 64", s.Len())
	}
	for _, name := range []string{"d1", "k2", "a4", "b11", "m4", "n11", "d13", "k14"} {
		q, _ := square.Parse(name)
		if !s.Has(q) {
			t.Errorf("%s empty", name)
		}
	}
	for _, name := range []string{"d3", "c1", "a3", "a12", "c4", "l4", "g7"} {
		q, _ := square.Parse(name)
		if s.Has(q) {
			t.Errorf("%s occupied", name)
		}
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		in   string
		want string // Step.String(), "" for a blank line
		err  string
	}{
		{"lift e2", "lift e2", ""},
		{"  PLACE   n11  # comment", "place n11", ""},
		{"wait 20ms", "wait 20ms", ""},
		{"wait 1.5s", "wait 1.5s", ""},
		{"bounce h7 5", "bounce h7 5", ""},
		{"# only a comment", "", ""},
		{"", "", ""},
		{"break", "break", ""},
		{"Mend # the wire", "mend", ""},
		{"break e2", "", `break: want "break"`},
		{"lfit e2", "", `unknown command "lfit" (want lift, place, wait, bounce, break or mend)`},
		{"lift", "", `lift: want "lift <square>"`},
		{"lift a1", "", "square a1 is not on the four-player board"},
		{"place z3", "", `"z3" is not a square of this board (files a–n, ranks 1–14)`},
		{"wait 20", "", `wait: "20" is not a duration`},
		{"wait -1s", "", "wait: -1s out of range"},
		{"wait 2h", "", "wait: 2h0m0s out of range"},
		{"bounce e4 0", "", `bounce: "0" is not a number of milliseconds 1-1000`},
		{"bounce e4", "", `bounce: want "bounce <square> <ms>"`},
	}
	for _, tc := range tests {
		st, ok, err := sim.ParseLine(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseLine(%q) error %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("ParseLine(%q): %v", tc.in, err)
		case tc.want == "" && ok:
			t.Errorf("ParseLine(%q) = %v, want blank", tc.in, st)
		case tc.want != "" && (!ok || st.String() != tc.want):
			t.Errorf("ParseLine(%q) = %v %v, want %q", tc.in, st, ok, tc.want)
		}
	}
}

func TestParseScriptErrorNamesLine(t *testing.T) {
	_, err := sim.ParseScript("game.txt", strings.NewReader("lift e2\n\n# x\nplace e9x\n"))
	if err == nil || !strings.HasPrefix(err.Error(), `game.txt:4: "e9x" is not a square of this board`) {
		t.Errorf("error %v", err)
	}
}

// TestScriptScanned plays a script through a scanner in virtual time.
func TestScriptScanned(t *testing.T) {
	script := `# Red opens h2-h4 with a bouncy landing, Blue slides b7-c7 over nothing
lift h2
wait 80ms
place h4
bounce h4 5
wait 100ms
lift b7
bounce b7 3
wait 40ms
place c7
wait 50ms
`
	s, err := sim.ParseScript("open.txt", strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 10 || s[0].Line != 2 {
		t.Fatalf("parsed %d steps, first on line %d", len(s), s[0].Line)
	}
	clk := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := sim.New(sim.StartPosition(), clk.Now)
	var got []string
	sc, err := sensors.NewScanner(b, b.Map(), sensors.Config{OnEvent: func(e sensors.Event) { got = append(got, e.String()) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Step(clk.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.Play(b, sim.VirtualWait(sc, clk)); err != nil {
		t.Fatal(err)
	}
	want := []string{"lift h2", "place h4", "lift b7", "place c7"}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	snap, _ := sc.Snapshot()
	if snap != b.Occupied() || snap.Len() != 64 {
		t.Errorf("snapshot %v (%d)", snap, snap.Len())
	}
}

func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback:", err)
	}
	b := sim.New(sim.StartPosition(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sim.Serve(ctx, ln, b) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("lift e2\n# nothing\nwait 1ms\nplace e4\nhop e5\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewScanner(c)
	var replies []string
	for len(replies) < 4 && r.Scan() {
		replies = append(replies, r.Text())
	}
	want := []string{"ok", "ok", "ok", `error: unknown command "hop" (want lift, place, wait, bounce, break or mend)`}
	if !slices.Equal(replies, want) {
		t.Errorf("replies %q, want %q", replies, want)
	}
	e2, _ := square.Parse("e2")
	e4, _ := square.Parse("e4")
	if occ := b.Occupied(); occ.Has(e2) || !occ.Has(e4) {
		t.Errorf("board after commands: e2 %v e4 %v", occ.Has(e2), occ.Has(e4))
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func FuzzParseScript(f *testing.F) {
	f.Add("lift e2\nwait 20ms\nplace e4\nbounce e4 5\n# c\n")
	f.Add("wait 1h\nbounce n11 1000")
	f.Add("place\tz99 extra")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := sim.ParseScript("f.txt", strings.NewReader(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.txt:") {
				t.Errorf("error does not name the file and line: %v", err)
			}
			return
		}
		cross := square.Cross()
		for _, st := range s {
			if st.Line < 1 {
				t.Errorf("step %v without a line", st)
			}
			switch st.Op {
			case sim.OpLift, sim.OpPlace, sim.OpBounce:
				if !cross.Has(st.Square) {
					t.Errorf("step %v off the board", st)
				}
			case sim.OpWait:
				if st.Dur < 0 || st.Dur > sim.MaxWait {
					t.Errorf("wait %v out of range", st.Dur)
				}
			default:
				t.Errorf("unknown op in %v", st)
			}
			// A step must re-parse to itself.
			again, ok, err := sim.ParseLine(st.String())
			if err != nil || !ok || again.Op != st.Op || again.Square != st.Square || again.Dur != st.Dur {
				t.Errorf("%v re-parses as %v %v %v", st, again, ok, err)
			}
		}
	})
}

func TestReadNoAllocWhileBouncing(t *testing.T) {
	clk := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := sim.New(sim.StartPosition(), clk.Now)
	for _, n := range []string{"e2", "f2", "g2", "h2", "i2", "j2", "k2", "d2", "a4", "n11"} {
		q, _ := square.Parse(n)
		b.Bounce(q, time.Hour)
	}
	var f sensors.Frame
	seen := map[bool]bool{}
	e2 := sensors.StandardMap().Bit(mustSq(t, "e2"))
	allocs := testing.AllocsPerRun(200, func() {
		b.Read(&f)
		seen[f.Bit(e2)] = true
	})
	if allocs > 0 {
		t.Errorf("Read allocates %.1f per call while bouncing", allocs)
	}
	if !seen[true] || !seen[false] {
		t.Error("a bouncing square never changed")
	}
}

func mustSq(t *testing.T, n string) square.Square {
	q, err := square.Parse(n)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
