// Package clock keeps the four players' game clocks. It has no goroutines
// and reads no time itself: the caller passes the time of every event, so
// the clocks are exact and testable. chess.com's standard control is one
// minute with a 15-second delay (Bronstein-free "simple delay": each move's
// first 15 seconds are free).
package clock

import (
	"fmt"
	"time"

	"boardd/rules"
)

// Control is a time control.
type Control struct {
	// Base is each player's time for the game.
	Base time.Duration
	// Increment is added after each of the player's moves (Fischer).
	Increment time.Duration
	// Delay is free time at the start of each turn before the clock runs
	// (simple delay, as chess.com's "1 | 15 delay").
	Delay time.Duration
}

// Standard is chess.com's four-player default: 1 minute, 15-second delay.
var Standard = Control{Base: time.Minute, Delay: 15 * time.Second}

// Clocks are the four players' clocks.
type Clocks struct {
	ctl     Control
	left    [rules.NumSeats]time.Duration
	running rules.Seat // rules.NoSeat when stopped
	since   time.Time  // when the running seat's turn began
}

// New sets every clock to the control's base time, all stopped.
func New(ctl Control) (*Clocks, error) {
	if ctl.Base <= 0 || ctl.Increment < 0 || ctl.Delay < 0 {
		return nil, fmt.Errorf("clock: base time must be positive, increment and delay not negative")
	}
	c := &Clocks{ctl: ctl, running: rules.NoSeat}
	for i := range c.left {
		c.left[i] = ctl.Base
	}
	return c, nil
}

// Start runs seat s's clock from now (its turn begins).
func (c *Clocks) Start(s rules.Seat, now time.Time) {
	c.running, c.since = s, now
}

// used is the time the running seat has used this turn, after the delay.
func (c *Clocks) used(now time.Time) time.Duration {
	d := now.Sub(c.since) - c.ctl.Delay
	if d < 0 {
		return 0
	}
	return d
}

// Left returns seat s's remaining time at now (never below zero).
func (c *Clocks) Left(s rules.Seat, now time.Time) time.Duration {
	l := c.left[s]
	if s == c.running {
		l -= c.used(now)
	}
	if l < 0 {
		return 0
	}
	return l
}

// Flagged returns the running seat if its time has run out at now.
func (c *Clocks) Flagged(now time.Time) (rules.Seat, bool) {
	if c.running == rules.NoSeat || c.left[c.running]-c.used(now) > 0 {
		return rules.NoSeat, false
	}
	return c.running, true
}

// Moved ends the running seat's turn at now: its time is charged (after
// the delay), the increment added, and next's clock starts. It reports a
// flag if the time ran out before the move.
func (c *Clocks) Moved(next rules.Seat, now time.Time) (flagged bool) {
	if s := c.running; s != rules.NoSeat {
		c.left[s] -= c.used(now)
		if c.left[s] <= 0 {
			c.left[s] = 0
			flagged = true
		} else {
			c.left[s] += c.ctl.Increment
		}
	}
	c.Start(next, now)
	return flagged
}

// Pause stops the clocks at now, charging the running seat; Start resumes.
func (c *Clocks) Pause(now time.Time) {
	if s := c.running; s != rules.NoSeat {
		c.left[s] -= c.used(now)
		if c.left[s] < 0 {
			c.left[s] = 0
		}
	}
	c.running = rules.NoSeat
}

// Running returns the seat whose clock runs, or rules.NoSeat.
func (c *Clocks) Running() rules.Seat { return c.running }

// Set restores a seat's remaining time (a game resumed from its journal).
func (c *Clocks) Set(s rules.Seat, left time.Duration) { c.left[s] = left }
