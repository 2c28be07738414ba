package broker

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/packets"
)

// rawDial opens a TCP connection from a loopback address of its own.
func rawDial(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// connectPacket encodes an MQTT 3.1.1 CONNECT.
func connectPacket(t *testing.T, id, user, pass string, clean bool) []byte {
	t.Helper()
	pk := packets.Packet{
		FixedHeader:     packets.FixedHeader{Type: packets.Connect},
		ProtocolVersion: 4,
		Connect: packets.ConnectParams{
			ProtocolName: []byte("MQTT"), Clean: clean, Keepalive: 60, ClientIdentifier: id,
			UsernameFlag: user != "", Username: []byte(user),
			PasswordFlag: pass != "", Password: []byte(pass),
		},
	}
	var buf bytes.Buffer
	if err := pk.ConnectEncode(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// closedByBroker answers whether the broker ended c (within a generous
// bound: a test failure, not a measurement, if it does not).
func closedByBroker(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err := io.ReadAll(c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// connack sends a CONNECT on c and answers the CONNACK's return code.
func connack(t *testing.T, c net.Conn, pk []byte) byte {
	t.Helper()
	c.Write(pk)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	ack := make([]byte, 4)
	if _, err := io.ReadFull(c, ack); err != nil || ack[0] != 0x20 {
		t.Fatalf("no CONNACK: % x, %v", ack, err)
	}
	c.SetReadDeadline(time.Time{})
	return ack[3]
}

// Issue 28, item 3: before it has logged in a client must send its whole
// CONNECT, soon, and a small one; a huge one is refused as soon as its
// length is read, never allocated.
func TestUnfinishedConnect(t *testing.T) {
	b := start(t, Config{ConnectTimeout: 300 * time.Millisecond, MaxConnectBytes: 4096})
	for _, tc := range []struct {
		name string
		send []byte
	}{
		{"silent", nil},
		{"a 1 MiB CONNECT announced, 10 bytes sent", append([]byte{0x10, 0x80, 0x80, 0x40}, make([]byte, 10)...)},
		{"a CONNECT just over the limit", append([]byte{0x10, 0x81, 0x20}, make([]byte, 100)...)}, // 4097 bytes
		{"half a CONNECT", connectPacket(t, "half", "reader", "reader-secret", true)[:10]},
		{"a PUBLISH first", []byte{0x30, 0x05, 0, 1, 'x', 'y', 'z'}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := rawDial(t, "127.0.0.2", b.Addr())
			c.Write(tc.send)
			if !closedByBroker(c) {
				t.Error("the connection stayed open")
			}
		})
	}
	c := rawDial(t, "127.0.0.2", b.Addr())
	if code := connack(t, c, connectPacket(t, "ok", "reader", "reader-secret", true)); code != 0 {
		t.Fatalf("a whole CONNECT in time: return code %d", code)
	}
	time.Sleep(600 * time.Millisecond) // twice the CONNECT timeout: a logged-in client is not cut
	c.Write([]byte{0xc0, 0})           // PINGREQ
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp := make([]byte, 2)
	if _, err := io.ReadFull(c, resp); err != nil || resp[0] != 0xd0 {
		t.Errorf("a logged-in client after the CONNECT timeout: PINGRESP % x, %v", resp, err)
	}
}

// A client that may not publish sends small packets only; a writer may
// send large ones (TestWebsocket sends 100 KiB).
func TestReaderPacketsSmall(t *testing.T) {
	b := start(t, Config{AllowAnonymous: true})
	for _, tc := range []struct{ user, pass string }{{"reader", "reader-secret"}, {"", ""}} {
		c := rawDial(t, "127.0.0.2", b.Addr())
		if code := connack(t, c, connectPacket(t, "small-"+tc.user, tc.user, tc.pass, true)); code != 0 {
			t.Fatalf("%q: return code %d", tc.user, code)
		}
		c.Write([]byte{0x30, 0x80, 0x80, 0x08}) // a 128 KiB PUBLISH announced
		if !closedByBroker(c) {
			t.Errorf("%q announced a 128 KiB packet and stayed connected", tc.user)
		}
	}
	w := mustDial(t, "tcp://"+b.Addr(), "board", "board-secret")
	if tok := w.Publish("big", 1, false, strings.Repeat("x", 200<<10)); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Errorf("a writer's 200 KiB publish: %v", tok.Error())
	}
}

// Connections are capped per address and in total; connections that
// have not logged in make room for newcomers, so a crowd of silent ones
// cannot keep the board's own users out, and logged-in ones past a cap
// are refused.
func TestConnectionCaps(t *testing.T) {
	b := start(t, Config{MaxConns: 6, MaxConnsPerAddress: 3, ConnectTimeout: time.Hour})
	url := "tcp://" + b.Addr()
	// 40 silent connections from 20 addresses.
	var silent []net.Conn
	for i := range 40 {
		silent = append(silent, rawDial(t, fmt.Sprintf("127.0.1.%d", 1+i%20), b.Addr()))
	}
	waitOpen := func(want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for b.ConnCounts().Open != want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := b.ConnCounts(); n.Open != want {
			t.Fatalf("%d connections open, want %d (%+v)", n.Open, want, n)
		}
	}
	waitOpen(6)
	// The owner still gets in, from an address of its own and from one
	// of the crowd's.
	for _, from := range []string{"127.0.0.3", "127.0.1.1"} {
		c, err := dialAs(url, "owner-"+from, from, "board", "board-secret", "")
		if err != nil {
			t.Fatalf("the owner from %s behind 40 silent connections: %v", from, err)
		}
		defer c.Disconnect(0)
	}
	// Logged-in clients are not pushed out: past the per-address cap a
	// newcomer is refused.
	var in []paho.Client
	for i := range 3 {
		c, err := dialAs(url, fmt.Sprintf("r%d", i), "127.0.0.4", "reader", "reader-secret", "")
		if err != nil {
			t.Fatalf("reader %d from one address: %v", i, err)
		}
		in = append(in, c)
	}
	if c, err := dialAs(url, "r3", "127.0.0.4", "reader", "reader-secret", ""); err == nil {
		c.Disconnect(0)
		t.Error("a fourth logged-in client from one address got in past MaxConnsPerAddress 3")
	}
	for _, c := range in {
		if !c.IsConnectionOpen() {
			t.Error("a logged-in client was pushed out")
		}
		c.Disconnect(0)
	}
	if n := b.ConnCounts(); n.Evicted < 34 || n.Refused < 1 {
		t.Errorf("counts %+v: want the silent ones evicted and the fourth reader refused", n)
	}
	_ = silent
}

// MQTT over WebSocket: pages of other origins are refused; silent
// WebSocket clients count under the same caps and time out alike.
func TestWebsocketLimits(t *testing.T) {
	b := start(t, Config{MaxConns: 4, MaxConnsPerAddress: 2, ConnectTimeout: 300 * time.Millisecond, Origins: []string{"https://Club.example.org/"}})
	mux := http.NewServeMux()
	mux.Handle("/mqtt", b.WebsocketHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	wsURL := "ws://" + host + "/mqtt"
	dialWS := func(origin string) (*websocket.Conn, int, error) {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		d := websocket.Dialer{Subprotocols: []string{"mqtt"}}
		c, res, err := d.Dial(wsURL, h)
		code := 0
		if res != nil {
			code = res.StatusCode
		}
		return c, code, err
	}
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"http://evil.example", false},
		{"http://" + host + ".evil.example", false},
		{"http://" + host, true},
		{"https://club.example.org", true}, // Config.Origins
		{"http://club.example.org", false},
		{"", true}, // not a browser: the MQTT login decides
	} {
		c, code, err := dialWS(tc.origin)
		if tc.ok != (err == nil) {
			t.Errorf("origin %q: status %d, error %v, want ok=%v", tc.origin, code, err, tc.ok)
		}
		if !tc.ok && code != http.StatusForbidden {
			t.Errorf("origin %q: status %d, want 403", tc.origin, code)
		}
		if c != nil {
			c.Close()
		}
	}
	// A silent WebSocket client is closed after the CONNECT timeout.
	c, _, err := dialWS("")
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _, err = c.ReadMessage()
	var ne net.Error
	if err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("a silent WebSocket client was not closed: %v", err)
	}
	// Logged-in WebSocket clients from one address stop at the cap; the
	// board's own address (a reverse proxy on the Pi) counts only toward
	// the total.
	wsLogin := func(from, id string) bool {
		t.Helper()
		d := websocket.Dialer{Subprotocols: []string{"mqtt"}, NetDial: func(network, addr string) (net.Conn, error) {
			return (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).Dial(network, addr)
		}}
		c, _, err := d.Dial(wsURL, nil)
		if err != nil {
			return false
		}
		t.Cleanup(func() { c.Close() })
		c.WriteMessage(websocket.BinaryMessage, connectPacket(t, id, "reader", "reader-secret", true))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, ack, err := c.ReadMessage()
		return err == nil && len(ack) == 4 && ack[0] == 0x20 && ack[3] == 0
	}
	for i, want := range []bool{true, true, false} {
		if got := wsLogin("127.0.0.2", fmt.Sprintf("ws%d", i)); got != want {
			t.Errorf("logged-in WebSocket client %d from 127.0.0.2 (MaxConnsPerAddress 2): in=%v, want %v", i+1, got, want)
		}
	}
	if !wsLogin("127.0.0.1", "local-1") || !wsLogin("127.0.0.1", "local-2") {
		t.Error("the board's own address was held to the per-address cap")
	}
	if wsLogin("127.0.0.3", "over") {
		t.Error("a fifth logged-in WebSocket client got in past MaxConns 4")
	}
}

// Issue 28, item 8: guessing passwords from many addresses is bounded in
// total; the board's own mirror (127.0.0.1) and a client that logged in
// before still get in.
func TestGuessingManyAddresses(t *testing.T) {
	b := start(t, Config{Users: clubUsers})
	if code := connack(t, rawDial(t, "127.0.6.1", b.Addr()), connectPacket(t, "bridge", "bridge", "bridge-secret", true)); code != 0 {
		t.Fatalf("the bridge's first login: %d", code)
	}
	for i := range 300 {
		c := rawDial(t, fmt.Sprintf("127.0.7.%d", i%250+1), b.Addr())
		if code := connack(t, c, connectPacket(t, fmt.Sprintf("guess-%d", i), "board", fmt.Sprintf("guess-%d", i), true)); code == 0 {
			t.Fatal("a guess logged in")
		}
		c.Close()
	}
	if n := b.AuthCounts(); n.Failed > 30 {
		t.Errorf("%d guesses checked from 250 addresses, want at most 30 (the global budget); %+v", n.Failed, n)
	}
	for _, tc := range []struct {
		from, user, pass string
		ok               bool
	}{
		{"127.0.0.1", "board", "board-secret", true},   // the board's mirror
		{"127.0.6.1", "bridge", "bridge-secret", true}, // logged in before
		{"127.0.6.2", "bridge", "bridge-secret", false},
	} {
		code := connack(t, rawDial(t, tc.from, b.Addr()), connectPacket(t, "again-"+tc.from, tc.user, tc.pass, true))
		if (code == 0) != tc.ok {
			t.Errorf("%s from %s during the attack: return code %d, want ok=%v", tc.user, tc.from, code, tc.ok)
		}
	}
}
