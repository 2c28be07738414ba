package broker

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/mochi-mqtt/server/v2/packets"
)

var clubUsers = []User{
	{Name: "board", Password: "board-secret", Write: true},
	{Name: "bridge", Password: "bridge-secret", Write: true},
	{Name: "collector", Password: "collector-secret"},
	{Name: "display", Password: "display-secret"},
}

// dialSession connects with clean session off (a persistent session).
func dialSession(url, id, user, pass string) (paho.Client, error) {
	o := paho.NewClientOptions().AddBroker(url).SetClientID(id).SetUsername(user).SetPassword(pass).
		SetCleanSession(false).SetConnectTimeout(3 * time.Second).SetAutoReconnect(false)
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(5 * time.Second) {
		return nil, fmt.Errorf("connect timed out")
	}
	return c, tok.Error()
}

// away counts the sessions kept for clients that went, and the messages
// they hold.
func away(b *Broker) (sessions, held int) {
	for _, cl := range b.srv.Clients.GetAll() {
		if cl.Closed() {
			sessions++
			held += cl.State.Inflight.Len()
		}
	}
	return
}

// Issue 28, item 4: 30 read-only clients with clean session off subscribe
// to everything and go; 40 moves later the broker holds at most PerUser
// sessions of that account, each at most Messages messages; anonymous
// clients keep nothing; the sessions go after their Expiry.
func TestSessionsLeftBehind(t *testing.T) {
	b := start(t, Config{Users: clubUsers, AllowAnonymous: true,
		ReaderSessions: SessionLimits{Expiry: time.Hour, Messages: 10, PerUser: 4}})
	url := "tcp://" + b.Addr()
	for i := range 30 {
		user, pass := "display", "display-secret"
		if i%3 == 0 {
			user, pass = "", "" // anonymous
		}
		c, err := dialSession(url, fmt.Sprintf("left-%d", i), user, pass)
		if err != nil {
			t.Fatal(err)
		}
		subscribe(t, c, "boardd/#")
		c.Disconnect(0)
	}
	pub := mustDial(t, url, "board", "board-secret")
	for i := range 40 {
		if tok := pub.Publish(fmt.Sprintf("boardd/b1/messages/%d", i), 1, false, "a move"); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
	}
	// Sweep as after every client that goes (and every 10 s), until mochi
	// has also finished with the anonymous clients that went (their
	// sessions end with their connections, on mochi's own goroutines).
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b.sessions.sweep(time.Now())
		if n, held := away(b); n == 4 && held == 4*10 {
			break
		}
	}
	if n, held := away(b); n != 4 || held != 4*10 {
		t.Errorf("%d sessions left behind holding %d messages, want 4 (PerUser) holding 40 (10 each)", n, held)
	}
	for _, cl := range b.srv.Clients.GetAll() {
		if cl.Closed() && string(cl.Properties.Username) != "display" {
			t.Errorf("a session kept for %q (%s): anonymous clients keep none", cl.Properties.Username, cl.ID)
		}
	}
	// A client that comes back is connected (its session, if kept,
	// resumes) and a sweep leaves it alone.
	c, err := dialSession(url, "left-29", "display", "display-secret")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Disconnect(0)
	// Past their expiry they go.
	b.sessions.sweep(time.Now().Add(time.Hour + time.Minute))
	if n, _ := away(b); n != 0 {
		t.Errorf("%d sessions kept past their hour", n)
	}
	if !c.IsConnectionOpen() {
		t.Error("the sweep cut a connected client")
	}
}

// Issue 28, item 5: a client id belongs to the account whose client
// holds it, connected or away with a session kept.
func TestClientIDsBoundToAccounts(t *testing.T) {
	b := start(t, Config{Users: clubUsers, AllowAnonymous: true})
	url := "tcp://" + b.Addr()
	bridge, err := dialAs(url, "club-bridge-club-1", "", "bridge", "bridge-secret", "")
	if err != nil {
		t.Fatal(err)
	}
	defer bridge.Disconnect(0)
	col, err := dialSession(url, "collector-1", "collector", "collector-secret")
	if err != nil {
		t.Fatal(err)
	}
	subscribe(t, col, "boardd/#")
	col.Disconnect(0)
	pub := mustDial(t, url, "board", "board-secret")
	pub.Publish("boardd/b1/games/g1", 1, false, "the collector's game").WaitTimeout(5 * time.Second)

	for _, tc := range []struct{ id, user, pass string }{
		{"club-bridge-club-1", "display", "display-secret"},
		{"club-bridge-club-1", "", ""},
		{"collector-1", "display", "display-secret"},
		{"collector-1", "", ""},
	} {
		got := &collector{}
		o := paho.NewClientOptions().AddBroker(url).SetClientID(tc.id).SetUsername(tc.user).SetPassword(tc.pass).
			SetCleanSession(false).SetAutoReconnect(false).SetConnectTimeout(3 * time.Second).SetDefaultPublishHandler(got.add)
		c := paho.NewClient(o)
		tok := c.Connect()
		tok.WaitTimeout(5 * time.Second)
		if tok.Error() == nil {
			time.Sleep(100 * time.Millisecond)
			c.Disconnect(0)
			t.Errorf("%q connected with %s's client id %q (received %q)", tc.user, map[bool]string{true: "the bridge", false: "the collector"}[strings.HasPrefix(tc.id, "club")], tc.id, got.list())
		}
	}
	if !bridge.IsConnectionOpen() {
		t.Error("the bridge was disconnected by another account using its client id")
	}
	// The collector itself comes back to its messages.
	got := &collector{}
	o := paho.NewClientOptions().AddBroker(url).SetClientID("collector-1").SetUsername("collector").SetPassword("collector-secret").
		SetCleanSession(false).SetAutoReconnect(false).SetDefaultPublishHandler(got.add)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("the collector coming back: %v", tok.Error())
	}
	defer c.Disconnect(0)
	got.waitFor(t, "boardd/b1/games/g1=the collector's game")
	// The same account may take its own id over (a reconnect).
	again, err := dialAs(url, "club-bridge-club-1", "", "bridge", "bridge-secret", "")
	if err != nil {
		t.Errorf("the bridge's account reconnecting with its id: %v", err)
	} else {
		again.Disconnect(0)
	}
}

// Issue 28, item 9: the broker's $SYS topics (clients, addresses, memory)
// are for writers only.
func TestSysTopicsForWritersOnly(t *testing.T) {
	b := start(t, Config{Users: clubUsers, AllowAnonymous: true})
	url := "tcp://" + b.Addr()
	w := subscribe(t, mustDial(t, url, "board", "board-secret"), "$SYS/#")
	for _, u := range []struct{ name, pass string }{{"display", "display-secret"}, {"", ""}} {
		c := mustDial(t, url, u.name, u.pass)
		tok := c.Subscribe("$SYS/#", 1, nil)
		if !tok.WaitTimeout(5 * time.Second) {
			t.Fatal("subscribe timed out")
		}
		if code := tok.(*paho.SubscribeToken).Result()["$SYS/#"]; code != 0x80 {
			t.Errorf("%q subscribing to $SYS/#: code %#x, want 0x80 (refused)", u.name, code)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(w.list()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(w.list()) == 0 {
		t.Error("a writer subscribed to $SYS/# heard nothing")
	}
}

// An MQTT 5 client learns from its CONNACK the session expiry its
// account allows, not the one it asked for.
func TestSessionExpiryAnnounced(t *testing.T) {
	b := start(t, Config{Users: clubUsers, AllowAnonymous: true})
	for _, tc := range []struct {
		user, pass string
		ask, want  uint32
	}{
		{"display", "display-secret", 36000, 3600}, // read-only: 1 h
		{"display", "display-secret", 600, 600},    // less is kept as asked
		{"bridge", "bridge-secret", 7 * 24 * 3600, 24 * 3600},
		{"", "", 36000, 0}, // anonymous: none
	} {
		pk := packets.Packet{
			FixedHeader:     packets.FixedHeader{Type: packets.Connect},
			ProtocolVersion: 5,
			Connect: packets.ConnectParams{
				ProtocolName: []byte("MQTT"), Keepalive: 60, ClientIdentifier: "v5-" + tc.user,
				UsernameFlag: tc.user != "", Username: []byte(tc.user), PasswordFlag: tc.pass != "", Password: []byte(tc.pass),
			},
			Properties: packets.Properties{SessionExpiryInterval: tc.ask, SessionExpiryIntervalFlag: true},
		}
		var buf bytes.Buffer
		if err := pk.ConnectEncode(&buf); err != nil {
			t.Fatal(err)
		}
		c := rawDial(t, "127.0.0.2", b.Addr())
		c.Write(buf.Bytes())
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		r := bufio.NewReader(c)
		var fh packets.FixedHeader
		first, _ := r.ReadByte()
		if err := fh.Decode(first); err != nil || fh.Type != packets.Connack {
			t.Fatalf("%q: no CONNACK (%#x, %v)", tc.user, first, err)
		}
		n, _, err := packets.DecodeLength(r)
		if err != nil {
			t.Fatal(err)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		ack := packets.Packet{FixedHeader: fh, ProtocolVersion: 5}
		if err := ack.ConnackDecode(body); err != nil {
			t.Fatal(err)
		}
		if ack.ReasonCode != 0 || !ack.Properties.SessionExpiryIntervalFlag || ack.Properties.SessionExpiryInterval != tc.want {
			t.Errorf("%q asking %d s: CONNACK reason %#x, session expiry %d (announced %v), want %d",
				tc.user, tc.ask, ack.ReasonCode, ack.Properties.SessionExpiryInterval, ack.Properties.SessionExpiryIntervalFlag, tc.want)
		}
		c.Close()
	}
}
