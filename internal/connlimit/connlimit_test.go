package connlimit

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// serve accepts on a capped loopback listener and hands each accepted
// connection to the test.
func serve(t *testing.T, cfg Config) (*Listener, <-chan net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := Listen(ln, New(cfg))
	t.Cleanup(func() { l.Close() })
	got := make(chan net.Conn, 100)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			got <- c
		}
	}()
	return l, got
}

func dialFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedByServer answers whether the server closed c (EOF or reset).
func closedByServer(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// accepted waits for the next connection the listener let through.
func accepted(t *testing.T, got <-chan net.Conn) net.Conn {
	t.Helper()
	select {
	case c := <-got:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no connection accepted")
		return nil
	}
}

func TestPerAddressAndTotal(t *testing.T) {
	l, got := serve(t, Config{PerAddress: 2, Total: 3})
	addr := l.Addr().String()
	var kept []net.Conn
	for range 2 {
		dialFrom(t, "127.0.0.2", addr)
		c := accepted(t, got)
		SetIdle(c, false) // busy: may not be closed for a newcomer
		kept = append(kept, c)
	}
	third := dialFrom(t, "127.0.0.2", addr)
	if !closedByServer(third) {
		t.Error("a third connection from one address stayed open past PerAddress 2")
	}
	dialFrom(t, "127.0.0.3", addr)
	c := accepted(t, got)
	SetIdle(c, false)
	over := dialFrom(t, "127.0.0.4", addr)
	if !closedByServer(over) {
		t.Error("a fourth connection stayed open past Total 3")
	}
	if n := l.Limiter().Counts(); n.Open != 3 || n.Refused != 2 || n.Evicted != 0 {
		t.Errorf("counts %+v, want 3 open, 2 refused, none evicted", n)
	}
	// Closing one gives its place back.
	kept[0].Close()
	dialFrom(t, "127.0.0.2", addr)
	accepted(t, got)
	if n := l.Limiter().Counts(); n.Open != 3 {
		t.Errorf("%d open after one closed and one came, want 3", n.Open)
	}
}

// Silent connections (idle: nothing sent yet, a keep-alive between
// requests) make room for a newcomer, the oldest first, so a crowd of
// them cannot lock the owner out.
func TestIdleMakeRoom(t *testing.T) {
	for _, tc := range []struct {
		name      string
		from      []string // the crowd, one connection each, all left idle
		newcomer  string
		wantEvict int // index into from of the connection closed
	}{
		{"total reached by many addresses", []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"}, "127.0.0.9", 0},
		{"the address's own cap", []string{"127.0.0.5", "127.0.0.2", "127.0.0.2"}, "127.0.0.2", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, got := serve(t, Config{PerAddress: 2, Total: 3})
			addr := l.Addr().String()
			var clients []net.Conn
			for _, ip := range tc.from {
				clients = append(clients, dialFrom(t, ip, addr))
				accepted(t, got)
				time.Sleep(2 * time.Millisecond) // distinct idle times: the order is the point
			}
			newcomer := dialFrom(t, tc.newcomer, addr)
			c := accepted(t, got)
			if !closedByServer(clients[tc.wantEvict]) {
				t.Errorf("the oldest idle connection (%s) was not closed", tc.from[tc.wantEvict])
			}
			c.Write([]byte("x"))
			newcomer.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := io.ReadFull(newcomer, make([]byte, 1)); err != nil {
				t.Errorf("the newcomer was not served: %v", err)
			}
			if n := l.Limiter().Counts(); n.Open != 3 || n.Evicted != 1 || n.Refused != 0 {
				t.Errorf("counts %+v, want 3 open, 1 evicted, none refused", n)
			}
		})
	}
}

func TestTotalFor(t *testing.T) {
	for _, tc := range []struct {
		want   int
		share  float64
		nofile int
		total  int
	}{
		{512, 0.5, 524288, 512},                // the usual systemd limit: the default rules
		{512, 0.5, 1024, (1024 - Reserve) / 2}, // a low limit: half of what is left after the reserve
		{512, 0.25, 20000, 512},
		{512, 0.5, 100, 8}, // a limit below the reserve still serves somebody
	} {
		if got := TotalFor(tc.want, tc.share, tc.nofile); got != tc.total {
			t.Errorf("TotalFor(%d, %v, %d) = %d, want %d", tc.want, tc.share, tc.nofile, got, tc.total)
		}
	}
	if n := FileLimit(); n < 64 {
		t.Errorf("FileLimit() = %d", n)
	}
}

// Slots can be taken without a listener (event streams, WebSocket
// clients): a slot without a closer is never evicted.
func TestAcquireWithoutListener(t *testing.T) {
	l := New(Config{PerAddress: 1, Total: 2})
	a := l.Acquire("10.0.0.1:5", nil)
	if a == nil {
		t.Fatal("first slot refused")
	}
	a.SetIdle(true)
	if l.Acquire("10.0.0.1:6", nil) != nil {
		t.Error("second slot for one address past PerAddress 1 (the first has no closer: not evictable)")
	}
	closed := false
	b := l.Acquire("10.0.0.2:1", func() { closed = true })
	b.SetIdle(true)
	if c := l.Acquire("10.0.0.3:1", nil); c == nil || !closed {
		t.Errorf("a full table with an evictable idle slot: got %v, evicted %v", c, closed)
	}
	b.Release() // after eviction: nothing more
	a.Release()
	a.Release()
	if n := l.Counts(); n.Open != 1 {
		t.Errorf("%d open, want 1", n.Open)
	}
}

func TestKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"127.0.0.2:443", "127.0.0.2"},
		{"[::ffff:10.1.2.3]:80", "10.1.2.3"},
		{"[2001:db8:1:2:aaaa::1]:80", "2001:db8:1:2:aaaa::1"}, // not its /64: a club's whole IPv6 network shares that
		{"[fe80::1%eth0]:80", "fe80::1"},
		{"pipe", "pipe"},
	} {
		if got := Key(tc.in); got != tc.want {
			t.Errorf("Key(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// fakeListener answers the errors it is given, then a connection.
type fakeListener struct {
	net.Listener
	errs []error
}

func (f *fakeListener) Accept() (net.Conn, error) {
	if len(f.errs) > 0 {
		err := f.errs[0]
		f.errs = f.errs[1:]
		return nil, err
	}
	a, b := net.Pipe()
	b.Close()
	return a, nil
}

// Out of file handles, Accept waits and goes on (mochi's server loop
// stops at the first error it is handed); other errors are returned.
func TestAcceptWaitsOutFileLimit(t *testing.T) {
	l := Listen(&fakeListener{errs: []error{&net.OpError{Op: "accept", Err: os.NewSyscallError("accept4", syscall.EMFILE)}, syscall.ENFILE}}, New(Config{}))
	c, err := l.Accept()
	if err != nil || c == nil {
		t.Fatalf("after EMFILE and ENFILE: %v, want the next connection", err)
	}
	l = Listen(&fakeListener{errs: []error{net.ErrClosed}}, New(Config{}))
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("a closed listener: %v", err)
	}
}

// The board's own address counts only toward the total.
func TestLocalCountsOnlyInTotal(t *testing.T) {
	l := New(Config{PerAddress: 1, Total: 3})
	for i, addr := range []string{"127.0.0.1:1", "127.0.0.1:2", "[::1]:3"} {
		if l.Acquire(addr, nil) == nil {
			t.Errorf("connection %d from the board itself (%s) refused under PerAddress 1", i+1, addr)
		}
	}
	if l.Acquire("127.0.0.1:4", nil) != nil {
		t.Error("the board's own address went past Total")
	}
	if !Local(Key("[::ffff:127.0.0.1]:9")) || Local(Key("127.0.0.2:9")) {
		t.Error("Local: 127.0.0.1 (also as IPv4 in IPv6) is the board; 127.0.0.2 stands for another machine")
	}
}
