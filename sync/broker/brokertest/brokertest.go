// Package brokertest starts the embedded MQTT broker on loopback for
// tests, with a board's account that may publish and a club's that may
// only read, and publishes as the board.
package brokertest

import (
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/sync/broker"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

// The test accounts.
const (
	BoardUser, BoardPassword = "board", "pw-board" // may publish
	ClubUser, ClubPassword   = "club", "pw-club"   // may only read
)

// Start starts the broker on 127.0.0.1 (closed when t ends) and returns
// its URL, tcp://127.0.0.1:PORT.
func Start(t testing.TB) string {
	t.Helper()
	b, err := broker.Start(broker.Config{Listen: "127.0.0.1:0", Users: []broker.User{
		{Name: BoardUser, Password: BoardPassword, Write: true},
		{Name: ClubUser, Password: ClubPassword},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return "tcp://" + b.Addr()
}

// Client is the Broker at url as user, with the default prefix.
func Client(url, user, password string) mqttclient.Broker {
	return mqttclient.Broker{URL: url, User: user, Password: password, Prefix: mqtt.DefaultPrefix}
}

// Publisher connects to url as the board (disconnected when t ends).
func Publisher(t testing.TB, url string) paho.Client {
	t.Helper()
	opts, err := mqtt.ClientOptions(url, BoardUser, BoardPassword, mqtt.TLS{})
	if err != nil {
		t.Fatal(err)
	}
	c := paho.NewClient(opts.SetClientID("test-publisher"))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(0) })
	return c
}

// Publish publishes payload on topic at QoS 1 and waits for the broker.
func Publish(t testing.TB, c paho.Client, topic, payload string, retain bool) {
	t.Helper()
	if tok := c.Publish(topic, 1, retain, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}
