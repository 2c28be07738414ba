package configs_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	_ "boardd/app/drivers" // the drivers check their sections
	"boardd/configs"
	"boardd/sensors/gpiomatrix"
	"boardd/sensors/mcp23017"
)

func TestExampleIsTheDefaults(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "")
	got, err := configs.Parse("boardd.yaml", configs.Example)
	if err != nil {
		t.Fatal(err)
	}
	want := configs.Defaults()
	want.Game.Tags = map[string]string{}
	want.Game.Seats = map[string]string{}
	want.LEDs.Colours = map[string]string{}
	m := configs.SensorsSection[gpiomatrix.Config](&want.Sensors, "gpiomatrix")
	m.Rows, m.Cols, want.MQTT.Embedded.Users = []string{}, []string{}, []configs.User{}
	configs.SensorsSection[mcp23017.Config](&want.Sensors, "mcp23017").Addrs = []string{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("configs/boardd.yaml differs from configs.Defaults():\n got %+v\nwant %+v", got, want)
	}
	if d, err := configs.Parse("empty.yaml", nil); err != nil || d.Sensors.Driver != "sim" {
		t.Errorf("an empty file: %v %+v", err, d)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"typo", "board: \"2\"\nsensor:\n  driver: sim\n", `f.yaml: line 2: unknown key sensor (did you mean sensors?)`},
		{"nested typo", "sensors:\n  drvier: sim\n", `f.yaml: line 2: sensors: unknown key drvier (did you mean driver?)`},
		{"typo in a list", "mqtt:\n  embedded:\n    users:\n      - {name: a, pasword: b}\n", `line 4: mqtt.embedded.users[1]: unknown key pasword (did you mean password?)`},
		{"typo in a clock", "game:\n  clock: {bsae: 10m}\n", `line 2: game.clock: unknown key bsae (did you mean base?)`},
		{"no near key", "log:\n  colour: red\n", `line 2: log: unknown key colour (known keys here: format, level)`},
		{"wrong type", "sensors:\n  rate: fast\n", `f.yaml: line 2: sensors.rate: "fast": want a number`},
		{"fraction for a count", "sensors:\n  debounce: 2.5\n", `line 2: sensors.debounce: "2.5": want a whole number`},
		{"list for a value", "board: [a, b]\n", `line 1: board: a list: want a single value`},
		{"duration", "game:\n  clock: {base: ten}\n", `line 2: game.clock.base: "ten": want a duration such as 400ms, 10s or 10m`},
		{"colours not a map", "leds:\n  colours: red\n", `line 2: leds.colours: "red": want indented name: value lines`},
		{"bad driver", "sensors:\n  driver: usb\n", `f.yaml: line 2: sensors.driver: "usb": want gpiomatrix, hc165, mcp23017, sim`},
		{"bad board", "board: a/b\n", `line 1: board: "a/b": want a short id`},
		{"bidi override in the board", "board: \"club\\u202E3\"\n", `line 1: board: "club\u202e3" contains the bidi override, embedding or isolate U+202E (RIGHT-TO-LEFT OVERRIDE) at character 5`},
		{"control character in the board", "board: \"club\\e3\"\n", `line 1: board: "club\x1b3" contains the control character U+001B`},
		{"bidi isolate in a tag", "game:\n  tags: {Red: \"\\u2066Ann\"}\n", `line 2: game.tags.Red: contains the bidi override, embedding or isolate U+2066`},
		{"zero-width space in the title", "web: {title: \"Club\\u200Bnight\"}\n", `web.title: contains the invisible character U+200B (ZERO WIDTH SPACE)`},
		{"bidi mark in a user name", "mqtt:\n  embedded:\n    users: [{name: \"disp\\u200Flay\", password: x}]\n", `mqtt.embedded.users: user 1: the name`},
		{"bad rate", "sensors:\n  rate: 5\n", `line 2: sensors.rate: 5: want 10 to 2000`},
		{"bad quiet", "sensors:\n  quiet: 1ms\n", `sensors.quiet: 1ms: want 50ms to 10s`},
		{"bad takeback", "game:\n  takeback: maybe\n", `line 2: game.takeback: "maybe": want off, on, ask`},
		{"bad clock", "game:\n  clock: {base: 0s}\n", `line 2: game.clock: base must be positive`},
		{"bad seat", "game:\n  seats: {Purple: bot:3}\n", `line 2: game.seats: "Purple" is not a seat`},
		{"bad bot level", "game:\n  seats: {Green: bot:7}\n", `line 2: game.seats: Green: "bot:7": the level must be 1 to 5`},
		{"bad seat kind", "game:\n  seats: {Green: robot}\n", `game.seats: Green: "robot": want bot:LEVEL (1-5) or human`},
		{"bad bot time", "bot:\n  movetime: 1ms\n", `line 2: bot.movetime: 1ms: want 10ms to 1h`},
		{"bad hand time", "bot:\n  hand_time: 2m\n", `line 2: bot.hand_time: 2m0s: want 0 to 1m`},
		{"negative hand time", "bot:\n  hand_time: -1s\n", `line 2: bot.hand_time: -1s: want 0 to 1m`},
		{"bad nice", "bot:\n  nice: 40\n", `line 2: bot.nice: 40: want 0 (no change) to 19`},
		{"bad speech language", "speech:\n  on: true\n  language: de\n", `line 3: speech.language: "de": want en`},
		{"bad speech voice", "speech:\n  voice: --help\n", `line 2: speech.voice: "--help": want an espeak-ng voice name`},
		{"bad broker", "mqtt:\n  broker: \"http://x:1\"\n", `line 2: mqtt.broker: "http": want tcp`},
		{"broker not a url", "mqtt:\n  broker: club\n", `mqtt.broker: "club": want a URL`},
		{"user without password", "mqtt:\n  embedded:\n    users: [{name: a}]\n", `line 3: mqtt.embedded.users: user 1: needs a name and a password`},
		{"missing ca", "mqtt:\n  tls:\n    ca_file: /nonexistent/ca.pem\n", `line 3: mqtt.tls.ca_file: stat /nonexistent/ca.pem`},
		{"bad web", "web:\n  listen: 8080\n", `line 2: web.listen: "8080": want host:port`},
		{"negative web limit", "web:\n  limits: {connections: -1}\n", `line 2: web.limits.connections: -1: want 1 to 100000 connections (leave it out for the default)`},
		{"streams per address past the total", "web:\n  limits: {streams: 8, streams_per_address: 9}\n", `web.limits.streams_per_address: 9 is more than web.limits.streams (8)`},
		{"huge broker limit", "mqtt:\n  embedded:\n    limits: {connections_per_address: 1000000}\n", `line 3: mqtt.embedded.limits.connections_per_address: 1000000: want 1 to 100000`},
		{"typo in a limit", "web:\n  limits: {stream: 8}\n", `web.limits: unknown key stream (did you mean streams?)`},
		{"bad mcp addr", "sensors:\n  mcp23017:\n    addrs: [\"0x30\"]\n", `line 3: sensors.mcp23017.addrs: "0x30": want an MCP23017 address`},
		{"matrix without pins", "sensors:\n  driver: gpiomatrix\n", `sensors.gpiomatrix: needs cols and rows`},
		{"listen on hardware", "sensors:\n  driver: hc165\n  listen: \":7165\"\n", `sensors.listen: only the sim driver`},
		{"bad level", "log:\n  level: loud\n", `log.level: "loud": want debug`},
		{"bad colour", "leds:\n  colours: {check: red}\n", `line 2: leds.colours.check: "red": want a colour as #rrggbb`},
		{"unknown colour", "leds:\n  colours:\n    glow: \"#ffffff\"\n", `line 3: leds.colours.glow: not a colour of the LED language`},
		{"not yaml", "board: [\n", `f.yaml: `},
		{"bad shape", "board: \"2\"\nboard_shape: square14\n", `f.yaml: line 2: board_shape: "square14": want cross14, square16`},
		{"short chain", "board_shape: square16\nsensors:\n  driver: hc165\n  hc165:\n    chips: 20\n", `line 5: sensors.hc165.chips: 20 chips read 160 switches, but the square16 board has 256 squares: want 32`},
		{"too many chips", "sensors:\n  hc165:\n    chips: 41\n", `line 3: sensors.hc165.chips: 41: want 1 to 40`},
		{"too few expanders", "board_shape: square16\nsensors:\n  driver: mcp23017\n  mcp23017:\n    addrs: [\"0x20\", \"0x21\", \"0x22\"]\n", `line 5: sensors.mcp23017.addrs: 3 chips as a matrix read 168 switches, but the square16 board has 256 squares: want 5 addresses`},
		{"too many expanders", "sensors:\n  mcp23017:\n    addrs: [\"0x20\", \"0x21\", \"0x22\", \"0x23\", \"0x24\", \"0x25\"]\n", `line 3: sensors.mcp23017.addrs: 6 chips`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := configs.Parse("f.yaml", []byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant an error containing %q", err, tc.want)
			}
		})
	}
}

func TestParseValues(t *testing.T) {
	d, err := configs.Parse("f.yaml", []byte("board: club-3\ngame:\n  variant: ffa\n  clock: {base: 10m, delay: 15s}\n  tags: {Event: League}\nmqtt:\n  broker: ssl://club:8883\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Board != "club-3" || d.Game.Variant != "ffa" || d.Game.Clock.Base != 10*time.Minute || d.Game.Clock.Delay != 15*time.Second ||
		d.Game.Tags["Event"] != "League" || d.MQTT.Broker != "ssl://club:8883" || d.Sensors.Rate != 200 {
		t.Errorf("%+v", d)
	}
}

// A board named with characters a NATS cluster cannot carry ('.', '*',
// '>', '@') still loads: boards named so before the league existed keep
// starting (they are warned at start when they mirror elsewhere).
func TestBoardNamesBeforeTheLeagueStillLoad(t *testing.T) {
	for _, name := range []string{"club.1", "table@home", "a*b", "b>c"} {
		d, err := configs.Parse("f.yaml", []byte("board: \""+name+"\"\n"))
		if err != nil || d.Board != name {
			t.Errorf("board %q: %v", name, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(string(configs.Example))
	f.Add("board: x\nsensors: {driver: hc165}\n")
	f.Add("game:\n  clock: {base: 1m}\n")
	f.Add("board_shape: square16\nsensors: {driver: hc165, hc165: {chips: 32}}\n")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := configs.Parse("fuzz.yaml", []byte(s))
		if err == nil {
			if err := d.Check("again", nil); err != nil {
				t.Fatalf("accepted a config its own check refuses: %v", err)
			}
		}
	})
}

// The variant defaults to the board: Teams on the cross, Russian Fortress
// (the one seed game played on 16×16) on a square16 board; a variant
// written in the file is kept either way (boardd run then says whether
// it fits).
func TestVariantDefaultsToTheBoardShape(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"", "teams"},
		{"board_shape: cross14\n", "teams"},
		{"board_shape: square16\n", "russian-fortress"},
		{"board_shape: square16\ngame:\n  takeback: \"on\"\n", "russian-fortress"},
		{"board_shape: square16\ngame:\n  variant: teams\n", "teams"},
		{"game:\n  variant: verney\n", "verney"},
	}
	for _, tt := range tests {
		d, err := configs.Parse("f.yaml", []byte(tt.yaml))
		if err != nil {
			t.Fatalf("%q: %v", tt.yaml, err)
		}
		if d.Game.Variant != tt.want {
			t.Errorf("%q: variant %q, want %q", tt.yaml, d.Game.Variant, tt.want)
		}
	}
}

// A hub URL without its password is one problem among the others of the
// file, not the end of the check.
func TestHubURLIsOneProblemAmongOthers(t *testing.T) {
	_, err := configs.Parse("f.yaml", []byte("mqtt:\n  hub: mqtt://board@club:1884\nlog:\n  level: loud\n"))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`line 2: mqtt.hub: the URL names user "board" but no password`, `line 4: log.level: "loud"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant it to say %q", err, want)
		}
	}
}

// mqtt.hub takes several URLs, the account once or alike; hub_tls goes
// with a hub.
func TestHubURLs(t *testing.T) {
	for _, tc := range []struct{ yaml, errHas string }{
		{"mqtt:\n  hub: mqtt://board:pw@a:1884,mqtt://b:1884\n", ""},
		{"mqtt:\n  hub: ssl://board:pw@a:8883, ssl://board:pw@b:8883\n", ""},
		{"mqtt:\n  hub: mqtt://board:pw@a:1884,mqtt://board:pw2@b:1884\n", "URL 2: another account than URL 1's"},
		{"mqtt:\n  hub: mqtt://a:1884,mqtt://board:pw@b:1884\n", "URL 1: want the URL boardd hub prints"},
		{"mqtt:\n  hub: mqtt://board:pw@a:1884,http://b:1884\n", `"http": want tcp, mqtt`},
		{"mqtt:\n  hub: mqtt://board:pw@a:1884,mqtt://board@b:1884\n", `URL 2: the URL names user "board" but no password`},
		{"mqtt:\n  hub_tls:\n    cert_file: /nonexistent/c.pem\n", "mqtt.hub_tls.cert_file"},
	} {
		_, err := configs.Parse("f.yaml", []byte(tc.yaml))
		switch {
		case tc.errHas == "" && err != nil:
			t.Errorf("%q: %v", tc.yaml, err)
		case tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)):
			t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.errHas)
		}
	}
}
