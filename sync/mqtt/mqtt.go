// Package mqtt mirrors a live board to an MQTT broker and carries out the
// commands that arrive there.
//
// A Mirror publishes under <prefix>/<board>/ (prefix "boardd" by default):
//
//	status          retained "online" / "paused" (the board cannot write
//	                to its disk) / "sensor_fault" (it cannot read its
//	                switches) / "offline" (the last will)
//	state           retained referee.State JSON, on every change (at most
//	                every 100 ms) and on every (re)connect
//	events          every referee.Message JSON, QoS 1, in Seq order
//	leds            retained referee.Lights JSON, on every change
//	games/<game>    retained PGN4 text of each finished game
//	cmd/<name>      commands to the board (subscribed), see referee.Commands
//	cmd/<name>/result  the referee.Reply to each command, QoS 1
//
// Nothing is lost: the Mirror publishes events one at a time and waits for
// the broker's acknowledgement before the next. While the broker is
// unreachable it waits, and after reconnecting it resumes at the first
// unacknowledged message, which it reads back from the board's durable
// stream (referee.Board.Subscribe). With Config.StateFile the position
// survives a restart of the daemon. Delivery is at least once: a
// subscriber drops messages whose Seq it has seen and asks for a replay
// (cmd/replay) when Seq jumps. docs/mqtt.md documents the topics and
// payloads with examples.
package mqtt

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"boardd/internal/printable"
	"boardd/referee"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// DefaultPrefix is the first topic level when Config.Prefix is empty.
const DefaultPrefix = "boardd"

// Topic leaves under <prefix>/<board>/.
const (
	TopicStatus = "status"
	TopicState  = "state"
	TopicEvents = "events"
	TopicLEDs   = "leds"
	TopicGames  = "games" // games/<game id>
	TopicCmd    = "cmd"   // cmd/<name>, replies on cmd/<name>/result
)

// Status payloads.
const (
	StatusOnline  = "online"
	StatusOffline = "offline"
	// StatusPaused: the board cannot write to its disk and takes no moves
	// until it can (the state's message says why).
	StatusPaused = "paused"
	// StatusSensorFault: the board cannot read its switches (a broken
	// 74HC165 chain) and sees no moves until it can (the state's
	// sensor_fault says why and what to check).
	StatusSensorFault = "sensor_fault"
)

// Config configures a Mirror.
type Config struct {
	// Broker is the broker's URL: tcp://host:1883, ssl://host:8883,
	// ws://host/mqtt or wss://host/mqtt.
	Broker string
	// Username and Password log in to the broker.
	Username string
	Password string
	// TLS is for ssl:// and wss:// brokers.
	TLS TLS
	// Prefix is the first topic level(s); empty means DefaultPrefix.
	Prefix string
	// Board is the board's id, one topic level: no '/', '+' or '#'.
	Board string
	// Source is the board to mirror.
	Source referee.Board
	// GamePGN4 returns the PGN4 text of a finished game; the Mirror
	// publishes it on games/<id> when the game's game_over message passes.
	// Nil publishes no games.
	GamePGN4 func(gameID string) (string, error)
	// Key is the board's own key for a club hub's board account
	// (Username HubBoardUser): the Mirror logs in with JoinPassword. A
	// broker that refuses that login is then tried with Password as it
	// is, and so on in turn, so a club broker's own account named
	// "board" works too.
	Key string
	// Refused, when set, says what to do when the broker refuses the
	// board's login (err is paho's, such as
	// packets.ErrorRefusedNotAuthorised); the Mirror logs it with the
	// refusal. Nil logs the refusal alone.
	Refused func(err error) string
	// StateFile keeps the last Seq the broker acknowledged, so a restarted
	// daemon resumes there. Empty keeps it in memory only: a restart then
	// starts with the board's current state and publishes only new events.
	StateFile string
	// Log receives the Mirror's log; nil discards it.
	Log *slog.Logger

	// ClientID defaults to DefaultClientID(Board). Two clients with one id
	// throw each other off the broker: reserve it for the board's user
	// (broker.Config.ReservedIDs; docs/mqtt.md for mosquitto).
	ClientID string
	// KeepAlive (default 30 s), ConnectTimeout (10 s), AckTimeout (how long
	// to wait for a PUBACK before sending again, 10 s) and
	// MaxReconnectInterval (the longest pause between attempts to reach
	// the broker, 10 s) tune the connection.
	KeepAlive            time.Duration
	ConnectTimeout       time.Duration
	AckTimeout           time.Duration
	MaxReconnectInterval time.Duration
}

// TLS names the files for an ssl:// or wss:// broker.
type TLS struct {
	// CAFile holds the PEM certificates of the authorities that may sign
	// the broker's certificate; empty trusts the system's.
	CAFile string
	// CertFile and KeyFile are a client certificate and its key (PEM), for
	// brokers that require one.
	CertFile string
	KeyFile  string
	// InsecureSkipVerify accepts any broker certificate. For tests only.
	InsecureSkipVerify bool
}

// Empty reports whether no TLS setting is made.
func (t TLS) Empty() bool { return t == TLS{} }

// Config builds the tls.Config. Errors name the file that was wrong.
func (t TLS) Config() (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: t.InsecureSkipVerify}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("mqtt TLS: CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("mqtt TLS: CA file %s holds no PEM certificate", t.CAFile)
		}
		c.RootCAs = pool
	}
	switch {
	case t.CertFile != "" && t.KeyFile != "":
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("mqtt TLS: client certificate %s with key %s: %w", t.CertFile, t.KeyFile, err)
		}
		c.Certificates = []tls.Certificate{cert}
	case t.CertFile != "":
		return nil, fmt.Errorf("mqtt TLS: client certificate %s needs its key file too", t.CertFile)
	case t.KeyFile != "":
		return nil, fmt.Errorf("mqtt TLS: key file %s needs its client certificate file too", t.KeyFile)
	}
	return c, nil
}

// ClientOptions returns paho client options for a broker URL, or a
// comma-separated list of them (tried in order; the client moves to the
// next when one is gone), with the credentials and, for ssl://, tls://,
// mqtts:// and wss:// URLs, the TLS settings. The Mirror and boardd's
// collect and watch commands use it.
//
// The client keeps no copy of its unacknowledged messages (paho's store
// is replaced by one that keeps nothing): whoever needs a message
// delivered sends it again, as the Mirror does. paho v1.5.1 resends
// stored messages after a reconnect even with a clean session, racing
// with new publications of the same packets.
func ClientOptions(broker, username, password string, t TLS) (*paho.ClientOptions, error) {
	// MQTT 3.1.1 only: paho's fall-back to 3.1 after a refusal logs in
	// a second time, and the second answer (a throttled "bad password",
	// or NATS closing the connection: it does not speak 3.1) hides the
	// first.
	o := paho.NewClientOptions().SetStore(nopStore{}).SetProtocolVersion(4)
	anySecure := false
	for _, one := range strings.Split(broker, ",") {
		one = strings.TrimSpace(one)
		u, err := url.Parse(one)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("mqtt broker URL %q: want scheme://host:port, like tcp://localhost:1883 or ssl://club.example:8883", one)
		}
		switch u.Scheme {
		case "tcp", "mqtt", "ws":
			if !t.Empty() {
				return nil, fmt.Errorf("mqtt broker URL %q: TLS files are set but the URL is not ssl:// or wss://", one)
			}
		case "ssl", "tls", "mqtts", "tcps", "wss":
			anySecure = true
		default:
			return nil, fmt.Errorf("mqtt broker URL %q: unknown scheme %q (want tcp, ssl, ws or wss)", one, u.Scheme)
		}
		o.AddBroker(one)
	}
	o.SetUsername(username)
	o.SetPassword(password)
	if anySecure {
		c, err := t.Config()
		if err != nil {
			return nil, err
		}
		o.SetTLSConfig(c)
	}
	return o, nil
}

// CheckID checks a board or game id that becomes one topic level (and a
// file name for collectors): 1 to 64 characters of UTF-8, no '/', '+',
// '#', no control or invisible characters (internal/printable: bidi
// overrides, zero-width spaces, …), not "." or "..", not starting with
// '$'. A NATS cluster (a league's broker) cannot carry some ids this
// allows: CheckNATS.
func CheckID(what, id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%s id is empty", what)
	case len(id) > 64:
		return fmt.Errorf("%s id %.20q… is longer than 64 bytes", what, id)
	case !utf8.ValidString(id):
		return fmt.Errorf("%s id %q is not UTF-8", what, id)
	case id == "." || id == "..":
		return fmt.Errorf("%s id %q is not a name", what, id)
	case strings.HasPrefix(id, "$"):
		return fmt.Errorf("%s id %q must not start with '$' (topics reserved by brokers)", what, id)
	}
	for _, r := range id {
		if r == '/' || r == '+' || r == '#' {
			return fmt.Errorf("%s id %q must not contain %q (one MQTT topic level)", what, id, r)
		}
	}
	if err := printable.Check(id); err != nil {
		return fmt.Errorf("%s id %q %w", what, id, err)
	}
	return nil
}

// CheckNATS says why a NATS cluster (the league's broker, docs/league.md)
// cannot carry id in a topic level, or nil: '.' and ' ' close the
// client's connection, a subscription with a level ">" is refused, a
// QoS 1 message on a topic with '@' never reaches a QoS 1 subscriber,
// and '*' is NATS's other wildcard (app/hub/league's
// TestBoardIDsNATSCarries). Mosquitto, the board's own broker and a club
// hub's carry them; a board named so is told at start when it mirrors to
// another broker.
func CheckNATS(what, id string) error {
	if i := strings.IndexAny(id, natsReserved); i >= 0 {
		return fmt.Errorf("%s id %q contains %q, which a NATS cluster (a league's broker) cannot carry in a topic (use '-' or '_')", what, id, id[i])
	}
	return nil
}

// natsReserved are the characters NATS (2.9) refuses or loses in a
// topic level, and its wildcards.
const natsReserved = ". *>@"

func checkPrefix(p string) error {
	if p == "" || strings.ContainsAny(p, "+#\x00") || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains(p, "//") || strings.HasPrefix(p, "$") {
		return fmt.Errorf("mqtt prefix %q: want topic levels without '+', '#', empty levels or a leading '$', like %q", p, DefaultPrefix)
	}
	return nil
}

// Topic returns <prefix>/<board>/<leaf>.
func Topic(prefix, board, leaf string) string {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return prefix + "/" + board + "/" + leaf
}

// SplitTopic splits a topic <prefix>/<board>/<leaf> into the board and
// the leaf ("events", "games/<id>", "cmd/replay/result"): the reading of
// a board's topics that collectors and the hub share. ok is false for a
// topic outside prefix or without a leaf; the board id is not checked
// (CheckID does that).
func SplitTopic(prefix, topic string) (board, leaf string, ok bool) {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	rest, ok := strings.CutPrefix(topic, prefix+"/")
	if !ok {
		return "", "", false
	}
	board, leaf, ok = strings.Cut(rest, "/")
	if !ok || leaf == "" {
		return "", "", false
	}
	return board, leaf, true
}

// Stats are a Mirror's counters, for /metrics.
type Stats struct {
	// Connected tells whether the broker connection is up now and the
	// command subscription live: a connection whose subscription the
	// broker refused is not connected for commands, and the Mirror keeps
	// subscribing again until it is.
	Connected bool
	// Acked is the last Seq the broker acknowledged; Latest the board's
	// last Seq; Queue = Latest - Acked, the messages still to publish.
	Acked  uint64
	Latest uint64
	Queue  uint64
	// Published counts events acknowledged since Start (replays excluded).
	Published uint64
	// Connects counts connections made, Reconnects those after the first.
	Connects   uint64
	Reconnects uint64
	// Commands counts commands answered; CommandsDropped those dropped
	// because too many were waiting; CommandsRepeated those that came
	// again with an id already answered (answered again, not carried out).
	Commands         uint64
	CommandsDropped  uint64
	CommandsRepeated uint64
}

// ErrRefusedIDRejected is the login refusal "identifier rejected"
// (CONNACK 2), as Config.Refused receives it: a club hub's broker answers
// it to a board whose name joined with another key.
var ErrRefusedIDRejected = packets.ErrorRefusedIDRejected

// HubBoardUser is the account boards join a club hub's own broker with
// (boardd hub prints it in its join URL, mqtt://board:PASSWORD@host:port).
const HubBoardUser = "board"

// JoinPassword is the password a board logs in to a club hub's broker
// with: for the hub's board account (HubBoardUser) the account's
// password, ":" and the board's own key, which binds the board's name to
// it on its first join; for any other account (a club broker with an
// account per board) the password as it is.
func JoinPassword(user, password, key string) string {
	if user != HubBoardUser || key == "" {
		return password
	}
	return password + ":" + key
}

// DefaultClientID is the mirror's MQTT client id for a board: "boardd-<board>".
func DefaultClientID(board string) string { return "boardd-" + board }

// Mirror publishes a board to a broker; see the package documentation.
type Mirror struct {
	cfg    Config
	log    *slog.Logger
	src    referee.Board
	t      topics
	client paho.Client

	// send publishes and waits for the acknowledgement; isOpen reports
	// whether the connection is up. Tests replace both.
	send   func(ctx context.Context, topic string, retain bool, payload []byte) error
	isOpen func() bool

	ctx       context.Context
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	done      chan struct{}
	lifeMu    sync.Mutex // onConnect against Close

	pubMu sync.Mutex // one writer on events at a time: the pump or a replay

	snapMu     sync.Mutex // guards lastState, lastLights
	lastState  []byte
	lastLights []byte
	lastStatus string
	kick       chan struct{} // republish state and leds now, even if unchanged

	wake chan struct{} // the connection came up
	cmds chan inbound  // commands waiting for the command goroutine

	answered answered // replies to the last commands, by id (the command goroutine's)

	subscribed atomic.Bool // the command subscription is live on this connection

	withKey      atomic.Bool // the next login sends the key (Config.Key)
	refMu        sync.Mutex  // refusedLogin's memory
	refID        bool        // the client id was rejected since the last connection
	refLastID    bool        // the last refusal logged was of the client id
	refAt        time.Time   // when it was logged
	acked        atomic.Uint64
	published    atomic.Uint64
	connects     atomic.Uint64
	commandsDone atomic.Uint64
	dropped      atomic.Uint64
	repeated     atomic.Uint64

	// owned by the pump goroutine
	persisted   uint64
	persistedAt time.Time
}

type topics struct {
	status, state, events, leds, games, cmd string // games and cmd end in '/'
}

type inbound struct {
	topic    string
	payload  []byte
	retained bool
}

// Defaults of the Config durations.
const (
	defaultKeepAlive      = 30 * time.Second
	defaultConnectTimeout = 10 * time.Second
	defaultAckTimeout     = 10 * time.Second
	defaultMaxReconnect   = 10 * time.Second
	// stateInterval is the shortest time between two state publications.
	stateInterval = 100 * time.Millisecond
	// commandQueue is how many commands may wait; more are dropped.
	commandQueue = 64
	// doTimeout bounds one Board.Do.
	doTimeout = 30 * time.Second
)

// newMirror validates cfg and builds a Mirror that is not connected.
func newMirror(cfg Config) (*Mirror, error) {
	if cfg.Source == nil {
		return nil, errors.New("mqtt: no board to mirror (Config.Source is nil)")
	}
	if err := CheckID("mqtt: board", cfg.Board); err != nil {
		return nil, err
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if err := checkPrefix(cfg.Prefix); err != nil {
		return nil, err
	}
	if cfg.ClientID == "" {
		cfg.ClientID = DefaultClientID(cfg.Board)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.KeepAlive, defaultKeepAlive)
	def(&cfg.ConnectTimeout, defaultConnectTimeout)
	def(&cfg.AckTimeout, defaultAckTimeout)
	def(&cfg.MaxReconnectInterval, defaultMaxReconnect)
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	base := cfg.Prefix + "/" + cfg.Board + "/"
	m := &Mirror{
		cfg: cfg,
		log: log.With("board", cfg.Board),
		src: cfg.Source,
		t: topics{
			status: base + TopicStatus,
			state:  base + TopicState,
			events: base + TopicEvents,
			leds:   base + TopicLEDs,
			games:  base + TopicGames + "/",
			cmd:    base + TopicCmd + "/",
		},
		done: make(chan struct{}),
		kick: make(chan struct{}, 1),
		wake: make(chan struct{}, 1),
		cmds: make(chan inbound, commandQueue),
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m, nil
}

// Start checks cfg, starts connecting to the broker in the background
// (retrying until it succeeds) and mirrors cfg.Source until ctx ends or
// Close is called. Errors are about the configuration: an unreachable
// broker is not one.
func Start(ctx context.Context, cfg Config) (*Mirror, error) {
	m, err := newMirror(cfg)
	if err != nil {
		return nil, err
	}
	cfg = m.cfg
	opts, err := ClientOptions(cfg.Broker, cfg.Username, cfg.Password, cfg.TLS)
	if err != nil {
		return nil, err
	}
	retry := min(cfg.MaxReconnectInterval, 2*time.Second)
	if m.keyed() {
		m.withKey.Store(true)
		opts.SetCredentialsProvider(func() (string, string) {
			if m.withKey.Load() {
				return cfg.Username, JoinPassword(cfg.Username, cfg.Password, cfg.Key)
			}
			return cfg.Username, cfg.Password
		})
	}
	opts.SetClientID(cfg.ClientID).
		SetCleanSession(true). // the Mirror resends what was not acknowledged itself
		SetAutoReconnect(true).
		SetConnectRetry(true).
		SetConnectRetryInterval(retry).
		SetMaxReconnectInterval(cfg.MaxReconnectInterval).
		SetConnectTimeout(cfg.ConnectTimeout).
		SetKeepAlive(cfg.KeepAlive).
		SetWriteTimeout(cfg.AckTimeout).
		SetOrderMatters(true).
		SetWill(m.t.status, StatusOffline, 1, true).
		SetOnConnectHandler(m.onConnect).
		SetConnectionNotificationHandler(func(_ paho.Client, n paho.ConnectionNotification) {
			if f, ok := n.(paho.ConnectionNotificationFailed); ok {
				m.refusedLogin(f.Reason)
			}
		}).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			m.subscribed.Store(false)
			m.log.Warn("mqtt: connection to the broker lost; reconnecting", "broker", cfg.Broker, "error", err)
		})
	m.client = paho.NewClient(opts)
	m.isOpen = m.client.IsConnectionOpen
	m.send = m.publish

	m.acked.Store(m.startSeq())
	m.persisted = m.acked.Load()
	m.persistedAt = time.Now()

	m.client.Connect() // completes in the background: ConnectRetry
	m.wg.Add(3)
	go m.pump()
	go m.snapshots()
	go m.commands()
	go func() {
		select {
		case <-ctx.Done():
			m.Close()
		case <-m.done:
		}
	}()
	return m, nil
}

// refusedLogin logs a refused login once a minute per reason, with what
// to do (Config.Refused). Once the broker rejected the board's client id
// (a hub that knows the board's name by another key), a "not authorised"
// is the broker throttling the retries and adds nothing, until the board
// is let in.
func (m *Mirror) refusedLogin(err error) {
	idRejected := errors.Is(err, packets.ErrorRefusedIDRejected)
	if !idRejected && !errors.Is(err, packets.ErrorRefusedNotAuthorised) && !errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) {
		return // the broker is unreachable: retried quietly, as always
	}
	if m.keyed() && !idRejected && !m.refusedID() {
		// The key or the plain password next; a refusal is told once
		// both were refused.
		if m.withKey.Load() {
			m.withKey.Store(false)
			return
		}
		m.withKey.Store(true)
	}
	m.refMu.Lock()
	defer m.refMu.Unlock()
	now := time.Now()
	switch {
	case !idRejected && m.refID:
		return
	case idRejected == m.refLastID && !m.refAt.IsZero() && now.Sub(m.refAt) < time.Minute:
		return
	}
	m.refID = m.refID || idRejected
	m.refLastID, m.refAt = idRejected, now
	what := ""
	if m.cfg.Refused != nil {
		what = m.cfg.Refused(err)
	}
	m.log.Error("mqtt: the broker refused the board's login; trying again", "broker", m.cfg.Broker, "error", err, "what_to_do", what)
}

// keyed reports whether the Mirror logs in with a board's key.
func (m *Mirror) keyed() bool {
	return m.cfg.Key != "" && JoinPassword(m.cfg.Username, m.cfg.Password, m.cfg.Key) != m.cfg.Password
}

// refusedID reports whether the broker rejected the board's client id
// since the last connection.
func (m *Mirror) refusedID() bool {
	m.refMu.Lock()
	defer m.refMu.Unlock()
	return m.refID
}

// publish publishes with QoS 1 and waits for the broker's PUBACK.
func (m *Mirror) publish(ctx context.Context, topic string, retain bool, payload []byte) error {
	return m.wait(ctx, m.client.Publish(topic, 1, retain, payload), "publish on "+topic)
}

// wait waits for a paho token, at most AckTimeout.
func (m *Mirror) wait(ctx context.Context, tok paho.Token, what string) error {
	timer := time.NewTimer(m.cfg.AckTimeout)
	defer timer.Stop()
	select {
	case <-tok.Done():
		if err := tok.Error(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	case <-timer.C:
		return fmt.Errorf("%s: no answer from the broker within %v", what, m.cfg.AckTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// onConnect runs on every (re)connection: it subscribes to the commands
// and republishes the status, state and lights the broker may have lost.
func (m *Mirror) onConnect(c paho.Client) {
	m.lifeMu.Lock() // not while Close says goodbye
	defer m.lifeMu.Unlock()
	if m.ctx.Err() != nil {
		return
	}
	n := m.connects.Add(1)
	m.log.Info("mqtt: connected to the broker", "broker", m.cfg.Broker, "connection", n)
	m.refMu.Lock()
	m.refID, m.refAt = false, time.Time{}
	m.refMu.Unlock()
	m.subscribed.Store(false)
	if err := m.subscribeCommands(c); err != nil && m.ctx.Err() == nil {
		m.log.Error("mqtt: cannot subscribe to commands; trying again", "error", err)
		m.wg.Add(1) // under lifeMu after the ctx check: Close has not reached wg.Wait
		go m.resubscribe(c, n)
	}
	if err := m.publish(m.ctx, m.t.status, true, []byte(m.status(m.src.State()))); err != nil && m.ctx.Err() == nil {
		m.log.Warn("mqtt: cannot publish status", "error", err)
	}
	m.poke(m.kick)
	m.poke(m.wake)
}

// subscribeCommands subscribes to <prefix>/<board>/cmd/+ and checks the
// broker granted it: a refusal comes back in the SUBACK, not as an error.
//
// The subscription is QoS 0. The session is clean, so no broker keeps a
// board's commands while it is away whatever the QoS; over a live
// connection QoS 1 adds nothing but, on a NATS cluster, a JetStream
// consumer that stalls or vanishes with its node while the connection
// stays up (docs/league.md), and the board would hear no command. A QoS 0
// subscription is a plain one that every node carries. A command lost on
// the way is sent again by its sender (mqttclient re-sends until it has a
// reply; the hub asks for a replay again), and one that arrives twice is
// answered once (answered).
func (m *Mirror) subscribeCommands(c paho.Client) error {
	filter := m.t.cmd + "+"
	tok := c.Subscribe(filter, 0, func(_ paho.Client, msg paho.Message) {
		select {
		case m.cmds <- inbound{topic: msg.Topic(), payload: msg.Payload(), retained: msg.Retained()}:
		default:
			m.dropped.Add(1)
			m.log.Warn("mqtt: too many commands waiting; dropped one", "topic", msg.Topic())
		}
	})
	if err := m.wait(m.ctx, tok, "subscribe to "+filter); err != nil {
		return err
	}
	if st, ok := tok.(*paho.SubscribeToken); ok {
		if code, ok := st.Result()[filter]; !ok || code >= 0x80 {
			return fmt.Errorf("subscribe to %s: the broker refused it (SUBACK code %#x): check the board user's ACL", filter, code)
		}
	}
	m.subscribed.Store(true)
	return nil
}

// resubscribe retries the command subscription of connection number conn
// until it is granted, the connection goes (the next onConnect subscribes
// again) or the Mirror stops.
func (m *Mirror) resubscribe(c paho.Client, conn uint64) {
	defer m.wg.Done()
	wait := 100 * time.Millisecond
	for try := 2; ; try++ {
		if !m.sleep(wait) || m.connects.Load() != conn || !c.IsConnectionOpen() {
			return
		}
		err := m.subscribeCommands(c)
		if err == nil {
			m.log.Info("mqtt: subscribed to commands", "try", try)
			return
		}
		if m.ctx.Err() != nil {
			return
		}
		m.log.Warn("mqtt: cannot subscribe to commands; trying again", "try", try, "error", err)
		wait = min(2*wait, m.cfg.MaxReconnectInterval)
	}
}

func (m *Mirror) poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Stats returns the Mirror's counters.
func (m *Mirror) Stats() Stats {
	s := Stats{
		Connected:        m.isOpen != nil && m.isOpen() && m.subscribed.Load(),
		Acked:            m.acked.Load(),
		Latest:           m.src.State().Seq,
		Published:        m.published.Load(),
		Connects:         m.connects.Load(),
		Commands:         m.commandsDone.Load(),
		CommandsDropped:  m.dropped.Load(),
		CommandsRepeated: m.repeated.Load(),
	}
	if s.Connects > 0 {
		s.Reconnects = s.Connects - 1
	}
	if s.Latest > s.Acked {
		s.Queue = s.Latest - s.Acked
	}
	return s
}

// Close publishes "offline", disconnects and stops the Mirror's
// goroutines, keeping the acknowledged position in the state file.
func (m *Mirror) Close() error {
	m.closeOnce.Do(func() {
		m.cancel()
		// A barrier, not a critical section: wait for a running onConnect
		// to finish; later ones see the cancel and give up.
		m.lifeMu.Lock()
		m.lifeMu.Unlock() //lint:ignore SA2001 the empty section is the point
		m.wg.Wait()
		if m.client != nil {
			if m.client.IsConnectionOpen() {
				tok := m.client.Publish(m.t.status, 1, true, StatusOffline)
				tok.WaitTimeout(2 * time.Second)
			}
			m.client.Disconnect(250)
		}
		close(m.done)
	})
	return nil
}

// sleep waits d or until the Mirror stops; it reports whether it still runs.
func (m *Mirror) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-m.ctx.Done():
		return false
	}
}

// nopStore is a paho.Store that keeps nothing.
type nopStore struct{}

func (nopStore) Open()                             {}
func (nopStore) Put(string, packets.ControlPacket) {}
func (nopStore) Get(string) packets.ControlPacket  { return nil }
func (nopStore) All() []string                     { return nil }
func (nopStore) Del(string)                        {}
func (nopStore) Close()                            {}
func (nopStore) Reset()                            {}
