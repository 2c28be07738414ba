package natstest_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/hub/natstest"
)

var update = flag.Bool("update", false, "write configs/league/nats-node*.conf from natstest.Conf")

// sample is node i (1-3) of the sample cluster in configs/league.
func sample(i int) natstest.NodeConf {
	n := natstest.NodeConf{Name: fmt.Sprintf("nats%d", i), Host: "0.0.0.0", Client: 4222, Route: 6222, MQTT: 1883,
		Monitor: "127.0.0.1:8222", Store: "/var/lib/nats/jetstream",
		Users: natstest.League("boardd", "BOARD-PASSWORD", "HUB-PASSWORD", "VIEWER-PASSWORD")}
	for j := 1; j <= 3; j++ {
		if j != i {
			n.Routes = append(n.Routes, fmt.Sprintf("nats-route://nats%d:6222", j))
		}
	}
	return n
}

// The sample configs of the three nodes are what the tests run (the
// same Conf, other ports and hosts), and nats-server reads them.
func TestSampleConfigs(t *testing.T) {
	for i := 1; i <= 3; i++ {
		path := filepath.Join("..", "..", "..", "configs", "league", fmt.Sprintf("nats-node%d.conf", i))
		want := natstest.Conf(sample(i))
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not natstest.Conf's (go test ./app/hub/natstest -run SampleConfigs -update):\n%s", path, want)
		}
	}
	bin := natstest.Path(t)
	for i := 1; i <= 3; i++ {
		path := filepath.Join("..", "..", "..", "configs", "league", fmt.Sprintf("nats-node%d.conf", i))
		if out, err := exec.Command(bin, "-t", "-c", path).CombinedOutput(); err != nil {
			t.Errorf("nats-server -t -c %s: %v\n%s", path, err, out)
		}
	}
}

func connect(t *testing.T, url, user, pw, id string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(url).SetUsername(user).SetPassword(pw).SetClientID(id).
		SetCleanSession(true).SetAutoReconnect(false).SetConnectTimeout(5 * time.Second)
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("%s connects to %s as %s: %v", id, url, user, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(0) })
	return c
}

func subscribe(t *testing.T, c paho.Client, filter string) (granted byte, got chan paho.Message) {
	t.Helper()
	got = make(chan paho.Message, 100)
	tok := c.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) { got <- m })
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe %s: %v", filter, tok.Error())
	}
	return tok.(*paho.SubscribeToken).Result()[filter], got
}

func publish(t *testing.T, c paho.Client, topic string, retain bool, payload string) {
	t.Helper()
	tok := c.Publish(topic, 1, retain, payload)
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}

func receive(t *testing.T, got chan paho.Message, topic, payload string) {
	t.Helper()
	select {
	case m := <-got:
		if m.Topic() != topic || string(m.Payload()) != payload {
			t.Fatalf("received %s %q, want %s %q", m.Topic(), m.Payload(), topic, payload)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("nothing received within 10 s; want %s %q", topic, payload)
	}
}

func nothing(t *testing.T, got chan paho.Message, what string) {
	t.Helper()
	select {
	case m := <-got:
		t.Fatalf("%s: received %s %q", what, m.Topic(), m.Payload())
	case <-time.After(300 * time.Millisecond):
	}
}

// Three nodes with the league's accounts: a board's message on one node
// reaches the hub on another; a board may not send commands and a viewer
// may not publish; a retained message survives the SIGKILL of the node
// it was published on, which comes back and serves it.
func TestLeagueCluster(t *testing.T) {
	users := natstest.League("boardd", "pw-board", "pw-hub", "pw-viewer")
	c := natstest.Start(t, 3, users...)
	hub := connect(t, c.Nodes[2].MQTTURL(), "hub", "pw-hub", "hub")
	if g, got := subscribe(t, hub, "boardd/#"); g != 1 {
		t.Fatalf("the hub's subscription granted %#x", g)
	} else {
		board := connect(t, c.Nodes[0].MQTTURL(), natstest.BoardUser, "pw-board", "boardd-club-1")
		if g, cmds := subscribe(t, board, "boardd/club-1/cmd/+"); g != 1 {
			t.Fatalf("the board's subscription to its commands granted %#x", g)
		} else {
			publish(t, board, "boardd/club-1/events", false, `{"seq":1}`)
			receive(t, got, "boardd/club-1/events", `{"seq":1}`)
			publish(t, hub, "boardd/club-1/cmd/replay", false, `{"from":1}`)
			receive(t, cmds, "boardd/club-1/cmd/replay", `{"from":1}`)
			receive(t, got, "boardd/club-1/cmd/replay", `{"from":1}`)
			publish(t, board, "boardd/club-1/cmd/replay/result", false, `{"ok":true}`)
			receive(t, got, "boardd/club-1/cmd/replay/result", `{"ok":true}`)
			// a board sending a command: acknowledged, dropped
			publish(t, board, "boardd/club-2/cmd/new_game", false, `{}`)
			nothing(t, got, "a board's command")
		}
		viewer := connect(t, c.Nodes[1].MQTTURL(), "viewer", "pw-viewer", "viewer-1")
		publish(t, viewer, "boardd/club-1/events", false, `{"seq":99}`)
		nothing(t, got, "a viewer's publication")
		if g, _ := subscribe(t, board, "boardd/#"); g < 0x80 {
			t.Errorf("a board may read every board: granted %#x", g)
		}
		publish(t, board, "boardd/club-1/status", true, "online")
		receive(t, got, "boardd/club-1/status", "online")
	}
	c.Kill(0)
	c.Restart(0)
	v := connect(t, c.Nodes[0].MQTTURL(), "viewer", "pw-viewer", "viewer-2")
	if _, got := subscribe(t, v, "boardd/+/status"); true {
		receive(t, got, "boardd/club-1/status", "online")
	}
}
