package clock

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   Control
		ok     bool
		canon  string
		errHas string
	}{
		// The forms of real chess.com PGN4 files (shared/reference/games).
		{in: "1+15D", want: Control{Base: time.Minute, Delay: 15 * time.Second}, ok: true, canon: "1+15D"},
		{in: "1+7", want: Control{Base: time.Minute, Increment: 7 * time.Second}, ok: true, canon: "1+7"},
		{in: "4+0", want: Control{Base: 4 * time.Minute}, ok: true, canon: "4+0"},
		{in: "2 | 10", want: Control{Base: 2 * time.Minute, Increment: 10 * time.Second}, ok: true, canon: "2+10"},
		{in: "4 min", want: Control{Base: 4 * time.Minute}, ok: true, canon: "4+0"},
		{in: " 10 + 5 ", want: Control{Base: 10 * time.Minute, Increment: 5 * time.Second}, ok: true, canon: "10+5"},
		{in: "0.5+2d", want: Control{Base: 30 * time.Second, Delay: 2 * time.Second}, ok: true, canon: "0.5+2D"},
		{in: "90", want: Control{Base: 90 * time.Minute}, ok: true, canon: "90+0"},
		// No clocks.
		{in: "", ok: false},
		{in: "-", ok: false},
		{in: "none", ok: false},
		// Mistakes.
		{in: "0+5", errHas: "base time"},
		{in: "ten+5", errHas: "base time"},
		{in: "10+-1", errHas: "seconds per move"},
		{in: "10+1.5", errHas: "seconds per move"},
		{in: "10m+5s", errHas: "want minutes+seconds"},
	} {
		got, ok, err := Parse(tc.in)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("Parse(%q): error %v, want one containing %q", tc.in, err, tc.errHas)
			}
			continue
		}
		if err != nil || ok != tc.ok || got != tc.want {
			t.Errorf("Parse(%q) = %+v, %v, %v; want %+v, %v", tc.in, got, ok, err, tc.want, tc.ok)
			continue
		}
		if ok && got.String() != tc.canon {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got.String(), tc.canon)
		}
		if ok {
			again, _, err := Parse(got.String())
			if err != nil || again != got {
				t.Errorf("Parse(String()) of %q: %+v, %v; want %+v", tc.in, again, err, got)
			}
		}
	}
}

// Check is the one rule for a time control: the config's game.clock, the
// new-game dialog's and new_game's time_control and a game's TimeControl
// tag (issue 28: "0+0", "1441+0" and clocks of 25 h must be refused
// everywhere alike).
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		ctl    Control
		errHas string
	}{
		{Control{Base: time.Minute, Delay: 15 * time.Second}, ""},
		{Control{Base: MaxBase, Increment: MaxPerMove}, ""},
		{Control{Base: 0}, "base time"},
		{Control{Base: 25 * time.Hour}, "base time 25h0m0s"},
		{Control{Base: 1500 * time.Millisecond}, "whole seconds"},
		{Control{Base: time.Minute, Increment: 2 * time.Hour}, "increment 2h0m0s"},
		{Control{Base: time.Minute, Delay: -time.Second}, "delay"},
		{Control{Base: time.Minute, Increment: time.Second, Delay: time.Second}, "one or the other"},
	} {
		err := tc.ctl.Check()
		if tc.errHas == "" && err != nil || tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)) {
			t.Errorf("%+v.Check() = %v, want %q", tc.ctl, err, tc.errHas)
		}
		if err == nil { // what Check takes, the tag writes and Parse reads back
			if back, ok, perr := Parse(tc.ctl.String()); perr != nil || !ok || back != tc.ctl {
				t.Errorf("%+v: Parse(%q) = %+v, %v", tc.ctl, tc.ctl.String(), back, perr)
			}
		}
	}
	for _, in := range []string{"0+0", "1441+0", "1+3601", "0.001+0"} {
		if _, _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) takes it", in)
		}
	}
}
