// Package mqttclient is the client side of a board's MQTT mirror, for the
// commands that follow boards from elsewhere (boardd collect, watch and
// bot, the club hub): the broker flags they share, a connection that
// reconnects and resubscribes by itself (a client id of its own each,
// ClientID), a remote board (Dial) that reads the board's state and sends
// it commands as a bot seat needs, and a Commander that sends any board
// commands (the hub pushing a round).
package mqttclient

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"

	"boardd/sync/mqtt"
)

// Broker is where and as whom a client connects, and the boards' first
// topic level.
type Broker struct {
	URL, User, Password, Prefix string
	CA, Cert, Key               string // PEM files for ssl:// brokers
}

// ErrNoBroker is Connect's error for a Broker without a URL: a usage
// error (the --broker flag was not given).
var ErrNoBroker = errors.New("usage: --broker is required (tcp://host:1883)")

// BindFlags binds the flags every MQTT client command takes (--broker,
// --user, --password, --prefix, --ca, --cert, --key) to a Broker.
func BindFlags(flags *flag.FlagSet) *Broker {
	b := &Broker{}
	flags.StringVar(&b.URL, "broker", "", "the MQTT broker: tcp://host:1883, ssl://host:8883, ws://host:8080/mqtt")
	flags.StringVar(&b.User, "user", "", "MQTT user name")
	flags.StringVar(&b.Password, "password", "", "MQTT password (default: $BOARDD_MQTT_PASSWORD)")
	flags.StringVar(&b.Prefix, "prefix", mqtt.DefaultPrefix, "first topic level of the boards")
	flags.StringVar(&b.CA, "ca", "", "PEM file of the CA that signed an ssl:// broker's certificate")
	flags.StringVar(&b.Cert, "cert", "", "PEM client certificate, for brokers that want one")
	flags.StringVar(&b.Key, "key", "", "PEM key of the client certificate")
	return b
}

// Connect connects to the broker once (so a wrong URL or password is an
// error now) and keeps reconnecting afterwards; onConnect runs on every
// connection and must (re)subscribe. With no password given it takes
// $BOARDD_MQTT_PASSWORD.
func (b Broker) Connect(clientID string, onConnect func(paho.Client) error) (paho.Client, error) {
	if b.URL == "" {
		return nil, ErrNoBroker
	}
	pw := b.Password
	if pw == "" {
		pw = os.Getenv("BOARDD_MQTT_PASSWORD")
	}
	opts, err := mqtt.ClientOptions(b.URL, b.User, pw, mqtt.TLS{CAFile: b.CA, CertFile: b.Cert, KeyFile: b.Key})
	if err != nil {
		return nil, err
	}
	firstErr := make(chan error, 1)
	opts.SetClientID(clientID).
		SetCleanSession(true).
		SetAutoReconnect(true).
		SetMaxReconnectInterval(10 * time.Second).
		SetConnectTimeout(10 * time.Second).
		SetKeepAlive(30 * time.Second).
		SetOnConnectHandler(func(c paho.Client) {
			err := onConnect(c)
			select {
			case firstErr <- err:
			default:
			}
		})
	c := paho.NewClient(opts)
	tok := c.Connect()
	if !tok.WaitTimeout(15 * time.Second) {
		c.Disconnect(0)
		return nil, fmt.Errorf("connect to %s: no answer within 15 s", b.URL)
	}
	if err := tok.Error(); err != nil {
		if errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) || errors.Is(err, packets.ErrorRefusedNotAuthorised) {
			who := "no user name"
			if b.User != "" {
				who = fmt.Sprintf("user %q and that password", b.User)
			}
			return nil, fmt.Errorf("connect to %s: the broker refused %s (%v): pass the user and password the board printed when it first started (\"MQTT broker: … user boardd, password …\"; the board keeps it in its state directory, file mqtt-password) with --user and --password, or $BOARDD_MQTT_PASSWORD", b.URL, who, err)
		}
		return nil, fmt.Errorf("connect to %s: %w", b.URL, err)
	}
	if err := <-firstErr; err != nil {
		c.Disconnect(0)
		return nil, err
	}
	return c, nil
}

// Subscribe subscribes c to filters (topic filter → QoS) and waits for the
// broker's answer (10 s at most); a filter the broker refuses is an error.
func Subscribe(c paho.Client, filters map[string]byte, h paho.MessageHandler) error {
	tok := c.SubscribeMultiple(filters, h)
	if !tok.WaitTimeout(10 * time.Second) {
		return errors.New("subscribe: no answer from the broker within 10 s")
	}
	if err := tok.Error(); err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	for f, code := range tok.(*paho.SubscribeToken).Result() {
		if code >= 0x80 {
			return fmt.Errorf("subscribe to %s: refused by the broker (code %#x)", f, code)
		}
	}
	return nil
}

// ClientID is a client id for one connection, unique to it among this
// process's (several Boards, Commanders or hubs of one process do not
// push each other off the broker: on a NATS cluster from any node) and,
// with a random part, among machines (containers share a host name and
// pid 1): boardd-<what>-<host>-<pid>-<n>-<random>.
func ClientID(what string) string {
	host, _ := os.Hostname()
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("boardd-%s-%s-%d-%d-%s", what, host, os.Getpid(), connections.Add(1), hex.EncodeToString(r[:]))
}

// connections counts the client ids given out.
var connections atomic.Uint64
