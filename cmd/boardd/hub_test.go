package main

import (
	"bytes"
	"strings"
	"testing"
)

// boardd hub refuses a database it cannot use, and arguments, saying why.
func TestHubCommandErrors(t *testing.T) {
	state := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hub", "--state", state, "--db", "mysql://club/games", "--mqtt", "127.0.0.1:0", "--web", "127.0.0.1:0"}, 1, `unknown scheme "mysql"`},
		{[]string{"hub", "extra"}, 2, `unexpected argument "extra"`},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("boardd %s: exit %d, %q; want %d and %q", strings.Join(c.args, " "), code, errb.String(), c.code, c.want)
		}
	}
}
