package configs

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"boardd/internal/printable"
	"boardd/internal/yamlpos"
	"boardd/rules/square"

	"go.yaml.in/yaml/v3"
)

// Example is configs/boardd.yaml: every key, commented, with its default.
//
//go:embed boardd.yaml
var Example []byte

// Daemon is boardd's configuration (configs/boardd.yaml documents every
// key). The zero values of optional keys mean "the default".
type Daemon struct {
	// Board is the board's id: it names MQTT topics and archive files.
	Board string `yaml:"board"`
	// BoardShape is the physical board: cross14 (chess.com's 14×14 cross,
	// 160 squares) or square16 (16×16, 256 squares: Russian Fortress
	// Chess). It sets how many switches and LEDs there are and which
	// variants fit.
	BoardShape string `yaml:"board_shape"`
	// StateDir holds the game journal, the archive and the message stream.
	StateDir string  `yaml:"state_dir"`
	Game     Game    `yaml:"game"`
	Sensors  Sensors `yaml:"sensors"`
	LEDs     LEDs    `yaml:"leds"`
	MQTT     MQTT    `yaml:"mqtt"`
	Web      Web     `yaml:"web"`
	Log      Log     `yaml:"log"`
	Speech   Speech  `yaml:"speech"`
	Bot      Bot     `yaml:"bot"`

	// stateDirFrom says where StateDir came from (StateDirFrom).
	stateDirFrom string
}

// PackagedConfig is the config file the Debian package installs, and
// PackagedStateDir the state directory its unit gives the service
// (StateDirectory=boardd, also its WorkingDirectory=): reading
// PackagedConfig without state_dir, every command finds the service's
// games there, as the service does. Variables only so that tests can
// stand in a package of their own.
var (
	PackagedConfig   = "/etc/boardd/boardd.yaml"
	PackagedStateDir = "/var/lib/boardd"
)

// StateDirFrom says where StateDir came from, for a command to say which
// state directory it reads: "state_dir in FILE", "$STATE_DIRECTORY",
// "the packaged service's …", "the default", or what SetStateDir said.
func (d *Daemon) StateDirFrom() string { return d.stateDirFrom }

// SetStateDir sets StateDir from elsewhere (from: "--state").
func (d *Daemon) SetStateDir(dir, from string) { d.StateDir, d.stateDirFrom = dir, from }

// Speech is the spoken announcements on the board's own audio output.
type Speech struct {
	// On says each move, check, result, … aloud ("Green: knight takes
	// bishop on l11, check to Red") through espeak-ng; without espeak-ng
	// installed the board says so once and plays on silently.
	On bool `yaml:"on"`
	// Cues plays the web page's five short sounds (a move, an illegal
	// move, check, a flag falling, game over) through aplay.
	Cues bool `yaml:"cues"`
	// Voice is espeak-ng's voice (-v): en, en-gb, en-us+f3, …
	Voice string `yaml:"voice"`
	// Language of the sentences: only en so far.
	Language string `yaml:"language"`
}

// Game holds what a new game starts with.
type Game struct {
	Variant  string            `yaml:"variant"`
	Start    string            `yaml:"start"`
	Takeback string            `yaml:"takeback"` // off, on, ask
	Clock    *Clock            `yaml:"clock"`    // absent: no clocks
	Tags     map[string]string `yaml:"tags"`     // Event, Site, Round, Red, Blue, …
	// Seats makes seats of the first game bots: Green: bot:3 (configs/bot.go).
	Seats map[string]string `yaml:"seats"`
}

// Clock is a time control.
type Clock struct {
	Base      time.Duration `yaml:"base"`
	Increment time.Duration `yaml:"increment"`
	Delay     time.Duration `yaml:"delay"`
}

// Sensors is the switch hardware and its timing.
type Sensors struct {
	Driver   string        `yaml:"driver"` // a switch driver registered with sensors/sensorreg
	Wiring   string        `yaml:"wiring"` // wiring map file (bit → square)
	Rate     float64       `yaml:"rate"`   // scans per second
	Debounce int           `yaml:"debounce"`
	Quiet    time.Duration `yaml:"quiet"`
	// Listen (sim only): accept switch script lines on this address.
	Listen string `yaml:"listen"`
	// sections are the switch drivers' own sections (sensors.hc165, …),
	// registered by the drivers (RegisterSensorsSection, SensorsSection).
	sections map[string]any
}

// LEDs is the LED hardware.
type LEDs struct {
	Driver string `yaml:"driver"` // an LED driver registered with leds/ledreg
	// SPI and SpeedHz are deprecated: the keys each SPI LED driver reads
	// from its own section now (leds.apa102.spi). An old config's values
	// are read into those sections (LegacyLEDKeys, Deprecated); nothing
	// reads these fields.
	SPI        string  `yaml:"spi"`
	SpeedHz    int64   `yaml:"speed_hz"`
	Map        string  `yaml:"map"` // serpentine, arms, or a map file
	Gamma      float64 `yaml:"gamma"`
	Brightness int     `yaml:"brightness"`
	MaxAmps    float64 `yaml:"max_amps"`
	// Colours override the LED language's colours by name ("#rrggbb").
	Colours map[string]string `yaml:"colours"`
	// sections are the LED drivers' own sections (leds.apa102, …),
	// registered by the drivers (RegisterLEDsSection, LEDsSection).
	sections map[string]any
	// deprecated are the messages for deprecated keys (Deprecated).
	deprecated []string
}

// MQTT is where the board mirrors its games.
type MQTT struct {
	// Broker is an external broker's URL (tcp://, ssl://, ws://, wss://);
	// empty runs the embedded broker.
	Broker   string `yaml:"broker"`
	Username string `yaml:"username"`
	Password string `yaml:"password"`
	Prefix   string `yaml:"prefix"`
	// Hub is a club hub's broker with the board account in it, as boardd
	// hub prints it (mqtt://board:PASSWORD@club-server:1884): the board
	// mirrors its games there too, keeping its own broker and page.
	// Several URLs, comma-separated, are tried in order (the next when
	// one is gone); the account is given once or alike in each.
	Hub string `yaml:"hub"`
	// TLS is for an ssl:// or wss:// Broker, HubTLS for ssl:// or wss://
	// hub URLs.
	TLS      TLSFiles `yaml:"tls"`
	HubTLS   TLSFiles `yaml:"hub_tls"`
	Embedded struct {
		Listen         string `yaml:"listen"`
		AllowAnonymous bool   `yaml:"allow_anonymous"`
		Users          []User `yaml:"users"`
		// Limits cap the broker's MQTT connections (TCP and WebSocket).
		Limits Limits `yaml:"limits"`
	} `yaml:"embedded"`
	// Disabled turns MQTT off altogether.
	Disabled bool `yaml:"disabled"`
}

// TLSFiles are the files for a TLS connection to a broker.
type TLSFiles struct {
	CAFile             string `yaml:"ca_file"`
	CertFile           string `yaml:"cert_file"`
	KeyFile            string `yaml:"key_file"`
	InsecureSkipVerify bool   `yaml:"insecure_skip_verify"`
}

// User is an account on the embedded broker.
type User struct {
	Name     string `yaml:"name"`
	Password string `yaml:"password"`
	// Write lets the user send commands (cmd/#); others only watch.
	Write bool `yaml:"write"`
}

// Web is the live web display.
type Web struct {
	Listen string `yaml:"listen"` // "" or "off" disables it
	// Password lets a viewer log in and send commands; empty: generated
	// on first start and kept in the state directory.
	Password string `yaml:"password"`
	Title    string `yaml:"title"`
	// TLSCert and TLSKey (PEM files) serve the display over HTTPS (and
	// MQTT over WebSocket as wss://); the session cookie is then Secure.
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`
	// Limits cap the HTTP port's connections and event streams.
	Limits WebLimits `yaml:"limits"`
}

// Limits cap a port's connections; zero takes the built-in default
// (docs/security.md). A total is never more than the process's file
// handles allow, whatever the config says: the journal comes first.
type Limits struct {
	Connections           int `yaml:"connections"`
	ConnectionsPerAddress int `yaml:"connections_per_address"`
}

// WebLimits are the HTTP port's Limits and its event streams' caps.
type WebLimits struct {
	Connections           int `yaml:"connections"`
	ConnectionsPerAddress int `yaml:"connections_per_address"`
	Streams               int `yaml:"streams"`
	StreamsPerAddress     int `yaml:"streams_per_address"`
}

// MaxLimit bounds every limit a config sets.
const MaxLimit = 100000

// Log is the daemon's logging.
type Log struct {
	Level  string `yaml:"level"`  // debug, info, warn, error
	Format string `yaml:"format"` // text, json
}

// Defaults is the configuration with no file at all: a simulated board,
// the embedded broker and the web display on localhost.
func Defaults() Daemon {
	d := Daemon{Board: "1", BoardShape: "cross14", StateDir: "boardd-state", Speech: Speech{Voice: "en", Language: "en"},
		stateDirFrom: "the default: no state_dir in the config, no $STATE_DIRECTORY"}
	if dir := os.Getenv("STATE_DIRECTORY"); dir != "" { // systemd's StateDirectory=
		d.StateDir, d.stateDirFrom = dir, "$STATE_DIRECTORY, the service's StateDirectory="
	}
	d.Game.Variant = "teams"
	d.Game.Takeback = "off"
	d.Bot = botDefaults()
	d.Sensors.Driver, d.Sensors.Rate, d.Sensors.Debounce, d.Sensors.Quiet = "sim", 200, 4, 400*time.Millisecond
	d.Sensors.sections = newSections("sensors") // each driver's section at its defaults
	d.LEDs.sections = newSections("leds")
	d.LEDs.Driver, d.LEDs.Map, d.LEDs.Gamma, d.LEDs.Brightness, d.LEDs.MaxAmps = "none", "serpentine", 2.2, 255, 4
	d.MQTT.Prefix = "boardd"
	d.MQTT.Embedded.Listen = "127.0.0.1:1883"
	d.Web.Listen, d.Web.Title = "127.0.0.1:8080", "boardd"
	d.Log.Level, d.Log.Format = "info", "text"
	return d
}

// BoardShapes are the values of board_shape.
var BoardShapes = []string{"cross14", "square16"}

// BoardSquares returns the squares of a board shape: the cross's 160 for
// cross14, all 256 of the 16×16 grid for square16.
func BoardSquares(shape string) square.Set {
	if shape == "square16" {
		return square.Full()
	}
	return square.Cross()
}

// Squares returns the configured board's squares (BoardSquares).
func (d *Daemon) Squares() square.Set { return BoardSquares(d.BoardShape) }

// Error is a problem in the config file, with its position.
type Error = yamlpos.Error

// Checking is a config being checked: its values, and its file and
// document so that an error can say where the key is.
type Checking struct {
	File   string
	Root   *yaml.Node // nil for the defaults (no file)
	Config *Daemon
}

// Errorf is an error at a dotted key ("sensors.wiring"), with the file and
// the key's line.
func (c *Checking) Errorf(key, format string, a ...any) error {
	return &Error{File: c.File, Line: yamlpos.LineOf(c.Root, key), Key: key, Msg: fmt.Sprintf(format, a...)}
}

// CheckFunc is one more check of a config, beyond the keys and values this
// package knows (Daemon.Check): a check that needs the package owning a
// value (a variant, a wiring map, a TLS file) or the machine (the state
// directory). boardd run and boardd config check pass the same list, so
// they refuse the same files.
type CheckFunc func(*Checking) error

// Load reads a config file over the defaults and checks it: Daemon.Check,
// then each of extra in order. The first problem is the error.
func Load(path string, extra ...CheckFunc) (Daemon, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Daemon{}, fmt.Errorf("config: %w", err)
	}
	return Parse(path, data, extra...)
}

// CheckDefaults runs the extra checks on the defaults, for a daemon that
// runs without a config file.
func CheckDefaults(extra ...CheckFunc) (Daemon, error) {
	d := Defaults()
	return d, runChecks(&Checking{File: "the default config", Config: &d}, extra)
}

// Recheck checks d again after a change from elsewhere (file names it:
// "the command line"): Daemon.Check, then each of extra, as Load does.
func Recheck(d *Daemon, file string, extra ...CheckFunc) error {
	return problems([]error{d.Check(file, nil), runChecks(&Checking{File: file, Config: d}, extra)})
}

func runChecks(c *Checking, extra []CheckFunc) error {
	var errs []error
	for _, check := range extra {
		errs = append(errs, check(c))
	}
	return problems(errs)
}

// Parse reads config text over the defaults and checks it as Load does.
// Unknown keys are errors: a misspelt key must not be silently ignored.
func Parse(file string, data []byte, extra ...CheckFunc) (Daemon, error) {
	d, root, err := parse(file, data)
	if root == nil && err != nil { // not YAML, or not a config's shape
		return d, err
	}
	return d, problems([]error{err, runChecks(&Checking{File: file, Root: root, Config: &d}, extra)})
}

func parse(file string, data []byte) (Daemon, *yaml.Node, error) {
	d := Defaults()
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return d, nil, yamlpos.Syntax(file, data, err)
	}
	if len(root.Content) == 0 {
		d.findStateDir(file, false)
		return d, nil, d.Check(file, nil) // an empty file: all defaults
	}
	keyErr := checkKeys(file, root.Content[0], reflect.TypeFor[Daemon](), "")
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(keyErr == nil)
	if err := dec.Decode(&d); keyErr != nil {
		// Said in a person's words already; the rest of the file is read
		// as far as it goes, and checked, so every problem is said.
		if _, ok := err.(*yaml.TypeError); err != nil && !ok {
			return d, nil, keyErr
		}
	} else if err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			msg := strings.TrimPrefix(te.Errors[0], "yaml: ")
			line := 0
			if strings.HasPrefix(msg, "line ") {
				fmt.Sscanf(msg, "line %d:", &line)
				msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
			}
			return d, nil, &Error{File: file, Line: line, Msg: msg + " (check the key's spelling and the value's type; configs/boardd.yaml lists every key)"}
		}
		return d, nil, &Error{File: file, Msg: err.Error()}
	}
	d.findStateDir(file, written(root.Content[0], "state_dir"))
	if d.BoardShape == "square16" && !written(root.Content[0], "game.variant") {
		// The one rule system of the seeds played on a 16×16 board.
		d.Game.Variant = "russian-fortress"
	}
	return d, root.Content[0], problems([]error{keyErr, d.Check(file, root.Content[0])})
}

// findStateDir settles the state directory of the config read from file
// (set: the file has state_dir) where the service would find it: a
// relative state_dir in the packaged config is under the service's
// working directory, and the packaged config without one means the
// service's StateDirectory= (unless $STATE_DIRECTORY says otherwise).
func (d *Daemon) findStateDir(file string, set bool) {
	switch {
	case set:
		d.stateDirFrom = "state_dir in " + file
		if file == PackagedConfig && !filepath.IsAbs(d.StateDir) {
			d.StateDir = filepath.Join(PackagedStateDir, d.StateDir)
		}
	case file == PackagedConfig && os.Getenv("STATE_DIRECTORY") == "":
		d.StateDir = PackagedStateDir
		d.stateDirFrom = "the packaged service's: StateDirectory=boardd in boardd.service, as " + file + " sets no state_dir"
	}
}

// written reports whether the config text sets the dotted key.
func written(n *yaml.Node, key string) bool {
	for _, part := range strings.Split(key, ".") {
		if n == nil || n.Kind != yaml.MappingNode {
			return false
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n != nil
}

// Check validates the values; root (may be nil) gives line numbers.
func (d *Daemon) Check(file string, root *yaml.Node) error {
	var errs []error // every problem, not only the first
	bad := func(key, format string, a ...any) error {
		err := &Error{File: file, Line: yamlpos.LineOf(root, key), Key: key, Msg: fmt.Sprintf(format, a...)}
		errs = append(errs, err)
		return err
	}
	oneOf := func(key, v string, allowed ...string) error {
		for _, a := range allowed {
			if v == a {
				return nil
			}
		}
		return bad(key, "%q: want %s", v, strings.Join(allowed, ", "))
	}
	if d.Board == "" || strings.ContainsAny(d.Board, "/+# \t") {
		bad("board", "%q: want a short id such as club-1, without spaces, '/', '+' or '#' (it names MQTT topics)", d.Board)
	}
	if err := printable.Check(d.Board); err != nil {
		bad("board", "%q %v (it names MQTT topics and files)", d.Board, err)
	}
	oneOf("board_shape", d.BoardShape, BoardShapes...)
	if d.StateDir == "" {
		bad("state_dir", "empty: want a directory for the journal and the archive")
	}
	oneOf("game.takeback", d.Game.Takeback, "off", "on", "ask")
	if c := d.Game.Clock; c != nil && (c.Base <= 0 || c.Increment < 0 || c.Delay < 0) {
		bad("game.clock", "base must be positive (e.g. 10m), increment and delay not negative")
	}
	// Each tag's name and value are printable here; what they mean (the
	// time control, the bots, the board's own tags) is checked as new_game
	// checks it (referee/gametags) by the application's check of the game.
	for _, k := range slices.Sorted(maps.Keys(d.Game.Tags)) {
		if err := printable.Check(d.Game.Tags[k]); err != nil {
			bad("game.tags."+k, "%v", err)
		}
		if k == "" || strings.ContainsAny(k, " \"[]") || printable.Check(k) != nil {
			bad("game.tags", "%q: tag names are single words of printable characters", k)
		}
	}
	if err := printable.Check(d.Web.Title); err != nil {
		bad("web.title", "%v", err)
	}
	if n := len([]rune(d.Web.Password)); n > 0 && n < MinPassword {
		bad("web.password", "%d characters: want at least %d (anyone on the club's network may guess; leave it out and boardd generates one, kept in the state directory)", n, MinPassword)
	}
	if (d.Web.TLSCert == "") != (d.Web.TLSKey == "") {
		bad("web", "tls_cert and tls_key go together: a certificate and its private key, both PEM files")
	}
	checkLimits := func(key string, total, perAddress int, what string) {
		for _, l := range []struct {
			key string
			n   int
		}{{key, total}, {key + "_per_address", perAddress}} {
			if l.n < 0 || l.n > MaxLimit {
				bad(l.key, "%d: want 1 to %d %s (leave it out for the default)", l.n, MaxLimit, what)
			}
		}
		if total > 0 && perAddress > total {
			bad(key+"_per_address", "%d is more than %s (%d): one address may hold at most all of them", perAddress, key, total)
		}
	}
	checkLimits("web.limits.connections", d.Web.Limits.Connections, d.Web.Limits.ConnectionsPerAddress, "connections")
	checkLimits("web.limits.streams", d.Web.Limits.Streams, d.Web.Limits.StreamsPerAddress, "event streams")
	checkLimits("mqtt.embedded.limits.connections", d.MQTT.Embedded.Limits.Connections, d.MQTT.Embedded.Limits.ConnectionsPerAddress, "connections")
	checkBot(d, bad)
	s := &d.Sensors
	if s.Rate < 10 || s.Rate > 2000 {
		bad("sensors.rate", "%v: want 10 to 2000 scans per second (200 is usual)", s.Rate)
	}
	if s.Debounce < 1 || s.Debounce > 50 {
		bad("sensors.debounce", "%d: want 1 to 50 scans", s.Debounce)
	}
	if s.Quiet < 50*time.Millisecond || s.Quiet > 10*time.Second {
		bad("sensors.quiet", "%v: want 50ms to 10s (400ms is usual)", s.Quiet)
	}
	if err := CheckControlListen(s.Listen); err != nil {
		bad("sensors.listen", "%v", err)
	}
	l := &d.LEDs
	if l.Gamma < 1 || l.Gamma > 4 {
		bad("leds.gamma", "%v: want 1 (none) to 4 (2.2 is usual)", l.Gamma)
	}
	if l.Brightness < 0 || l.Brightness > 255 {
		bad("leds.brightness", "%d: want 0 to 255", l.Brightness)
	}
	for name, hex := range l.Colours {
		if !slices.Contains(ColourNames, name) {
			bad("leds.colours."+name, "not a colour of the LED language: want one of %s", strings.Join(ColourNames, ", "))
		}
		if _, err := ParseColor(hex); err != nil {
			bad("leds.colours."+name, "%v", err)
		}
	}
	if l.MaxAmps < 0 {
		bad("leds.max_amps", "%v: want 0 (no limit) or the supply's amps", l.MaxAmps)
	}
	// The drivers' sections: each registered driver checks its own
	// (sensorreg, ledreg), then no pin may have two jobs.
	if err := runHardwareChecks(&Checking{File: file, Root: root, Config: d}); err != nil {
		errs = append(errs, err)
	} else if err := d.checkPins(file, root); err != nil { // pins of sections that check
		errs = append(errs, err)
	}
	m := &d.MQTT
	if m.Prefix == "" || strings.ContainsAny(m.Prefix, "+# ") {
		bad("mqtt.prefix", "%q: want a topic prefix without '+', '#' or spaces", m.Prefix)
	}
	if m.Hub != "" {
		checkHubURLs(m.Hub, bad, oneOf)
	}
	if m.Broker != "" {
		u, err := url.Parse(m.Broker)
		if err != nil || u.Host == "" {
			bad("mqtt.broker", "%q: want a URL such as tcp://club-server:1883 or ssl://club-server:8883", m.Broker)
		} else {
			oneOf("mqtt.broker", u.Scheme, "tcp", "mqtt", "ssl", "tls", "mqtts", "ws", "wss")
		}
	} else if !m.Disabled {
		if err := checkListen(m.Embedded.Listen); err != nil {
			bad("mqtt.embedded.listen", "%q: %v", m.Embedded.Listen, err)
		}
		seen := map[string]int{}
		for i, u := range m.Embedded.Users {
			switch {
			case u.Name == "" || u.Password == "":
				bad("mqtt.embedded.users", "user %d: needs a name and a password", i+1)
			case strings.HasPrefix(u.Name, ReservedUserPrefix):
				bad("mqtt.embedded.users", "user %d: the name %q is reserved: names starting %s are the board's own accounts; choose another", i+1, u.Name, ReservedUserPrefix)
			case strings.ContainsAny(u.Name, ":\x00") || printable.Check(u.Name) != nil:
				bad("mqtt.embedded.users", "user %d: the name %q must not contain ':', control characters or invisible ones (bidi overrides, zero-width spaces)", i+1, u.Name)
			case seen[u.Name] > 0:
				bad("mqtt.embedded.users", "user %d: the name %q is already user %d: each user once", i+1, u.Name, seen[u.Name])
			case len([]rune(u.Password)) < MinPassword:
				bad("mqtt.embedded.users", "user %d (%q): the password is %d characters: want at least %d (a club's Wi-Fi is shared with strangers; leave users out and boardd generates one)", i+1, u.Name, len([]rune(u.Password)), MinPassword)
			}
			seen[u.Name] = i + 1
		}
	}
	for _, t := range []struct {
		key   string
		files TLSFiles
	}{{"mqtt.tls", m.TLS}, {"mqtt.hub_tls", m.HubTLS}} {
		for _, f := range []struct{ key, path string }{{".ca_file", t.files.CAFile}, {".cert_file", t.files.CertFile}, {".key_file", t.files.KeyFile}} {
			if f.path != "" {
				if _, err := os.Stat(f.path); err != nil {
					bad(t.key+f.key, "%v", err)
				}
			}
		}
		if (t.files.CertFile == "") != (t.files.KeyFile == "") {
			bad(t.key, "cert_file and key_file go together")
		}
	}
	if w := d.Web.Listen; w != "" && w != "off" {
		if err := checkListen(w); err != nil {
			bad("web.listen", "%q: %v, or off", w, err)
		}
	}
	oneOf("speech.language", d.Speech.Language, "en")
	if strings.HasPrefix(d.Speech.Voice, "-") || strings.ContainsAny(d.Speech.Voice, " \t") {
		bad("speech.voice", "%q: want an espeak-ng voice name such as en, en-gb or en-us+f3", d.Speech.Voice)
	}
	oneOf("log.level", d.Log.Level, "debug", "info", "warn", "error")
	oneOf("log.format", d.Log.Format, "text", "json")
	return problems(errs)
}

// MinPassword is the fewest characters a password in the config may
// have (web.password, mqtt.embedded.users): a short one falls to
// guessing from many addresses however each address is throttled.
const MinPassword = 8

// CheckControlListen checks the simulated switches' control address
// (sensors.listen, boardd sensors --listen): a Unix socket path, or a
// loopback host:port. The control port has no password (any line moves
// the pieces), so it never listens on the network: from another machine,
// forward it (ssh -L 7165:127.0.0.1:7165 pi@board).
func CheckControlListen(addr string) error {
	if addr == "" || strings.HasPrefix(addr, "/") || strings.HasPrefix(addr, "@") {
		return nil
	}
	if err := checkListen(addr); err != nil {
		return fmt.Errorf("%q: %v, or a Unix socket path", addr, err)
	}
	host, _, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%q: the control port has no password and moves the pieces, so it listens only on this machine: want 127.0.0.1:PORT, [::1]:PORT or a Unix socket path (from another machine: ssh -L PORT:127.0.0.1:PORT)", addr)
	}
	return nil
}

// Problems are the problems of one config file, every one of them, in
// the order of their lines: a file with three mistakes says three.
type Problems []error

func (p Problems) Error() string {
	lines := make([]string, len(p))
	for i, e := range p {
		lines[i] = e.Error()
	}
	return fmt.Sprintf("%d problems (fix each, then check again):\n%s", len(p), strings.Join(lines, "\n"))
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (p Problems) Unwrap() []error { return p }

// problems is nil, the one error, or the Problems of errs (nested ones
// flattened) in line order; a problem without a line goes last.
func problems(errs []error) error {
	var flat Problems
	var add func(error)
	add = func(e error) {
		switch v := e.(type) {
		case nil:
		case Problems:
			for _, x := range v {
				add(x)
			}
		case interface{ Unwrap() []error }:
			for _, x := range v.Unwrap() {
				add(x)
			}
		default:
			flat = append(flat, e)
		}
	}
	for _, e := range errs {
		add(e)
	}
	line := func(e error) int {
		var pe *Error
		if errors.As(e, &pe) && pe.Line > 0 {
			return pe.Line
		}
		return math.MaxInt
	}
	slices.SortStableFunc(flat, func(a, b error) int { return line(a) - line(b) })
	switch len(flat) {
	case 0:
		return nil
	case 1:
		return flat[0]
	}
	return flat
}

// ReservedUserPrefix starts the names of the accounts boardd makes for
// itself on the embedded broker (boardd-mirror-<board>): a configured user
// may not take one.
const ReservedUserPrefix = "boardd-mirror-"

// checkListen checks a host:port to listen on: a port number 0-65535 or a
// service name this machine knows ("http").
func checkListen(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("want host:port such as 127.0.0.1:8080 or :8080")
	}
	if n, err := strconv.Atoi(port); err == nil {
		if n < 0 || n > 65535 {
			return fmt.Errorf("port %d is out of range: want 0 to 65535 (0: any free port)", n)
		}
		return nil
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("port %q is not a number (0 to 65535) nor a known service name", port)
	}
	return nil
}

// ColourNames are the LED language's colours a config may set
// (referee.Palette.SetColor takes the same names).
var ColourNames = []string{"lifted", "destination", "last_move", "check", "wrong", "missing", "promotion", "out", "fault", "storage", "red", "blue", "yellow", "green"}

// ParseColor reads "#rrggbb".
func ParseColor(s string) ([3]uint8, error) {
	var c [3]uint8
	if len(s) != 7 || s[0] != '#' {
		return c, fmt.Errorf("%q: want a colour as #rrggbb", s)
	}
	for i := range c {
		v, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return c, fmt.Errorf("%q: want a colour as #rrggbb", s)
		}
		c[i] = uint8(v)
	}
	return c, nil
}

// checkHubURLs checks mqtt.hub: one URL or several, comma-separated, the
// first with the board's account in it, the others without one or with
// the same.
func checkHubURLs(list string, bad func(key, format string, args ...any) error, oneOf func(key, got string, want ...string) error) {
	var user, pw string
	for i, raw := range strings.Split(list, ",") {
		u, err := url.Parse(strings.TrimSpace(raw))
		which := ""
		if strings.Contains(list, ",") {
			which = fmt.Sprintf("URL %d: ", i+1)
		}
		switch {
		case err != nil || u.Host == "" || i == 0 && (u.User == nil || u.User.Username() == ""):
			bad("mqtt.hub", "%swant the URL boardd hub prints, such as mqtt://board:PASSWORD@club-server:1884, with the board account in it (several: comma-separated)", which)
			return
		case u.User != nil && !hasPassword(u):
			bad("mqtt.hub", "%sthe URL names user %q but no password: copy the whole URL boardd hub prints (mqtt://board:PASSWORD@host:port)", which, u.User.Username())
			return
		case i == 0:
			user, pw = u.User.Username(), func() string { p, _ := u.User.Password(); return p }()
		case u.User != nil:
			if p, _ := u.User.Password(); u.User.Username() != user || p != pw {
				bad("mqtt.hub", "%sanother account than URL 1's: a board joins every hub of the list with one account (leave it out of the later URLs)", which)
				return
			}
		}
		oneOf("mqtt.hub", u.Scheme, "tcp", "mqtt", "ssl", "tls", "mqtts", "ws", "wss")
	}
}

// hasPassword reports whether u carries a password.
func hasPassword(u *url.URL) bool {
	_, ok := u.User.Password()
	return ok
}
