// Package server assembles and runs the club hub (boardd hub): the MQTT
// broker the boards publish into (its own embedded one by default, or
// the club's), the database (hub/store), the ingest of every board's
// stream (hub/ingest), the live broadcast of what it stored (hub/live) and
// the web server (hub/web).
//
// The embedded broker has three accounts: "board", which every board
// joins with and which may publish; "viewer", which may only read; and
// the hub's own, never shown. The board's and the viewer's passwords are
// made on the first start and kept in the state directory
// (hub-board-password, hub-viewer-password), so boards keep their URL
// across restarts.
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
	"sync"
	"time"

	"boardd/app/catalog"
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
	BoardUser  = "board"
	ViewerUser = "viewer"
)

// Config configures a hub.
type Config struct {
	// DB is a SQLite file or a postgres:// URL; empty is hub.db in StateDir.
	DB string
	// Broker is an existing broker (tcp://, mqtt://, ssl://, ws://…) with
	// the hub's user and password in it (mqtt://hub:PW@host:1883): that
	// user must be allowed to read the boards' topics and publish their
	// cmd/replay. Empty runs the hub's own broker on MQTT.
	Broker string
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
	// Log receives the hub's log; nil discards it. BrokerLog receives the
	// own broker's (connections come and go: a quieter level suits it).
	Log, BrokerLog *slog.Logger
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
}

// Start opens the database (migrating it), starts the broker, the ingest
// and the web server, and returns once they listen. Stop with Close.
func Start(ctx context.Context, cfg Config) (*Hub, error) {
	if cfg.StateDir == "" {
		cfg.StateDir = os.Getenv("STATE_DIRECTORY")
	}
	if cfg.StateDir == "" {
		cfg.StateDir = DefaultStateDir
	}
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
	if cfg.Web != "off" {
		ln, err := syncweb.Listen(cfg.Web, syncweb.HTTPLimits{})
		if err != nil {
			return nil, fmt.Errorf("web server: listen on %s: %w (choose another address with --web ADDR; port 0 picks a free one)", cfg.Web, err)
		}
		h.WebAddr = ln.Addr().String()
		wh := web.New(h.store, log.With("part", "web"), web.WithLive(h.live), web.WithLookup(catalog.Variant))
		h.http = syncweb.HTTPServer(wh, ln, nil, log.With("part", "web"))
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
	ok = true
	return h, nil
}

// startBroker starts the own broker, or reads Config.Broker, and returns
// how the ingest connects.
func (h *Hub) startBroker() (mqttclient.Broker, error) {
	if h.cfg.Broker != "" {
		u, err := neturl.Parse(h.cfg.Broker)
		if err != nil || u.Host == "" {
			return mqttclient.Broker{}, fmt.Errorf("--broker %q: want scheme://user:password@host:port, like mqtt://hub:secret@club-server:1883", h.cfg.Broker)
		}
		b := mqttclient.Broker{Prefix: h.cfg.Prefix}
		if u.User != nil {
			b.User = u.User.Username()
			b.Password, _ = u.User.Password()
			u.User = nil
		}
		b.URL = u.String()
		return b, nil
	}
	var err error
	if h.boardPW, err = broker.KeptPassword(filepath.Join(h.cfg.StateDir, "hub-board-password")); err != nil {
		return mqttclient.Broker{}, err
	}
	if h.viewerPW, err = broker.KeptPassword(filepath.Join(h.cfg.StateDir, "hub-viewer-password")); err != nil {
		return mqttclient.Broker{}, err
	}
	self := broker.GeneratePassword()
	b, err := broker.Start(broker.Config{Listen: h.cfg.MQTT, Log: h.cfg.BrokerLog, Users: []broker.User{
		{Name: BoardUser, Password: h.boardPW, Write: true},
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
		fmt.Fprintf(w, "hub: taking in the boards from %s (topics %s/<board>/#)\n", redact(h.cfg.Broker), h.cfg.Prefix)
	}
	if h.WebAddr != "" {
		url := "http://" + lan.Dialable(h.WebAddr) + "/"
		if urls := lan.Join("http", h.WebAddr); len(urls) > 0 {
			url = urls[0]
		}
		fmt.Fprintf(w, "  web:          %s (every board; games at %sgames, JSON at %sapi/boards)\n", url, url, url)
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
		if h.broker != nil {
			h.broker.Close()
		}
		if h.store != nil {
			h.store.Close()
		}
	})
	return nil
}

// redact hides a URL's password.
func redact(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "the broker"
	}
	return u.Redacted()
}
