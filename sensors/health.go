package sensors

import (
	"time"

	"boardd/rules/square"
)

// Defaults for the Unreadable fault (see the package doc).
const (
	// DefaultReadFaultAfter failed reads raise the fault: one lost scan
	// is a glitch, three mean the board cannot see the pieces.
	DefaultReadFaultAfter = 3
	// DefaultReadClearAfter of good reads clear it (and forgive a glitch).
	DefaultReadClearAfter = 2 * time.Second
	// DefaultReadClearMax caps the hold of a flickering source.
	DefaultReadClearMax = time.Minute
	// flickerWindow: a fault back within this time of clearing doubles
	// the hold.
	flickerWindow = time.Minute
)

// health tracks the Source's read failures for the Unreadable fault; the
// Scanner's mu guards it.
type health struct {
	failed    int       // failed reads since the last clean stretch
	lastFail  time.Time // the latest failed read
	lastClear time.Time // when the fault last cleared (zero: never raised)
	hold      time.Duration
	faulted   bool
	err       error // the latest read error
	errors    uint64
}

// readFailed records a failed read at now; it reports whether the fault
// is raised by it.
func (h *health) readFailed(now time.Time, err error, c *Config) bool {
	h.errors++
	h.err = err
	if h.failed > 0 && now.Sub(h.lastFail) >= h.holdFor(c) && !h.faulted {
		h.failed = 0 // an old glitch, forgiven
	}
	h.failed++
	h.lastFail = now
	if h.faulted || h.failed < c.ReadFaultAfter {
		return false
	}
	h.faulted = true
	if h.hold == 0 || h.lastClear.IsZero() || now.Sub(h.lastClear) > flickerWindow {
		h.hold = c.ReadClearAfter
	} else {
		h.hold = min(2*h.hold, c.ReadClearMax)
	}
	return true
}

// readOK records a good read at now; it reports whether the fault clears
// with it.
func (h *health) readOK(now time.Time, c *Config) bool {
	if h.failed == 0 || now.Sub(h.lastFail) < h.holdFor(c) {
		return false
	}
	h.failed = 0
	if !h.faulted {
		return false
	}
	h.faulted = false
	h.lastClear = now
	return true
}

func (h *health) holdFor(c *Config) time.Duration {
	if h.faulted && h.hold > 0 {
		return h.hold
	}
	return c.ReadClearAfter
}

// Unreadable reports whether the Source is in an Unreadable fault, and
// the latest read error.
func (s *Scanner) Unreadable() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.health.faulted, s.health.err
}

// ReadErrors returns how many reads of the Source have failed.
func (s *Scanner) ReadErrors() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.health.errors
}

// readFailed handles a failed Source.Read: the state stays as it was, and
// the Unreadable fault is raised once enough reads have failed.
func (s *Scanner) readFailed(now time.Time, err error) {
	s.mu.Lock()
	if !s.seeded {
		// Nothing known yet: start from an empty board, so what stands on
		// it is reported, square by square, once it can be read.
		s.seeded = true
	}
	raise := s.health.readFailed(now, err, &s.cfg)
	occ := s.stable
	s.mu.Unlock()
	if raise && s.cfg.OnEvent != nil {
		s.cfg.OnEvent(Event{Kind: Fault, Square: square.None, Time: now, Began: now, Cause: Unreadable, Occupied: occ, Err: err})
	}
}
