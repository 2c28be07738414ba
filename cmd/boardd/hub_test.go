package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/app/hub/enroll"
)

// boardd hub refuses a database it cannot use, and arguments, saying
// why; boardd run refuses a hub URL without the board's account.
func TestHubCommandErrors(t *testing.T) {
	state := t.TempDir()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, []byte("not a certificate"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hub", "--state", state, "--db", "mysql://club/games", "--mqtt", "127.0.0.1:0", "--web", "127.0.0.1:0"}, 1, `unknown scheme "mysql"`},
		{[]string{"hub", "extra"}, 2, `unexpected argument "extra"`},
		// boardd run --hub takes only the whole URL the hub prints.
		{[]string{"run", "--state", state, "--web", "off", "--hub", "mqtt://board@127.0.0.1:1884"}, 1, `mqtt.hub: the URL names user "board" but no password`},
		{[]string{"run", "--state", state, "--web", "off", "--hub", "127.0.0.1:1884"}, 1, `mqtt.hub: want the URL boardd hub prints`},
		{[]string{"run", "--state", state, "--web", "off", "--hub", "http://board:pw@127.0.0.1:1884"}, 1, `mqtt.hub`},
		{[]string{"run", "--state", state, "--web", "off", "--hub", "mqtt://board:pw@127.0.0.1:1884,mqtt://board:other@127.0.0.1:1885"}, 1, `mqtt.hub: URL 2: another account`},
		{[]string{"run", "--state", state, "--web", "off", "--hub", "mqtt://board:pw@127.0.0.1:1884", "--hub-ca", ca}, 1, `mqtt.hub_tls: mqtt broker URL "mqtt://127.0.0.1:1884": TLS files are set but the URL is not ssl://`},
		{[]string{"run", "--state", state, "--web", "off", "--hub", "ssl://board:pw@127.0.0.1:1884", "--hub-ca", ca}, 1, `mqtt.hub_tls.ca_file: mqtt TLS: CA file ` + ca + ` holds no PEM certificate`},
		{[]string{"hub", "--state", state, "--broker", "mqtt://hub:pw@127.0.0.1:1,http://x:2", "--web", "off"}, 1, `--broker: broker URL http://x:2: unknown scheme "http"`},
		{[]string{"hub", "forget"}, 2, `boardd hub forget [--state DIR] [--db PATH|postgres://…] NAME`},
		{[]string{"hub", "forget", "--state", state, "club-9"}, 1, `board "club-9" has not joined the hub whose state directory is ` + state},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("boardd %s: exit %d, %q; want %d and %q", strings.Join(c.args, " "), code, errb.String(), c.code, c.want)
		}
	}
}

// boardd hub forget releases a name the hub's broker knows.
func TestHubForget(t *testing.T) {
	state := t.TempDir()
	k, err := enroll.Open(state, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Enroll("club-1", "old-key"); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"hub", "forget", "--state", state, "club-1"}, &out, &errb); code != 0 || !strings.Contains(out.String(), `board "club-1" forgotten`) {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	if k.Enrolled("club-1") || k.Enroll("club-1", "new-key") != nil {
		t.Error("the name was not released")
	}
}

// boardd hub import DIR: the games stored once, bad files named, the
// summary line; exit 1 while a file could not be imported.
func TestHubImport(t *testing.T) {
	state, dir := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, "club-1"), 0o755)
	game, err := os.ReadFile("../../testdata/games/teams/4pchess-26780486.pgn4")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "club-1", "g1.pgn4"), game, 0o644)
	for i, want := range []string{"1 files, 1 games: 1 stored", "1 files, 1 games: 0 stored, 1 already there"} {
		var out, errb bytes.Buffer
		if code := run([]string{"hub", "import", "--state", state, dir}, &out, &errb); code != 0 || !strings.Contains(out.String(), want) {
			t.Fatalf("run %d: exit %d: %s %s; want %q", i+1, code, out.String(), errb.String(), want)
		}
	}
	os.WriteFile(filepath.Join(dir, "club-1", "bad.pgn4"), []byte("not a game"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"hub", "import", "--state", state, dir}, &out, &errb); code != 1 || !strings.Contains(out.String(), "bad.pgn4: ") || !strings.Contains(errb.String(), "could not be imported") {
		t.Errorf("a bad file: exit %d: %s %s", code, out.String(), errb.String())
	}
}
