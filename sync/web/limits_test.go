package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"boardd/referee"
)

// serveCapped runs s on a real capped HTTP port, as the daemon does.
func serveCapped(t *testing.T, s *Server, lim HTTPLimits) (*Listener, string) {
	t.Helper()
	ln, err := Listen("127.0.0.1:0", lim)
	if err != nil {
		t.Fatal(err)
	}
	srv := HTTPServer(s, ln, s, nil)
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return ln, "http://" + ln.Addr().String()
}

func silentFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", strings.TrimPrefix(addr, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Issue 28, item 3: silent connections and idle keep-alives are timed
// out, capped per address and in total, and make room for the owner.
func TestHTTPConnectionCaps(t *testing.T) {
	_, s, _ := newTestServer(t, Config{Password: testPassword})
	ln, base := serveCapped(t, s, HTTPLimits{MaxConns: 8, MaxConnsPerAddress: 4, HeaderTimeout: 300 * time.Millisecond, IdleTimeout: time.Hour})

	// A silent connection is closed after the header timeout.
	c := silentFrom(t, "127.0.0.2", base)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Error("a silent connection stayed open past the header timeout")
	}

	// 60 idle keep-alives from 20 addresses: never more than 8 open, and
	// the owner's page loads.
	ln2, base2 := serveCapped(t, s, HTTPLimits{MaxConns: 8, MaxConnsPerAddress: 4, HeaderTimeout: time.Hour, IdleTimeout: time.Hour})
	for i := range 60 {
		cl := clientFrom(fmt.Sprintf("127.0.2.%d", 1+i%20), 10*time.Second)
		res, err := cl.Get(base2 + "/api/state") // the connection stays, idle
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		if n := ln2.Counts().Open; n > 8 {
			t.Fatalf("%d connections open, cap 8", n)
		}
	}
	for _, from := range []string{"127.0.0.3", "127.0.2.1"} {
		res, err := clientFrom(from, 10*time.Second).Get(base2 + "/")
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("the owner's page from %s behind 60 idle keep-alives: %v %v", from, err, res)
		}
		res.Body.Close()
	}
	if n := ln2.Counts(); n.Evicted == 0 {
		t.Errorf("counts %+v: idle connections should have made room", n)
	}
	_ = ln

	// Requests whose headers trickle in (slowloris) from 20 addresses
	// fill the port: the owner's page still loads.
	ln3, base3 := serveCapped(t, s, HTTPLimits{MaxConns: 8, MaxConnsPerAddress: 4, HeaderTimeout: time.Hour, IdleTimeout: time.Hour})
	for i := range 40 {
		c := silentFrom(t, fmt.Sprintf("127.0.2.%d", 100+i%20), base3)
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHo")
	}
	deadline := time.Now().Add(5 * time.Second)
	for ln3.Counts().Open < 8 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	res, err := clientFrom("127.0.0.3", 10*time.Second).Get(base3 + "/")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the owner's page behind 40 half-sent requests: %v %v (%+v)", err, res, ln3.Counts())
	}
	res.Body.Close()

	// Logins whose bodies trickle in, from 20 addresses: the same.
	ln4, base4 := serveCapped(t, s, HTTPLimits{MaxConns: 8, MaxConnsPerAddress: 4, HeaderTimeout: time.Hour, IdleTimeout: time.Hour})
	for i := range 40 {
		c := silentFrom(t, fmt.Sprintf("127.0.2.%d", 150+i%20), base4)
		fmt.Fprintf(c, "POST /api/login HTTP/1.1\r\nHost: board\r\nContent-Length: 1000\r\n\r\n{\"pass")
	}
	deadline = time.Now().Add(5 * time.Second)
	for ln4.Counts().Open < 8 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the last ones' handlers are reading their bodies
	res, err = clientFrom("127.0.0.3", 10*time.Second).Get(base4 + "/")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the owner's page behind 40 logins trickling their bodies: %v %v (%+v)", err, res, ln4.Counts())
	}
	res.Body.Close()
}

// openStreamAs opens /api/events with c and answers its status; a stream that
// opened stays open until ctx ends.
func openStreamAs(t *testing.T, ctx context.Context, c *http.Client, url string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/events", nil)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		res.Body.Close()
		return res.StatusCode
	}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "event: state") {
	}
	go func() { io.Copy(io.Discard, res.Body); res.Body.Close() }()
	return 200
}

// Issue 28, item 6: one client cannot blank every display.
func TestEventStreamsPerAddress(t *testing.T) {
	_, s, _ := newTestServer(t, Config{Password: testPassword, MaxStreams: 8, MaxStreamsPerAddress: 4})
	_, base := serveCapped(t, s, HTTPLimits{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// One address opens 100: it gets 4.
	greedy := clientFrom("127.0.3.1", 10*time.Second)
	ok := 0
	for range 100 {
		if openStreamAs(t, ctx, greedy, base) == 200 {
			ok++
		}
	}
	if ok != 4 {
		t.Errorf("one address opened %d streams, want 4 (MaxStreamsPerAddress)", ok)
	}
	// A second fills the rest.
	for range 4 {
		if code := openStreamAs(t, ctx, clientFrom("127.0.3.2", 10*time.Second), base); code != 200 {
			t.Fatalf("second address: %d", code)
		}
	}
	// All 8 are taken: a display at a new address still gets one (an
	// address holding several gives one up) …
	if code := openStreamAs(t, ctx, clientFrom("127.0.3.3", 10*time.Second), base); code != 200 {
		t.Errorf("a display at a new address with every stream taken: %d, want 200", code)
	}
	// … and the logged-in owner always gets one, even from the greedy
	// address.
	jar, _ := cookiejar.New(nil)
	owner := clientFrom("127.0.3.1", 10*time.Second)
	owner.Jar = jar
	if res := login(t, owner, base, testPassword); res.StatusCode != 200 {
		t.Fatalf("login: %d", res.StatusCode)
	}
	for i := range 3 {
		if code := openStreamAs(t, ctx, owner, base); code != 200 {
			t.Errorf("the owner's stream %d: %d, want 200", i+1, code)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Stats().Streams != 8+3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := s.Stats().Streams; n != 8+3 {
		t.Errorf("%d streams open, want 8 anonymous and 3 of the owner", n)
	}
}

// Issue 28, item 8: guessing from many addresses is bounded in total;
// the owner still gets in from an address that logged in before and
// from the board itself.
func TestLoginGuessingManyAddresses(t *testing.T) {
	_, s, _ := newTestServer(t, Config{Password: testPassword})
	_, base := serveCapped(t, s, HTTPLimits{})
	if res := login(t, clientFrom("127.0.4.1", 10*time.Second), base, testPassword); res.StatusCode != 200 {
		t.Fatalf("the owner's first login: %d", res.StatusCode)
	}
	for i := range 300 {
		res := login(t, clientFrom(fmt.Sprintf("127.0.5.%d", i%250+1)+"", 10*time.Second), base, fmt.Sprintf("guess-%d", i))
		if res.StatusCode == 200 {
			t.Fatal("a guess logged in")
		}
	}
	if n := s.Stats().Logins; n.Failed > 30 {
		t.Errorf("%d guesses checked from 250 addresses, want at most 30 (the global budget); %+v", n.Failed, n)
	}
	for _, from := range []string{"127.0.4.1", "127.0.0.1"} {
		if res := login(t, clientFrom(from, 10*time.Second), base, testPassword); res.StatusCode != 200 {
			t.Errorf("the owner from %s during the attack: %d, want 200", from, res.StatusCode)
		}
	}
	if res := login(t, clientFrom("127.0.4.9", 10*time.Second), base, testPassword); res.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a new address during the attack: %d, want 429 (it waits like the guessers)", res.StatusCode)
	}
}

// A client that trickles a request's body holds its connection no longer
// than the body timeout: a login or a command whose body stops coming is
// answered 400 and the connection is not kept.
func TestSlowBodyCut(t *testing.T) {
	_, s, _ := newTunedServer(t, Config{Password: testPassword}, func(s *Server) { s.timing.body = 200 * time.Millisecond })
	_, base := serveCapped(t, s, HTTPLimits{HeaderTimeout: time.Hour, IdleTimeout: time.Hour})
	for _, path := range []string{"/api/login", "/api/cmd/state"} {
		c := silentFrom(t, "127.0.0.2", base)
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: board\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"pass", path)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		status, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Errorf("%s with a body that stops: no answer: %v", path, err)
			continue
		}
		if path == "/api/login" && !strings.Contains(status, " 400 ") {
			t.Errorf("%s with a body that stops: %q, want 400", path, status)
		}
	}
}

// slowBoard takes its time over a command and says whether the request
// was still wanted when it was done.
type slowBoard struct {
	*fakeBoard
	took time.Duration
}

func (b slowBoard) Do(ctx context.Context, c referee.Command) referee.Reply {
	time.Sleep(b.took)
	if err := ctx.Err(); err != nil {
		return referee.Reply{Error: "the request was given up: " + err.Error()}
	}
	return referee.Reply{OK: true}
}

// The body's deadline is for the body: a command that takes longer than
// the body timeout is still answered.
func TestSlowCommandAnswered(t *testing.T) {
	_, s, _ := newTunedServer(t, Config{Password: testPassword, Board: slowBoard{newFake(), 600 * time.Millisecond}}, func(s *Server) { s.timing.body = 200 * time.Millisecond })
	_, base := serveCapped(t, s, HTTPLimits{})
	jar, _ := cookiejar.New(nil)
	c := clientFrom("127.0.0.2", 10*time.Second)
	c.Jar = jar
	if res := login(t, c, base, testPassword); res.StatusCode != 200 {
		t.Fatalf("login: %d", res.StatusCode)
	}
	req, _ := http.NewRequest("POST", base+"/api/cmd/state", strings.NewReader(`{}`))
	req.Header.Set(RequestHeader, "1")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("a command taking 3 times the body timeout: %d %s", res.StatusCode, body)
	}
}
