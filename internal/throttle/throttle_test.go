package throttle

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)} }
func fail() bool                     { return false }
func pass() bool                     { return true }
func limiter(c *clock, g int) *Limiter {
	return New(Config{Delay: time.Second, MaxDelay: time.Minute, Global: g, Now: c.now})
}
func checked(l *Limiter, addr string) bool { return attempt(l, addr, fail) }

// attempt answers whether check ran.
func attempt(l *Limiter, addr string, check func() bool) bool {
	ran := false
	l.Attempt(addr, func() bool { ran = true; return check() })
	return ran
}

func TestBackoffPerAddress(t *testing.T) {
	c := newClock()
	l := limiter(c, 1000)
	// Failures in a row wait 1, 2, 4, 8 … s, capped at a minute.
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute} {
		if !checked(l, "10.0.0.1:5000") {
			t.Fatalf("failure %d: attempt after the wait was not checked", i+1)
		}
		c.add(wait - time.Millisecond)
		ok, w := l.Attempt("10.0.0.1:5001", pass) // another port: same address
		if ok || w != time.Millisecond {
			t.Fatalf("after failure %d: an early right password answered ok=%v wait=%v, want refused with 1ms to wait", i+1, ok, w)
		}
		if !attempt(l, "10.0.0.2:5000", fail) {
			t.Fatalf("after failure %d: another address had to wait", i+1)
		}
		c.add(time.Millisecond)
	}
	if got, want := l.Counts(), (Counts{Checked: 16, Failed: 16, Refused: 8}); got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	if ok, _ := l.Attempt("10.0.0.1:1", pass); !ok {
		t.Fatal("the right password after the wait was refused")
	}
	if !checked(l, "10.0.0.1:1") || checked(l, "10.0.0.1:1") {
		t.Fatal("a success must clear the record: the next failure waits Delay again")
	}
	c.add(time.Second)
	if !checked(l, "10.0.0.1:1") {
		t.Fatal("after a success and one failure, the wait is Delay")
	}
}

func TestForget(t *testing.T) {
	c := newClock()
	l := limiter(c, 1000)
	for range 6 {
		checked(l, "10.0.0.1:1")
		c.add(time.Minute)
	}
	c.add(16 * time.Minute)
	checked(l, "10.0.0.1:1")
	c.add(time.Second)
	if !checked(l, "10.0.0.1:1") {
		t.Fatal("failures 16 minutes old still counted")
	}
}

func TestGlobalCeiling(t *testing.T) {
	c := newClock()
	l := limiter(c, 5)
	if ok, _ := l.Attempt("192.168.1.7:40000", pass); !ok { // the owner's laptop, earlier
		t.Fatal("the right password refused")
	}
	addrs := []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5"}
	for _, a := range addrs {
		checked(l, a)
	}
	c.add(10 * time.Second) // every address's own wait is over
	for _, a := range addrs {
		if ok, w := l.Attempt(a, pass); ok || w != 50*time.Second {
			t.Errorf("%s over the global ceiling: ok=%v wait=%v, want refused for 50s", a, ok, w)
		}
	}
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"10.9.9.9", false},         // a fresh address waits like the rest: it may be the next of thousands
		{"192.168.1.7:40001", true}, // one that logged in before is checked
		{"127.0.0.1:5555", true},    // so is the board itself
		{"[::1]:5555", true},
	} {
		if ok, _ := l.Attempt(tc.addr, pass); ok != tc.ok {
			t.Errorf("%s with the right password under the global ceiling: ok=%v, want %v", tc.addr, ok, tc.ok)
		}
	}
	c.add(50 * time.Second)
	if !checked(l, "10.0.0.1") {
		t.Error("the ceiling held after its window passed")
	}
}

// Issue 28, item 8: a script cycling 5,000 addresses (more than the
// table keeps) gets about Global guesses checked per Window, not one per
// address.
func TestManyAddressesBounded(t *testing.T) {
	c := newClock()
	l := New(Config{Delay: time.Second, Global: 30, Window: time.Minute, MaxAddresses: 4096, Now: c.now})
	l.Attempt("192.168.1.7:1", pass) // the owner, earlier
	for round := range 3 {
		for i := range 5000 {
			l.Attempt(fmt.Sprintf("10.%d.%d.%d:1", round, i/256, i%256), fail)
			c.add(10 * time.Millisecond) // 5,000 guesses in 50 s
		}
	}
	// 150 s: at most 30 in each minute begun, so 90 over three windows.
	if n := l.Counts(); n.Failed > 90 {
		t.Errorf("%d guesses checked from 15,000 addresses in 150 s, want at most 90 (%+v)", n.Failed, n)
	}
	if ok, _ := l.Attempt("192.168.1.7:2", pass); !ok {
		t.Error("the owner's address that logged in before was refused during the attack")
	}
	if len(l.recent) > 30 {
		t.Errorf("%d failures remembered, want at most Global", len(l.recent))
	}
}

func TestProvenBounded(t *testing.T) {
	c := newClock()
	l := New(Config{Global: 1, MaxProven: 2, ProvenFor: time.Hour, Now: c.now})
	for _, a := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"} {
		l.Attempt(a, pass)
		c.add(time.Second)
	}
	checked(l, "10.7.7.7") // the budget is spent
	for _, tc := range []struct {
		addr string
		ok   bool
	}{{"10.0.0.1", false}, {"10.0.0.2", true}, {"10.0.0.3", true}} {
		if ok, _ := l.Attempt(tc.addr, pass); ok != tc.ok {
			t.Errorf("%s: ok=%v, want %v (the oldest of three proven is forgotten past MaxProven 2)", tc.addr, ok, tc.ok)
		}
	}
	c.add(2 * time.Hour)
	checked(l, "10.7.7.8")
	if ok, _ := l.Attempt("10.0.0.2", pass); ok {
		t.Error("proven for longer than ProvenFor")
	}
}

func TestKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"127.0.0.2:443", "127.0.0.2"},
		{"127.0.0.2", "127.0.0.2"},
		{"[::ffff:10.1.2.3]:80", "10.1.2.3"},
		{"[2001:db8:1:2:aaaa::1]:80", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:80", "2001:db8:1:2::/64"},
		{"[fe80::1%eth0]:80", "fe80::/64"},
		{"pipe", "pipe"},
	} {
		if got := Key(tc.in); got != tc.want {
			t.Errorf("Key(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Parallel guesses from one address are checked one by one: after the
// first wrong one, the others must wait its delay and are refused.
func TestConcurrentAttemptsFromOneAddress(t *testing.T) {
	l := New(Config{Delay: time.Hour, Global: 1000})
	var checks atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			l.Attempt("10.0.0.9:1", func() bool { checks.Add(1); time.Sleep(time.Millisecond); return false })
		})
	}
	wg.Wait()
	if n := checks.Load(); n != 1 {
		t.Errorf("50 parallel guesses from one address: %d checked, want 1", n)
	}
}

// Boards behind one address (a NAT, or a test's loopback) that log in
// at the same moment with the right password all get in: an attempt
// while another is being checked waits for its outcome instead of being
// refused (the broker's boards, the hub's first start).
func TestConcurrentRightAttemptsFromOneAddress(t *testing.T) {
	l := New(Config{Delay: time.Hour, Global: 1000})
	var ok, checks atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if good, _ := l.Attempt("10.0.0.9:1", func() bool { checks.Add(1); time.Sleep(time.Millisecond); return true }); good {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 20 || checks.Load() != 20 {
		t.Errorf("20 parallel right logins from one address: %d let in, %d checked; want all 20", ok.Load(), checks.Load())
	}
}

func TestTableBounded(t *testing.T) {
	c := newClock()
	l := New(Config{MaxAddresses: 3, Global: 1000, Now: c.now})
	for _, a := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"} {
		checked(l, a)
		c.add(time.Millisecond)
	}
	if n := len(l.addrs); n != 3 {
		t.Errorf("%d addresses kept, want 3", n)
	}
	if !checked(l, "10.0.0.1") {
		t.Error("the quietest address was not the one forgotten")
	}
}
