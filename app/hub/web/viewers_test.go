package web_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"boardd/app/hub/web"
)

// With --viewers-login every reading route of the hub needs a login: the
// page of all boards, a board's display, the games, the events, the live
// streams, the JSON and the PGN4 downloads. A page asked without one
// goes to /login (and back after it); anything else is answered 401. The
// viewers' password or the director's logs in; the login page, its
// script and the pages' style stay open. Without the flag every route
// answers as before, GET /api/boards first (the contract: no login).
func TestViewersLoginGuardsEveryReadRoute(t *testing.T) {
	// one hub's store, with a finished game and an event, behind two
	// servers: the hub without the flag and with it
	h := newHub(t)
	l := h.finishedGame(t, "club-1", 4)
	id := web.GameID("club-1", l.State().Game)

	hubHandler := h.srv.Config.Handler
	serve := func(login bool) *httptest.Server {
		srv := httptest.NewServer(web.WithEvents(hubHandler, web.EventsConfig{Store: h.store, Password: "dirpw", ViewersLogin: login, ViewersPassword: "viewpw"}))
		t.Cleanup(srv.Close)
		return srv
	}
	openHub, guarded := serve(false), serve(true)
	director := newEventClient(t, openHub.URL)
	director.must(200, "POST", "/api/director/login", map[string]string{"password": "dirpw"}, nil)
	director.must(201, "POST", "/api/events", map[string]any{"name": "Club night", "kind": "ffa", "rounds": 2, "boards": []string{"club-1"}}, nil)
	director.must(200, "PUT", "/api/events/1/players", "Ann\nBob\nCy\nDi", nil)
	director.must(200, "POST", "/api/events/1/rounds/1/pair", nil, nil)

	pages := []string{"/", "/board/club-1", "/board/club-1?view=" + url.QueryEscape(id), "/games", "/games?player=ann", "/events", "/events/1", "/events/1/players/1"}
	apis := []string{
		"/api/boards", "/api/live", "/api/games", "/api/games?player=ann",
		"/api/games/" + id + ".pgn4", "/api/games/" + id + ".pgn4?download=1", "/api/games/" + id + "/replay",
		"/api/boards/club-1/events", "/api/boards/club-1/state", "/api/boards/club-1/me",
		"/api/boards/club-1/games", "/api/boards/club-1/games/" + id, "/api/boards/club-1/games/" + id + "/replay",
		"/api/boards/club-1/export",
		"/api/events", "/api/events/1", "/api/events/1/standings", "/api/events/1/standings.csv",
		"/api/events/1/players/1", "/api/events/1/pgn4", "/api/events/1/rounds/1/pgn4",
	}
	stillOpen := []string{"/login", "/assets/login.js", "/assets/hub.css", "/static/style.css", "/static/board.js", "/events/static/event.js", "/api/director/me", "/api/viewer/me"}

	noRedirect := func(jar http.CookieJar) *http.Client {
		return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	status := func(c *http.Client, base, path string) (int, string) {
		t.Helper()
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel() // ends the event streams once their headers are in
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Location")
	}
	anon := noRedirect(nil)
	want := map[string]int{}
	for _, p := range append(append(pages, apis...), stillOpen[1:6]...) {
		code, _ := status(anon, openHub.URL, p)
		if code != 200 {
			t.Errorf("without --viewers-login: GET %s: %d, want 200 (no login)", p, code)
		}
		want[p] = code
	}
	if code, _ := status(anon, openHub.URL, "/login"); code != 404 {
		t.Errorf("without --viewers-login: GET /login: %d, want 404 (there is nothing to log in to)", code)
	}

	for _, p := range pages {
		code, loc := status(anon, guarded.URL, p)
		if code != http.StatusSeeOther || loc != "/login?next="+url.QueryEscape(p) {
			t.Errorf("--viewers-login, no login: GET %s: %d to %q, want 303 to the login page and back", p, code, loc)
		}
	}
	for _, p := range apis {
		if code, _ := status(anon, guarded.URL, p); code != 401 {
			t.Errorf("--viewers-login, no login: GET %s: %d, want 401", p, code)
		}
	}
	for _, p := range stillOpen {
		if code, _ := status(anon, guarded.URL, p); code != 200 {
			t.Errorf("--viewers-login, no login: GET %s: %d, want 200 (the login needs it)", p, code)
		}
	}
	if code, _ := status(anon, guarded.URL, "/api/boards/club-1/games/"+id+"/replay"); code != 401 {
		t.Errorf("a stored game's replay under the board's routes: %d, want 401", code)
	}

	login := func(pw string) (*http.Client, int, string) {
		jar, _ := cookiejar.New(nil)
		c := noRedirect(jar)
		resp, err := c.Post(guarded.URL+"/api/viewer/login", "application/json", strings.NewReader(`{"password":"`+pw+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return c, resp.StatusCode, resp.Header.Get("Retry-After")
	}
	viewer, code, _ := login("viewpw")
	if code != 200 {
		t.Fatalf("the viewers' password: %d", code)
	}
	for p, w := range want {
		if code, _ := status(viewer, guarded.URL, p); code != w {
			t.Errorf("a viewer logged in: GET %s: %d, want %d as without the flag", p, code, w)
		}
	}
	// a viewer reads; only the director changes
	req, _ := http.NewRequest("POST", guarded.URL+"/api/events", strings.NewReader(`{"name":"x","kind":"ffa"}`))
	req.Header.Set(web.DirectorHeader, "1")
	if resp, err := viewer.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("a viewer creating an event: %v %v, want 401", resp.StatusCode, err)
	}
	// the director's password on the same login page: the director's session too
	dir, code, _ := login("dirpw")
	if code != 200 {
		t.Fatalf("the director's password on the viewers' login: %d", code)
	}
	if code, _ := status(dir, guarded.URL, "/api/boards"); code != 200 {
		t.Errorf("the director: GET /api/boards %d", code)
	}
	req, _ = http.NewRequest("POST", guarded.URL+"/api/events", strings.NewReader(`{"name":"Second night","kind":"ffa","rounds":1,"boards":["club-1"]}`))
	req.Header.Set(web.DirectorHeader, "1")
	if resp, err := dir.Do(req); err != nil || resp.StatusCode != 201 {
		t.Errorf("the director, logged in on /login, creating an event: %v %v, want 201", resp.StatusCode, err)
	}
	// logging out ends the viewer's session
	if resp, err := viewer.Post(guarded.URL+"/api/viewer/logout", "application/json", nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("logout: %v", err)
	}
	if code, _ := status(viewer, guarded.URL, "/api/boards"); code != 401 {
		t.Errorf("after logging out: GET /api/boards %d, want 401", code)
	}
	// a wrong password is refused, and the address then throttled
	if _, code, _ := login("guess"); code != 401 {
		t.Errorf("a wrong password: %d, want 401", code)
	}
	if _, code, after := login("viewpw"); code != 429 || after == "" {
		t.Errorf("right after a failure: %d (Retry-After %q), want 429 with Retry-After", code, after)
	}
}
