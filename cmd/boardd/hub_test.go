package main

import (
	"bytes"
	"strings"
	"testing"
)

// boardd hub refuses a database it cannot use, and arguments, saying
// why; boardd run refuses a hub URL without the board's account.
func TestHubCommandErrors(t *testing.T) {
	state := t.TempDir()
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
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("boardd %s: exit %d, %q; want %d and %q", strings.Join(c.args, " "), code, errb.String(), c.code, c.want)
		}
	}
}
