// Package throttle limits password guessing per client address: the web
// display's logins and the embedded MQTT broker's CONNECTs share it.
//
// The decision is taken before the password is checked and the failure is
// recorded before the client is answered, so a client that hangs up early
// gains nothing. Each address may try again only after a wait that doubles
// with each failure in a row (Delay, 2×Delay, 4×Delay … up to MaxDelay);
// an attempt earlier than that is refused without checking.
//
// Guessing from many addresses (a script cycling thousands of them) is
// bounded too: while Global failures (from all addresses together) fell
// in the last Window, only proven addresses are checked: those that
// logged in successfully before (the last MaxProven of them, for
// ProvenFor) and this machine's own (127.0.0.1 and ::1: the board's own
// MQTT mirror, a terminal on the Pi). Every other attempt is
// refused unchecked until the window has room again. So the total rate
// of checked guesses stays near Global per Window whatever the number of
// addresses, while the owner, from a machine that logged in before or
// from the board itself (and with a session already open), still gets
// in at once with the right password.
package throttle

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"boardd/internal/connlimit"
)

// Config sets the limits; zero fields take the defaults.
type Config struct {
	// Delay is the wait after an address's first failure (default 1 s);
	// each further failure in a row doubles it.
	Delay time.Duration
	// MaxDelay caps the wait of one address (default 1 min).
	MaxDelay time.Duration
	// Forget drops an address's failures after this long without an
	// attempt (default 15 min).
	Forget time.Duration
	// Global is how many failures from all addresses together may fall in
	// one Window before addresses that have failed are refused outright
	// (default 30).
	Global int
	// Window is the span Global counts over (default 1 min).
	Window time.Duration
	// MaxAddresses bounds the addresses remembered (default 4096); past it
	// the quietest is forgotten.
	MaxAddresses int
	// MaxProven bounds the proven addresses remembered (default 256);
	// past it the one proven longest ago is forgotten. Only successes add
	// to it, so guessing cannot push the owner's address out.
	MaxProven int
	// ProvenFor is how long an address stays proven after its last
	// success (default 30 days; proven addresses are kept in memory only,
	// so a restart forgets them).
	ProvenFor time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Limiter counts failed attempts per address. It is safe for concurrent use.
type Limiter struct {
	cfg Config

	mu     sync.Mutex
	addrs  map[string]*entry
	proven map[string]time.Time // address → its last success
	recent []time.Time          // failures in the last Window, oldest first

	checked, failed, refused atomic.Uint64
}

// Counts are a Limiter's totals since New.
type Counts struct {
	Checked uint64 // attempts whose password was checked
	Failed  uint64 // of those, the wrong ones
	Refused uint64 // attempts refused unchecked
}

// Counts returns the totals, for metrics and measurements.
func (l *Limiter) Counts() Counts {
	return Counts{Checked: l.checked.Load(), Failed: l.failed.Load(), Refused: l.refused.Load()}
}

type entry struct {
	fails    int           // failures in a row
	next     time.Time     // no attempt before this
	last     time.Time     // last attempt
	inFlight bool          // an attempt is being checked
	done     chan struct{} // closed when the attempt in flight ends
}

// New makes a Limiter.
func New(cfg Config) *Limiter {
	if cfg.Delay <= 0 {
		cfg.Delay = time.Second
	}
	if cfg.MaxDelay < cfg.Delay {
		cfg.MaxDelay = max(time.Minute, cfg.Delay)
	}
	if cfg.Forget <= 0 {
		cfg.Forget = 15 * time.Minute
	}
	if cfg.Global <= 0 {
		cfg.Global = 30
	}
	if cfg.Window <= 0 {
		cfg.Window = time.Minute
	}
	if cfg.MaxAddresses <= 0 {
		cfg.MaxAddresses = 4096
	}
	if cfg.MaxProven <= 0 {
		cfg.MaxProven = 256
	}
	if cfg.ProvenFor <= 0 {
		cfg.ProvenFor = 30 * 24 * time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Limiter{cfg: cfg, addrs: map[string]*entry{}, proven: map[string]time.Time{}}
}

// Attempt runs check for a guess from addr unless addr must wait: then it
// answers false and how long to wait, and check is not run. Otherwise it
// answers check's result (and a wait of 0); a false result is counted
// against addr before Attempt returns, a true one clears addr's record.
// A second attempt from addr while one is being checked waits for that
// one's outcome (at most Delay), then is decided as if it came after it:
// boards behind one address (a NAT, a test) that log in at once all get
// in, and parallel guesses from one address are checked one by one.
func (l *Limiter) Attempt(addr string, check func() bool) (ok bool, wait time.Duration) {
	key := Key(addr)
	for {
		wait, busy := l.begin(key)
		if busy != nil {
			select {
			case <-busy:
				continue
			case <-time.After(l.cfg.Delay):
			}
			wait = l.cfg.Delay
		}
		if wait > 0 {
			l.refused.Add(1)
			return false, wait
		}
		break
	}
	ok = check()
	l.end(key, ok)
	l.checked.Add(1)
	if !ok {
		l.failed.Add(1)
	}
	return ok, 0
}

// begin decides whether key may be checked now (a wait of 0, and key is
// then in flight until end), must wait, or must first see the outcome of
// the attempt in flight (busy, closed when it ends).
func (l *Limiter) begin(key string) (wait time.Duration, busy <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.cfg.Now()
	cut := now.Add(-l.cfg.Window)
	i := 0
	for i < len(l.recent) && !l.recent[i].After(cut) {
		i++
	}
	l.recent = l.recent[i:]
	e := l.addrs[key]
	if e != nil && now.Sub(e.last) > l.cfg.Forget && !e.inFlight {
		delete(l.addrs, key)
		e = nil
	}
	if e == nil {
		l.makeRoom(now)
		e = &entry{}
		l.addrs[key] = e
	}
	e.last = now
	switch {
	case e.inFlight:
		return 0, e.done
	case now.Before(e.next):
		return e.next.Sub(now), nil
	case len(l.recent) >= l.cfg.Global && !l.isProven(key, now):
		return l.recent[0].Add(l.cfg.Window).Sub(now), nil
	}
	e.inFlight, e.done = true, make(chan struct{})
	return 0, nil
}

func (l *Limiter) end(key string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.addrs[key]
	if e == nil { // cannot happen: an entry in flight is never dropped
		e = &entry{}
		l.addrs[key] = e
	}
	e.inFlight = false
	if e.done != nil {
		close(e.done)
		e.done = nil
	}
	now := l.cfg.Now()
	if ok {
		delete(l.addrs, key)
		l.prove(key, now)
		return
	}
	e.fails++
	wait := l.cfg.Delay
	for i := 1; i < e.fails && wait < l.cfg.MaxDelay; i++ {
		wait *= 2
	}
	e.next = now.Add(min(wait, l.cfg.MaxDelay))
	l.recent = append(l.recent, now)
}

// isProven tells whether key logged in within ProvenFor, or is this
// machine (127.0.0.1, ::1; the rest of 127/8 stands for other machines
// in tests and is not trusted); l.mu is held.
func (l *Limiter) isProven(key string, now time.Time) bool {
	if connlimit.Local(key) {
		return true
	}
	at, ok := l.proven[key]
	return ok && now.Sub(at) <= l.cfg.ProvenFor
}

// prove remembers key's success; l.mu is held.
func (l *Limiter) prove(key string, now time.Time) {
	if _, ok := l.proven[key]; !ok && len(l.proven) >= l.cfg.MaxProven {
		var oldest string
		var oldestAt time.Time
		for k, at := range l.proven {
			if oldest == "" || at.Before(oldestAt) {
				oldest, oldestAt = k, at
			}
		}
		delete(l.proven, oldest)
	}
	l.proven[key] = now
}

// makeRoom forgets the quietest address when the table is full.
func (l *Limiter) makeRoom(now time.Time) {
	if len(l.addrs) < l.cfg.MaxAddresses {
		return
	}
	var quiet string
	var quietLast time.Time
	for k, e := range l.addrs {
		if e.inFlight {
			continue
		}
		if now.Sub(e.last) > l.cfg.Forget {
			delete(l.addrs, k)
			continue
		}
		if quiet == "" || e.last.Before(quietLast) {
			quiet, quietLast = k, e.last
		}
	}
	if len(l.addrs) >= l.cfg.MaxAddresses && quiet != "" {
		delete(l.addrs, quiet)
	}
}

// Key is the address a limit applies to: the IP without the port, and for
// IPv6 its /64 network (one host usually holds a whole /64), but ::1 as
// itself.
func Key(addr string) string {
	host := connlimit.Key(addr)
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Is6() || ip.IsLoopback() {
		return host
	}
	p, _ := ip.Prefix(64)
	return p.String()
}
