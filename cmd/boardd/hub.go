package main

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"boardd/app/hub/importer"
	"boardd/app/hub/server"
	"boardd/app/hub/store"
	"boardd/sync/mqtt"
)

func init() {
	register(command{name: "hub", summary: "the club's server: every board's games in one database (hub [--db PATH|postgres://…] [--broker URL])", run: runHub})
}

func runHub(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "forget":
			return runHubForget(args[1:], stdout, stderr)
		case "import":
			return runHubImport(args[1:], stdout, stderr)
		}
	}
	fs := newFlags("hub", stderr)
	var cfg server.Config
	fs.StringVar(&cfg.DB, "db", "", "the database: a SQLite file or postgres://user:password@host/db (default STATE/hub.db)")
	fs.StringVar(&cfg.Broker, "broker", "", "an existing MQTT broker with the hub's account, mqtt://user:password@host:1883; several comma-separated, tried in order (default: the hub's own on --mqtt)")
	fs.StringVar(&cfg.BrokerTLS.CA, "ca", "", "PEM file of the CA that signed an ssl:// or wss:// --broker's certificate (default: the system's)")
	fs.StringVar(&cfg.BrokerTLS.Cert, "cert", "", "PEM client certificate, for a --broker that wants one")
	fs.StringVar(&cfg.BrokerTLS.Key, "key", "", "PEM key of the client certificate")
	fs.StringVar(&cfg.MQTT, "mqtt", server.DefaultMQTT, "where the hub's own MQTT broker listens for the boards")
	fs.StringVar(&cfg.Web, "web", server.DefaultWeb, `where the web server listens ("off": none)`)
	fs.StringVar(&cfg.StateDir, "state", "", "the state directory: database and passwords (default $STATE_DIRECTORY or "+server.DefaultStateDir+")")
	fs.StringVar(&cfg.Prefix, "prefix", mqtt.DefaultPrefix, "first topic level of the boards")
	fs.BoolVar(&cfg.ViewersLogin, "viewers-login", false, "every page and reading route needs a login: the viewers' password (made on the first start, kept in the state directory, printed) or the director's (default: viewers need none)")
	verbose := fs.Bool("v", false, "log every stored message and the broker's connections")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd hub [--db PATH|postgres://…] [--broker URL[,URL…] [--ca FILE]] [--web ADDR] [--mqtt ADDR] [--state DIR] [--viewers-login]")
		fmt.Fprintln(stderr, "       boardd hub forget [--state DIR] [--db …] NAME   release a board name for the next board that joins under it")
		fmt.Fprintln(stderr, "       boardd hub import [--db PATH|postgres://…] [--state DIR] DIR   store the finished games of every PGN4 file under DIR")
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

// runHubForget releases a board name on the hub's own broker.
func runHubForget(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("hub forget", stderr)
	state := fs.String("state", "", "the hub's state directory (default $STATE_DIRECTORY or "+server.DefaultStateDir+")")
	db := fs.String("db", "", "the hub's database: a SQLite file or postgres://user:password@host/db (default STATE/hub.db)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: boardd hub forget [--state DIR] [--db PATH|postgres://…] NAME", errUsage)
	}
	name := fs.Arg(0)
	ctx, stop := untilInterrupted()
	defer stop()
	found, history, err := server.ForgetBoard(ctx, *state, *db, name)
	if err != nil {
		return err
	}
	if history != "" {
		fmt.Fprintf(stdout, "board %q: its games and messages so far are kept as board %q\n", name, history)
	}
	if !found && history == "" {
		return fmt.Errorf("board %q has not joined the hub whose state directory is %s (nothing to forget; --state DIR names another)", name, server.StateDir(*state))
	}
	fmt.Fprintf(stdout, "board %q forgotten: the next board that joins under that name is board %s, stored from its first message\n", name, name)
	return nil
}

// runHubImport reads the PGN4 files under a directory into the hub's
// database.
func runHubImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("hub import", stderr)
	db := fs.String("db", "", "the hub's database: a SQLite file or postgres://user:password@host/db (default STATE/hub.db)")
	state := fs.String("state", "", "the hub's state directory (default $STATE_DIRECTORY or "+server.DefaultStateDir+")")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: boardd hub import [--db PATH|postgres://…] [--state DIR] DIR (DIR/<board>/<game>.pgn4, as boardd collect writes, or a board's games/ directory)", errUsage)
	}
	if *db == "" {
		*db = filepath.Join(server.StateDir(*state), "hub.db")
	}
	ctx, stop := untilInterrupted()
	defer stop()
	s, err := store.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer s.Close()
	sum, err := importer.Dir(ctx, s, fs.Arg(0), stdout)
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		return fmt.Errorf("%d of the files or games could not be imported (each named above); the others are stored", sum.Failed)
	}
	return nil
}
