// Package broker runs the MQTT broker embedded in boardd, so a board
// needs no server of its own: displays, phones and a club server connect
// to the board directly, over TCP (port 1883 by convention) or over
// WebSocket on the daemon's HTTP port (WebsocketHandler, mounted at /mqtt).
//
// It wraps github.com/mochi-mqtt/server/v2 with the one policy boardd
// needs: clients log in with a user name and password from Config.Users;
// users with Write may publish (the board's mirror, a club server sending
// commands), the others and anonymous clients (AllowAnonymous) may only
// subscribe. Wrong passwords are throttled per address (Config.AuthDelay)
// and the board's own client id is reserved for it (Config.ReservedIDs). Retained messages never expire, so a display that connects
// late still finds the board's state and its finished games.
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
	"sync/atomic"
	"time"

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
	// counted.
	AuthDelay time.Duration
}

// User is an account of the broker.
type User struct {
	Name     string
	Password string
	// Write lets the user publish on any topic, commands included
	// (<prefix>/<board>/cmd/...). Without it the user may subscribe to
	// everything and publish nothing.
	Write bool
}

// Broker is a running embedded broker.
type Broker struct {
	srv    *mqtt.Server
	ln     net.Listener
	ws     *wsListener
	log    *slog.Logger
	auth   *auth
	closed atomic.Bool
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
	log = slog.New(brokerLog{log.Handler()})
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
	hook.failures = throttle.New(throttle.Config{Delay: cfg.AuthDelay})
	caps := mqtt.NewDefaultServerCapabilities()
	caps.MaximumMessageExpiryInterval = 0         // retained state and games stay until replaced
	caps.MaximumSessionExpiryInterval = 24 * 3600 // a forgotten persistent session goes after a day
	caps.MaximumPacketSize = MaxPacketBytes
	srv := mqtt.New(&mqtt.Options{
		Capabilities: caps,
		Logger:       log,
	})
	if err := srv.AddHook(hook, nil); err != nil {
		return nil, fmt.Errorf("mqtt broker: %w", err)
	}
	if err := srv.AddHook(newIDGuard(), nil); err != nil {
		return nil, fmt.Errorf("mqtt broker: %w", err)
	}
	if err := srv.AddHook(&takeoverGuard{srv: srv}, nil); err != nil {
		return nil, fmt.Errorf("mqtt broker: %w", err)
	}
	b := &Broker{srv: srv, log: log, ws: &wsListener{}, auth: hook}
	if cfg.Listen != "" {
		ln, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			return nil, fmt.Errorf("mqtt broker: listen on %s: %w (is another broker running? set another mqtt listen address)", cfg.Listen, err)
		}
		b.ln = ln
		if err := srv.AddListener(listeners.NewNet("tcp", ln)); err != nil {
			ln.Close()
			return nil, fmt.Errorf("mqtt broker: %w", err)
		}
	}
	if err := srv.AddListener(b.ws); err != nil {
		if b.ln != nil {
			b.ln.Close()
		}
		return nil, fmt.Errorf("mqtt broker: %w", err)
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return nil, fmt.Errorf("mqtt broker: %w", err)
	}
	return b, nil
}

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
	return b.srv.Close()
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
}

func newAuth(users []User, anon bool) (*auth, error) {
	a := &auth{users: map[string]User{}, anon: anon}
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
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck
}

// OnConnectAuthenticate accepts a known user with the right password, or
// an anonymous client when allowed. An address that failed recently is
// refused before its password is looked at (see Config.AuthDelay). A
// reserved client id is refused to everyone but its user. A client that
// may not write loses its last will, which would be a publish.
func (a *auth) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	name, pass := string(pk.Connect.Username), pk.Connect.Password
	if owner, ok := a.reserved[cl.ID]; ok && name != owner {
		a.log.Warn("mqtt broker: client id reserved for the board refused", "client_id", cl.ID, "user", name, "remote", cl.Net.Remote)
		return false
	}
	if name == "" && len(pass) == 0 {
		if a.anon {
			atomic.StoreUint32(&cl.Properties.Will.Flag, 0)
		}
		return a.anon
	}
	u, known := a.users[name]
	ok, wait := a.failures.Attempt(cl.Net.Remote, func() bool {
		want := a.dummy
		if known {
			want = sha256.Sum256([]byte(u.Password))
		}
		got := sha256.Sum256(pass)
		return subtle.ConstantTimeCompare(got[:], want[:]) == 1 && known
	})
	switch {
	case wait > 0:
		a.log.Debug("mqtt broker: CONNECT refused unchecked: too many failures from this address", "remote", cl.Net.Remote, "retry_after", wait.Round(time.Second))
	case !ok:
		a.log.Warn("mqtt broker: wrong user name or password", "user", name, "remote", cl.Net.Remote)
	case !u.Write:
		atomic.StoreUint32(&cl.Properties.Will.Flag, 0)
	}
	return ok
}

// OnACLCheck lets everybody read and only users with Write publish.
func (a *auth) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	if !write {
		return true
	}
	u, ok := a.users[string(cl.Properties.Username)]
	return ok && u.Write
}
