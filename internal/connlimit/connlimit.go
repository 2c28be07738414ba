// Package connlimit caps the connections a listener keeps open: per client
// address and in total. Every port boardd opens to the network goes
// through it (the embedded broker's MQTT port, the HTTP port with the web
// display, MQTT over WebSocket and the event streams), so no client and no
// crowd of clients can take the process's memory or its file handles.
//
// A connection may be marked idle (an HTTP keep-alive between requests, a
// connection that has not sent its first request, an MQTT client that has
// not logged in yet). When a cap is reached, the oldest idle connection
// within the cap's scope (the address's own for the per-address cap,
// anybody's for the total) is closed to make room; only when none is idle
// is the new connection refused, by closing it at once. So a crowd of
// silent connections cannot keep the owner from loading the page.
//
// The totals are computed from the process's file limit (TotalFor): a
// reserve of handles stays for the journal, the game files and the
// devices whatever the network does.
package connlimit

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Config sets the caps; zero fields take the defaults.
type Config struct {
	// PerAddress caps the connections one client address holds open at
	// once (default 16; see Key). The board's own address (Local) counts
	// only toward Total: the board's MQTT mirror, a terminal or a reverse
	// proxy on the Pi.
	PerAddress int
	// Total caps the connections open at once (default 256).
	Total int
}

// Counts are a Limiter's figures, for /metrics and tests.
type Counts struct {
	Open    int    // connections open now
	Refused uint64 // connections closed at once: a cap was reached and none was idle
	Evicted uint64 // idle connections closed to make room for a new one
}

// Limiter counts open connections per address and in total. The zero
// value is not usable: make one with New. It is safe for concurrent use.
type Limiter struct {
	cfg Config

	mu    sync.Mutex
	open  map[string][]*Slot // per address, oldest first
	total int

	refused, evicted atomic.Uint64
}

// New makes a Limiter.
func New(cfg Config) *Limiter {
	if cfg.PerAddress <= 0 {
		cfg.PerAddress = 16
	}
	if cfg.Total <= 0 {
		cfg.Total = 256
	}
	return &Limiter{cfg: cfg, open: map[string][]*Slot{}}
}

// Counts returns the figures.
func (l *Limiter) Counts() Counts {
	l.mu.Lock()
	n := l.total
	l.mu.Unlock()
	return Counts{Open: n, Refused: l.refused.Load(), Evicted: l.evicted.Load()}
}

// Slot is one connection's place under the caps.
type Slot struct {
	l       *Limiter
	key     string
	closer  func() // ends the connection when it is evicted (nil: cannot be)
	idle    atomic.Bool
	since   atomic.Int64 // unix nanoseconds when it last became idle
	release sync.Once
}

// SetIdle marks the connection as one that may be closed to make room
// (true) or not (false).
func (s *Slot) SetIdle(idle bool) {
	if idle {
		s.since.Store(time.Now().UnixNano())
	}
	s.idle.Store(idle)
}

// Release gives the slot back; later calls do nothing.
func (s *Slot) Release() {
	s.release.Do(func() { s.l.drop(s) })
}

// Acquire takes a slot for a connection from addr ("host:port" or a
// host). When a cap is reached it closes the oldest idle connection in
// the cap's scope (through the closer given when it was acquired) and
// takes its place; when none is idle it answers nil. closer may be nil
// for a connection that is never idle.
func (l *Limiter) Acquire(addr string, closer func()) *Slot {
	key := Key(addr)
	s := &Slot{l: l, key: key, closer: closer}
	var victim *Slot // the idle connection that makes room
	full := true
	l.mu.Lock()
	switch {
	case len(l.open[key]) >= l.cfg.PerAddress && !Local(key):
		victim = oldestIdle(l.open[key])
	case l.total >= l.cfg.Total:
		for _, slots := range l.open {
			if c := oldestIdle(slots); c != nil && (victim == nil || c.since.Load() < victim.since.Load()) {
				victim = c
			}
		}
	default:
		full = false
	}
	if full && victim == nil {
		l.mu.Unlock()
		l.refused.Add(1)
		return nil
	}
	if victim != nil {
		l.remove(victim) // one out (of the address's, which counts in the total too), one in
	}
	l.open[key] = append(l.open[key], s)
	l.total++
	l.mu.Unlock()
	if victim != nil {
		l.evicted.Add(1)
		victim.release.Do(func() {}) // already out of the table
		victim.closer()
	}
	return s
}

func oldestIdle(slots []*Slot) *Slot {
	var v *Slot
	for _, s := range slots {
		if s.closer != nil && s.idle.Load() && (v == nil || s.since.Load() < v.since.Load()) {
			v = s
		}
	}
	return v
}

// remove takes s out of the table; l.mu is held.
func (l *Limiter) remove(s *Slot) {
	slots := l.open[s.key]
	for i, o := range slots {
		if o == s {
			slots = append(slots[:i], slots[i+1:]...)
			l.total--
			break
		}
	}
	if len(slots) == 0 {
		delete(l.open, s.key)
	} else {
		l.open[s.key] = slots
	}
}

func (l *Limiter) drop(s *Slot) {
	l.mu.Lock()
	l.remove(s)
	l.mu.Unlock()
}

// Listener is a net.Listener whose connections are capped by a Limiter.
// A connection over a cap is closed at once and Accept goes on to the
// next; new connections start idle (nothing sent yet).
type Listener struct {
	net.Listener
	lim *Limiter
}

// Listen wraps ln.
func Listen(ln net.Listener, lim *Limiter) *Listener { return &Listener{Listener: ln, lim: lim} }

// Limiter returns the listener's limiter.
func (l *Listener) Limiter() *Limiter { return l.lim }

// Accept waits for a connection that fits under the caps. Running out
// of file handles (EMFILE, ENFILE) is waited out, as net/http does, rather
// than returned: a server loop that stops at the first error (mochi's)
// would stop serving for good.
func (l *Listener) Accept() (net.Conn, error) {
	var wait time.Duration
	for {
		c, err := l.Listener.Accept()
		if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
			wait = min(max(2*wait, 5*time.Millisecond), time.Second)
			time.Sleep(wait)
			continue
		}
		if err != nil {
			return nil, err
		}
		wait = 0
		lc := &Conn{Conn: c}
		lc.slot = l.lim.Acquire(c.RemoteAddr().String(), func() { c.Close() })
		if lc.slot == nil {
			c.Close()
			continue
		}
		lc.slot.SetIdle(true)
		return lc, nil
	}
}

// Conn is a connection accepted by a Listener; closing it gives its slot
// back.
type Conn struct {
	net.Conn
	slot *Slot
}

// Close closes the connection and releases its slot.
func (c *Conn) Close() error {
	err := c.Conn.Close()
	c.slot.Release()
	return err
}

// NetConn returns the connection underneath.
func (c *Conn) NetConn() net.Conn { return c.Conn }

// SetIdle marks c idle or busy (see Slot.SetIdle). c may be a Conn or a
// connection wrapping one (a *tls.Conn, or anything with a NetConn
// method); for any other it does nothing.
func SetIdle(c net.Conn, idle bool) {
	for c != nil {
		if lc, ok := c.(*Conn); ok {
			lc.slot.SetIdle(idle)
			return
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return
		}
		c = u.NetConn()
	}
}

// Reserve is the file handles kept out of every total: the journal, the
// stream, the game files, the logs, the switch and LED devices, the
// board's own MQTT client.
const Reserve = 256

// TotalFor answers the total cap for a listener that wants want
// connections and may use share (0 < share ≤ 1) of the file handles left
// after Reserve, given the process's file limit nofile (0: read it with
// FileLimit). It is at least 8, so a listener always serves somebody.
func TotalFor(want int, share float64, nofile int) int {
	if nofile <= 0 {
		nofile = FileLimit()
	}
	budget := int(float64(nofile-Reserve) * share)
	return max(8, min(want, budget))
}

// FileLimit returns the process's soft limit on open files
// (RLIMIT_NOFILE; Go raises it to the hard limit at start), or 1024 when
// it cannot be read.
func FileLimit() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur == 0 {
		return 1024
	}
	if r.Cur > 1<<30 {
		return 1 << 30
	}
	return int(r.Cur)
}

// Key is the address a cap applies to: the IP without the port (an IPv4
// address in IPv6 form as IPv4, without a zone). An IPv6 client counts by
// its whole address, not its /64 as password guessing does
// (throttle.Key): every device on a club's IPv6 network shares one /64,
// and they must not share one device's connections. The totals bound
// what many addresses can hold.
func Key(addr string) string {
	host := addr
	if h, _, err := net.SplitHostPort(addr); err == nil {
		host = h
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	return ip.Unmap().WithZone("").String()
}

// Local tells whether key (from Key) is the board itself: 127.0.0.1 or
// ::1. The rest of 127/8 is not: tests stand other machines there.
func Local(key string) bool { return key == "127.0.0.1" || key == "::1" }
