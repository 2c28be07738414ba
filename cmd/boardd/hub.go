package main

import (
	"fmt"
	"io"
	"log/slog"

	"boardd/app/hub/server"
	"boardd/sync/mqtt"
)

func init() {
	register(command{name: "hub", summary: "the club's server: every board's games in one database (hub [--db PATH|postgres://…] [--broker URL])", run: runHub})
}

func runHub(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("hub", stderr)
	var cfg server.Config
	fs.StringVar(&cfg.DB, "db", "", "the database: a SQLite file or postgres://user:password@host/db (default STATE/hub.db)")
	fs.StringVar(&cfg.Broker, "broker", "", "an existing MQTT broker with the hub's account, mqtt://user:password@host:1883 (default: the hub's own on --mqtt)")
	fs.StringVar(&cfg.MQTT, "mqtt", server.DefaultMQTT, "where the hub's own MQTT broker listens for the boards")
	fs.StringVar(&cfg.Web, "web", server.DefaultWeb, `where the web server listens ("off": none)`)
	fs.StringVar(&cfg.StateDir, "state", "", "the state directory: database and passwords (default $STATE_DIRECTORY or "+server.DefaultStateDir+")")
	fs.StringVar(&cfg.Prefix, "prefix", mqtt.DefaultPrefix, "first topic level of the boards")
	fs.BoolVar(&cfg.ViewersLogin, "viewers-login", false, "the events' pages need the tournament director's login for reading too (default: viewers need none)")
	verbose := fs.Bool("v", false, "log every stored message and the broker's connections")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd hub [--db PATH|postgres://…] [--broker URL] [--web ADDR] [--mqtt ADDR] [--state DIR] [--viewers-login]")
		fmt.Fprintln(stderr, "Runs the club's hub until interrupted: it stores every board's games in its database.")
		fs.PrintDefaults()
	}
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	level, brokerLevel := slog.LevelInfo, slog.LevelWarn
	if *verbose {
		level, brokerLevel = slog.LevelDebug, slog.LevelDebug
	}
	cfg.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	cfg.BrokerLog = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: brokerLevel})).With("part", "broker")
	ctx, stop := untilInterrupted()
	defer stop()
	h, err := server.Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer h.Close()
	h.Greet(stdout)
	select {
	case <-ctx.Done():
		return nil
	case err := <-h.Err():
		return err
	}
}
