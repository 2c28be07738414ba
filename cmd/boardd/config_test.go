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
		{"unknown key, no near one", "web:\n  colour: red\n", `web: unknown key colour (known keys here: listen, password, title, tls_cert, tls_key)`},
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
