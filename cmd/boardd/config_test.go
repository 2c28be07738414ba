package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every config boardd run refuses, boardd config check refuses too, with
// the same error naming the file, the line and the key in words.
func TestConfigCheckRefusesWhatRunRefuses(t *testing.T) {
	dir, write := fileWriter(t)
	notCert := write("ca.pem", "this is not a certificate\n")
	aFile := write("plain-file", "x")
	ok := "state_dir: " + filepath.Join(dir, "state") + "\n"
	for _, tc := range []struct{ name, yaml, err string }{
		{"port not a number", "web:\n  listen: 127.0.0.1:notaport\n", `line 2: web.listen: "127.0.0.1:notaport": port "notaport" is not a number (0 to 65535) nor a known service name`},
		{"port out of range", "mqtt:\n  embedded:\n    listen: \":99999\"\n", `line 3: mqtt.embedded.listen: ":99999": port 99999 is out of range`},
		{"sim port", "sensors:\n  listen: localhost:port\n", `line 2: sensors.listen: "localhost:port": port "port" is not a number`},
		{"no port", "web: {listen: localhost}\n", `web.listen: "localhost": want host:port`},
		{"duplicate user", "mqtt:\n  embedded:\n    users:\n      - {name: club, password: a, write: true}\n      - {name: club, password: b}\n", `line 4: mqtt.embedded.users: user 2: the name "club" is already user 1`},
		{"reserved user", "mqtt:\n  embedded:\n    users:\n      - {name: boardd-mirror-1, password: a}\n", `mqtt.embedded.users: user 1: the name "boardd-mirror-1" is reserved`},
		{"start not a FEN4", "game:\n  variant: teams\n  start: not-a-fen\n", `line 3: game.start: "not-a-fen": `},
		{"unknown start array", "game: {start: ancient}\n", `line 1: game.start: `},
		{"missing wiring map", "sensors:\n  wiring: " + filepath.Join(dir, "wiring.yaml") + "\n", `line 2: sensors.wiring: open ` + filepath.Join(dir, "wiring.yaml") + `: no such file or directory`},
		{"missing LED map", "leds:\n  driver: term\n  map: " + filepath.Join(dir, "leds.yaml") + "\n", `line 3: leds.map: open ` + filepath.Join(dir, "leds.yaml") + `: no such file or directory (or serpentine, arms)`},
		{"CA not a certificate", "mqtt:\n  broker: ssl://club:8883\n  tls:\n    ca_file: " + notCert + "\n", `line 4: mqtt.tls.ca_file: mqtt TLS: CA file ` + notCert + ` holds no PEM certificate`},
		{"TLS with the embedded broker", "mqtt:\n  tls:\n    ca_file: " + notCert + "\n", `mqtt.tls: mqtt broker URL "tcp://127.0.0.1:1883": TLS files are set but the URL is not ssl://`},
		{"state dir cannot be made", "state_dir: " + filepath.Join(aFile, "state") + "\n", `line 1: state_dir: "` + filepath.Join(aFile, "state") + `" cannot be made: ` + aFile + ` is a file, not a directory`},
		{"web TLS without its key", "web:\n  tls_cert: " + notCert + "\n", `line 2: web: tls_cert and tls_key go together`},
		{"web TLS not a certificate", "web:\n  tls_cert: " + notCert + "\n  tls_key: " + notCert + "\n", `line 2: web.tls_cert: certificate ` + notCert + ` with key ` + notCert + `: tls: failed to find any PEM data in certificate input`},
		{"unknown key", "web:\n  titel: Club\n", `line 2: web: unknown key titel (did you mean title?)`},
		{"unknown key, no near one", "web:\n  colour: red\n", `web: unknown key colour (known keys here: limits, listen, password, title, tls_cert, tls_key)`},
		{"unknown top key", "boards: 2\n", `line 1: unknown key boards (did you mean board?)`},
		{"not a number", "sensors:\n  rate: fast\n", `line 2: sensors.rate: "fast": want a number`},
		{"not a whole number", "leds: {brightness: 0.5}\n", `leds.brightness: "0.5": want a whole number`},
		{"not a duration", "sensors: {quiet: soon}\n", `sensors.quiet: "soon": want a duration such as 400ms`},
		{"not a bool", "mqtt: {disabled: maybe}\n", `mqtt.disabled: "maybe": want true or false`},
		{"not a list", "sensors:\n  gpiomatrix:\n    rows: GPIO5\n", `line 3: sensors.gpiomatrix.rows: "GPIO5": want a list`},
		{"not a section", "web: on\n", `line 1: web: "on": want a section`},
		{"control character in a tag", "game:\n  tags: {Event: \"Club\\e[31m\"}\n", `line 2: game.tags.Event: contains the control character U+001B`},
		{"control character in the title", "web: {title: \"a\\u2028b\"}\n", `web.title: contains the control character U+2028`},
		{"board id", "board: \"$SYS\"\n", `line 1: board: board id "$SYS" must not start with '$'`},
		// Issue 28: config check passed these and run refused some or
		// took them; both refuse them now, through one path.
		{"one-character web password", "web: {password: x}\n", `line 1: web.password: 1 characters: want at least 8`},
		{"short broker password", "mqtt:\n  embedded:\n    users: [{name: display, password: abc}]\n", `line 3: mqtt.embedded.users: user 1 ("display"): the password is 3 characters: want at least 8`},
		{"25-hour clock", "game:\n  clock: {base: 25h}\n", `line 2: game.clock: the base time 25h0m0s must be whole seconds above 0, at most 24h0m0s`},
		{"2-hour increment", "game:\n  clock: {base: 10m, increment: 2h}\n", `line 2: game.clock: the increment 2h0m0s must be whole seconds from 0 to 1h0m0s`},
		{"2-hour delay", "game:\n  clock: {base: 10m, delay: 2h}\n", `line 2: game.clock: the delay 2h0m0s must be whole seconds from 0 to 1h0m0s`},
		// Issue 28: the tags a game starts with, checked as new_game checks them (referee/gametags, through app/board's checkTags).
		{"time control tag", "game:\n  tags: {TimeControl: garbage}\n", `line 2: game.tags.TimeControl: time control "garbage"`},
		{"time control tag too long", "game:\n  tags: {TimeControl: 1441+0}\n", `game.tags.TimeControl: time control "1441+0": the base time must be a number of minutes above 0, at most 1440`},
		{"bots tag", "game:\n  tags: {Bots: \"Red:9\"}\n", `game.tags.Bots: Bots tag "Red:9": Red's level must be 1 to 5`},
		{"board's own tag", "game:\n  tags: {GameId: ../../x}\n", `game.tags.GameId: is written by the board itself`},
		{"state in /proc", "state_dir: /proc/boardd\n", `line 1: state_dir: "/proc/boardd" is on /proc, the kernel's proc file system, not a disk`},
		{"state in /sys", "state_dir: /sys/kernel/boardd\n", `state_dir: "/sys/kernel/boardd" is on /sys/kernel, the kernel's sysfs`},
		{"control port on the network", "sensors:\n  listen: 0.0.0.0:7165\n", `line 2: sensors.listen: "0.0.0.0:7165": the control port has no password and moves the pieces, so it listens only on this machine`},
		{"control port on every address", "sensors:\n  listen: \":7165\"\n", `sensors.listen: ":7165": the control port has no password`},
		{"control port on a LAN address", "sensors:\n  listen: 192.168.1.20:7165\n", `sensors.listen: "192.168.1.20:7165": the control port has no password`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.yaml
			if !strings.Contains(text, "state_dir") {
				text += ok
			}
			path := write("c.yaml", text)
			want := path + ": " + tc.err
			if !strings.Contains(tc.err, "line ") {
				want = tc.err
			}
			code, out, errs := runCmd("config", "check", path)
			if code != 1 || !strings.Contains(errs, want) {
				t.Errorf("config check: %d %s%s\nwant the error %q", code, out, errs, want)
			}
			type result struct {
				code      int
				out, errs string
			}
			done := make(chan result, 1)
			go func() {
				code, out, errs := runCmd("run", "--config", path, "--stdin=false")
				done <- result{code, out, errs}
			}()
			select {
			case r := <-done:
				_, runSaid, _ := strings.Cut(r.errs, ": ")
				_, checkSaid, _ := strings.Cut(errs, ": ")
				if r.code != 1 || runSaid != checkSaid {
					t.Errorf("run: %d %s%s\nwant what config check said: %s", r.code, r.out, r.errs, errs)
				}
			case <-time.After(30 * time.Second): // a daemon that started runs until the test binary ends
				t.Errorf("run accepted the config and started; config check said: %s", errs)
			}
		})
	}
}

func TestConfigCheck(t *testing.T) {
	dir, write := fileWriter(t)
	tests := []struct {
		name      string
		args      []string
		code      int
		out, errs string
	}{
		{"good", []string{"config", "check", write("good.yaml", "board: b2\ngame: {variant: ffa}\n")}, 0, "good.yaml: ok (board b2, ffa, switches sim, LEDs none)", ""},
		{"typo", []string{"config", "check", write("typo.yaml", "board: b2\nleds:\n  brigthness: 9\n")}, 1, "", "typo.yaml: line 3: leds: unknown key brigthness (did you mean brightness?)"},
		{"old LED keys", []string{"config", "check", write("old.yaml", "leds:\n  driver: apa102\n  spi: /dev/spidev0.0\n")}, 0, "old.yaml: line 3: leds.spi is deprecated: each LED driver has its own section now; move it to leds.apa102.spi or leds.ws2812.spi (read there for now)", ""},
		{"unknown variant", []string{"config", "check", write("v.yaml", "game: {variant: chaturaji}\n")}, 1, "", `v.yaml: line 1: game.variant: `},
		{"missing file", []string{"config", "check", filepath.Join(dir, "none.yaml")}, 1, "", "no such file"},
		{"example", []string{"config", "example"}, 0, "board: \"1\"", ""},
		{"no verb", []string{"config"}, 2, "", "want 'check FILE' or 'example'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.errs) {
				t.Errorf("code %d, stdout %q, stderr %q; want %d, %q, %q", code, out, errs, tc.code, tc.out, tc.errs)
			}
		})
	}
	// The example config shipped in configs/ passes its own check.
	if code, out, errs := runCmd("config", "check", filepath.Join("..", "..", "configs", "boardd.yaml")); code != 0 {
		t.Errorf("configs/boardd.yaml: %d %s %s", code, out, errs)
	}
}

// Issue 27: config check said only the first problem of a file. It says
// every one, each with its line, in line order; and run says the same.
func TestConfigCheckSaysEveryProblem(t *testing.T) {
	dir, write := fileWriter(t)
	path := write("many.yaml", "board: \"a/b\"\nstate_dir: "+filepath.Join(dir, "state")+"\nsensors:\n  rate: 5\n  drvier: sim\ngame:\n  variant: chaturaji\n  clock: {base: 25h}\nweb:\n  password: x\n  titel: Club\nlog: {level: loud}\n")
	code, _, errs := runCmd("config", "check", path)
	want := []string{
		"9 problems",
		path + `: line 1: board: "a/b": want a short id`,
		path + ": line 4: sensors.rate: 5: want 10 to 2000",
		path + ": line 5: sensors: unknown key drvier (did you mean driver?)",
		path + ": line 7: game.variant: ",
		path + ": line 8: game.clock: the base time 25h0m0s",
		path + ": line 10: web.password: 1 characters",
		path + ": line 11: web: unknown key titel (did you mean title?)",
		path + `: line 12: log.level: "loud": want debug`,
	}
	if code != 1 {
		t.Fatalf("config check: exit %d: %s", code, errs)
	}
	at := 0
	for _, w := range want {
		i := strings.Index(errs[at:], w)
		if i < 0 {
			t.Errorf("config check does not say %q after what came before; it said:\n%s", w, errs)
			continue
		}
		at += i + len(w)
	}
	code, _, runErrs := runCmd("run", "--config", path, "--stdin=false")
	if _, checkSaid, _ := strings.Cut(errs, ": "); code != 1 || !strings.HasSuffix(runErrs, checkSaid) {
		t.Errorf("run says otherwise: %d\n%s\nconfig check:\n%s", code, runErrs, errs)
	}
}

// A tab in the YAML: the parser says "found character that cannot start
// any token"; the check says the line and that YAML wants spaces.
func TestConfigCheckNamesTheTab(t *testing.T) {
	_, write := fileWriter(t)
	for _, tc := range []struct{ yaml, want string }{
		{"board: \"1\"\ngame:\n\tvariant: ffa\n", "line 3: found character that cannot start any token: the line is indented with a tab; YAML allows only spaces there: indent with spaces"},
		{"game:\n  variant: ffa\n\t  start: modern\n", "line 3 is indented with a tab; YAML allows only spaces there"},
		{"sensors:\n  rate: 200\n  quiet:\t400ms\n  debounce:  [\n", "did not find expected node content"}, // a tab after the key is fine
	} {
		code, _, errs := runCmd("config", "check", write("tab.yaml", tc.yaml))
		if code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: %d %s\nwant %q", tc.yaml, code, errs, tc.want)
		}
		if strings.Contains(tc.yaml, "quiet:\t") && strings.Contains(errs, "indented with a tab") {
			t.Errorf("%q: a tab that is not indentation blamed: %s", tc.yaml, errs)
		}
	}
}
