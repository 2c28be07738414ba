// Package board assembles one board from its config and runs it: the
// switches (sensors/sensorreg), the referee (referee.Live) resumed from
// its journal or new, the LEDs (leds/ledreg), the archive and the message
// stream on disk, the embedded MQTT broker and the mirror, the web
// display with /metrics, the bot seats and speech; and stops them in
// order. It also owns the daemon config's checks beyond its keys
// (LoadConfig: boardd run and boardd config check load through it) and
// the port check run before anything is written (CheckPorts). boardd run
// is flags around Start, Watchdog and Close.
package board

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	gosync "sync"
	"sync/atomic"
	"syscall"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"

	"boardd/app/catalog"
	"boardd/configs"
	"boardd/internal/connlimit"
	"boardd/internal/lan"
	"boardd/internal/printable"
	"boardd/internal/statelock"
	"boardd/leds"
	"boardd/leds/ledreg"
	"boardd/referee"
	"boardd/referee/clock"
	"boardd/referee/gametags"
	"boardd/rules"
	"boardd/rules/variants"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
	"boardd/sensors/sim"
	"boardd/sync/archive"
	"boardd/sync/botseat"
	"boardd/sync/broker"
	"boardd/sync/mqtt"
	"boardd/sync/speech"
	"boardd/sync/web"
)

// Daemon is a running board with everything around it.
type Daemon struct {
	cfg      configs.Daemon
	log      *slog.Logger
	Live     *referee.Live // the board: its game, lights and message stream
	rec      *archive.Recorder
	stream   *archive.Stream
	scanner  *sensors.Scanner
	SimBoard *sim.Board // the simulated switches (sensors.driver sim), else nil
	ledsOut  *ledreg.Out
	broker   *broker.Broker
	Mirror   *mqtt.Mirror // the MQTT mirror, nil without MQTT
	Hub      *mqtt.Mirror // the mirror into a club hub's broker (mqtt.hub), else nil
	webSrv   *web.Server
	webLn    *web.Listener
	http     *http.Server
	metrics  *metrics
	stop     context.CancelFunc
	wg       gosync.WaitGroup
	closers  []func()
	logOut   io.Writer
	// generated holds the state files of passwords generated at this
	// start (printed once, then never again)
	generated gosync.Map
	// stateLock keeps a second writer off the state directory; hwLock
	// keeps boardd doctor and boardd sensors off real hardware.
	stateLock, hwLock *statelock.Lock

	// Addresses actually bound (ports of 0 resolved).
	WebAddr, MQTTAddr, SimAddr string
}

// Start builds and starts the board from cfg (loaded with LoadConfig). It prints the
// addresses and credentials a newcomer needs to stdout.
func Start(parent context.Context, cfg configs.Daemon, stdout, stderr io.Writer) (_ *Daemon, err error) {
	ctx, cancel := context.WithCancel(parent)
	d := &Daemon{cfg: cfg, stop: cancel, log: newLogger(cfg, stderr), logOut: stderr}
	for _, msg := range cfg.LEDs.Deprecated() {
		d.log.Warn("config: " + msg)
	}
	before := listState(cfg.StateDir)
	if err := os.MkdirAll(cfg.StateDir, 0o755); err != nil {
		return nil, fmt.Errorf("state_dir: %w", err)
	}
	// One writer per state directory: a second board on it would mix two
	// games' journals and number the message stream twice.
	if d.stateLock, err = statelock.State(cfg.StateDir, "boardd run, board "+cfg.Board); err != nil {
		if before == nil {
			os.Remove(cfg.StateDir) // made just now, and empty but for a lock file another holds
		}
		return nil, stateLockError(cfg.StateDir, err)
	}
	defer func() {
		if err != nil {
			lock := d.stateLock
			d.stateLock = nil // held until what this start wrote is undone
			d.Close()
			undoStart(cfg.StateDir, before)
			lock.Release()
		}
	}()
	if UsesHardware(cfg) {
		if d.hwLock, err = statelock.Hardware("boardd run, board " + cfg.Board); err != nil {
			var held *statelock.HeldError
			if errors.As(err, &held) {
				return nil, fmt.Errorf("the board's switches and LEDs are in use by %s (lock file %s): two programs scanning one switch chain corrupt each other's reads; stop that one first (Ctrl-C in its terminal, or `sudo systemctl stop boardd` for the service)", held.Holder(), held.Path)
			}
			// Nowhere to keep the lock: play on, but say that nothing
			// keeps boardd doctor and boardd sensors off the hardware.
			d.log.Warn("no hardware lock: boardd doctor and boardd sensors cannot tell the board is running", "err", err)
			err = nil
		}
	}
	d.metrics = newMetrics()
	// Numbering goes on above every durable record of it: the journals
	// (read before Resume repairs anything), the stream, and what MQTT
	// acknowledged, so a lost or damaged stream file never brings a Seq
	// round again.
	seqFloor := max(archive.HighSeq(cfg.StateDir), mqtt.AckedSeq(filepath.Join(cfg.StateDir, "mqtt-acked"), cfg.Board),
		mqtt.AckedSeq(filepath.Join(cfg.StateDir, "hub-acked"), cfg.Board))

	// The game: resumed from the journal, or new.
	d.rec = &archive.Recorder{Dir: cfg.StateDir, Board: cfg.Board, Lookup: catalog.Variant, Site: cfg.Game.Tags["Site"]}
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
	src, closeSrc, err := sensorreg.Open(&cfg, sensorreg.Env{Now: time.Now, Start: catalog.StartOccupancy(cfg.BoardShape)})
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
		d.SimBoard = sb
		if resumed != nil { // the simulated pieces stayed where the game left them
			sb.SetOccupied(resumed.Game.Position().Occupancy())
		} else if occ, ok := catalog.VariantStart(board, cfg.Game.Variant, cfg.Game.Start); ok {
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
	if d.SimBoard != nil {
		occ = d.SimBoard.Occupied() // no debounce history yet; the sim knows
	}

	// The LEDs.
	if d.ledsOut, err = ledreg.Open(cfg.LEDs, board, ledreg.Env{Term: stdout}); err != nil {
		return nil, err
	}

	// The referee.
	lc := referee.LiveConfig{Board: cfg.Board, Lookup: catalog.Fitting(board), Variant: cfg.Game.Variant, Start: cfg.Game.Start,
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
	if d.Live, err = referee.NewLive(lc); err != nil {
		return nil, fmt.Errorf("board_shape %s, game.variant %s: %w", cfg.BoardShape, cfg.Game.Variant, err)
	}
	d.goRun("referee", func() error { return d.Live.Run(ctx) })
	d.startBots(ctx)
	d.goRun("touches", func() error {
		for {
			select {
			case e := <-touches:
				select {
				case d.Live.Touches() <- e:
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
	if d.SimBoard != nil && cfg.Sensors.Listen != "" {
		ln, err := net.Listen(network(cfg.Sensors.Listen), cfg.Sensors.Listen)
		if err != nil {
			return nil, fmt.Errorf("sensors.listen: %w", err)
		}
		d.SimAddr = ln.Addr().String()
		d.goRun("sim control", func() error { return sim.Serve(ctx, ln, d.SimBoard) })
	}

	// MQTT: the embedded broker unless an external one is configured.
	if err := d.startMQTT(ctx); err != nil {
		return nil, err
	}

	// A club hub, joined with the URL it printed: a second mirror.
	if err := d.startHub(ctx); err != nil {
		return nil, err
	}
	// A name a league's NATS cluster cannot carry: fine on the board's own
	// broker, mosquitto and a club hub's, said once when the board
	// mirrors to another broker (it may be such a cluster).
	if c := d.cfg.MQTT; !c.Disabled && (c.Hub != "" || c.Broker != "") {
		if err := mqtt.CheckNATS("board", d.cfg.Board); err != nil {
			d.log.Warn("the board's name cannot join a league: rename it (config board) before its broker or hub is a NATS cluster (docs/league.md)", "problem", err)
		}
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

func network(addr string) string {
	if strings.HasPrefix(addr, "/") || strings.HasPrefix(addr, "@") {
		return "unix"
	}
	return "tcp"
}

// goRun runs f on its own goroutine until the daemon stops.
func (d *Daemon) goRun(name string, f func() error) {
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
func (d *Daemon) secret(configured, file string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	path := filepath.Join(d.cfg.StateDir, file)
	b, err := os.ReadFile(path)
	made := err != nil || len(strings.TrimSpace(string(b))) == 0
	pw, err := broker.KeptPassword(path)
	if err == nil && made {
		d.generated.Store(file, true)
	}
	return pw, err
}

// passwordNote says where a password is for the greeting: a password
// generated at this start is printed once; later starts (whose output
// goes to the journal) name the file that keeps it, and a configured one
// is never printed.
func (d *Daemon) passwordNote(configured, file string) string {
	if configured != "" {
		return "the password set in the config"
	}
	path := filepath.Join(d.cfg.StateDir, file)
	if _, now := d.generated.Load(file); now {
		pw, _ := d.secret("", file)
		return fmt.Sprintf("password %s, generated now and kept in %s; later starts do not print it", pw, path)
	}
	return "the password in " + path
}

func (d *Daemon) startMQTT(ctx context.Context) error {
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
			ReservedIDs: map[string]string{mqtt.DefaultClientID(d.cfg.Board): "boardd-mirror-" + d.cfg.Board},
			MaxConns:    capTotal(c.Embedded.Limits.Connections, 0.25), MaxConnsPerAddress: c.Embedded.Limits.ConnectionsPerAddress})
		if err != nil {
			return fmt.Errorf("mqtt.embedded: %w", err)
		}
		d.broker, d.MQTTAddr = b, b.Addr()
		url, user, pass = "tcp://"+lan.Dialable(b.Addr()), "boardd-mirror-"+d.cfg.Board, self
	}
	m, err := mqtt.Start(ctx, mqtt.Config{Broker: url, Username: user, Password: pass, Prefix: c.Prefix, Board: d.cfg.Board,
		TLS:    tlsOf(c.TLS),
		Source: d.Live, GamePGN4: d.rec.GamePGN4, StateFile: filepath.Join(d.cfg.StateDir, "mqtt-acked"), Log: d.log.With("part", "mqtt")})
	if err != nil {
		return fmt.Errorf("mqtt: %w", err)
	}
	d.Mirror = m
	return nil
}

// startHub mirrors the board into a club hub's broker (mqtt.hub), with
// the board account the URL carries and its own acknowledged position
// (hub-acked), so the hub gets every message even when it joined late.
func (d *Daemon) startHub(ctx context.Context) error {
	c := d.cfg.MQTT
	if c.Hub == "" {
		return nil
	}
	hubs, err := mqtt.ParseBrokers(c.Hub)
	if err != nil || hubs.User == "" {
		return fmt.Errorf("mqtt.hub: want mqtt://board:PASSWORD@host:port (several: comma-separated)")
	}
	user, pass := hubs.User, hubs.Password
	// The hub's board account: the board's own key goes with the
	// password, made on its first join and kept (hub-key); the hub binds
	// the board's name to it.
	var key string
	if user == mqtt.HubBoardUser {
		if key, err = broker.KeptPassword(filepath.Join(d.cfg.StateDir, "hub-key")); err != nil {
			return fmt.Errorf("mqtt.hub: the board's key: %w", err)
		}
	}
	m, err := mqtt.Start(ctx, mqtt.Config{Broker: hubs.String(), Username: user, Password: pass, Key: key, Prefix: c.Prefix, Board: d.cfg.Board,
		TLS:    tlsOf(c.HubTLS),
		Source: d.Live, GamePGN4: d.rec.GamePGN4, StateFile: filepath.Join(d.cfg.StateDir, "hub-acked"), Log: d.log.With("part", "hub"),
		Refused: hubRefused(d.cfg.Board, filepath.Join(d.cfg.StateDir, "hub-key"))})
	if err != nil {
		return fmt.Errorf("mqtt.hub: %w", err)
	}
	d.Hub = m
	d.goRun("sending the archive to the hub", func() error { return d.sendArchive(ctx) })
	return nil
}

// tlsOf is the mirror's TLS of a config's files.
func tlsOf(f configs.TLSFiles) mqtt.TLS {
	return mqtt.TLS{CAFile: f.CAFile, CertFile: f.CertFile, KeyFile: f.KeyFile, InsecureSkipVerify: f.InsecureSkipVerify}
}

// hubRefused says what to do when the hub's broker refuses the board.
func hubRefused(board, keyFile string) func(error) string {
	return func(err error) string {
		if errors.Is(err, mqtt.ErrRefusedIDRejected) {
			return fmt.Sprintf("the hub knows board %q by another key than this board's (%s): if this is that board and its state directory was wiped or replaced, the tournament director runs `boardd hub forget %s` on the hub (the old board's games stay there under another name) and this board joins at its next try; if another board has that name, give this one another name (config key board)", board, keyFile, board)
		}
		return "the hub's broker refused the user name or password of mqtt.hub (or --hub): copy the URL boardd hub prints again (boards join with: boardd run --hub …)"
	}
}

func (d *Daemon) startWeb(ctx context.Context) error {
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
	d.webSrv, err = web.New(web.Config{Board: d.Live, Password: pw, Title: d.cfg.Web.Title, Variants: names, Log: d.log.With("part", "web"),
		MaxStreams: d.cfg.Web.Limits.Streams, MaxStreamsPerAddress: d.cfg.Web.Limits.StreamsPerAddress,
		Games: &games, Lookup: catalog.Variant, Join: func() []string { return lan.Join(scheme, d.WebAddr) }}) // the terminal's QR address (greetLAN)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/", d.webSrv)
	mux.Handle("/metrics", d.webSrv.OwnerOnly(d.metrics.handler(d)))
	if d.broker != nil {
		mux.Handle("/mqtt", d.broker.WebsocketHandler())
	}
	// Connections capped per address and in total, within the file limit
	// (docs/security.md).
	lim := d.cfg.Web.Limits
	capped, err := web.Listen(d.cfg.Web.Listen, web.HTTPLimits{MaxConns: capTotal(lim.Connections, 0.5), MaxConnsPerAddress: lim.ConnectionsPerAddress})
	if err != nil {
		return fmt.Errorf("web.listen: %w", err)
	}
	d.webLn = capped
	var ln net.Listener = capped
	d.WebAddr = ln.Addr().String()
	if w := d.cfg.Web; w.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(w.TLSCert, w.TLSKey)
		if err != nil {
			ln.Close()
			return fmt.Errorf("web.tls_cert: %w", err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	d.http = web.HTTPServer(mux, capped, d.webSrv, d.log.With("part", "web"))
	d.goRun("web", func() error {
		if err := d.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	return nil
}

// greet prints where everything is.
func (d *Daemon) greet(w io.Writer) {
	st := d.Live.State()
	fmt.Fprintf(w, "boardd: board %s, %s, game %s (%d moves), switches: %s\n", d.cfg.Board, st.Variant, st.Game, len(st.Moves), d.cfg.Sensors.Driver)
	web, ws := "http", "ws"
	if d.cfg.Web.TLSCert != "" {
		web, ws = "https", "wss"
	}
	if d.WebAddr != "" {
		fmt.Fprintf(w, "  web display:  %s://%s/   (log in to send commands: %s)\n", web, d.WebAddr, d.passwordNote(d.cfg.Web.Password, "web-password"))
		fmt.Fprintf(w, "  metrics:      %s://%s/metrics   (for the owner: logged in, basic auth with the web password, or from this machine)\n", web, d.WebAddr)
		greetLAN(w, web, d.WebAddr)
	}
	if d.broker != nil {
		if len(d.cfg.MQTT.Embedded.Users) == 0 {
			fmt.Fprintf(w, "  MQTT broker:  mqtt://%s  user boardd, %s  (topics %s/%s/#)\n", d.MQTTAddr, d.passwordNote("", "mqtt-password"), d.cfg.MQTT.Prefix, d.cfg.Board)
		} else {
			fmt.Fprintf(w, "  MQTT broker:  mqtt://%s  (users from the config; topics %s/%s/#)\n", d.MQTTAddr, d.cfg.MQTT.Prefix, d.cfg.Board)
		}
		if d.WebAddr != "" {
			fmt.Fprintf(w, "  MQTT over WebSocket: %s://%s/mqtt\n", ws, d.WebAddr)
		}
	} else if d.Mirror != nil {
		fmt.Fprintf(w, "  MQTT: mirroring to %s (topics %s/%s/#)\n", d.cfg.MQTT.Broker, d.cfg.MQTT.Prefix, d.cfg.Board)
	}
	if d.Hub != nil {
		fmt.Fprintf(w, "  club hub:     mirroring to %s (topics %s/%s/#)\n", mqtt.RedactList(d.cfg.MQTT.Hub), d.cfg.MQTT.Prefix, d.cfg.Board)
	}
	if d.SimAddr != "" {
		fmt.Fprintf(w, "  sim switches: %s (lines such as: lift h2, place h4)\n", d.SimAddr)
	}
	fmt.Fprintf(w, "  state:        %s (games in %s; from %s)\n", d.cfg.StateDir, d.rec.Store().Dir, d.cfg.StateDirFrom())
}

// Watchdog pings systemd while the referee answers, until ctx ends.
func (d *Daemon) Watchdog(ctx context.Context) {
	every, err := sd.SdWatchdogEnabled(false)
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
			err := d.Live.Ping(pctx)
			cancel()
			if err == nil {
				sd.SdNotify(false, sd.SdNotifyWatchdog)
			} else {
				d.log.Error("the referee does not answer; not telling the watchdog", "err", err)
			}
		}
	}
}

// Close stops everything in order: no more switch events, the mirror says
// offline, the LEDs go dark, files are closed.
func (d *Daemon) Close() error {
	if d.http != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		d.http.Shutdown(sctx)
		cancel()
	}
	if d.webSrv != nil {
		d.webSrv.Close()
	}
	if d.Mirror != nil {
		d.Mirror.Close()
	}
	if d.Hub != nil {
		d.Hub.Close()
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
	d.closers = nil
	d.hwLock.Release() // the switches and LEDs are closed
	d.hwLock = nil
	d.stateLock.Release() // every file is closed
	d.stateLock = nil
	return nil
}

// UsesHardware says whether cfg drives real switches or LEDs: then the
// daemon holds the hardware lock (statelock.Hardware) while it runs.
func UsesHardware(cfg configs.Daemon) bool {
	s, l := sensorreg.Lookup(cfg.Sensors.Driver), ledreg.Lookup(cfg.LEDs.Driver)
	return s != nil && !s.Simulated || l != nil && l.Strip != nil
}

// stateLockError says who holds the state directory and what to do.
func stateLockError(dir string, err error) error {
	var held *statelock.HeldError
	if errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("state_dir %s is not writable by this user: %w (the service's state belongs to the user boardd, and the service runs the board; give this board its own directory with --state DIR or state_dir)", dir, err)
	}
	if !errors.As(err, &held) {
		return fmt.Errorf("state_dir %s: %w", dir, err)
	}
	return fmt.Errorf("state_dir %s is in use by %s (lock file %s): two boards on one state directory would mix their games and message numbers; stop that one first (`sudo systemctl stop boardd` if it is the service), or give this one its own state directory (--state DIR or the config's state_dir)", dir, held.Holder(), held.Path)
}

// quietLog is the log for a library that chats at info level (the
// broker): warnings and errors only, unless the config asks for debug.
func (d *Daemon) quietLog(part string) *slog.Logger {
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

// metrics counts what /metrics reports (Prometheus text format 0.0.4).
type metrics struct {
	start                              time.Time
	moves, illegal, outOfTurn, ambigu  atomic.Uint64
	games, takebacks, faults, sensorEv atomic.Uint64
	scanErrors                         atomic.Uint64
}

func newMetrics() *metrics { return &metrics{start: time.Now()} }

// message counts a message of the board's stream (a Live sink).
func (m *metrics) message(msg referee.Message) error {
	switch msg.Kind {
	case referee.MsgMove:
		m.moves.Add(1)
	case referee.MsgIllegal:
		m.illegal.Add(1)
	case referee.MsgOutOfTurn:
		m.outOfTurn.Add(1)
	case referee.MsgAmbiguous:
		m.ambigu.Add(1)
	case referee.MsgGameStart:
		m.games.Add(1)
	case referee.MsgTakeback:
		m.takebacks.Add(1)
	}
	return nil
}

// sensorEvent counts a debounced switch event.
func (m *metrics) sensorEvent(e sensors.Event) {
	switch e.Kind {
	case sensors.Fault:
		m.faults.Add(1)
	case sensors.Lift, sensors.Place:
		m.sensorEv.Add(1)
	}
}

func (m *metrics) handler(d *Daemon) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		out := func(name, kind, help string, v any) {
			fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %v\n", name, help, name, kind, name, v)
		}
		up := time.Since(m.start).Seconds()
		out("boardd_uptime_seconds", "gauge", "Seconds since the daemon started.", fmt.Sprintf("%.0f", up))
		if d.scanner != nil {
			scans := d.scanner.Scans()
			out("boardd_scans_total", "counter", "Switch scans completed.", scans)
			out("boardd_scan_rate_hz", "gauge", "Average scans per second since start.", fmt.Sprintf("%.1f", float64(scans)/max(up, 1)))
			out("boardd_debounce_rejections_total", "counter", "Raw switch changes that did not last the debounce.", d.scanner.Rejected())
			out("boardd_sensor_faults", "gauge", "Switches marked faulty now.", d.scanner.Faults().Len())
			unreadable, _ := d.scanner.Unreadable()
			out("boardd_switches_unreadable", "gauge", "1 while the switches cannot be read (a broken 74HC165 chain).", map[bool]int{true: 1}[unreadable])
		}
		out("boardd_sensor_events_total", "counter", "Debounced lifts and places.", m.sensorEv.Load())
		out("boardd_sensor_faults_total", "counter", "Switch faults raised.", m.faults.Load())
		out("boardd_scan_errors_total", "counter", "Scans that failed (the driver is retried).", m.scanErrors.Load())
		out("boardd_games_total", "counter", "Games started.", m.games.Load())
		out("boardd_moves_total", "counter", "Moves played on the board.", m.moves.Load())
		out("boardd_illegal_total", "counter", "Board positions no legal move explained.", m.illegal.Load())
		out("boardd_out_of_turn_total", "counter", "Moves by the wrong seat.", m.outOfTurn.Load())
		out("boardd_ambiguous_total", "counter", "Board positions more than one move explained.", m.ambigu.Load())
		out("boardd_takebacks_total", "counter", "Turns taken back.", m.takebacks.Load())
		if d.Live != nil {
			paused := 0
			if d.Live.State().Status == "paused" {
				paused = 1
			}
			out("boardd_storage_paused", "gauge", "1 while the board is paused because its disk cannot be written.", paused)
		}
		if d.Mirror != nil {
			s := d.Mirror.Stats()
			connected := 0
			if s.Connected {
				connected = 1
			}
			out("boardd_mqtt_connected", "gauge", "1 while the MQTT connection is up.", connected)
			out("boardd_mqtt_queue_depth", "gauge", "Events not yet acknowledged by the broker.", s.Queue)
			out("boardd_mqtt_published_total", "counter", "Events acknowledged by the broker.", s.Published)
			out("boardd_mqtt_reconnects_total", "counter", "MQTT reconnections.", s.Reconnects)
		}
		if d.broker != nil {
			a := d.broker.AuthCounts()
			out("boardd_broker_auth_failed_total", "counter", "CONNECTs to the embedded broker with a wrong user name or password.", a.Failed)
			out("boardd_broker_auth_refused_total", "counter", "CONNECTs refused unchecked: the address failed too recently.", a.Refused)
			c := d.broker.ConnCounts()
			out("boardd_broker_connections", "gauge", "MQTT connections open now (TCP and WebSocket).", c.Open)
			out("boardd_broker_connections_refused_total", "counter", "MQTT connections closed at once: a connection cap was reached.", c.Refused)
			out("boardd_broker_connections_evicted_total", "counter", "MQTT connections not yet logged in, closed to make room.", c.Evicted)
		}
		if d.webSrv != nil {
			s := d.webSrv.Stats()
			out("boardd_web_event_streams", "gauge", "Event streams open now.", s.Streams)
			out("boardd_web_logins_failed_total", "counter", "Web logins with a wrong password.", s.Logins.Failed)
			out("boardd_web_logins_refused_total", "counter", "Web logins refused unchecked: the address failed too recently.", s.Logins.Refused)
		}
		if d.webLn != nil {
			c := d.webLn.Counts()
			out("boardd_http_connections", "gauge", "HTTP connections open now.", c.Open)
			out("boardd_http_connections_refused_total", "counter", "HTTP connections closed at once: a connection cap was reached.", c.Refused)
			out("boardd_http_connections_evicted_total", "counter", "Idle HTTP connections closed to make room.", c.Evicted)
		}
	})
}

// gameTags are the first game's tags: game.tags plus the bot seats of
// game.seats (the Bots tag, and the seats made remote).
func gameTags(cfg configs.Daemon) map[string]string {
	levels, _ := cfg.Game.BotLevels() // checked with the config
	bots := map[rules.Seat]int{}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if n, ok := levels[s.String()]; ok {
			bots[s] = n
		}
	}
	if len(bots) == 0 {
		return cfg.Game.Tags
	}
	return botseat.SeatTags(cfg.Game.Tags, bots)
}

// startBots plays the bot seats of every game on this board: those the
// game's Bots tag names (game.seats, the New game dialog, new_game).
func (d *Daemon) startBots(ctx context.Context) {
	cfg := botseat.Config{Lookup: catalog.Variant, MoveTime: d.cfg.Bot.MoveTime, HandTime: d.cfg.Bot.HandTime, Nice: d.cfg.Bot.Nice,
		HashMB: d.cfg.Bot.HashMB, Resign: d.cfg.Bot.Resign, Logger: d.log.With("part", "bot")}
	if cfg.Nice == 0 {
		cfg.Nice = -1 // 0 in the config: leave the priority alone
	}
	d.goRun("bot", func() error { return botseat.Run(ctx, d.Live, cfg) })
}

// startSpeech says the game aloud (speech.on) and plays its sound cues
// (speech.cues) when the config asks for them. What is not installed
// (espeak-ng, aplay) is logged once and the board plays on; a config
// espeak-ng cannot use (an unwritten language) is an error.
func (d *Daemon) startSpeech(ctx context.Context) error {
	c := d.cfg.Speech
	if !c.On && !c.Cues {
		return nil
	}
	sp, err := speech.New(speech.Config{Words: c.On, Cues: c.Cues, Voice: c.Voice, Language: c.Language, Log: d.log.With("part", "speech")})
	if errors.Is(err, speech.ErrNoSynthesizer) {
		d.log.Warn("speech: no spoken announcements or sound cues", "reason", err.Error())
		return nil
	}
	if err != nil {
		return err
	}
	for _, m := range sp.Missing {
		d.log.Warn("speech: " + m)
	}
	d.goRun("speech", func() error { return sp.Run(ctx, d.Live) })
	return nil
}

// greetLAN prints, for a web display that listens beyond this machine,
// every address a phone on the network can open and a QR code of the
// first; on localhost (go run's default) it prints nothing.
func greetLAN(w io.Writer, scheme, webAddr string) {
	urls := lan.Join(scheme, webAddr)
	if len(urls) == 0 {
		return
	}
	fmt.Fprintln(w, "  phones on this network: open one of")
	for _, u := range urls {
		fmt.Fprintf(w, "    %s\n", u)
	}
	fmt.Fprintf(w, "  or scan (%s):\n", urls[0])
	if err := lan.QR(w, urls[0]); err != nil {
		fmt.Fprintf(w, "  (%v)\n", err)
	}
}

// oneOfEach is a slog handler that writes each attribute once: a part of
// the daemon that adds context the daemon's logger already carries
// (sync/mqtt adds board=, since it also runs in boardd collect and watch)
// does not repeat it. An attribute with the same key and value as one
// already attached is dropped; one with another value stays.
type oneOfEach struct {
	h    slog.Handler
	have []slog.Attr // attached so far, outside groups
	grp  bool        // in a group: keys there are another namespace
}

// Enabled is the wrapped handler's.
func (o oneOfEach) Enabled(ctx context.Context, l slog.Level) bool { return o.h.Enabled(ctx, l) }

func (o oneOfEach) seen(a slog.Attr) bool {
	return !o.grp && slices.ContainsFunc(o.have, func(b slog.Attr) bool { return b.Equal(a) })
}

// Handle drops the record's attributes already attached, then hands it on.
func (o oneOfEach) Handle(ctx context.Context, r slog.Record) error {
	dup := false
	r.Attrs(func(a slog.Attr) bool {
		dup = dup || o.seen(a)
		return !dup
	})
	if !dup {
		return o.h.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if !o.seen(a) {
			out.AddAttrs(a)
		}
		return true
	})
	return o.h.Handle(ctx, out)
}

// WithAttrs attaches the attributes not attached yet.
func (o oneOfEach) WithAttrs(as []slog.Attr) slog.Handler {
	var keep []slog.Attr
	for _, a := range as {
		if !o.seen(a) {
			keep = append(keep, a)
		}
	}
	n := oneOfEach{h: o.h.WithAttrs(keep), grp: o.grp}
	if !o.grp {
		n.have = append(slices.Clip(o.have), keep...)
	}
	return n
}

// WithGroup opens a group: keys in it are another namespace.
func (o oneOfEach) WithGroup(name string) slog.Handler {
	return oneOfEach{h: o.h.WithGroup(name), have: o.have, grp: true}
}

// configChecks are the checks of a daemon config beyond its keys and
// values (configs.Daemon.Check, which runs the registered drivers' checks
// of their sections and the wiring and LED map files): the ones that need
// a package owning the value or the machine. boardd run and boardd config
// check both load through LoadConfig, so they refuse the same files. A new
// check is one more entry here.
var configChecks = []configs.CheckFunc{
	checkBoardID,
	checkGame,
	checkClock,
	checkTags,
	checkMQTTTLS,
	checkWebTLS,
	checkStateDir,
}

// CheckConfig checks cfg again after boardd run's flags changed it
// (source: "the command line"): the checks LoadConfig runs, so a flag is
// refused where the same value in the file would be.
func CheckConfig(cfg *configs.Daemon, source string) error {
	return configs.Recheck(cfg, source, configChecks...)
}

// LoadConfig reads and checks a daemon config; path "" is the defaults.
func LoadConfig(path string) (configs.Daemon, error) {
	if path == "" {
		return configs.CheckDefaults(configChecks...)
	}
	return configs.Load(path, configChecks...)
}

// checkBoardID: the board id is a topic level and a file name.
func checkBoardID(c *configs.Checking) error {
	if err := mqtt.CheckID("board", c.Config.Board); err != nil {
		return c.Errorf("board", "%v", err)
	}
	return nil
}

// checkGame: the variant exists and fits the board, and game.start is a
// start array's name or a FEN4 the variant can play.
func checkGame(c *configs.Checking) error {
	d := c.Config
	array, fen := rules.SplitStart(d.Game.Start)
	v, err := catalog.Fitting(d.Squares())(d.Game.Variant, array)
	if err != nil {
		key := "game.variant"
		if array != "" {
			key = "game.start"
		}
		return c.Errorf(key, "%s", strings.TrimPrefix(err.Error(), catalog.ErrUsage.Error()+": "))
	}
	if _, err := rules.NewGame(v, fen); err != nil {
		return c.Errorf("game.start", "%q: %v (want a start array's name such as modern, or a FEN4)", d.Game.Start, err)
	}
	return nil
}

// checkClock: game.clock by the one rule for a time control
// (clock.Control.Check, which the New game dialog, the new_game command
// and the TimeControl tag go through too), so a config cannot start a
// game those would refuse.
func checkClock(c *configs.Checking) error {
	cl := c.Config.Game.Clock
	if cl == nil || cl.Base <= 0 || cl.Increment < 0 || cl.Delay < 0 {
		return nil // configs.Daemon.Check says what is wrong
	}
	if err := (clock.Control{Base: cl.Base, Increment: cl.Increment, Delay: cl.Delay}).Check(); err != nil {
		return c.Errorf("game.clock", "%v (the bounds of the New game dialog and the TimeControl tag)", err)
	}
	return nil
}

// checkTags: game.tags as the new_game command checks them
// (referee/gametags: the time control, the bots, the board's own tags,
// the limits), each at its line, then the set. A tag whose text is not
// printable is left to configs.Daemon.Check, which says so already.
func checkTags(c *configs.Checking) error {
	tags := map[string]string{}
	for k, v := range c.Config.Game.Tags {
		if printable.Check(k) == nil && printable.Check(v) == nil {
			tags[k] = v
		}
	}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		if err := gametags.CheckStart(map[string]string{k: tags[k]}); err != nil {
			// The key names the tag already.
			why := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "tag "+k+": "), "tag "+k+" ")
			return c.Errorf("game.tags."+k, "%s", why)
		}
	}
	if err := gametags.CheckStart(tags); err != nil {
		return c.Errorf("game.tags", "%v", err)
	}
	return nil
}

// checkMQTTTLS: the TLS files are certificates and keys, and go with the
// broker's URL (mqtt.tls) and the hub's (mqtt.hub_tls), exactly as the
// mirrors will read them.
func checkMQTTTLS(c *configs.Checking) error {
	m := c.Config.MQTT
	var errs []error
	check := func(key, url string, t mqtt.TLS) {
		if t.Empty() {
			return
		}
		if _, err := mqtt.ClientOptions(url, "", "", t); err != nil {
			switch {
			case strings.Contains(err.Error(), "CA file"):
				key += ".ca_file"
			case strings.Contains(err.Error(), "client certificate"):
				key += ".cert_file"
			}
			errs = append(errs, c.Errorf(key, "%v", err))
		}
	}
	if !m.Disabled {
		url := m.Broker
		if url == "" {
			url = "tcp://" + lan.Dialable(m.Embedded.Listen) // the embedded broker speaks plain MQTT
		}
		check("mqtt.tls", url, tlsOf(m.TLS))
	}
	if hubs, err := mqtt.ParseBrokers(m.Hub); m.Hub != "" && err == nil {
		check("mqtt.hub_tls", hubs.String(), tlsOf(m.HubTLS))
	} else if m.Hub == "" && !tlsOf(m.HubTLS).Empty() {
		errs = append(errs, c.Errorf("mqtt.hub_tls", "set, but no hub to join (mqtt.hub)"))
	}
	return errors.Join(errs...)
}

// checkWebTLS: the web display's certificate and key load as a pair.
func checkWebTLS(c *configs.Checking) error {
	w := c.Config.Web
	if w.TLSCert == "" || w.Listen == "" || w.Listen == "off" {
		return nil
	}
	if _, err := tls.LoadX509KeyPair(w.TLSCert, w.TLSKey); err != nil {
		return c.Errorf("web.tls_cert", "certificate %s with key %s: %v", w.TLSCert, w.TLSKey, err)
	}
	return nil
}

// checkStateDir: the state directory exists and is a writable directory,
// or can be made: its nearest existing parent is one. Nothing is created.
func checkStateDir(c *configs.Checking) error {
	dir := c.Config.StateDir
	abs, err := filepath.Abs(dir)
	if err != nil {
		return c.Errorf("state_dir", "%q: %v", dir, err)
	}
	for p := abs; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if (errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) && p != filepath.Dir(p) {
			continue // look at the parent: it names what is in the way
		}
		switch {
		case err != nil:
			return c.Errorf("state_dir", "%q cannot be made: %v", dir, err)
		case !fi.IsDir():
			return c.Errorf("state_dir", "%q cannot be made: %s is a file, not a directory", dir, p)
		case pseudoFS(p) != "":
			return c.Errorf("state_dir", "%q is on %s, the kernel's %s, not a disk: the journal and the games would not be kept; choose a directory on the SD card or a disk, such as /var/lib/boardd", dir, p, pseudoFS(p))
		case syscall.Access(p, 0x2|0x1) != nil && !othersDir(fi): // W_OK|X_OK
			if p == abs {
				return c.Errorf("state_dir", "%q is not writable by this user: the daemon keeps its journal there", dir)
			}
			return c.Errorf("state_dir", "%q cannot be made: %s is not writable by this user", dir, p)
		}
		return nil
	}
}

// othersDir says whether fi, a directory this user cannot write, is
// another user's: the service's /var/lib/boardd, checked by someone
// reading the packaged config. Whether that user (boardd) may write it is
// not for this one to judge; boardd run started by this user is refused
// at start, when it takes the directory's lock.
func othersDir(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) != os.Geteuid()
}

// pseudoFS names the kernel's own file system holding path (/proc,
// /sys, …), where no file is kept, or "" for any other.
func pseudoFS(path string) string {
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return ""
	}
	return map[uint32]string{
		0x9fa0: "proc file system", 0x62656572: "sysfs", 0x1cd1: "devpts", 0x27e0eb: "cgroup file system",
		0x63677270: "cgroup2 file system", 0x64626720: "debugfs", 0x73636673: "securityfs", 0x74726163: "tracefs",
		0xcafe4a11: "bpf file system", 0x62656570: "configfs", 0x6165676c: "pstore", 0xde5e81e4: "efivarfs",
		0xf97cff8c: "selinuxfs", 0x6e736673: "nsfs",
	}[uint32(st.Type)]
}

// CheckPorts tries the addresses boardd run will listen on before it
// writes or logs anything, so a busy port is reported first, with the
// flag and the config key that change it.
func CheckPorts(cfg configs.Daemon) error {
	type port struct{ addr, flag, key string }
	var ports []port
	if w := cfg.Web.Listen; w != "" && w != "off" {
		ports = append(ports, port{w, "--web", "web.listen"})
	}
	if !cfg.MQTT.Disabled && cfg.MQTT.Broker == "" {
		ports = append(ports, port{cfg.MQTT.Embedded.Listen, "--mqtt", "mqtt.embedded.listen"})
	}
	if l := cfg.Sensors.Listen; l != "" {
		ports = append(ports, port{l, "", "sensors.listen"})
	}
	for _, p := range ports {
		if strings.HasPrefix(p.addr, "/") || strings.HasPrefix(p.addr, "@") {
			continue // a unix socket
		}
		ln, err := net.Listen("tcp", p.addr)
		if err != nil {
			how := "config key " + p.key
			if p.flag != "" {
				how = p.flag + " ADDR or the config key " + p.key
			}
			why := err.Error()
			if errors.Is(err, syscall.EADDRINUSE) {
				why = "the address is in use (another boardd, or another program, listens there)"
			}
			return fmt.Errorf("%s %s: %s: choose another address with %s (port 0 picks a free one)", p.key, p.addr, why, how)
		}
		ln.Close()
	}
	return nil
}

// capTotal is a configured cap on a port's connections (0: the port's
// default), never more than share of the file handles left after the
// journal's (connlimit.TotalFor).
func capTotal(configured int, share float64) int {
	if configured <= 0 {
		return 0
	}
	return connlimit.TotalFor(configured, share, 0)
}
