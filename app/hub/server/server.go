// Package server assembles and runs the club hub (boardd hub): the MQTT
// broker the boards publish into (its own embedded one by default, or
// the club's), the database (hub/store), the ingest of every board's
// stream (hub/ingest), the live broadcast of what it stored (hub/live) and
// the web server (hub/web).
//
// The embedded broker has three accounts: "board", which every board
// joins with; "viewer", which may only read; and the hub's own, never
// shown, the only one that sends boards commands. The board's and the
// viewer's passwords are made on the first start and kept in the state
// directory (hub-board-password, hub-viewer-password), so boards keep
// their URL across restarts. A board joins with the account's password
// and a key of its own (trust on first use, app/hub/enroll): once a name
// has joined, only its key joins under that name, and a board publishes
// only its own topics (sync/broker's Enrollment). ForgetBoard releases a
// name. The tournament director's password (hub-director-password) is
// kept there too: the events' pages (hub/web) ask for it before anything
// changes, and the hub sends a round's new_game commands to the boards
// through the broker as its own account (command.go).
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"boardd/app/catalog"
	"boardd/app/hub/enroll"
	"boardd/app/hub/ingest"
	"boardd/app/hub/live"
	"boardd/app/hub/store"
	"boardd/app/hub/web"
	"boardd/internal/lan"
	"boardd/sync/broker"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
	syncweb "boardd/sync/web"
)

// Defaults of Config.
const (
	// DefaultMQTT is where the hub's own broker listens: every interface,
	// since the boards join over the club's network; not 1883, which a
	// board's own broker takes on the same machine.
	DefaultMQTT = ":1884"
	// DefaultWeb is where the web server listens.
	DefaultWeb = ":8090"
	// DefaultStateDir is the state directory when neither Config.StateDir
	// nor $STATE_DIRECTORY (systemd's StateDirectory=) names one.
	DefaultStateDir = "boardd-hub-state"
	// BoardUser and ViewerUser are the embedded broker's accounts.
	BoardUser  = mqtt.HubBoardUser
	ViewerUser = "viewer"
)

// Config configures a hub.
type Config struct {
	// DB is a SQLite file or a postgres:// URL; empty is hub.db in StateDir.
	DB string
	// Broker is an existing broker (tcp://, mqtt://, ssl://, ws://…) with
	// the hub's user and password in it (mqtt://hub:PW@host:1883): that
	// user must be allowed to read the boards' topics and publish their
	// commands. Several URLs, comma-separated, are tried in order (the
	// next when one is gone; the account in one of them, or alike in
	// each). Empty runs the hub's own broker on MQTT.
	Broker string
	// BrokerTLS are the CA and client certificate files for an ssl:// or
	// wss:// Broker.
	BrokerTLS BrokerTLS
	// MQTT is the own broker's listen address (default DefaultMQTT).
	MQTT string
	// Web is the web server's listen address (default DefaultWeb); "off"
	// serves nothing.
	Web string
	// StateDir keeps the database and the passwords (default
	// $STATE_DIRECTORY, else DefaultStateDir).
	StateDir string
	// Prefix is the boards' first topic level (default "boardd").
	Prefix string
	// ViewersLogin makes every page and reading route need a login: the
	// viewers' password (hub-web-viewer-password in StateDir, made on
	// the first start with it, printed) or the director's. By default
	// viewers need none.
	ViewersLogin bool
	// Log receives the hub's log; nil discards it. BrokerLog receives the
	// own broker's (connections come and go: a quieter level suits it).
	Log, BrokerLog *slog.Logger
}

// BrokerTLS names PEM files for a TLS connection to Config.Broker.
type BrokerTLS struct {
	// CA signed the broker's certificate (empty: the system's CAs).
	CA string
	// Cert and Key are a client certificate and its key, for brokers
	// that want one.
	Cert, Key string
}

// Hub is a running hub.
type Hub struct {
	cfg    Config
	log    *slog.Logger
	store  *store.Store
	live   *live.Hub
	broker *broker.Broker
	http   *http.Server
	cancel context.CancelFunc
	wg     sync.WaitGroup
	errc   chan error
	once   sync.Once

	// BrokerAddr is the own broker's address ("" with Config.Broker);
	// WebAddr the web server's ("" when off).
	BrokerAddr, WebAddr string
	boardPW, viewerPW   string
	directorPW          string
	webViewerPW         string                // the viewers' web password with ViewersLogin
	cmd                 *mqttclient.Commander // sends the boards commands (a round's new_game)
}

// Start opens the database (migrating it), starts the broker, the ingest
// and the web server, and returns once they listen. Stop with Close.
func Start(ctx context.Context, cfg Config) (*Hub, error) {
	cfg.StateDir = StateDir(cfg.StateDir)
	if cfg.MQTT == "" {
		cfg.MQTT = DefaultMQTT
	}
	if cfg.Web == "" {
		cfg.Web = DefaultWeb
	}
	if cfg.Prefix == "" {
		cfg.Prefix = mqtt.DefaultPrefix
	}
	if cfg.DB == "" {
		cfg.DB = filepath.Join(cfg.StateDir, "hub.db")
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(cfg.StateDir, 0o755); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	h := &Hub{cfg: cfg, log: log, errc: make(chan error, 2)}
	ok := false
	defer func() {
		if !ok {
			h.Close()
		}
	}()
	var err error
	if h.store, err = store.Open(ctx, cfg.DB); err != nil {
		return nil, err
	}
	hubBroker, err := h.startBroker()
	if err != nil {
		return nil, err
	}
	h.live = live.New(live.Config{Lookup: catalog.Variant})
	if err := h.live.Load(ctx, h.store); err != nil {
		return nil, err
	}
	if h.directorPW, err = broker.KeptPassword(filepath.Join(cfg.StateDir, "hub-director-password")); err != nil {
		return nil, err
	}
	if cfg.ViewersLogin {
		if h.webViewerPW, err = broker.KeptPassword(filepath.Join(cfg.StateDir, "hub-web-viewer-password")); err != nil {
			return nil, err
		}
	}
	h.cmd = mqttclient.NewCommander(hubBroker, "hub-cmd")
	if cfg.Web != "off" {
		ln, err := syncweb.Listen(cfg.Web, syncweb.HTTPLimits{})
		if err != nil {
			return nil, fmt.Errorf("web server: listen on %s: %w (choose another address with --web ADDR; port 0 picks a free one)", cfg.Web, err)
		}
		h.WebAddr = ln.Addr().String()
		wh := web.New(h.store, log.With("part", "web"), web.WithLive(h.live), web.WithLookup(catalog.Variant))
		events := web.EventsConfig{Store: h.store, Log: log.With("part", "events"), Password: h.directorPW, Command: h.cmd.Do, ViewersLogin: cfg.ViewersLogin, ViewersPassword: h.webViewerPW}
		h.http = syncweb.HTTPServer(web.WithEvents(wh, events), ln, nil, log.With("part", "web"))
		h.http.RegisterOnShutdown(func() { wh.Close() }) // an event stream never goes idle by itself
		h.goRun(func() error {
			if err := h.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("web server: %w", err)
			}
			return nil
		})
	}
	ictx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	h.goRun(func() error {
		return ingest.Run(ictx, ingest.Config{Broker: hubBroker, Store: h.store, Live: h.live, Log: log.With("part", "ingest")})
	})
	h.goRun(func() error {
		// What other hubs on the database stored that this one has not
		// heard of reaches its viewers within a second.
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ictx.Done():
				return nil
			case <-t.C:
				_ = h.live.CatchUp(ictx) // the store away: the ingest says so
			}
		}
	})
	ok = true
	return h, nil
}

// StateDir is the hub's state directory: dir, else $STATE_DIRECTORY,
// else DefaultStateDir.
func StateDir(dir string) string {
	if dir == "" {
		dir = os.Getenv("STATE_DIRECTORY")
	}
	if dir == "" {
		dir = DefaultStateDir
	}
	return dir
}

// ForgetBoard releases a board name on the hub's own broker (state
// directory dir): the next board that joins under it is that board.
// The name's history in the database (db: a SQLite file or postgres://
// URL; empty is hub.db in dir) moves to name~<date>, so the board that
// joins next is stored from its first message (a board whose state was
// wiped numbers its messages from 1 again). It reports whether the name
// was enrolled and where its history went ("" when there was none). A
// running hub sees both at once; the board that held the name is
// refused at its next login.
func ForgetBoard(ctx context.Context, dir, db, name string) (enrolled bool, history string, err error) {
	dir = StateDir(dir)
	k, err := enroll.Open(dir, 0)
	if err != nil {
		return false, "", err
	}
	if db == "" {
		db = filepath.Join(dir, "hub.db")
	}
	if _, err := os.Stat(db); err == nil || strings.Contains(db, "://") { // not a SQLite file made now
		s, err := store.Open(ctx, db)
		if err != nil {
			return false, "", err
		}
		defer s.Close()
		if history, err = s.RetireBoard(ctx, name, time.Now()); err != nil {
			return false, "", err
		}
	}
	enrolled, err = k.Forget(name)
	return enrolled, history, err
}

// startBroker starts the own broker, or reads Config.Broker, and returns
// how the ingest connects.
func (h *Hub) startBroker() (mqttclient.Broker, error) {
	if h.cfg.Broker != "" {
		list, err := mqtt.ParseBrokers(h.cfg.Broker)
		if err != nil {
			return mqttclient.Broker{}, fmt.Errorf("--broker: %w; want scheme://user:password@host:port, like mqtt://hub:secret@club-server:1883 (several: comma-separated)", err)
		}
		t := h.cfg.BrokerTLS
		b := mqttclient.Broker{Prefix: h.cfg.Prefix, URL: list.String(), User: list.User, Password: list.Password, CA: t.CA, Cert: t.Cert, Key: t.Key}
		if _, err := mqtt.ClientOptions(b.URL, b.User, b.Password, mqtt.TLS{CAFile: t.CA, CertFile: t.Cert, KeyFile: t.Key}); err != nil {
			return mqttclient.Broker{}, fmt.Errorf("--broker: %w", err)
		}
		return b, nil
	}
	var err error
	if h.boardPW, err = broker.KeptPassword(filepath.Join(h.cfg.StateDir, "hub-board-password")); err != nil {
		return mqttclient.Broker{}, err
	}
	if h.viewerPW, err = broker.KeptPassword(filepath.Join(h.cfg.StateDir, "hub-viewer-password")); err != nil {
		return mqttclient.Broker{}, err
	}
	keys, err := enroll.Open(h.cfg.StateDir, ingest.DefaultMaxBoards)
	if err != nil {
		return mqttclient.Broker{}, err
	}
	self := broker.GeneratePassword()
	b, err := broker.Start(broker.Config{Listen: h.cfg.MQTT, Log: h.cfg.BrokerLog, Prefix: h.cfg.Prefix, Users: []broker.User{
		{Name: BoardUser, Password: h.boardPW, Boards: keys},
		{Name: ViewerUser, Password: h.viewerPW},
		{Name: "hub", Password: self, Write: true},
	}})
	if err != nil {
		return mqttclient.Broker{}, fmt.Errorf("%w (choose another address with --mqtt ADDR)", err)
	}
	h.broker, h.BrokerAddr = b, b.Addr()
	return mqttclient.Broker{URL: "tcp://" + lan.Dialable(b.Addr()), User: "hub", Password: self, Prefix: h.cfg.Prefix}, nil
}

func (h *Hub) goRun(f func() error) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if err := f(); err != nil {
			h.errc <- err
		}
	}()
}

// Err delivers the error that stopped a part of the hub (the ingest could
// not connect to the club's broker, the web server failed).
func (h *Hub) Err() <-chan error { return h.errc }

// JoinURL is the URL a board joins the hub with, password included
// (empty with an external broker, whose accounts the club keeps): on a
// wildcard address the first of this machine's LAN addresses.
func (h *Hub) JoinURL() string {
	if h.broker == nil {
		return ""
	}
	host := lan.Dialable(h.BrokerAddr)
	if urls := lan.Join("mqtt", h.BrokerAddr); len(urls) > 0 {
		if u, err := neturl.Parse(urls[0]); err == nil {
			host = u.Host
		}
	}
	u := neturl.URL{Scheme: "mqtt", User: neturl.UserPassword(BoardUser, h.boardPW), Host: host}
	return u.String()
}

// Greet prints where everything is; its first line holds the option a
// board joins with.
func (h *Hub) Greet(w io.Writer) {
	if j := h.JoinURL(); j != "" {
		fmt.Fprintf(w, "boards join with: boardd run --hub %s\n", j)
		fmt.Fprintf(w, "  MQTT broker:  listening on %s; boards: user %s, password %s; viewers (read only): user %s, password %s  (topics %s/<board>/#)\n",
			h.BrokerAddr, BoardUser, h.boardPW, ViewerUser, h.viewerPW, h.cfg.Prefix)
	} else {
		fmt.Fprintf(w, "hub: taking in the boards from %s (topics %s/<board>/#)\n", mqtt.RedactList(h.cfg.Broker), h.cfg.Prefix)
	}
	if h.WebAddr != "" {
		url := "http://" + lan.Dialable(h.WebAddr) + "/"
		if urls := lan.Join("http", h.WebAddr); len(urls) > 0 {
			url = urls[0]
		}
		fmt.Fprintf(w, "  web:          %s (every board; games at %sgames, JSON at %sapi/boards)\n", url, url, url)
		fmt.Fprintf(w, "  events:       %sevents  (tournament director's password %s)\n", url, h.directorPW)
		if h.cfg.ViewersLogin {
			fmt.Fprintf(w, "  viewers:      log in at %slogin with the password %s (--viewers-login; the director's logs in too)\n", url, h.webViewerPW)
		}
	}
	fmt.Fprintf(w, "  database:     %s (%s)\n", h.store, h.store.Engine())
	fmt.Fprintf(w, "  state:        %s\n", h.cfg.StateDir)
}

// Close stops the ingest, the web server and the broker, and closes the
// database.
func (h *Hub) Close() error {
	h.once.Do(func() {
		if h.cancel != nil {
			h.cancel()
		}
		if h.http != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			h.http.Shutdown(ctx)
			cancel()
		}
		h.wg.Wait()
		if h.cmd != nil {
			h.cmd.Close()
		}
		if h.broker != nil {
			h.broker.Close()
		}
		if h.store != nil {
			h.store.Close()
		}
	})
	return nil
}
