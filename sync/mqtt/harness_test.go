package mqtt

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boardd/referee"
	"boardd/sync/broker"
	"boardd/sync/mqtt/mqtttest"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// Accounts on every test broker.
var (
	boardUser  = broker.User{Name: "board", Password: "board-pw-1", Write: true}
	clubUser   = broker.User{Name: "club", Password: "club-pw-2", Write: true}
	readerUser = broker.User{Name: "reader", Password: "reader-pw-3"}
	testUsers  = []broker.User{boardUser, clubUser, readerUser}
)

// testBroker is a broker a test can stop and start again on the same
// address: the embedded one or a mosquitto subprocess.
type testBroker interface {
	url() string
	stop()
	start()
}

// embedded runs sync/broker on a loopback port.
type embedded struct {
	t    testing.TB
	addr string
	b    *broker.Broker
}

func newEmbedded(t testing.TB) *embedded {
	e := &embedded{t: t, addr: "127.0.0.1:0"}
	e.start()
	e.addr = e.b.Addr()
	t.Cleanup(e.stop)
	return e
}

func (e *embedded) url() string { return "tcp://" + e.addr }

func (e *embedded) start() {
	var err error
	for try := 0; try < 50; try++ {
		e.b, err = broker.Start(broker.Config{Listen: e.addr, Users: testUsers})
		if err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatal(err)
}

func (e *embedded) stop() {
	if e.b != nil {
		e.b.Close()
		e.b = nil
	}
}

// mosquitto is a real mosquitto with the test users (mqtttest).
type mosquitto struct{ *mqtttest.Mosquitto }

func newMosquitto(t testing.TB, certDir string, extra ...string) *mosquitto {
	users := make([]mqtttest.User, len(testUsers))
	for i, u := range testUsers {
		users[i] = mqtttest.User{Name: u.Name, Password: u.Password}
	}
	return &mosquitto{mqtttest.Start(t, users, certDir, extra...)}
}

func (m *mosquitto) url() string { return m.URL() }
func (m *mosquitto) start()      { m.Restart() }
func (m *mosquitto) stop()       { m.Kill() }

// brokers returns the brokers a test runs against, by name.
func brokers() []struct {
	name string
	new  func(testing.TB) testBroker
} {
	return []struct {
		name string
		new  func(testing.TB) testBroker
	}{
		{"embedded", func(t testing.TB) testBroker { return newEmbedded(t) }},
		{"mosquitto", func(t testing.TB) testBroker { return newMosquitto(t, "") }},
	}
}

// startMirror starts a Mirror with quick test timings.
func startMirror(t testing.TB, url string, src referee.Board, board string, edit ...func(*Config)) *Mirror {
	t.Helper()
	cfg := Config{
		Broker: url, Username: boardUser.Name, Password: boardUser.Password,
		Board: board, Source: src,
		KeepAlive: 5 * time.Second, ConnectTimeout: 2 * time.Second,
		AckTimeout: 2 * time.Second, MaxReconnectInterval: 100 * time.Millisecond,
	}
	for _, e := range edit {
		e(&cfg)
	}
	m, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

var clientSeq atomic.Int64

// consumer is a display: it follows a board's events, state and status,
// drops duplicates, and (with replay) asks for a replay when Seq jumps or
// the state is ahead of what it has, as docs/mqtt.md tells displays to.
type consumer struct {
	t      testing.TB
	c      paho.Client
	base   string
	replay bool

	mu          sync.Mutex
	raw         []uint64 // every event's Seq, as it arrived
	got         []uint64 // accepted, in order
	next        uint64
	replays     int
	replayAt    time.Time
	progress    time.Time // when the last event was accepted
	state       referee.State
	states      int
	status      string
	lights      referee.Lights
	games       map[string]string // game id → PGN4
	replies     []referee.Reply
	connects    int
	other       []string // topics outside the board
	subscribeOK chan struct{}
}

type consumerOpts struct {
	user   broker.User
	replay bool
	next   uint64 // first Seq expected (default 1)
	tls    TLS
	filter string // extra subscription (default none)
}

func newConsumer(t testing.TB, url, board string, o consumerOpts) *consumer {
	t.Helper()
	if o.user.Name == "" {
		o.user = clubUser
	}
	if o.next == 0 {
		o.next = 1
	}
	c := &consumer{progress: time.Now(), t: t, base: DefaultPrefix + "/" + board + "/", replay: o.replay, next: o.next, subscribeOK: make(chan struct{}, 100)}
	opts, err := ClientOptions(url, o.user.Name, o.user.Password, o.tls)
	if err != nil {
		t.Fatal(err)
	}
	opts.SetClientID(fmt.Sprintf("consumer-%d", clientSeq.Add(1))).
		SetAutoReconnect(true).SetConnectRetry(true).
		SetConnectRetryInterval(50 * time.Millisecond).SetMaxReconnectInterval(100 * time.Millisecond).
		SetConnectTimeout(2 * time.Second).
		SetOnConnectHandler(func(cl paho.Client) {
			filters := map[string]byte{c.base + "#": 1}
			if o.filter != "" {
				filters[o.filter] = 1
			}
			tok := cl.SubscribeMultiple(filters, c.onMessage)
			// mochi-mqtt v2.7.9 sends the retained messages after the
			// SUBACK, reading its topic tree without the lock a retained
			// publish takes (the race detector's report, upstream's issue
			// 200). The broker handles one client's packets in order, so an
			// UNSUBACK for a topic nobody uses means that scan is over
			// before the test goes on and the mirror publishes.
			if tok.WaitTimeout(5*time.Second) && tok.Error() == nil &&
				cl.Unsubscribe(c.base+"barrier/none").WaitTimeout(5*time.Second) {
				c.mu.Lock()
				c.connects++
				c.mu.Unlock()
				c.subscribeOK <- struct{}{}
			}
		})
	c.c = paho.NewClient(opts)
	c.c.Connect()
	stop := make(chan struct{})
	ticker := time.NewTicker(100 * time.Millisecond)
	go func() {
		// The tail: the state says there is more than arrived, and nothing
		// came for a while (the mirror may still be catching up before).
		for {
			select {
			case <-stop:
				return
			case <-ticker.C:
			}
			c.mu.Lock()
			if c.state.Seq >= c.next && time.Since(c.progress) > 500*time.Millisecond {
				c.askReplay()
			}
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ticker.Stop()
		close(stop)
		c.c.Disconnect(50)
	})
	c.waitSubscribed()
	return c
}

// waitSubscribed waits for the next (re)subscription.
func (c *consumer) waitSubscribed() {
	c.t.Helper()
	select {
	case <-c.subscribeOK:
	case <-time.After(15 * time.Second):
		c.t.Fatal("consumer: no subscription within 15 s")
	}
}

func (c *consumer) onMessage(_ paho.Client, msg paho.Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	leaf, ok := strings.CutPrefix(msg.Topic(), c.base)
	if !ok {
		c.other = append(c.other, msg.Topic())
		return
	}
	switch {
	case leaf == TopicEvents:
		var m referee.Message
		if err := json.Unmarshal(msg.Payload(), &m); err != nil {
			c.t.Errorf("event payload %q: %v", msg.Payload(), err)
			return
		}
		c.raw = append(c.raw, m.Seq)
		switch {
		case m.Seq == c.next:
			c.got = append(c.got, m.Seq)
			c.next++
			c.progress = time.Now()
		case m.Seq > c.next:
			c.askReplay()
		}
	case leaf == TopicState:
		var s referee.State
		if err := json.Unmarshal(msg.Payload(), &s); err != nil {
			c.t.Errorf("state payload %q: %v", msg.Payload(), err)
			return
		}
		c.state = s
		c.states++
	case leaf == TopicStatus:
		c.status = string(msg.Payload())
	case leaf == TopicLEDs:
		c.lights = referee.Lights{}
		if err := json.Unmarshal(msg.Payload(), &c.lights); err != nil {
			c.t.Errorf("leds payload %q: %v", msg.Payload(), err)
		}
	case strings.HasPrefix(leaf, TopicGames+"/"):
		if c.games == nil {
			c.games = map[string]string{}
		}
		c.games[strings.TrimPrefix(leaf, TopicGames+"/")] = string(msg.Payload())
	case strings.HasPrefix(leaf, TopicCmd+"/") && strings.HasSuffix(leaf, "/result"):
		var r referee.Reply
		if err := json.Unmarshal(msg.Payload(), &r); err != nil {
			c.t.Errorf("reply payload %q: %v", msg.Payload(), err)
			return
		}
		c.replies = append(c.replies, r)
	}
}

// askReplay asks for the events from c.next again (at most once a second).
func (c *consumer) askReplay() {
	if !c.replay || time.Since(c.replayAt) < time.Second {
		return
	}
	c.replayAt = time.Now()
	c.replays++
	payload := fmt.Sprintf(`{"from":%d,"id":"replay-%d"}`, c.next, c.replays)
	go c.c.Publish(c.base+"cmd/replay", 1, false, payload) // not from a paho handler
}

func (c *consumer) command(name, payload string) {
	c.t.Helper()
	tok := c.c.Publish(c.base+TopicCmd+"/"+name, 1, false, payload)
	if !tok.WaitTimeout(5 * time.Second) {
		c.t.Fatalf("command %s: publish timed out", name)
	}
}

// waitUntil polls cond (under the consumer's lock) for up to 20 s.
func (c *consumer) waitUntil(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c.mu.Lock()
		ok := cond()
		c.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.t.Fatalf("consumer: timed out waiting for %s (next %d, %d events, replays %d, status %q, state seq %d)",
				what, c.next, len(c.raw), c.replays, c.status, c.state.Seq)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitSeq waits until every message up to n has been accepted.
func (c *consumer) waitSeq(n uint64) {
	c.t.Helper()
	c.waitUntil(fmt.Sprintf("seq %d", n), func() bool { return c.next > n })
}

func (c *consumer) snapshot() (raw, got []uint64, replays int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]uint64(nil), c.raw...), append([]uint64(nil), c.got...), c.replays
}

// seqRange returns from, from+1, …, to.
func seqRange(from, to uint64) []uint64 {
	var s []uint64
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

// gate is a TCP proxy in front of a broker that a test can shut, cutting
// the connections through it and refusing new ones, and open again.
type gate struct {
	ln       net.Listener
	upstream string
	mu       sync.Mutex
	open     bool
	conns    map[net.Conn]bool
	wg       sync.WaitGroup
}

func newGate(t testing.TB, upstream string) *gate {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{ln: ln, upstream: upstream, open: true, conns: map[net.Conn]bool{}}
	g.wg.Add(1)
	go g.serve()
	t.Cleanup(func() {
		ln.Close()
		g.set(false)
		g.wg.Wait()
	})
	return g
}

func (g *gate) url() string { return "tcp://" + g.ln.Addr().String() }

func (g *gate) serve() {
	defer g.wg.Done()
	for {
		c, err := g.ln.Accept()
		if err != nil {
			return
		}
		g.mu.Lock()
		open := g.open
		g.mu.Unlock()
		if !open {
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", g.upstream)
		if err != nil {
			c.Close()
			continue
		}
		g.mu.Lock()
		g.conns[c], g.conns[up] = true, true
		g.mu.Unlock()
		g.wg.Add(2)
		pipe := func(dst, src net.Conn) {
			defer g.wg.Done()
			io.Copy(dst, src)
			dst.Close()
			src.Close()
		}
		go pipe(up, c)
		go pipe(c, up)
	}
}

// set opens or shuts the gate; shutting cuts every connection through it.
func (g *gate) set(open bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open = open
	if !open {
		for c := range g.conns {
			c.Close()
		}
		clear(g.conns)
	}
}

// waitStats polls a Mirror's Stats until cond holds (20 s at most).
func waitStats(t testing.TB, m *Mirror, what string, cond func(Stats) bool) Stats {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := m.Stats()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("mirror: timed out waiting for %s: %+v", what, s)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// websocketBroker runs the embedded broker with only its WebSocket handler,
// mounted at /mqtt of a loopback HTTP server, and returns the ws:// URL.
func websocketBroker(t testing.TB) (string, *broker.Broker) {
	b, err := broker.Start(broker.Config{Users: testUsers})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mqtt", b.WebsocketHandler())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		b.Close()
		srv.Close()
	})
	return "ws://" + strings.TrimPrefix(srv.URL, "http://") + "/mqtt", b
}
