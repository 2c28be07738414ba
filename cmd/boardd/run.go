package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	gosync "sync"
	"syscall"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"boardd/configs"
	"boardd/internal/lan"
	"boardd/leds"
	"boardd/leds/ledreg"
	"boardd/referee"
	"boardd/referee/clock"
	"boardd/rules/variants"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
	"boardd/sensors/sim"
	"boardd/sync/archive"
	"boardd/sync/broker"
	"boardd/sync/mqtt"
	"boardd/sync/web"
)

func init() {
	register(command{name: "run", summary: "run the board: switches, referee, LEDs, archive, MQTT and the web display (no config: a simulated board on localhost)", run: runDaemon})
}

func runDaemon(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	cfgPath := fs.String("config", "", "config file (configs/boardd.yaml documents it); none: a simulated board, embedded broker and web display on localhost")
	stdin := fs.Bool("stdin", true, "with the sim driver: read moves and switch lines from standard input")
	draw := fs.Bool("draw", isTerminal(os.Stdout), "draw the board, whose turn it is and what the LEDs show in the terminal on every change (default: when standard output is a terminal and leds.driver is not term)")
	over := runFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*cfgPath) // the checks of boardd config check
	if err != nil {
		return err
	}
	if err := over.apply(&cfg); err != nil {
		return err
	}
	if err := checkPorts(cfg); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d, err := startDaemon(ctx, cfg, stdout, stderr)
	if err != nil {
		return err
	}
	if *stdin && d.simBoard != nil {
		go d.readSim(ctx, os.Stdin, stdout)
	}
	if *draw && ledreg.Lookup(cfg.LEDs.Driver).Draw == nil { // not already drawn by the LED driver
		go showBoard(ctx, d.live, stdout, true)
	}
	daemon.SdNotify(false, daemon.SdNotifyReady)
	d.watchdog(ctx)
	daemon.SdNotify(false, daemon.SdNotifyStopping)
	return d.Close()
}

// boardDaemon is a running board with everything around it.
type boardDaemon struct {
	cfg      configs.Daemon
	log      *slog.Logger
	live     *referee.Live
	rec      *archive.Recorder
	stream   *archive.Stream
	scanner  *sensors.Scanner
	simBoard *sim.Board
	ledsOut  *ledreg.Out
	broker   *broker.Broker
	mirror   *mqtt.Mirror
	webSrv   *web.Server
	http     *http.Server
	metrics  *metrics
	stop     context.CancelFunc
	wg       gosync.WaitGroup
	closers  []func()
	logOut   io.Writer

	// Addresses actually bound (ports of 0 resolved).
	WebAddr, MQTTAddr, SimAddr string
}

// startDaemon builds and starts the board from cfg. It prints the
// addresses and credentials a newcomer needs to stdout.
func startDaemon(parent context.Context, cfg configs.Daemon, stdout, stderr io.Writer) (_ *boardDaemon, err error) {
	ctx, cancel := context.WithCancel(parent)
	d := &boardDaemon{cfg: cfg, stop: cancel, log: newLogger(cfg, stderr), logOut: stderr}
	for _, msg := range cfg.LEDs.Deprecated() {
		d.log.Warn("config: " + msg)
	}
	before := listState(cfg.StateDir)
	defer func() {
		if err != nil {
			d.Close()
			undoStart(cfg.StateDir, before)
		}
	}()
	if err := os.MkdirAll(cfg.StateDir, 0o755); err != nil {
		return nil, fmt.Errorf("state_dir: %w", err)
	}
	d.metrics = newMetrics()
	// Numbering goes on above every durable record of it: the journals
	// (read before Resume repairs anything), the stream, and what MQTT
	// acknowledged, so a lost or damaged stream file never brings a Seq
	// round again.
	seqFloor := max(archive.HighSeq(cfg.StateDir), mqtt.AckedSeq(filepath.Join(cfg.StateDir, "mqtt-acked"), cfg.Board))

	// The game: resumed from the journal, or new.
	d.rec = &archive.Recorder{Dir: cfg.StateDir, Board: cfg.Board, Lookup: loadVariant, Site: cfg.Game.Tags["Site"]}
	resumed, rerr := d.rec.Resume()
	if errors.Is(rerr, syscall.ENOSPC) || errors.Is(rerr, syscall.EDQUOT) {
		// No room to repair the journal: a new game would lose the old one.
		return nil, fmt.Errorf("state_dir %s is full: %w; free space and start again", cfg.StateDir, rerr)
	}
	if rerr != nil {
		d.log.Warn("the game in progress could not be restored", "err", rerr)
	}
	var warn string
	if d.stream, warn, err = archive.OpenStream(filepath.Join(cfg.StateDir, "stream.jsonl"), 0); err != nil {
		return nil, err
	}
	d.closers = append(d.closers, func() { d.stream.Close() })
	if warn != "" {
		d.log.Warn(warn)
	}

	// The switches.
	src, closeSrc, err := sensorreg.Open(&cfg, sensorreg.Env{Now: time.Now, Start: startOccupancy(cfg.BoardShape)})
	if err != nil {
		return nil, err
	}
	if closeSrc != nil {
		d.closers = append(d.closers, closeSrc)
	}
	board := cfg.Squares()
	m, err := sensors.SourceMap(src, board, cfg.Sensors.Wiring)
	if err != nil {
		return nil, err
	}
	if sb, ok := src.(*sim.Board); ok {
		d.simBoard = sb
		if resumed != nil { // the simulated pieces stayed where the game left them
			sb.SetOccupied(resumed.Game.Position().Occupancy())
		} else if occ, ok := variantStart(board, cfg.Game.Variant, cfg.Game.Start); ok {
			sb.SetOccupied(occ) // set up for the configured game
		}
	}
	touches := make(chan sensors.Event, 64)
	d.scanner, err = sensors.NewScanner(src, m, sensors.Config{
		Period:   time.Duration(float64(time.Second) / cfg.Sensors.Rate),
		Debounce: cfg.Sensors.Debounce,
		OnEvent: func(e sensors.Event) {
			d.metrics.sensorEvent(e)
			select {
			case touches <- e:
			case <-ctx.Done():
			}
		},
	})
	if err != nil {
		return nil, err
	}
	if err := d.scanner.Step(time.Now()); err != nil { // the first scan: what is on the board now
		// Start blind rather than not at all: the players see the sensor
		// fault, and the pieces are read once the switches can be.
		d.log.Error("the switches cannot be read at start: the board starts as a sensor fault", "err", err)
	}
	occ, _ := d.scanner.Snapshot()
	if d.simBoard != nil {
		occ = d.simBoard.Occupied() // no debounce history yet; the sim knows
	}

	// The LEDs.
	if d.ledsOut, err = ledreg.Open(cfg.LEDs, board, ledreg.Env{Term: stdout}); err != nil {
		return nil, err
	}

	// The referee.
	lc := referee.LiveConfig{Board: cfg.Board, Lookup: loadFitting(board), Variant: cfg.Game.Variant, Start: cfg.Game.Start,
		Tags: gameTags(cfg), Occupancy: occ, Quiet: cfg.Sensors.Quiet, Log: d.stream, SeqFloor: seqFloor, Logger: d.log,
		Sinks: []func(referee.Message) error{d.rec.Record, d.metrics.message}, Frame: d.ledsOut.Show,
		Suspect: d.scanner.ReportSuspect, Unsuspect: d.scanner.ClearFault}
	lc.Takeback = map[string]referee.TakebackMode{"off": referee.TakebackOff, "on": referee.TakebackOn, "ask": referee.TakebackAsk}[cfg.Game.Takeback]
	if len(cfg.LEDs.Colours) > 0 {
		pal := referee.DefaultPalette
		for name, hex := range cfg.LEDs.Colours {
			c, _ := configs.ParseColor(hex) // checked with the config
			if err := pal.SetColor(name, leds.Color{R: c[0], G: c[1], B: c[2]}); err != nil {
				return nil, fmt.Errorf("leds.colours: %v", err)
			}
		}
		lc.Palette = &pal
	}
	if c := cfg.Game.Clock; c != nil {
		lc.Clock = &clock.Control{Base: c.Base, Increment: c.Increment, Delay: c.Delay}
	}
	if resumed != nil {
		lc.Game, lc.GameID, lc.Tags, lc.Clocks = resumed.Game, resumed.ID, resumed.Tags, resumed.Clocks
		if resumed.Warning != "" {
			d.log.Warn(resumed.Warning)
		}
		d.log.Info("resumed the game in progress", "game", resumed.ID, "turns", len(resumed.Game.Records()))
	}
	if d.live, err = referee.NewLive(lc); err != nil {
		return nil, fmt.Errorf("board_shape %s, game.variant %s: %w", cfg.BoardShape, cfg.Game.Variant, err)
	}
	d.goRun("referee", func() error { return d.live.Run(ctx) })
	d.startBots(ctx)
	d.goRun("touches", func() error {
		for {
			select {
			case e := <-touches:
				select {
				case d.live.Touches() <- e:
				case <-ctx.Done():
					return nil
				}
			case <-ctx.Done():
				return nil
			}
		}
	})
	d.goRun("scanner", func() error {
		for {
			err := d.scanner.Run(ctx)
			if err == nil || ctx.Err() != nil {
				return nil
			}
			if blind, _ := d.scanner.Unreadable(); !blind { // once raised, the referee has said it
				d.log.Error("switch scan failed; retrying in 1 s", "err", err)
			}
			d.metrics.scanErrors.Add(1)
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
				return nil
			}
		}
	})
	if d.simBoard != nil && cfg.Sensors.Listen != "" {
		ln, err := net.Listen(network(cfg.Sensors.Listen), cfg.Sensors.Listen)
		if err != nil {
			return nil, fmt.Errorf("sensors.listen: %w", err)
		}
		d.SimAddr = ln.Addr().String()
		d.goRun("sim control", func() error { return sim.Serve(ctx, ln, d.simBoard) })
	}

	// MQTT: the embedded broker unless an external one is configured.
	if err := d.startMQTT(ctx); err != nil {
		return nil, err
	}

	// The web display, MQTT over WebSocket and /metrics on one port.
	if err := d.startWeb(ctx); err != nil {
		return nil, err
	}
	if err := d.startSpeech(ctx); err != nil {
		return nil, err
	}
	d.greet(stdout)
	return d, nil
}

// listState names what the state directory holds (nil if it does not
// exist).
func listState(dir string) map[string]bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	return names
}

// undoStart removes what a failed start wrote into the state directory:
// the files it created (a new game's journal, an empty stream, generated
// passwords) and the directory itself if it made it and it is empty.
// Existing files stay, as does a directory with files in it (a damaged
// journal moved to journals/ is kept).
func undoStart(dir string, before map[string]bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !before[e.Name()] {
			os.Remove(filepath.Join(dir, e.Name())) // a directory only if empty
		}
	}
	if before == nil {
		os.Remove(dir)
	}
}

// dialable turns a listening address into one to connect to: an
// unspecified host (":1883", "0.0.0.0:1883", "[::]:1883") is this machine.
func dialable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

func network(addr string) string {
	if strings.HasPrefix(addr, "/") || strings.HasPrefix(addr, "@") {
		return "unix"
	}
	return "tcp"
}

// goRun runs f on its own goroutine until the daemon stops.
func (d *boardDaemon) goRun(name string, f func() error) {
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		if err := f(); err != nil {
			d.log.Error(name+" stopped", "err", err)
		}
	}()
}

// secret returns the configured value, or one generated once and kept in
// the state directory (mode 0600).
func (d *boardDaemon) secret(configured, file string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	path := filepath.Join(d.cfg.StateDir, file)
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	pw := broker.GeneratePassword()
	if err := os.WriteFile(path, []byte(pw+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("keeping a generated password: %w", err)
	}
	return pw, nil
}

func (d *boardDaemon) startMQTT(ctx context.Context) error {
	c := d.cfg.MQTT
	if c.Disabled {
		return nil
	}
	url, user, pass := c.Broker, c.Username, c.Password
	if url == "" {
		users := make([]broker.User, 0, len(c.Embedded.Users)+2)
		for _, u := range c.Embedded.Users {
			users = append(users, broker.User{Name: u.Name, Password: u.Password, Write: u.Write})
		}
		if len(users) == 0 {
			pw, err := d.secret("", "mqtt-password")
			if err != nil {
				return err
			}
			users = append(users, broker.User{Name: "boardd", Password: pw, Write: true})
		}
		// The board's own account, never shown: it publishes the mirror.
		self := broker.GeneratePassword()
		users = append(users, broker.User{Name: "boardd-mirror-" + d.cfg.Board, Password: self, Write: true})
		b, err := broker.Start(broker.Config{Listen: c.Embedded.Listen, Users: users, AllowAnonymous: c.Embedded.AllowAnonymous, Log: d.quietLog("broker"),
			ReservedIDs: map[string]string{mqtt.DefaultClientID(d.cfg.Board): "boardd-mirror-" + d.cfg.Board}})
		if err != nil {
			return fmt.Errorf("mqtt.embedded: %w", err)
		}
		d.broker, d.MQTTAddr = b, b.Addr()
		url, user, pass = "tcp://"+dialable(b.Addr()), "boardd-mirror-"+d.cfg.Board, self
	}
	m, err := mqtt.Start(ctx, mqtt.Config{Broker: url, Username: user, Password: pass, Prefix: c.Prefix, Board: d.cfg.Board,
		TLS:    mqtt.TLS{CAFile: c.TLS.CAFile, CertFile: c.TLS.CertFile, KeyFile: c.TLS.KeyFile, InsecureSkipVerify: c.TLS.InsecureSkipVerify},
		Source: d.live, GamePGN4: d.rec.GamePGN4, StateFile: filepath.Join(d.cfg.StateDir, "mqtt-acked"), Log: d.log.With("part", "mqtt")})
	if err != nil {
		return fmt.Errorf("mqtt: %w", err)
	}
	d.mirror = m
	return nil
}

func (d *boardDaemon) startWeb(ctx context.Context) error {
	if d.cfg.Web.Listen == "" || d.cfg.Web.Listen == "off" {
		return nil
	}
	pw, err := d.secret(d.cfg.Web.Password, "web-password")
	if err != nil {
		return err
	}
	var names []string
	if cat, err := variants.Catalog(configs.Variants); err == nil {
		for _, v := range cat {
			names = append(names, v.Name)
		}
	}
	games := d.rec.Store()
	scheme := map[bool]string{false: "http", true: "https"}[d.cfg.Web.TLSCert != ""]
	d.webSrv, err = web.New(web.Config{Board: d.live, Password: pw, Title: d.cfg.Web.Title, Variants: names, Log: d.log.With("part", "web"),
		Games: &games, Lookup: loadVariant, Join: func() []string { return lan.Join(scheme, d.WebAddr) }}) // the terminal's QR address (greetLAN)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/", d.webSrv)
	mux.Handle("/metrics", d.metrics.handler(d))
	if d.broker != nil {
		mux.Handle("/mqtt", d.broker.WebsocketHandler())
	}
	ln, err := net.Listen("tcp", d.cfg.Web.Listen)
	if err != nil {
		return fmt.Errorf("web.listen: %w", err)
	}
	d.WebAddr = ln.Addr().String()
	if w := d.cfg.Web; w.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(w.TLSCert, w.TLSKey)
		if err != nil {
			ln.Close()
			return fmt.Errorf("web.tls_cert: %w", err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	d.http = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(d.log.With("part", "web").Handler(), slog.LevelDebug)} // TLS handshakes that fail, clients gone early
	d.http.RegisterOnShutdown(func() { d.webSrv.Close() }) // ends the open event streams
	d.goRun("web", func() error {
		if err := d.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	return nil
}

// greet prints where everything is.
func (d *boardDaemon) greet(w io.Writer) {
	st := d.live.State()
	fmt.Fprintf(w, "boardd: board %s, %s, game %s (%d moves), switches: %s\n", d.cfg.Board, st.Variant, st.Game, len(st.Moves), d.cfg.Sensors.Driver)
	web, ws := "http", "ws"
	if d.cfg.Web.TLSCert != "" {
		web, ws = "https", "wss"
	}
	if d.WebAddr != "" {
		pw, _ := d.secret(d.cfg.Web.Password, "web-password")
		fmt.Fprintf(w, "  web display:  %s://%s/   (log in to send commands: password %s)\n", web, d.WebAddr, pw)
		fmt.Fprintf(w, "  metrics:      %s://%s/metrics\n", web, d.WebAddr)
		greetLAN(w, web, d.WebAddr)
	}
	if d.broker != nil {
		if len(d.cfg.MQTT.Embedded.Users) == 0 {
			pw, _ := d.secret("", "mqtt-password")
			fmt.Fprintf(w, "  MQTT broker:  mqtt://%s  user boardd, password %s  (topics %s/%s/#)\n", d.MQTTAddr, pw, d.cfg.MQTT.Prefix, d.cfg.Board)
		} else {
			fmt.Fprintf(w, "  MQTT broker:  mqtt://%s  (users from the config; topics %s/%s/#)\n", d.MQTTAddr, d.cfg.MQTT.Prefix, d.cfg.Board)
		}
		if d.WebAddr != "" {
			fmt.Fprintf(w, "  MQTT over WebSocket: %s://%s/mqtt\n", ws, d.WebAddr)
		}
	} else if d.mirror != nil {
		fmt.Fprintf(w, "  MQTT: mirroring to %s (topics %s/%s/#)\n", d.cfg.MQTT.Broker, d.cfg.MQTT.Prefix, d.cfg.Board)
	}
	if d.SimAddr != "" {
		fmt.Fprintf(w, "  sim switches: %s (lines such as: lift h2, place h4)\n", d.SimAddr)
	}
	fmt.Fprintf(w, "  state:        %s (games in %s)\n", d.cfg.StateDir, d.rec.Store().Dir)
}

// watchdog pings systemd while the referee answers, until ctx ends.
func (d *boardDaemon) watchdog(ctx context.Context) {
	every, err := daemon.SdWatchdogEnabled(false)
	if err != nil || every <= 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(every / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, every/3)
			err := d.live.Ping(pctx)
			cancel()
			if err == nil {
				daemon.SdNotify(false, daemon.SdNotifyWatchdog)
			} else {
				d.log.Error("the referee does not answer; not telling the watchdog", "err", err)
			}
		}
	}
}

// Close stops everything in order: no more switch events, the mirror says
// offline, the LEDs go dark, files are closed.
func (d *boardDaemon) Close() error {
	if d.http != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		d.http.Shutdown(sctx)
		cancel()
	}
	if d.webSrv != nil {
		d.webSrv.Close()
	}
	if d.mirror != nil {
		d.mirror.Close()
	}
	d.stop()
	d.wg.Wait()
	if d.broker != nil {
		d.broker.Close()
	}
	if err := d.ledsOut.Close(); err != nil {
		d.log.Error("turning the LEDs off", "err", err)
	}
	if d.rec != nil {
		d.rec.Close()
	}
	for i := len(d.closers) - 1; i >= 0; i-- {
		d.closers[i]()
	}
	return nil
}

// quietLog is the log for a library that chats at info level (the
// broker): warnings and errors only, unless the config asks for debug.
func (d *boardDaemon) quietLog(part string) *slog.Logger {
	if d.cfg.Log.Level == "debug" {
		return d.log.With("part", part)
	}
	c := d.cfg
	c.Log.Level = "warn"
	return newLogger(c, d.logOut).With("part", part)
}

func newLogger(cfg configs.Daemon, w io.Writer) *slog.Logger {
	var lv slog.Level
	lv.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: lv}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if cfg.Log.Format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(oneOfEach{h: h}).With("board", cfg.Board)
}
