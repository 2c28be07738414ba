package systest

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/board"
	"boardd/configs"
	"boardd/referee"
	"boardd/sync/mqtt"
	"boardd/sync/mqtt/mqtttest"
)

// TestRunAgainstMosquittoTLS runs the daemon against a real mosquitto
// over TLS with passwords, configured as a club would: the retained state
// and status arrive, a command from another user is carried out and
// answered, and a clean stop leaves "offline".
func TestRunAgainstMosquittoTLS(t *testing.T) {
	certs := t.TempDir()
	mqtttest.WriteCerts(t, certs)
	mq := mqtttest.Start(t, []mqtttest.User{{Name: "board7", Password: "b7-secret"}, {Name: "td", Password: "td-secret"}}, certs)

	cfg := configs.Defaults()
	cfg.Board, cfg.StateDir = "club-7", t.TempDir()
	cfg.MQTT.Broker, cfg.MQTT.Username, cfg.MQTT.Password = mq.TLSURL(), "board7", "b7-secret"
	cfg.MQTT.TLS.CAFile = filepath.Join(certs, "ca.pem")
	cfg.Web.Listen = "off"
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			d.Close()
		}
	}()

	opts, err := mqtt.ClientOptions(mq.TLSURL(), "td", "td-secret", mqtt.TLS{CAFile: cfg.MQTT.TLS.CAFile})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got := map[string]string{}
	opts.SetClientID("td-test")
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	defer c.Disconnect(100)
	c.Subscribe("boardd/club-7/#", 1, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		got[m.Topic()] = string(m.Payload())
		mu.Unlock()
	}).WaitTimeout(5 * time.Second)
	wait := func(what string, cond func(map[string]string) bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			ok := cond(got)
			mu.Unlock()
			if ok {
				return
			}
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("waiting for %s; have %v", what, got)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	wait("status online and the state", func(g map[string]string) bool {
		var st referee.State
		return g["boardd/club-7/status"] == "online" && json.Unmarshal([]byte(g["boardd/club-7/state"]), &st) == nil && st.Board == "club-7" && st.Variant == "teams"
	})
	c.Publish("boardd/club-7/cmd/tags", 1, false, `{"id":"t1","tags":{"Red":"Ann","Round":"4"}}`).WaitTimeout(5 * time.Second)
	wait("the command's reply", func(g map[string]string) bool {
		return strings.Contains(g["boardd/club-7/cmd/tags/result"], `"ok":true`)
	})
	wait("the state with the names", func(g map[string]string) bool {
		var st referee.State
		return json.Unmarshal([]byte(g["boardd/club-7/state"]), &st) == nil && st.Tags["Red"] == "Ann" && st.Seats[0].Player == "Ann"
	})
	wait("the tags event", func(g map[string]string) bool { return strings.Contains(g["boardd/club-7/events"], `"kind":"tags"`) })
	closed = true
	d.Close()
	wait("status offline", func(g map[string]string) bool { return g["boardd/club-7/status"] == "offline" })
}

// A read-only user connecting to the daemon's own broker with the board's
// client id is refused, and the mirror stays connected (issue 13: 30 of
// 30 such tries used to throw the mirror off).
func TestRunBoardClientIDReserved(t *testing.T) {
	cfg := configs.Defaults()
	cfg.Board, cfg.StateDir = "club-8", t.TempDir()
	cfg.MQTT.Embedded.Listen, cfg.Web.Listen = "127.0.0.1:0", "off"
	cfg.MQTT.Embedded.Users = []configs.User{{Name: "display", Password: "display-pw"}}
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	deadline := time.Now().Add(10 * time.Second)
	for !d.Mirror.Stats().Connected {
		if time.Now().After(deadline) {
			t.Fatalf("the mirror never connected: %+v", d.Mirror.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	for range 5 {
		opts, err := mqtt.ClientOptions("tcp://"+d.MQTTAddr, "display", "display-pw", mqtt.TLS{})
		if err != nil {
			t.Fatal(err)
		}
		c := paho.NewClient(opts.SetClientID(mqtt.DefaultClientID("club-8")).SetConnectTimeout(3 * time.Second))
		if tok := c.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
			c.Disconnect(50)
			t.Fatal("a read-only user connected with the board's client id")
		}
	}
	if s := d.Mirror.Stats(); !s.Connected || s.Reconnects != 0 {
		t.Errorf("the mirror was thrown off its own broker: %+v", s)
	}
}
