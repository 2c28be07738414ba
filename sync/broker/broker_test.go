package broker

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/mochi-mqtt/server/v2/packets"
)

var testUsers = []User{
	{Name: "board", Password: "board-secret", Write: true},
	{Name: "reader", Password: "reader-secret"},
}

func start(t *testing.T, cfg Config) *Broker {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Users == nil {
		cfg.Users = testUsers
	}
	b, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

var clientN struct {
	sync.Mutex
	n int
}

func dial(url, user, pass string, will string) (paho.Client, error) {
	clientN.Lock()
	clientN.n++
	id := fmt.Sprintf("test-%d", clientN.n)
	clientN.Unlock()
	return dialAs(url, id, "", user, pass, will)
}

// dialAs connects with a client id of its own, from a local address when
// from is not "" (127.0.0.2 …: Linux answers the whole 127/8 on lo).
func dialAs(url, id, from, user, pass string, will string) (paho.Client, error) {
	o := paho.NewClientOptions().AddBroker(url).SetClientID(id).
		SetUsername(user).SetPassword(pass).
		SetConnectTimeout(3 * time.Second).SetAutoReconnect(false).SetProtocolVersion(4)
	if will != "" {
		o.SetWill(will, "gone", 1, true)
	}
	if from != "" {
		o.SetDialer(&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 3 * time.Second})
	}
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(5 * time.Second) {
		return nil, fmt.Errorf("connect timed out")
	}
	if err := tok.Error(); err != nil {
		return nil, err
	}
	return c, nil
}

func mustDial(t *testing.T, url, user, pass string) paho.Client {
	t.Helper()
	c, err := dial(url, user, pass, "")
	if err != nil {
		t.Fatalf("connect as %q: %v", user, err)
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c
}

// collector subscribes to a filter and keeps what arrives.
type collector struct {
	mu   sync.Mutex
	msgs []string // topic=payload
}

func (c *collector) add(_ paho.Client, m paho.Message) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m.Topic()+"="+string(m.Payload()))
	c.mu.Unlock()
}

func (c *collector) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.msgs...)
}

func (c *collector) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range c.list() {
			if m == want {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("never received %q; got %q", want, c.list())
}

func subscribe(t *testing.T, c paho.Client, filter string) *collector {
	t.Helper()
	col := &collector{}
	tok := c.Subscribe(filter, 1, col.add)
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe %s: %v", filter, tok.Error())
	}
	return col
}

func TestAuthentication(t *testing.T) {
	closed := start(t, Config{})
	open := start(t, Config{AllowAnonymous: true})
	for _, tc := range []struct {
		name       string
		b          *Broker
		user, pass string
		ok         bool
	}{
		{"writer", closed, "board", "board-secret", true},
		{"reader", closed, "reader", "reader-secret", true},
		{"no credentials", closed, "", "", false},
		{"wrong password", closed, "board", "board-secreT", false},
		{"empty password", closed, "board", "", false},
		{"unknown user", closed, "mallory", "board-secret", false},
		{"password of another user", closed, "reader", "board-secret", false},
		{"anonymous allowed", open, "", "", true},
		{"anonymous allowed, wrong password still refused", open, "board", "nope", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := dial("tcp://"+tc.b.Addr(), tc.user, tc.pass, "")
			if c != nil {
				defer c.Disconnect(50)
			}
			if tc.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tc.ok && err == nil {
				t.Fatal("connected, want refused")
			}
			if !tc.ok && !strings.Contains(strings.ToLower(err.Error()), "authorized") {
				t.Errorf("error %q does not say the credentials were refused", err)
			}
		})
	}
}

func TestWrongPasswordsThrottledPerAddress(t *testing.T) {
	b := start(t, Config{AuthDelay: time.Hour})
	url := "tcp://" + b.Addr()
	for _, tc := range []struct {
		name, from, user, pass string
		ok                     bool
	}{
		{"first wrong password", "127.0.0.2", "board", "guess", false},
		{"right password too soon from the same address", "127.0.0.2", "board", "board-secret", false},
		{"right password from another address", "127.0.0.3", "board", "board-secret", true},
		{"unknown user counts too", "127.0.0.3", "mallory", "x", false},
		{"then that address waits as well", "127.0.0.3", "reader", "reader-secret", false},
	} {
		c, err := dialAs(url, "throttle-"+tc.from, tc.from, tc.user, tc.pass, "")
		if c != nil {
			c.Disconnect(50)
		}
		if (err == nil) != tc.ok {
			t.Errorf("%s: connect error %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestBoardsClientIDReserved(t *testing.T) {
	b := start(t, Config{ReservedIDs: map[string]string{"boardd-1": "board"}, AllowAnonymous: true})
	url := "tcp://" + b.Addr()
	mirror, err := dialAs(url, "boardd-1", "", "board", "board-secret", "")
	if err != nil {
		t.Fatalf("the board's own user with its id: %v", err)
	}
	defer mirror.Disconnect(50)
	for _, tc := range []struct{ user, pass string }{{"reader", "reader-secret"}, {"", ""}, {"reader", "wrong"}} {
		c, err := dialAs(url, "boardd-1", "", tc.user, tc.pass, "")
		if err == nil {
			c.Disconnect(50)
			t.Errorf("user %q connected with the board's client id", tc.user)
		}
	}
	if !mirror.IsConnectionOpen() {
		t.Error("the board's mirror was pushed off by a client using its id")
	}
	if _, err := Start(Config{Listen: "127.0.0.1:0", Users: testUsers, ReservedIDs: map[string]string{"boardd-1": "nobody"}}); err == nil || !strings.Contains(err.Error(), `reserved for user "nobody"`) {
		t.Errorf("a reservation for an unknown user: %v", err)
	}
}

func TestOnlyWritersPublish(t *testing.T) {
	b := start(t, Config{AllowAnonymous: true})
	url := "tcp://" + b.Addr()
	watch := subscribe(t, mustDial(t, url, "reader", "reader-secret"), "#")

	for _, tc := range []struct{ user, pass string }{{"reader", "reader-secret"}, {"", ""}} {
		c := mustDial(t, url, tc.user, tc.pass)
		// QoS 0 is dropped silently, QoS 1 costs the client its connection.
		c.Publish("boardd/b1/cmd/resign", 0, false, `{"seat":"Red"}`).WaitTimeout(time.Second)
		c.Publish("boardd/b1/cmd/resign", 1, false, `{"seat":"Red"}`).WaitTimeout(time.Second)
	}
	w := mustDial(t, url, "board", "board-secret")
	w.Publish("boardd/b1/cmd/resign", 1, false, `{"seat":"Blue"}`).WaitTimeout(time.Second)
	watch.waitFor(t, `boardd/b1/cmd/resign={"seat":"Blue"}`)
	for _, m := range watch.list() {
		if strings.Contains(m, "Red") {
			t.Errorf("a read-only client's publish went through: %s", m)
		}
	}
}

// A read-only client's last will would be a publish: it is dropped.
func TestReadOnlyWillDropped(t *testing.T) {
	b := start(t, Config{})
	url := "tcp://" + b.Addr()
	watch := subscribe(t, mustDial(t, url, "reader", "reader-secret"), "wills/#")
	for _, u := range testUsers {
		conn, err := net.Dial("tcp", b.Addr())
		if err != nil {
			t.Fatal(err)
		}
		pk := packets.Packet{
			FixedHeader:     packets.FixedHeader{Type: packets.Connect},
			ProtocolVersion: 4,
			Connect: packets.ConnectParams{
				ProtocolName: []byte("MQTT"), Clean: true, Keepalive: 30,
				ClientIdentifier: "raw-" + u.Name,
				UsernameFlag:     true, Username: []byte(u.Name),
				PasswordFlag: true, Password: []byte(u.Password),
				WillFlag: true, WillTopic: "wills/" + u.Name, WillPayload: []byte("gone"), WillQos: 1,
			},
		}
		var buf bytes.Buffer
		if err := pk.ConnectEncode(&buf); err != nil {
			t.Fatal(err)
		}
		conn.Write(buf.Bytes())
		ack := make([]byte, 4)
		conn.SetReadDeadline(time.Now().Add(3 * time.Second))
		if _, err := conn.Read(ack); err != nil || ack[0] != 0x20 || ack[3] != 0 {
			t.Fatalf("%s: CONNACK % x, %v", u.Name, ack, err)
		}
		conn.Close() // no DISCONNECT: the will fires
	}
	watch.waitFor(t, "wills/board=gone")
	time.Sleep(100 * time.Millisecond)
	for _, m := range watch.list() {
		if strings.HasPrefix(m, "wills/reader") {
			t.Errorf("read-only user's will was published: %s", m)
		}
	}
}

func TestWebsocket(t *testing.T) {
	b := start(t, Config{AuthDelay: time.Nanosecond}) // the wrong password below must not hold up the right ones

	mux := http.NewServeMux()
	mux.Handle("/mqtt", b.WebsocketHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	wsURL := "ws://" + strings.TrimPrefix(srv.URL, "http://") + "/mqtt"

	if _, err := dial(wsURL, "board", "wrong", ""); err == nil {
		t.Fatal("websocket client with a wrong password connected")
	}
	ws := mustDial(t, wsURL, "reader", "reader-secret")
	got := subscribe(t, ws, "boardd/#")
	tcp := mustDial(t, "tcp://"+b.Addr(), "board", "board-secret")
	big := strings.Repeat("x", 100<<10) // spans many websocket reads
	for _, p := range []string{"online", big} {
		tcp.Publish("boardd/b1/status", 1, false, p).WaitTimeout(time.Second)
		got.waitFor(t, "boardd/b1/status="+p)
	}

	// A websocket writer reaches a TCP reader.
	wsw := mustDial(t, wsURL, "board", "board-secret")
	back := subscribe(t, mustDial(t, "tcp://"+b.Addr(), "reader", "reader-secret"), "x/#")
	wsw.Publish("x/y", 1, false, "hello").WaitTimeout(time.Second)
	back.waitFor(t, "x/y=hello")

	// Closing the broker ends websocket sessions and refuses new ones.
	b.Close()
	deadline := time.Now().Add(5 * time.Second)
	for ws.IsConnectionOpen() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if ws.IsConnectionOpen() {
		t.Error("websocket client still connected after Close")
	}
	resp, err := http.Get(srv.URL + "/mqtt")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("after Close: HTTP %d, want 503", resp.StatusCode)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no users", Config{}, "nobody could connect"},
		{"empty name", Config{Users: []User{{Password: "x"}}}, "no name"},
		{"empty password", Config{Users: []User{{Name: "a"}}}, `"a" has no password`},
		{"duplicate", Config{Users: []User{{Name: "a", Password: "x"}, {Name: "a", Password: "y"}}}, "twice"},
		{"bad address", Config{Listen: "127.0.0.1:99999", Users: testUsers}, "127.0.0.1:99999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Start(tc.cfg)
			if err == nil {
				b.Close()
				t.Fatal("started")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestRestartOnSameAddress(t *testing.T) {
	b := start(t, Config{Listen: "127.0.0.1:0"})
	addr := b.Addr()
	c := mustDial(t, "tcp://"+addr, "board", "board-secret")
	b.Close()
	b.Close() // twice is harmless
	b2 := start(t, Config{Listen: addr})
	if b2.Addr() != addr {
		t.Fatalf("restarted on %s, want %s", b2.Addr(), addr)
	}
	_ = c
	mustDial(t, "tcp://"+addr, "reader", "reader-secret")
}

func TestGeneratePassword(t *testing.T) {
	seen := map[string]bool{}
	ok := regexp.MustCompile(`^[A-Za-z0-9_-]{20}$`)
	for i := 0; i < 100; i++ {
		p := GeneratePassword()
		if !ok.MatchString(p) {
			t.Fatalf("password %q: want 20 URL-safe characters", p)
		}
		if seen[p] {
			t.Fatalf("password %q generated twice", p)
		}
		seen[p] = true
	}
}

// mochi keeps one packet-id space per client for both directions: a
// client's SUBSCRIBE (or QoS 1 PUBLISH) whose id equals that of a message
// the broker has in flight to it would be refused (0x91) or would drop
// that message's state. Subscribing one filter after another while
// retained QoS 1 messages pour in must work every time.
func TestSubscribeWhileRetainedInFlight(t *testing.T) {
	b := start(t, Config{})
	url := "tcp://" + b.Addr()
	w := mustDial(t, url, "board", "board-secret")
	for i := 0; i < 50; i++ {
		w.Publish(fmt.Sprintf("r/%d", i), 1, true, strings.Repeat("x", 2000)).WaitTimeout(time.Second)
	}
	for round := 0; round < 5; round++ {
		c := mustDial(t, url, "reader", "reader-secret")
		slow := func(paho.Client, paho.Message) { time.Sleep(time.Millisecond) } // keeps the broker's messages in flight
		if tok := c.Subscribe("r/#", 1, slow); !tok.WaitTimeout(5 * time.Second) {
			t.Fatal("subscribe timed out")
		}
		for i := 0; i < 10; i++ {
			filter := fmt.Sprintf("other/%d", i)
			tok := c.Subscribe(filter, 1, slow)
			if !tok.WaitTimeout(5 * time.Second) {
				t.Fatal("subscribe timed out")
			}
			if code := tok.(*paho.SubscribeToken).Result()[filter]; code != 1 {
				t.Fatalf("round %d: subscription %d to %s refused with code %#x", round, i+2, filter, code)
			}
		}
		c.Disconnect(0)
	}
}
