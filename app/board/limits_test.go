package board

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/configs"
)

// The caps a club sets in the config take effect: web.limits.*
// (connections and event streams per address) and
// mqtt.embedded.limits.* (MQTT connections per address), each seen from
// one client address past its cap.
func TestConfiguredLimits(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.Web.Listen = "127.0.0.1:0"
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	cfg.Web.Limits.StreamsPerAddress = 1
	cfg.Web.Limits.ConnectionsPerAddress = 3
	cfg.MQTT.Embedded.Limits.ConnectionsPerAddress = 2
	d, err := Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	from := func(ip string) *http.Client {
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext}}
	}

	// One event stream per address: the second from 127.0.0.5 is
	// refused, another address still gets one.
	first, err := from("127.0.0.5").Get("http://" + d.WebAddr + "/api/events")
	if err != nil || first.StatusCode != 200 {
		t.Fatalf("first stream: %v %v", first, err)
	}
	defer first.Body.Close()
	if second, err := from("127.0.0.5").Get("http://" + d.WebAddr + "/api/events"); err == nil {
		second.Body.Close()
		if second.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("second stream from one address: %d, want 503 (web.limits.streams_per_address: 1)", second.StatusCode)
		}
	}
	if other, err := from("127.0.0.6").Get("http://" + d.WebAddr + "/api/events"); err != nil || other.StatusCode != 200 {
		t.Errorf("a stream from another address: %v %v", other, err)
	} else {
		other.Body.Close()
	}

	// Connections per address, HTTP and MQTT: past the cap a new
	// connection is closed at once (nothing read, nothing written).
	for _, tc := range []struct {
		what, addr string
		cap        int
	}{{"web", d.WebAddr, 3}, {"mqtt", d.MQTTAddr, 2}} {
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.7")}}
		var held []net.Conn
		for range tc.cap {
			c, err := dialer.Dial("tcp", tc.addr)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
		}
		extra, err := dialer.Dial("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		// Idle connections that sent nothing make room for newcomers
		// (the oldest is closed), so one of the cap+1 is closed.
		closed, all := 0, append(held, extra)
		deadline := time.Now().Add(2 * time.Second)
		for _, c := range all {
			c.SetReadDeadline(deadline)
		}
		for _, c := range all {
			if _, err := c.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
				closed++
			}
			c.Close()
		}
		if closed != 1 {
			t.Errorf("%s: %d of %d connections from one address closed, want 1 (cap %d)", tc.what, closed, tc.cap+1, tc.cap)
		}
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// A board named with a character a NATS cluster cannot carry ('.') still
// starts, and is told once, when it mirrors to a hub, that it cannot
// join a league under that name; club-1 is not told.
func TestBoardNameALeagueCannotCarry(t *testing.T) {
	for _, tc := range []struct {
		name string
		warn bool
	}{{"club.1", true}, {"club-1", false}} {
		cfg := configs.Defaults()
		cfg.Board = tc.name
		cfg.StateDir = t.TempDir()
		cfg.Web.Listen = "off"
		cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
		cfg.MQTT.Hub = "mqtt://board:a-join-secret@127.0.0.1:1" // nobody there: the mirror keeps trying
		var logs syncBuffer
		d, err := Start(context.Background(), cfg, io.Discard, &logs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		d.Close()
		if got := strings.Contains(logs.String(), "cannot join a league"); got != tc.warn {
			t.Errorf("board %q: warned %v, want %v:\n%s", tc.name, got, tc.warn, logs.String())
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the daemon's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
