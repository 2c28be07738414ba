package clock

import (
	"testing"
	"time"

	"boardd/rules"
)

var t0 = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// "The standard time control is 1 minute with a 15-second delay each
// move." (chess.com rules): the first 15 seconds of a turn are free.
func TestStandardDelay(t *testing.T) {
	c, _ := New(Standard)
	c.Start(rules.Red, at(0))
	if l := c.Left(rules.Red, at(10)); l != time.Minute {
		t.Errorf("after 10 s (within the delay): %v left, want 1m", l)
	}
	if l := c.Left(rules.Red, at(20)); l != 55*time.Second {
		t.Errorf("after 20 s: %v left, want 55s", l)
	}
	c.Moved(rules.Blue, at(20))
	if l := c.Left(rules.Red, at(100)); l != 55*time.Second {
		t.Errorf("Red's clock runs on Blue's turn: %v", l)
	}
	if l := c.Left(rules.Blue, at(30)); l != time.Minute {
		t.Errorf("Blue within its delay: %v", l)
	}
}

func TestIncrementAndFlag(t *testing.T) {
	c, _ := New(Control{Base: 10 * time.Second, Increment: 2 * time.Second})
	c.Start(rules.Red, at(0))
	if c.Moved(rules.Blue, at(4)) {
		t.Fatal("flagged with time left")
	}
	if l := c.Left(rules.Red, at(4)); l != 8*time.Second { // 10 - 4 + 2
		t.Errorf("after a 4 s move with 2 s increment: %v", l)
	}
	if _, f := c.Flagged(at(13)); f {
		t.Error("Blue flagged before its 10 s ran out")
	}
	if s, f := c.Flagged(at(14.5)); !f || s != rules.Blue {
		t.Errorf("Blue not flagged after 10.5 s: %v %v", s, f)
	}
	if !c.Moved(rules.Yellow, at(15)) {
		t.Error("a move after the flag is not reported as flagged")
	}
	if l := c.Left(rules.Blue, at(15)); l != 0 {
		t.Errorf("flagged clock shows %v", l)
	}
}

func TestPauseAndResume(t *testing.T) {
	c, _ := New(Control{Base: time.Minute})
	c.Start(rules.Green, at(0))
	c.Pause(at(5))
	if c.Running() != rules.NoSeat || c.Left(rules.Green, at(500)) != 55*time.Second {
		t.Errorf("paused clock: running %v left %v", c.Running(), c.Left(rules.Green, at(500)))
	}
	c.Start(rules.Green, at(500))
	if l := c.Left(rules.Green, at(510)); l != 45*time.Second {
		t.Errorf("after resuming: %v", l)
	}
	if _, err := New(Control{}); err == nil {
		t.Error("zero base accepted")
	}
}
