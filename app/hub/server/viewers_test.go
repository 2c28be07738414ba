package server_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardd/app/hub/server"
)

var viewersLine = regexp.MustCompile(`(?m)^  viewers: +log in at (http://\S+)login with the password (\S+) `)

// boardd hub --viewers-login makes the viewers' password on its first
// start, keeps it in the state directory, prints it at every start, and
// the page needs it; without the flag nothing is printed or needed.
func TestViewersLoginPassword(t *testing.T) {
	state := t.TempDir()
	start := func(login bool) (*server.Hub, string) {
		h, err := server.Start(context.Background(), server.Config{StateDir: state, MQTT: "127.0.0.1:0", Web: "127.0.0.1:0", ViewersLogin: login})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		h.Greet(&out)
		return h, out.String()
	}
	get := func(c *http.Client, h *server.Hub) int {
		resp, err := c.Get("http://" + h.WebAddr + "/api/boards")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}

	h, out := start(false)
	if strings.Contains(out, "viewers:  ") || get(http.DefaultClient, h) != 200 {
		t.Errorf("without --viewers-login: GET /api/boards %d, printed\n%s", get(http.DefaultClient, h), out)
	}
	h.Close()

	var pw string
	for i := range 2 { // the same password after a restart
		h, out := start(true)
		m := viewersLine.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("start %d: no viewers' login line in\n%s", i+1, out)
		}
		if i == 1 && m[2] != pw {
			t.Errorf("the viewers' password changed across a restart: %q, then %q", pw, m[2])
		}
		pw = m[2]
		kept, err := os.ReadFile(filepath.Join(state, "hub-web-viewer-password"))
		if err != nil || strings.TrimSpace(string(kept)) != pw {
			t.Errorf("hub-web-viewer-password holds %q (%v), printed %q", kept, err, pw)
		}
		if code := get(http.DefaultClient, h); code != 401 {
			t.Errorf("--viewers-login: GET /api/boards without a login: %d, want 401", code)
		}
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}
		resp, err := c.Post("http://"+h.WebAddr+"/api/viewer/login", "application/json", strings.NewReader(`{"password":"`+pw+`"}`))
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("logging in with the printed password: %v %v", resp, err)
		}
		resp.Body.Close()
		if code := get(c, h); code != 200 {
			t.Errorf("logged in: GET /api/boards %d, want 200", code)
		}
		h.Close()
	}
}
