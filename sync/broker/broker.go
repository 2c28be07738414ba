// Package broker runs the MQTT broker embedded in boardd, so a board
// needs no server of its own: displays, phones and a club server connect
// to the board directly, over TCP (port 1883 by convention) or over
// WebSocket on the daemon's HTTP port (WebsocketHandler, mounted at /mqtt).
//
// It wraps github.com/mochi-mqtt/server/v2 with the one policy boardd
// needs: clients log in with a user name and password from Config.Users;
// users with Write may publish (the board's mirror, a club server sending
// commands), the others and anonymous clients (AllowAnonymous) may only
// subscribe, and only writers see the broker's own $SYS topics. Wrong
// passwords are throttled per address and in total (Config.AuthDelay,
// internal/throttle), and the board's own client id is reserved for it
// (Config.ReservedIDs). A board account (User.Boards, the club hub's)
// binds each board name to the key it first joined with and lets each
// board publish only its own topics (Enrollment, boards.go). Retained
// messages never expire, so a display that
// connects late still finds the board's state and its finished games.
//
// Nobody takes the broker down (docs/security.md): connections are capped
// per address and in total (internal/connlimit, with the WebSocket clients
// counted alike), a client must send its whole CONNECT within
// Config.ConnectTimeout and in at most Config.MaxConnectBytes, a client
// that may not publish sends packets of at most MaxReaderPacketBytes, a
// client id belongs to the account whose client holds it (another
// account's CONNECT with it is refused), and what a persistent session
// holds while its client is away is bounded per kind of account
// (SessionLimits; anonymous clients keep none).
//
// A mochi v2.7.9 bug is worked around here (ids.go): one packet-id table
// for both directions of a connection made subscriptions fail at random
// while retained messages were on their way to the client. Another is
// not: its MQTT 5 flow control reorders QoS 1 messages once a client's
// Receive Maximum is used up (docs/mqtt.md, "Known limits").
//
// A club that runs its own broker bridges this one into it (see
// docs/mqtt.md for a mosquitto bridge configuration), or points the
// board's mirror at the club broker and leaves this one off.
package broker

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"boardd/internal/connlimit"
	"boardd/internal/throttle"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
)

// Config configures the embedded broker.
type Config struct {
	// Listen is the TCP address for MQTT clients, such as ":1883" or
	// "127.0.0.1:1883"; a port of 0 picks a free one (see Broker.Addr).
	// Empty means no TCP listener (WebSocket only).
	Listen string
	// Users may log in. Names must be unique and non-empty.
	Users []User
	// AllowAnonymous lets clients without a user name connect, read-only.
	// By default a client without credentials is refused.
	AllowAnonymous bool
	// Log receives the broker's log; nil discards it.
	Log *slog.Logger
	// ReservedIDs maps a client id to the one user who may connect with
	// it: the board's mirror ("boardd-<board>") is kept from being pushed
	// off its own broker by anyone connecting with its id.
	ReservedIDs map[string]string
	// AuthDelay is how long an address must wait after a failed CONNECT
	// before its next one is checked; it doubles with each failure in a
	// row, up to a minute (default 1 s). Anonymous CONNECTs are not
	// counted. Past 30 failures a minute from all addresses together,
	// only addresses that logged in before (and this machine) are
	// checked: see internal/throttle.
	AuthDelay time.Duration
	// MaxConns caps the MQTT connections open at once, over TCP and
	// WebSocket together (default DefaultMaxConns, or less when the
	// process's file limit is low: connlimit.TotalFor). Connections that
	// have not logged in yet make room for new ones, the oldest first.
	MaxConns int
	// MaxConnsPerAddress caps the MQTT connections of one client address
	// (default DefaultMaxConnsPerAddress).
	MaxConnsPerAddress int
	// ConnectTimeout is how long a new connection may take to send its
	// CONNECT (default DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// MaxConnectBytes bounds the CONNECT packet, read before the client
	// is known (default DefaultMaxConnectBytes).
	MaxConnectBytes int
	// ReaderSessions and WriterSessions bound the persistent sessions of
	// users without and with Write (defaults DefaultReaderSessions and
	// DefaultWriterSessions). Anonymous clients keep no session.
	ReaderSessions, WriterSessions SessionLimits
	// Origins are the web origins ("https://club.example.org") whose pages
	// may open MQTT over WebSocket besides the daemon's own; a request
	// without an Origin header (not from a browser) is let through to the
	// MQTT login.
	Origins []string
	// Prefix is the boards' first topic level(s), for a board account's
	// topics (User.Boards); empty is "boardd".
	Prefix string
}

// User is an account of the broker.
type User struct {
	Name     string
	Password string
	// Write lets the user publish on any topic, commands included
	// (<prefix>/<board>/cmd/...). Without it the user may subscribe to
	// everything and publish nothing.
	Write bool
	// Boards, when set, makes this the account boards join with, each
	// client one board bound to its own key: see Enrollment. Write is
	// then ignored (a board writes its own topics only). At most one
	// user has Boards.
	Boards Enrollment
}

// Broker is a running embedded broker.
type Broker struct {
	srv      *mqtt.Server
	ln       net.Listener
	ws       *wsListener
	log      *slog.Logger
	auth     *auth
	conns    *connlimit.Limiter // MQTT connections, TCP and WebSocket
	sessions *sessions
	cfg      Config // with the defaults filled in
	closed   atomic.Bool
}

// wsListenerID is the mochi listener that WebSocket clients belong to.
const wsListenerID = "ws"

// MaxPacketBytes bounds an MQTT packet a client may send (a command is at
// most 16 KiB; a finished game's PGN4 rarely passes 100 KiB).
const MaxPacketBytes = 1 << 20

// Start validates cfg, opens the TCP listener and starts serving.
func Start(cfg Config) (*Broker, error) {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = slog.New(newBrokerLog(log.Handler()))
	hook, err := newAuth(cfg.Users, cfg.AllowAnonymous)
	if err != nil {
		return nil, err
	}
	for id, user := range cfg.ReservedIDs {
		if _, ok := hook.users[user]; !ok {
			return nil, fmt.Errorf("mqtt broker: client id %q is reserved for user %q, who is not in Config.Users", id, user)
		}
	}
	hook.reserved, hook.log = cfg.ReservedIDs, log
	hook.prefix = strings.TrimSuffix(cfg.Prefix, "/")
	if hook.prefix == "" {
		hook.prefix = "boardd"
	}
	hook.failures = throttle.New(throttle.Config{Delay: cfg.AuthDelay})
	cfg = withDefaults(cfg)
	caps := mqtt.NewDefaultServerCapabilities()
	caps.MaximumMessageExpiryInterval = 0 // retained state and games stay until replaced
	caps.MaximumSessionExpiryInterval = uint32(max(cfg.ReaderSessions.Expiry, cfg.WriterSessions.Expiry) / time.Second)
	caps.MaximumPacketSize = MaxPacketBytes
	caps.MaximumInflight = 1024            // messages unacknowledged by a connected client
	caps.MaximumClientWritesPending = 1024 // each connection's queue, allocated when it comes (mochi's 8192: 64 KiB a connection)
	srv := mqtt.New(&mqtt.Options{
		Capabilities: caps,
		Logger:       log,
	})
	hook.srv = srv
	hook.sessions = newSessions(srv, func(user string) (SessionLimits, bool) {
		u, ok := hook.users[user]
		switch {
		case !ok:
			return SessionLimits{}, false // anonymous
		case u.Write || u.Boards != nil:
			return cfg.WriterSessions, true
		}
		return cfg.ReaderSessions, true
	})
	b := &Broker{srv: srv, log: log, ws: &wsListener{}, auth: hook, sessions: hook.sessions, cfg: cfg,
		conns: connlimit.New(connlimit.Config{PerAddress: cfg.MaxConnsPerAddress, Total: cfg.MaxConns})}
	if err := srv.AddHook(hook, nil); err != nil {
		hook.sessions.close()
		return nil, fmt.Errorf("mqtt broker: %w", err)
	}
	for _, h := range []mqtt.Hook{newIDGuard(), &takeoverGuard{srv: srv}, hook.sessions} {
		if err := srv.AddHook(h, nil); err != nil {
			hook.sessions.close()
			return nil, fmt.Errorf("mqtt broker: %w", err)
		}
	}
	fail := func(err error) (*Broker, error) {
		if b.ln != nil {
			b.ln.Close()
		}
		hook.sessions.close()
		return nil, fmt.Errorf("mqtt broker: %w", err)
	}
	if cfg.Listen != "" {
		ln, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			hook.sessions.close()
			return nil, fmt.Errorf("mqtt broker: listen on %s: %w (is another broker running? set another mqtt listen address)", cfg.Listen, err)
		}
		b.ln = ln
		capped := &frameListener{Listener: connlimit.Listen(ln, b.conns), connectMax: cfg.MaxConnectBytes, timeout: cfg.ConnectTimeout}
		if err := srv.AddListener(listeners.NewNet("tcp", capped)); err != nil {
			return fail(err)
		}
	}
	if err := srv.AddListener(b.ws); err != nil {
		return fail(err)
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return fail(err)
	}
	return b, nil
}

// withDefaults fills in the limits cfg leaves at zero.
func withDefaults(cfg Config) Config {
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = connlimit.TotalFor(DefaultMaxConns, 0.25, 0)
	}
	if cfg.MaxConnsPerAddress <= 0 {
		cfg.MaxConnsPerAddress = DefaultMaxConnsPerAddress
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.MaxConnectBytes <= 0 {
		cfg.MaxConnectBytes = DefaultMaxConnectBytes
	}
	cfg.ReaderSessions = cfg.ReaderSessions.orDefault(DefaultReaderSessions)
	cfg.WriterSessions = cfg.WriterSessions.orDefault(DefaultWriterSessions)
	return cfg
}

// ConnCounts are the MQTT connections open now and those refused or
// closed to make room (over TCP and WebSocket).
func (b *Broker) ConnCounts() connlimit.Counts { return b.conns.Counts() }

// Addr returns the address the TCP listener is bound to ("127.0.0.1:1883",
// "[::]:40123"), or "" when there is none.
func (b *Broker) Addr() string {
	if b.ln == nil {
		return ""
	}
	return b.ln.Addr().String()
}

// AuthCounts counts the CONNECTs with a user name: checked, failed (of
// those) and refused unchecked because the address had to wait.
func (b *Broker) AuthCounts() throttle.Counts { return b.auth.failures.Counts() }

// Close disconnects every client and stops the listeners; the TCP port is
// free when it returns. Retained messages are lost: the board's mirror
// republishes its state when it reconnects.
//
// The listeners are closed first with a client list taken under one read
// lock: mochi-mqtt v2.7.9's own way (Server.Close through
// Clients.GetByListener) takes that read lock twice, and a client
// disconnecting in between asks for the write lock, so all of them waited
// for ever (seen once in about fifty test runs). Server.Close then finds
// the listeners closed and only stops the hooks.
func (b *Broker) Close() error {
	if !b.closed.CompareAndSwap(false, true) {
		return nil
	}
	b.srv.Listeners.CloseAll(func(listener string) {
		for _, cl := range b.srv.Clients.GetAll() {
			if cl.Net.Listener == listener && !cl.Closed() {
				_ = b.srv.DisconnectClient(cl, packets.ErrServerShuttingDown)
			}
		}
	})
	err := b.srv.Close()
	b.sessions.close()
	return err
}

// GeneratePassword returns a random password of 20 URL-safe characters
// (120 bits), for the accounts boardd creates on its first start.
func GeneratePassword() string {
	var buf [15]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic("broker: no randomness: " + err.Error()) // crypto/rand does not fail on Linux
	}
	return base64.RawURLEncoding.EncodeToString(buf[:])
}

// KeptPassword returns the password kept in file, or, when the file is
// missing or empty, a new one (GeneratePassword) that it keeps there
// (mode 0600) for the next start: the accounts a board or a hub makes on
// its first start.
func KeptPassword(file string) (string, error) {
	if b, err := os.ReadFile(file); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	pw := GeneratePassword()
	if err := os.WriteFile(file, []byte(pw+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("keeping a generated password: %w", err)
	}
	return pw, nil
}

// auth is the mochi hook that checks passwords and allows writes.
type auth struct {
	mqtt.HookBase
	users    map[string]User
	anon     bool
	dummy    [32]byte          // compared against when the user is unknown, so timing says nothing
	reserved map[string]string // client id → the only user who may use it
	failures *throttle.Limiter // failed CONNECTs per address
	log      *slog.Logger
	srv      *mqtt.Server
	sessions *sessions
	boards   Enrollment // the board account's, or nil
	prefix   string     // the boards' topics' first level(s)
	boardOK  boardLogins

	idMu    sync.Mutex
	pending map[string]idClaim // client ids being connected, not yet in srv.Clients
}

// idClaim is a client id taken by a CONNECT that mochi has not yet added
// to its table of clients.
type idClaim struct {
	user string
	cl   *mqtt.Client
	at   time.Time
}

func newAuth(users []User, anon bool) (*auth, error) {
	a := &auth{users: map[string]User{}, anon: anon, pending: map[string]idClaim{}}
	for i, u := range users {
		switch {
		case u.Name == "":
			return nil, fmt.Errorf("mqtt broker: user %d has no name", i+1)
		case u.Password == "":
			return nil, fmt.Errorf("mqtt broker: user %q has no password (broker.GeneratePassword makes one)", u.Name)
		case strings.ContainsAny(u.Name, ":\x00"):
			return nil, fmt.Errorf("mqtt broker: user name %q must not contain ':' or NUL", u.Name)
		}
		if _, dup := a.users[u.Name]; dup {
			return nil, fmt.Errorf("mqtt broker: user %q is listed twice", u.Name)
		}
		if u.Boards != nil {
			if a.boards != nil {
				return nil, fmt.Errorf("mqtt broker: user %q is a second board account; one takes every board", u.Name)
			}
			a.boards = u.Boards
		}
		a.users[u.Name] = u
	}
	if len(a.users) == 0 && !anon {
		return nil, errors.New("mqtt broker: no users and anonymous access off: nobody could connect")
	}
	if _, err := rand.Read(a.dummy[:]); err != nil {
		return nil, err
	}
	return a, nil
}

// ID implements mqtt.Hook.
func (a *auth) ID() string { return "boardd-auth" }

// Provides implements mqtt.Hook.
func (a *auth) Provides(b byte) bool {
	return b == mqtt.OnConnect || b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck || b == mqtt.OnSessionEstablished
}

// OnConnectAuthenticate accepts a known user with the right password, or
// an anonymous client when allowed. An address that failed recently is
// refused before its password is looked at (see Config.AuthDelay). A
// reserved client id is refused to everyone but its user, and a client id
// that a client of another account holds (connected, or a session kept
// for it) is refused too. A client that may not write loses its last
// will, which would be a publish. An anonymous client keeps no session.
func (a *auth) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	name, pass := string(pk.Connect.Username), pk.Connect.Password
	if owner, ok := a.reserved[cl.ID]; ok && name != owner {
		a.log.Warn("mqtt broker: client id reserved for the board refused", "client_id", cl.ID, "user", name, "remote", cl.Net.Remote)
		return false
	}
	if u, ok := a.users[name]; ok && u.Boards != nil {
		// Password and key were checked (and throttled) in OnConnect.
		if !a.boardOK.take(cl) {
			return false
		}
		if !a.claim(cl, name) {
			// Another account took the board's id before the board
			// enrolled: it is the board's now. The board's next attempt
			// finds the id free.
			if old, ok := a.srv.Clients.Get(cl.ID); ok && string(old.Properties.Username) != name {
				_ = a.srv.DisconnectClient(old, packets.ErrSessionTakenOver)
			}
			return false
		}
		lim, _ := a.sessions.limits(name)
		capSessionExpiry(cl, lim)
		loggedIn(cl.Net.Conn, true)
		return true
	}
	if a.heldByBoard(cl.ID) {
		a.log.Warn("mqtt broker: client id of an enrolled board refused", "client_id", cl.ID, "user", name, "remote", cl.Net.Remote)
		return false
	}
	if name == "" && len(pass) == 0 {
		if !a.anon || !a.claim(cl, "") {
			return false
		}
		atomic.StoreUint32(&cl.Properties.Will.Flag, 0)
		keepNoSession(cl)
		loggedIn(cl.Net.Conn, false)
		return true
	}
	u, known := a.users[name]
	ok, wait := a.failures.Attempt(cl.Net.Remote, func() bool {
		want := string(a.dummy[:])
		if known {
			want = u.Password
		}
		return samePassword(string(pass), want) && known
	})
	switch {
	case wait > 0:
		a.log.Debug("mqtt broker: CONNECT refused unchecked: too many failures from this address", "remote", cl.Net.Remote, "retry_after", wait.Round(time.Second))
	case !ok:
		a.log.Warn("mqtt broker: wrong user name or password", "user", name, "remote", cl.Net.Remote)
	case !a.claim(cl, name):
		return false
	default:
		if !u.Write {
			atomic.StoreUint32(&cl.Properties.Will.Flag, 0)
		}
		lim, _ := a.sessions.limits(name)
		capSessionExpiry(cl, lim)
		loggedIn(cl.Net.Conn, u.Write)
	}
	return ok
}

// claim takes cl's client id for user, unless a client of another
// account holds it: connected, away with its session kept, or being
// connected now.
func (a *auth) claim(cl *mqtt.Client, user string) bool {
	a.idMu.Lock()
	defer a.idMu.Unlock()
	now := time.Now()
	if old, ok := a.srv.Clients.Get(cl.ID); ok && old != cl && string(old.Properties.Username) != user {
		a.log.Warn("mqtt broker: client id held by another account refused", "client_id", cl.ID, "user", user, "holder", string(old.Properties.Username), "remote", cl.Net.Remote)
		return false
	}
	if p, ok := a.pending[cl.ID]; ok && p.cl != cl && p.user != user && now.Sub(p.at) < 2*DefaultConnectTimeout {
		a.log.Warn("mqtt broker: client id being connected by another account refused", "client_id", cl.ID, "user", user, "remote", cl.Net.Remote)
		return false
	}
	if len(a.pending) >= 1024 {
		for id, p := range a.pending {
			if now.Sub(p.at) >= 2*DefaultConnectTimeout {
				delete(a.pending, id)
			}
		}
	}
	a.pending[cl.ID] = idClaim{user: user, cl: cl, at: now}
	return true
}

// OnSessionEstablished drops the claim: mochi's table of clients has cl.
func (a *auth) OnSessionEstablished(cl *mqtt.Client, _ packets.Packet) {
	a.idMu.Lock()
	if p, ok := a.pending[cl.ID]; ok && p.cl == cl {
		delete(a.pending, cl.ID)
	}
	a.idMu.Unlock()
}

// OnACLCheck lets only users with Write publish and read the broker's
// own $SYS topics; everybody reads the rest, but an away client's session
// keeps no more messages than its account's SessionLimits.
func (a *auth) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	u, ok := a.users[string(cl.Properties.Username)]
	if ok && u.Boards != nil {
		return a.boardACL(cl, topic, write)
	}
	writer := ok && u.Write
	switch {
	case write:
		return writer
	case strings.HasPrefix(topic, "$SYS") && !writer:
		return false
	}
	return a.sessions.keeps(cl)
}

// samePassword compares two passwords in constant time (of their hashes).
func samePassword(got, want string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}
