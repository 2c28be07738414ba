package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits of a time control (Check).
const (
	// MaxBase is the longest base time: a day.
	MaxBase = 24 * time.Hour
	// MaxPerMove is the longest increment or delay: an hour.
	MaxPerMove = time.Hour
)

// Check reports whether c is a time control the board plays and its
// TimeControl tag can record: a base time above 0 and at most MaxBase,
// and an increment or a delay (not both) of 0 to MaxPerMove, each in
// whole seconds. Parse reads only such controls; the config's game.clock
// is checked with it too, so the config, the new-game dialog and a
// game's tag agree.
func (c Control) Check() error {
	whole := func(d time.Duration) bool { return d%time.Second == 0 }
	switch {
	case c.Base <= 0 || c.Base > MaxBase || !whole(c.Base):
		return fmt.Errorf("the base time %v must be whole seconds above 0, at most %v", c.Base, MaxBase)
	case c.Increment < 0 || c.Increment > MaxPerMove || !whole(c.Increment):
		return fmt.Errorf("the increment %v must be whole seconds from 0 to %v", c.Increment, MaxPerMove)
	case c.Delay < 0 || c.Delay > MaxPerMove || !whole(c.Delay):
		return fmt.Errorf("the delay %v must be whole seconds from 0 to %v", c.Delay, MaxPerMove)
	case c.Increment > 0 && c.Delay > 0:
		return fmt.Errorf("an increment (%v) and a delay (%v) together: a time control has one or the other", c.Increment, c.Delay)
	}
	return nil
}

// Parse reads a time control as chess.com's PGN4 TimeControl tag writes
// it: the base time in minutes, then the seconds added per move
// ("10+5": ten minutes, 5-second increment), with a D for a delay
// instead ("1+15D": one minute, 15-second delay). It also reads the older
// forms "2 | 10" and "4 min". ok is false for "-" or "" (no clocks).
func Parse(s string) (ctl Control, ok bool, err error) {
	t := strings.TrimSpace(s)
	if t == "" || t == "-" || strings.EqualFold(t, "none") {
		return Control{}, false, nil
	}
	bad := func(why string) (Control, bool, error) {
		return Control{}, false, fmt.Errorf("time control %q: %s (want minutes+seconds such as 10+5, 1+15D for a delay, or - for no clocks)", s, why)
	}
	t = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(t, "min")), " ")
	base, extra, found := strings.Cut(t, "+")
	if !found {
		base, extra, found = strings.Cut(t, "|")
	}
	delay := false
	if found {
		extra = strings.TrimSpace(extra)
		if up := strings.TrimSuffix(strings.TrimSuffix(extra, "D"), "d"); up != extra {
			extra, delay = strings.TrimSpace(up), true
		}
	}
	mins, err := strconv.ParseFloat(strings.TrimSpace(base), 64)
	if err != nil || mins <= 0 || mins > 24*60 {
		return bad("the base time must be a number of minutes above 0, at most 1440")
	}
	ctl.Base = time.Duration(mins * float64(time.Minute)).Round(time.Second)
	if ctl.Base <= 0 {
		return bad("the base time rounds to 0 seconds")
	}
	if found {
		secs, err := strconv.Atoi(extra)
		if err != nil || secs < 0 || secs > 3600 {
			return bad("the seconds per move must be a whole number from 0 to 3600")
		}
		if delay {
			ctl.Delay = time.Duration(secs) * time.Second
		} else {
			ctl.Increment = time.Duration(secs) * time.Second
		}
	}
	if err := ctl.Check(); err != nil {
		return bad(err.Error())
	}
	return ctl, true, nil
}

// String writes the control as Parse reads it and chess.com's PGN4
// TimeControl tag has it: "10+5", "1+15D", "0.5+0".
func (c Control) String() string {
	base := strconv.FormatFloat(c.Base.Minutes(), 'f', -1, 64)
	if c.Delay > 0 {
		return fmt.Sprintf("%s+%dD", base, int(c.Delay/time.Second))
	}
	return fmt.Sprintf("%s+%d", base, int(c.Increment/time.Second))
}
