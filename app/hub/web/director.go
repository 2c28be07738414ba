package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"boardd/internal/session"
	"boardd/internal/throttle"
)

// The tournament director's login. The director has one password, made
// on the hub's first start and kept in its state directory (hub/server);
// logging in with it gives a session cookie, and every route that
// changes an event needs that session and the DirectorHeader. Failed
// logins are throttled per client address by internal/throttle, as the
// board's own page throttles its logins.

// DirectorCookie is the director's session cookie.
const DirectorCookie = "boardd_hub_director"

// DirectorHeader must be "1" on every changing request, as on the board's
// own page: a cross-site form cannot set it, so the cookie alone is not
// enough.
const DirectorHeader = session.RequestHeader

// directorSessionTTL is how long a director's login lasts; maxDirectorSessions bounds
// the sessions kept (the oldest go first).
const (
	directorSessionTTL  = 12 * time.Hour
	maxDirectorSessions = 64
)

// director checks the director's password and keeps the sessions.
type director struct {
	password string
	logins   *throttle.Limiter
	now      func() time.Time

	sessions session.Keeper
}

func newDirector(password string, now func() time.Time) *director {
	if now == nil {
		now = time.Now
	}
	return &director{password: password, now: now, logins: throttle.New(throttle.Config{Now: now}),
		sessions: session.Keeper{Mu: &sync.Mutex{}, Table: session.Table{}, Now: now, Cookie: DirectorCookie, TTL: directorSessionTTL, Max: maxDirectorSessions}}
}

// directorMe is the answer of the login routes.
type directorMe struct {
	Director bool   `json:"director"`
	CanLogin bool   `json:"can_login"`
	Error    string `json:"error,omitempty"`
}

func (d *director) handleMe(w http.ResponseWriter, r *http.Request) {
	eventJSON(w, http.StatusOK, directorMe{Director: d.authed(r), CanLogin: d.password != ""})
}

func (d *director) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Password string `json:"password"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req); err != nil {
		eventJSON(w, http.StatusBadRequest, directorMe{CanLogin: d.password != "", Error: `login: want a JSON body {"password":"..."}`})
		return
	}
	if d.password == "" {
		eventJSON(w, http.StatusUnauthorized, directorMe{Error: "this hub has no director's password: events are read-only"})
		return
	}
	ok, wait := d.logins.Attempt(r.RemoteAddr, func() bool { return session.SamePassword(req.Password, d.password) })
	if wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		eventJSON(w, http.StatusTooManyRequests, directorMe{CanLogin: true, Error: fmt.Sprintf("too many failed logins from %s: try again in %d s", throttle.Key(r.RemoteAddr), secs)})
		return
	}
	if !ok {
		eventJSON(w, http.StatusUnauthorized, directorMe{CanLogin: true, Error: "wrong password (the director's password is in the hub's state directory, hub-director-password)"})
		return
	}
	if err := d.sessions.Login(w, r); err != nil {
		eventJSON(w, http.StatusInternalServerError, directorMe{CanLogin: true, Error: "login: " + err.Error()})
		return
	}
	eventJSON(w, http.StatusOK, directorMe{Director: true, CanLogin: true})
}

func (d *director) handleLogout(w http.ResponseWriter, r *http.Request) {
	d.sessions.Logout(w, r)
	eventJSON(w, http.StatusOK, directorMe{CanLogin: d.password != ""})
}

// authed tells whether the request carries a live director's session.
func (d *director) authed(r *http.Request) bool {
	return d.password != "" && d.sessions.Valid(r)
}

// only guards a changing route: a director's session and the
// DirectorHeader, or 401/403 saying what is missing.
func (d *director) only(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !d.authed(r) {
			eventError(w, http.StatusUnauthorized, "the tournament director's login is needed: POST /api/director/login")
			return
		}
		if r.Header.Get(DirectorHeader) != "1" {
			eventError(w, http.StatusForbidden, "missing header "+DirectorHeader+": 1 (it guards against cross-site requests)")
			return
		}
		h(w, r)
	}
}

func eventJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func eventError(w http.ResponseWriter, code int, msg string) {
	eventJSON(w, code, map[string]string{"error": msg})
}
