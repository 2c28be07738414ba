package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/referee"
)

const testPassword = "s3cret pass"

// newTestServer serves a Server on a fake board at a loopback address.
func newTestServer(t *testing.T, cfg Config) (*fakeBoard, *Server, *httptest.Server) {
	t.Helper()
	return newTunedServer(t, cfg, func(*Server) {})
}

// newTunedServer is newTestServer with tune run on the Server before it
// serves (to shorten its timing).
func newTunedServer(t *testing.T, cfg Config, tune func(*Server)) (*fakeBoard, *Server, *httptest.Server) {
	t.Helper()
	f := newFake()
	if cfg.Board == nil {
		cfg.Board = f
	}
	if cfg.LoginDelay == 0 {
		cfg.LoginDelay = 5 * time.Millisecond
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tune(s)
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return f, s, ts
}

// client is an HTTP client with a cookie jar.
func client(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 10 * time.Second}
}

// do sends a request and answers the status and body.
func do(t *testing.T, c *http.Client, method, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

func login(t *testing.T, c *http.Client, base, password string) *http.Response {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"password": password})
	res, _ := do(t, c, "POST", base+"/api/login", string(b), nil)
	return res
}

func TestNewNeedsBoard(t *testing.T) {
	if _, err := New(Config{}); err == nil || !strings.Contains(err.Error(), "Board") {
		t.Fatalf("New without a board: err = %v, want one naming Config.Board", err)
	}
}

func TestStateAndLightsJSON(t *testing.T) {
	f, _, ts := newTestServer(t, Config{})
	f.play("h2", "h4", "h2-h4")
	f.SetLights(map[string]string{"h4": "#ff0000", "a7": "#0000ff"})
	for _, tc := range []struct {
		path string
		want any
		got  any
	}{
		{"/api/state", f.State(), new(referee.State)},
		{"/api/lights", f.Lights(), new(referee.Lights)},
	} {
		res, body := do(t, http.DefaultClient, "GET", ts.URL+tc.path, "", nil)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET %s: %d %q", tc.path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if err := json.Unmarshal([]byte(body), tc.got); err != nil {
			t.Fatalf("GET %s: %v in %s", tc.path, err, body)
		}
		// Compare through JSON, as a display sees it.
		want, _ := json.Marshal(tc.want)
		got, _ := json.Marshal(tc.got)
		if string(want) != string(got) {
			t.Errorf("GET %s:\n got %s\nwant %s", tc.path, got, want)
		}
	}
	var st referee.State
	_, body := do(t, http.DefaultClient, "GET", ts.URL+"/api/state", "", nil)
	json.Unmarshal([]byte(body), &st)
	if st.Pieces["h4"] != "rP" || st.Pieces["h2"] != "" || len(st.Squares) != 160 || st.Turn != "Blue" {
		t.Errorf("state after h2-h4: h4=%q h2=%q squares=%d turn=%s", st.Pieces["h4"], st.Pieces["h2"], len(st.Squares), st.Turn)
	}
}

func TestPageAndStatic(t *testing.T) {
	_, _, ts := newTestServer(t, Config{Title: `Club <night>`, Password: "x"})
	for _, tc := range []struct {
		path     string
		code     int
		ctype    string
		contains []string
	}{
		{"/", 200, "text/html", []string{"<title>Club &lt;night&gt;</title>", `src="/static/app.js"`, `data-can-login="true"`, `<option value="ffa">`}},
		{"/?seat=Blue&spectator=1", 200, "text/html", []string{`id="board"`}},
		{"/static/app.js", 200, "text/javascript", []string{"EventSource", "X-Boardd-Request"}},
		{"/static/style.css", 200, "text/css", []string{".board"}},
		{"/static/nope.js", 404, "", nil},
		// The raw template (with its {{.Title}}) and directory listings
		// are not served: the page is /, filled in.
		{"/static/index.html", 404, "", nil},
		{"/static/", 404, "", nil},
		{"/static/index.htm%6c", 404, "", nil},
		{"/elsewhere", 404, "", nil},
		{"/api/nope", 404, "application/json", []string{"no such API route"}},
	} {
		res, body := do(t, http.DefaultClient, "GET", ts.URL+tc.path, "", nil)
		if res.StatusCode != tc.code || !strings.HasPrefix(res.Header.Get("Content-Type"), tc.ctype) {
			t.Errorf("GET %s: %d %q, want %d %q", tc.path, res.StatusCode, res.Header.Get("Content-Type"), tc.code, tc.ctype)
		}
		for _, want := range tc.contains {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: body lacks %q", tc.path, want)
			}
		}
	}
	for _, path := range []string{"/", "/static/app.js", "/static/index.html", "/api/state", "/elsewhere"} {
		res, body := do(t, http.DefaultClient, "GET", ts.URL+path, "", nil)
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: CSP = %q, want scripts from the server only", path, csp)
		}
		if strings.Contains(body, "{{") {
			t.Errorf("GET %s: the raw template was served", path)
		}
	}
	res, _ := do(t, http.DefaultClient, "POST", ts.URL+"/api/state", "", nil)
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /api/state: %d, want 405", res.StatusCode)
	}
}

func TestLogin(t *testing.T) {
	for _, tc := range []struct {
		name     string
		password string // configured
		body     string
		code     int
		authed   bool
		errText  string
	}{
		{"right password", testPassword, `{"password":"s3cret pass"}`, 200, true, ""},
		{"wrong password", testPassword, `{"password":"s3cret"}`, 401, false, "wrong password"},
		{"empty password", testPassword, `{"password":""}`, 401, false, "wrong password"},
		{"not JSON", testPassword, `password=s3cret pass`, 400, false, "JSON"},
		{"no password configured", "", `{"password":""}`, 401, false, "read-only"},
		{"no password configured, any guess", "", `{"password":"s3cret pass"}`, 401, false, "read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, ts := newTestServer(t, Config{Password: tc.password})
			c := client(t)
			res, body := do(t, c, "POST", ts.URL+"/api/login", tc.body, nil)
			if res.StatusCode != tc.code {
				t.Fatalf("login: %d %s, want %d", res.StatusCode, body, tc.code)
			}
			var got me
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			if got.Authenticated != tc.authed || !strings.Contains(got.Error, tc.errText) {
				t.Errorf("login answer %+v, want authenticated=%v and error with %q", got, tc.authed, tc.errText)
			}
			var cookie *http.Cookie
			for _, ck := range res.Cookies() {
				if ck.Name == CookieName {
					cookie = ck
				}
			}
			if tc.authed {
				if cookie == nil {
					t.Fatal("no session cookie")
				}
				if !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Path != "/" || len(cookie.Value) < 40 || cookie.MaxAge != 12*3600 {
					t.Errorf("session cookie %+v: want HttpOnly, SameSite=Strict, Path=/, a long random value, 12 h", cookie)
				}
			} else if cookie != nil {
				t.Errorf("failed login set cookie %v", cookie)
			}
			_, body = do(t, c, "GET", ts.URL+"/api/me", "", nil)
			json.Unmarshal([]byte(body), &got)
			if got.Authenticated != tc.authed || got.CanLogin != (tc.password != "") {
				t.Errorf("/api/me = %s, want authenticated %v, can_login %v", body, tc.authed, tc.password != "")
			}
		})
	}
}

func TestLoginsAreDistinctSessions(t *testing.T) {
	_, _, ts := newTestServer(t, Config{Password: testPassword})
	a, b := client(t), client(t)
	login(t, a, ts.URL, testPassword)
	login(t, b, ts.URL, testPassword)
	do(t, a, "POST", ts.URL+"/api/logout", "", nil)
	for _, tc := range []struct {
		c    *http.Client
		want bool
	}{{a, false}, {b, true}} {
		_, body := do(t, tc.c, "GET", ts.URL+"/api/me", "", nil)
		if want := `"authenticated":` + map[bool]string{true: "true", false: "false"}[tc.want]; !strings.Contains(body, want) {
			t.Errorf("/api/me = %s, want %s (logging one session out keeps the other)", body, want)
		}
	}
}

// loginFrom posts a login from a client address straight to the handler;
// a cancelled ctx is a client that hung up without waiting for the answer.
func loginFrom(s *Server, ctx context.Context, addr, password string) *httptest.ResponseRecorder {
	b, _ := json.Marshal(map[string]string{"password": password})
	req := httptest.NewRequestWithContext(ctx, "POST", "/api/login", strings.NewReader(string(b)))
	req.RemoteAddr = addr
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func TestLoginThrottle(t *testing.T) {
	hungUp, cancel := context.WithCancel(context.Background())
	cancel()
	bg := context.Background()
	type try struct {
		ctx      context.Context
		addr     string
		password string
		code     int
		errText  string
	}
	for _, tc := range []struct {
		name  string
		tries []try
	}{
		{"a guess over the limit is refused unchecked", []try{
			{bg, "127.0.0.2:4001", "guess", 401, "wrong password"},
			{bg, "127.0.0.2:4002", testPassword, 429, "too many failed logins from 127.0.0.2: try again in 3600 s"},
		}},
		{"hanging up does not end the wait", []try{
			{hungUp, "127.0.0.2:4001", "guess1", 401, "wrong password"},
			{hungUp, "127.0.0.2:4002", "guess2", 429, "too many failed logins"},
			{bg, "127.0.0.2:4003", testPassword, 429, "too many failed logins"},
		}},
		{"another address is not held up", []try{
			{hungUp, "127.0.0.2:4001", "guess", 401, "wrong password"},
			{bg, "127.0.0.3:4001", testPassword, 200, ""},
		}},
		{"IPv6: one /64 is one client", []try{
			{bg, "[2001:db8::1]:4001", "guess", 401, "wrong password"},
			{bg, "[2001:db8::2]:4001", testPassword, 429, "too many failed logins"},
			{bg, "[2001:db8:0:1::2]:4001", testPassword, 200, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s, _ := newTestServer(t, Config{Password: testPassword, LoginDelay: time.Hour})
			for i, try := range tc.tries {
				rec := loginFrom(s, try.ctx, try.addr, try.password)
				var got me
				json.Unmarshal(rec.Body.Bytes(), &got)
				if rec.Code != try.code || !strings.Contains(got.Error, try.errText) {
					t.Fatalf("try %d from %s: %d %s, want %d with %q", i+1, try.addr, rec.Code, rec.Body, try.code, try.errText)
				}
				if try.code == 429 && rec.Header().Get("Retry-After") != "3600" {
					t.Errorf("try %d: Retry-After %q, want 3600", i+1, rec.Header().Get("Retry-After"))
				}
			}
		})
	}
}

func TestOwnerLogsInDuringAnAttack(t *testing.T) {
	_, s, _ := newTestServer(t, Config{Password: testPassword, LoginDelay: time.Hour})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() { loginFrom(s, context.Background(), fmt.Sprintf("127.0.1.%d:5000", i), "guess") })
	}
	owner := make(chan int)
	go func() { owner <- loginFrom(s, context.Background(), "127.0.0.1:6000", testPassword).Code }()
	select {
	case code := <-owner:
		if code != 200 {
			t.Errorf("owner's login during 20 failed ones: %d, want 200", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("owner's login from another address still waits for others' failures after 10 s")
	}
	wg.Wait()
}

func TestCommands(t *testing.T) {
	on := true
	for _, tc := range []struct {
		name    string
		login   bool
		header  bool
		method  string
		cmd     string
		body    string
		refuse  string // the fake referee's error
		code    int
		errText string
		want    *referee.Command // what Do must receive
	}{
		{name: "no cookie", header: true, cmd: "resign", body: `{"seat":"Blue"}`, code: 401, errText: "log in"},
		{name: "no cookie, no header", cmd: "resign", body: `{"seat":"Blue"}`, code: 401, errText: "log in"},
		{name: "no header", login: true, cmd: "resign", body: `{"seat":"Blue"}`, code: 403, errText: "X-Boardd-Request"},
		{name: "unknown command", login: true, header: true, cmd: "castle", body: `{}`, code: 400, errText: `unknown command "castle": want one of`},
		{name: "unknown field", login: true, header: true, cmd: "resign", body: `{"seat":"Blue","colour":"x"}`, code: 400, errText: `resign: unknown field "colour"`},
		{name: "missing field", login: true, header: true, cmd: "resign", body: `{}`, code: 400, errText: `resign: needs "seat"`},
		{name: "not JSON", login: true, header: true, cmd: "clock", body: `start`, code: 400, errText: "clock: payload must be a JSON object"},
		{name: "too big", login: true, header: true, cmd: "tags", body: `{"tags":{"Event":"` + strings.Repeat("x", referee.MaxCommandBytes) + `"}}`, code: 413, errText: "over the limit"},
		{name: "bidi override in a name", login: true, header: true, cmd: "tags", body: `{"tags":{"Red":"Ann\u202Ennaw"}}`, code: 400,
			errText: `tags: tag Red contains the bidi override, embedding or isolate U+202E (RIGHT-TO-LEFT OVERRIDE) at character 4`},
		{name: "isolate in a name", login: true, header: true, cmd: "tags", body: `{"tags":{"Blue":"\u2067Bob"}}`, code: 400, errText: `U+2067`},
		{name: "zero-width space in a name", login: true, header: true, cmd: "tags", body: `{"tags":{"Green":"Ca\u200Bt"}}`, code: 400, errText: `invisible character U+200B`},
		{name: "GET", login: true, header: true, method: "GET", cmd: "resign", code: 405},
		{name: "resign", login: true, header: true, cmd: "resign", body: `{"seat":"Blue","id":"r1"}`, code: 200,
			want: &referee.Command{Name: "resign", ID: "r1", Seat: "Blue"}},
		{name: "remote", login: true, header: true, cmd: "remote", body: `{"seat":"Green","on":true}`, code: 200,
			want: &referee.Command{Name: "remote", Seat: "Green", On: &on}},
		{name: "empty payload", login: true, header: true, cmd: "takeback_confirm", body: ``, code: 200,
			want: &referee.Command{Name: "takeback_confirm"}},
		{name: "refused", login: true, header: true, cmd: "move", body: `{"seat":"Red","move":"h2-h5"}`, refuse: "move h2-h5: not a legal move", code: 409, errText: "not a legal move",
			want: &referee.Command{Name: "move", Seat: "Red", Move: "h2-h5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, ts := newTestServer(t, Config{Password: testPassword})
			if tc.refuse != "" {
				f.SetReply(func(referee.Command) referee.Reply { return referee.Reply{Error: tc.refuse} })
			}
			c := client(t)
			if tc.login {
				if res := login(t, c, ts.URL, testPassword); res.StatusCode != 200 {
					t.Fatalf("login: %d", res.StatusCode)
				}
			}
			hdr := map[string]string{"Content-Type": "application/json"}
			if tc.header {
				hdr[RequestHeader] = "1"
			}
			method := tc.method
			if method == "" {
				method = "POST"
			}
			res, body := do(t, c, method, ts.URL+"/api/cmd/"+tc.cmd, tc.body, hdr)
			if res.StatusCode != tc.code {
				t.Fatalf("%s /api/cmd/%s: %d %s, want %d", method, tc.cmd, res.StatusCode, body, tc.code)
			}
			if tc.code != 405 {
				var rep referee.Reply
				if err := json.Unmarshal([]byte(body), &rep); err != nil {
					t.Fatalf("reply %q: %v", body, err)
				}
				if rep.OK != (tc.code == 200) || !strings.Contains(rep.Error, tc.errText) {
					t.Errorf("reply %+v, want ok=%v and an error with %q", rep, tc.code == 200, tc.errText)
				}
				if tc.want != nil && rep.ID != tc.want.ID {
					t.Errorf("reply id %q, want %q", rep.ID, tc.want.ID)
				}
			}
			got := f.Commands()
			switch {
			case tc.want == nil && len(got) > 0:
				t.Errorf("Do received %+v; the request should have stopped before the board", got)
			case tc.want != nil && (len(got) != 1 || !reflect.DeepEqual(got[0], *tc.want)):
				t.Errorf("Do received %+v, want [%+v]", got, *tc.want)
			}
		})
	}
}

func TestLogout(t *testing.T) {
	f, _, ts := newTestServer(t, Config{Password: testPassword})
	c := client(t)
	login(t, c, ts.URL, testPassword)
	hdr := map[string]string{RequestHeader: "1"}
	if res, body := do(t, c, "POST", ts.URL+"/api/cmd/clock", `{"action":"start"}`, hdr); res.StatusCode != 200 {
		t.Fatalf("command while logged in: %d %s", res.StatusCode, body)
	}
	res, body := do(t, c, "POST", ts.URL+"/api/logout", "", nil)
	if res.StatusCode != 200 || !strings.Contains(body, `"authenticated":false`) {
		t.Fatalf("logout: %d %s", res.StatusCode, body)
	}
	cleared := false
	for _, ck := range res.Cookies() {
		cleared = cleared || (ck.Name == CookieName && ck.MaxAge < 0)
	}
	if !cleared {
		t.Errorf("logout did not clear the cookie: %v", res.Cookies())
	}
	if res, _ := do(t, c, "POST", ts.URL+"/api/cmd/clock", `{"action":"pause"}`, hdr); res.StatusCode != 401 {
		t.Errorf("command after logout: %d, want 401", res.StatusCode)
	}
	if n := len(f.Commands()); n != 1 {
		t.Errorf("Do received %d commands, want 1 (none after logout)", n)
	}
}

func TestSessionExpires(t *testing.T) {
	_, s, ts := newTestServer(t, Config{Password: testPassword, SessionTTL: time.Hour})
	c := client(t)
	login(t, c, ts.URL, testPassword)
	hdr := map[string]string{RequestHeader: "1"}
	if res, _ := do(t, c, "POST", ts.URL+"/api/cmd/state", ``, hdr); res.StatusCode != 200 {
		t.Fatalf("fresh session: %d", res.StatusCode)
	}
	s.mu.Lock()
	s.now = func() time.Time { return time.Now().Add(time.Hour + time.Minute) }
	s.mu.Unlock()
	if res, _ := do(t, c, "POST", ts.URL+"/api/cmd/state", ``, hdr); res.StatusCode != 401 {
		t.Errorf("session after its TTL: %d, want 401", res.StatusCode)
	}
	s.mu.Lock()
	n := len(s.sessions)
	s.mu.Unlock()
	if n != 0 {
		t.Errorf("%d sessions kept after expiry, want 0", n)
	}
}

func TestForgedCookie(t *testing.T) {
	_, _, ts := newTestServer(t, Config{Password: testPassword})
	hdr := map[string]string{RequestHeader: "1", "Cookie": CookieName + "=made-up-token"}
	if res, _ := do(t, http.DefaultClient, "POST", ts.URL+"/api/cmd/state", ``, hdr); res.StatusCode != 401 {
		t.Errorf("made-up session token: %d, want 401", res.StatusCode)
	}
}
