package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"boardd/internal/session"
)

// The viewers' login (boardd hub --viewers-login): every reading route of
// the hub — the page of all boards, each board's display, the games, the
// events, the live streams, the JSON and the PGN4 downloads — then needs
// a session. Viewers log in on /login with the viewers' password (made on
// the hub's first start with the flag and kept in its state directory,
// hub-web-viewer-password) or the director's; the director's session
// opens everything too. Only the login itself, the pages' scripts and
// style sheets stay open. Failed logins share the director's throttle.

// ViewerCookie is a viewer's session cookie.
const ViewerCookie = "boardd_hub_viewer"

// viewerSessionTTL is how long a viewer's login lasts (a TV on the wall
// stays logged in for a week of club nights); maxViewerSessions bounds the
// sessions kept (the oldest go first).
const (
	viewerSessionTTL  = 7 * 24 * time.Hour
	maxViewerSessions = 4096
)

// viewers keeps the viewers' sessions and guards the reading routes.
type viewers struct {
	password string
	d        *director // its password logs in too; its sessions pass; its throttle counts
	sessions session.Keeper
}

func newViewers(password string, d *director) *viewers {
	return &viewers{password: password, d: d, sessions: session.Keeper{Mu: &sync.Mutex{}, Table: session.Table{}, Now: d.now,
		Cookie: ViewerCookie, TTL: viewerSessionTTL, Max: maxViewerSessions}}
}

// viewerMe is the answer of the viewers' login routes.
type viewerMe struct {
	Viewer   bool   `json:"viewer"`
	Director bool   `json:"director"`
	Error    string `json:"error,omitempty"`
}

func (v *viewers) authed(r *http.Request) bool {
	return v.d.authed(r) || v.sessions.Valid(r)
}

func (v *viewers) handleMe(w http.ResponseWriter, r *http.Request) {
	eventJSON(w, http.StatusOK, viewerMe{Viewer: v.authed(r), Director: v.d.authed(r)})
}

// handleLogin takes the viewers' password (a viewer's session) or the
// director's (the director's session as well).
func (v *viewers) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Password string `json:"password"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req); err != nil {
		eventJSON(w, http.StatusBadRequest, viewerMe{Error: `login: want a JSON body {"password":"..."}`})
		return
	}
	var viewer, director bool
	ok, wait := v.d.logins.Attempt(r.RemoteAddr, func() bool {
		viewer = v.password != "" && session.SamePassword(req.Password, v.password)
		director = v.d.password != "" && session.SamePassword(req.Password, v.d.password)
		return viewer || director
	})
	if wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		eventJSON(w, http.StatusTooManyRequests, viewerMe{Error: fmt.Sprintf("too many failed logins from this address: try again in %d s", secs)})
		return
	}
	if !ok {
		eventJSON(w, http.StatusUnauthorized, viewerMe{Error: "wrong password (the viewers' password is printed when the hub starts and kept in its state directory, hub-web-viewer-password)"})
		return
	}
	err := v.sessions.Login(w, r)
	if err == nil && director {
		err = v.d.sessions.Login(w, r)
	}
	if err != nil {
		eventJSON(w, http.StatusInternalServerError, viewerMe{Error: "login: " + err.Error()})
		return
	}
	eventJSON(w, http.StatusOK, viewerMe{Viewer: true, Director: director})
}

func (v *viewers) handleLogout(w http.ResponseWriter, r *http.Request) {
	v.sessions.Logout(w, r)
	eventJSON(w, http.StatusOK, viewerMe{})
}

// open tells whether a request needs no login even with --viewers-login:
// the login page and routes, the pages' scripts and style sheets.
func open(r *http.Request) bool {
	p := r.URL.Path
	switch r.Method + " " + p {
	case "GET /login", "GET /api/viewer/me", "POST /api/viewer/login", "POST /api/viewer/logout",
		"GET /api/director/me", "POST /api/director/login", "POST /api/director/logout":
		return true
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	return strings.HasPrefix(p, "/assets/") || strings.HasPrefix(p, "/static/") || strings.HasPrefix(p, "/events/static/")
}

// guard answers every request but the open ones only with a session: a
// page asked without one goes to /login (and back after), anything else
// is answered 401. (A page whose stream breaks asks for itself with HEAD:
// once the session has ended, it goes to /login too.)
func (v *viewers) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if open(r) || v.authed(r) {
			next.ServeHTTP(w, r)
			return
		}
		secure(w)
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && !strings.HasPrefix(r.URL.Path, "/api/") {
			http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		eventError(w, http.StatusUnauthorized, "this hub shows its boards, games and events after a login: POST /api/viewer/login {\"password\": …} with the viewers' password (printed when the hub starts) or the director's, or log in at /login")
	})
}
