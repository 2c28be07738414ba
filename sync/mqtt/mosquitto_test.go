package mqtt

import (
	"boardd/sync/mqtt/mqtttest"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// The Mirror reaches mosquitto over TLS with the CA from a file; without
// the CA the broker's certificate is refused.
func TestMosquittoTLS(t *testing.T) {
	mqtttest.Path(t)
	certs := t.TempDir()
	mqtttest.WriteCerts(t, certs)
	mq := newMosquitto(t, certs)
	url := fmt.Sprintf("ssl://127.0.0.1:%d", mq.TLSPort)
	ca := TLS{CAFile: filepath.Join(certs, "ca.pem")}

	// Without the CA: the system's roots do not know the test CA.
	opts, err := ClientOptions(url, clubUser.Name, clubUser.Password, TLS{})
	if err != nil {
		t.Fatal(err)
	}
	cl := paho.NewClient(opts.SetConnectTimeout(3 * time.Second))
	tok := cl.Connect()
	tok.WaitTimeout(5 * time.Second)
	if tok.Error() == nil || !strings.Contains(tok.Error().Error(), "certificate") {
		cl.Disconnect(0)
		t.Fatalf("connect without the CA: %v, want a certificate error", tok.Error())
	}

	board := newFakeBoard("b1")
	c := newConsumer(t, url, "b1", consumerOpts{tls: ca})
	plain := newConsumer(t, mq.url(), "b1", consumerOpts{user: readerUser})
	m := startMirror(t, url, board, "b1", func(c *Config) { c.TLS = ca })
	board.moves(50)
	c.waitSeq(50)
	plain.waitSeq(50)
	raw, _, _ := c.snapshot()
	if !slices.Equal(raw, seqRange(1, 50)) {
		t.Errorf("events over TLS: %v", raw)
	}
	if s := m.Stats(); !s.Connected || s.Acked != 50 {
		t.Errorf("stats %+v", s)
	}
}

// The bridge of docs/mqtt.md: a club's mosquitto bridged to a board's
// embedded broker carries the events in order, the retained state (also
// updates after the bridge connected), the finished games, and commands
// to the board and their replies back.
func TestMosquittoBridge(t *testing.T) {
	mqtttest.Path(t)
	boardBroker := newEmbedded(t)
	board := newFakeBoard("club-1")
	m := startMirror(t, boardBroker.url(), board, "club-1", func(c *Config) {
		c.GamePGN4 = func(id string) (string, error) { return "[Event \"Bridge\"]\n", nil }
	})
	bridge := fmt.Sprintf(`
max_inflight_messages 1000
connection board-club-1
address %s
bridge_protocol_version mqttv50
try_private false
cleansession true
restart_timeout 1
remote_clientid club-bridge-club-1
remote_username %s
remote_password %s
topic boardd/club-1/status in 1
topic boardd/club-1/state in 1
topic boardd/club-1/leds in 1
topic boardd/club-1/events in 1
topic boardd/club-1/games/+ in 1
topic boardd/club-1/cmd/+/result in 1
topic boardd/club-1/cmd/+ out 1
`, strings.TrimPrefix(boardBroker.url(), "tcp://"), clubUser.Name, clubUser.Password)
	club := newMosquitto(t, "", bridge)

	c := newConsumer(t, club.url(), "club-1", consumerOpts{})
	c.waitUntil("status online through the bridge", func() bool { return c.status == StatusOnline })
	board.moves(100)
	board.emit("game_over", "Red wins")
	c.waitSeq(101)
	raw, _, _ := c.snapshot()
	if !slices.Equal(slices.Compact(raw), seqRange(1, 101)) {
		t.Errorf("events through the bridge: %v", raw)
	}
	waitStats(t, m, "all acknowledged", func(s Stats) bool { return s.Acked == 101 })

	late := newConsumer(t, club.url(), "club-1", consumerOpts{user: readerUser, next: 102})
	late.waitUntil("retained state of 101 and the game on the club broker", func() bool {
		return late.state.Seq == 101 && late.games["club-1-g1"] == "[Event \"Bridge\"]\n"
	})

	c.command("resign", `{"seat":"Green","id":"from-the-club"}`)
	c.waitUntil("the reply through the bridge", func() bool { return len(c.replies) == 1 })
	if r := c.replies[0]; !r.OK || r.ID != "from-the-club" {
		t.Errorf("reply %+v", r)
	}
	if cmds := board.commands(); len(cmds) != 1 || cmds[0].Seat != "Green" {
		t.Errorf("commands that reached the board: %+v", cmds)
	}
}

// The access setup of docs/mqtt.md for an external mosquitto: with
// use_username_as_clientid every client's id is its user name, so a
// read-only user connecting with the board's client id cannot push the
// board's mirror off, and the ACL keeps the reader from commanding.
func TestMosquittoClientIDCannotBeTaken(t *testing.T) {
	mqtttest.Path(t)
	acl := filepath.Join(t.TempDir(), "acl")
	if err := os.WriteFile(acl, []byte(fmt.Sprintf("user %s\ntopic readwrite boardd/b1/#\n\nuser %s\ntopic read boardd/#\n\nuser %s\ntopic read boardd/#\ntopic write boardd/+/cmd/+\n",
		boardUser.Name, readerUser.Name, clubUser.Name)), 0o644); err != nil {
		t.Fatal(err)
	}
	mq := newMosquitto(t, "", "use_username_as_clientid true\nacl_file "+acl+"\n")
	board := newFakeBoard("b1")
	m := startMirror(t, mq.url(), board, "b1")
	waitStats(t, m, "connected", func(s Stats) bool { return s.Connected })
	for _, id := range []string{DefaultClientID("b1"), boardUser.Name} {
		opts, err := ClientOptions(mq.url(), readerUser.Name, readerUser.Password, TLS{})
		if err != nil {
			t.Fatal(err)
		}
		cl := paho.NewClient(opts.SetClientID(id).SetConnectTimeout(3 * time.Second))
		if tok := cl.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("reader as %s: %v", id, tok.Error())
		}
		cl.Publish(Topic("", "b1", "cmd/resign"), 1, false, `{"seat":"Red"}`).WaitTimeout(time.Second)
		cl.Disconnect(50)
	}
	c := newConsumer(t, mq.url(), "b1", consumerOpts{})
	c.command("resign", `{"seat":"Blue","id":"b"}`)
	c.waitUntil("the club's reply", func() bool { return len(c.replies) == 1 })
	if s := m.Stats(); !s.Connected || s.Reconnects != 0 {
		t.Errorf("the mirror was pushed off by a reader using its client id: %+v", s)
	}
	if got := board.commands(); len(got) != 1 || got[0].Seat != "Blue" {
		t.Errorf("Do got %+v, want only the club's resign of Blue", got)
	}
}
