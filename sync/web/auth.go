package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"boardd/internal/session"
	"boardd/referee"
)

// CookieName is the session cookie's name.
const CookieName = "boardd_session"

// RequestHeader must be "1" on every command request: a cross-site form
// cannot set it, so a session cookie alone is not enough to send commands.
const RequestHeader = session.RequestHeader

// maxSessions bounds the sessions kept in memory; the oldest go first.
const maxSessions = 256

// me is the answer of /api/me, /api/login and /api/logout.
type me struct {
	Authenticated bool   `json:"authenticated"`
	CanLogin      bool   `json:"can_login"`
	Error         string `json:"error,omitempty"`
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, me{Authenticated: s.authed(r), CanLogin: s.cfg.Password != ""})
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Password string `json:"password"`
	}
	body, err := readBody(w, r, 4<<10)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, me{CanLogin: s.cfg.Password != "", Error: `login: want a JSON body {"password":"..."}`})
		return
	}
	if s.cfg.Password == "" {
		writeJSON(w, http.StatusUnauthorized, me{Error: "no password is configured: this display is read-only"})
		return
	}
	client := clientAddr(r)
	ok, wait := s.logins.Attempt(r.RemoteAddr, func() bool { return session.SamePassword(req.Password, s.cfg.Password) })
	if wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		s.log.Debug("web: login refused unchecked: too many failures", "client", client, "retry_after_s", secs)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		writeJSON(w, http.StatusTooManyRequests, me{CanLogin: true, Error: fmt.Sprintf("too many failed logins from %s: try again in %d s", client, secs)})
		return
	}
	if !ok {
		s.log.Warn("web: failed login", "client", client)
		writeJSON(w, http.StatusUnauthorized, me{CanLogin: true, Error: "wrong password"})
		return
	}
	if err := s.keeper().Login(w, r); err != nil {
		writeJSON(w, http.StatusInternalServerError, me{CanLogin: true, Error: "login: " + err.Error()})
		return
	}
	s.log.Info("web: login", "client", clientAddr(r))
	writeJSON(w, http.StatusOK, me{Authenticated: true, CanLogin: true})
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	s.keeper().Logout(w, r)
	writeJSON(w, http.StatusOK, me{CanLogin: s.cfg.Password != ""})
}

// keeper is the display's sessions, under s.mu and s.now.
func (s *Server) keeper() session.Keeper {
	return session.Keeper{Mu: &s.mu, Table: s.sessions, Now: func() time.Time { return s.now() },
		Cookie: CookieName, TTL: s.cfg.SessionTTL, Max: maxSessions}
}

// authed tells whether the request carries a live session cookie.
func (s *Server) authed(r *http.Request) bool {
	return s.cfg.Password != "" && s.keeper().Valid(r)
}

func (s *Server) handleCmd(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if !s.authed(r) {
		writeJSON(w, http.StatusUnauthorized, referee.Reply{Error: name + ": log in first (commands need a session: POST /api/login)"})
		return
	}
	if r.Header.Get(RequestHeader) != "1" {
		writeJSON(w, http.StatusForbidden, referee.Reply{Error: name + ": missing header " + RequestHeader + ": 1 (it guards against cross-site requests)"})
		return
	}
	body, err := readBody(w, r, referee.MaxCommandBytes)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, referee.Reply{Error: fmt.Sprintf("%s: payload over the limit of %d bytes", name, referee.MaxCommandBytes)})
			return
		}
		writeJSON(w, http.StatusBadRequest, referee.Reply{Error: name + ": reading the payload: " + err.Error()})
		return
	}
	cmd, err := referee.ParseCommand(name, body)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, referee.Reply{Error: err.Error()})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	rep := s.cfg.Board.Do(ctx, cmd)
	s.log.Info("web: command", "name", cmd.Name, "client", clientAddr(r), "ok", rep.OK, "error", rep.Error)
	code := http.StatusOK
	if !rep.OK {
		code = http.StatusConflict
	}
	writeJSON(w, code, rep)
}

// OwnerOnly guards a page for the board's owner (the daemon's /metrics):
// it answers for a logged-in session, for a request with HTTP Basic
// authentication carrying the display's password (any user name; a
// Prometheus scrape's basic_auth), throttled like the login, and for
// requests from the board itself (127.0.0.1, ::1). Anyone else gets 401.
func (s *Server) OwnerOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.authed(r) || fromThisMachine(r) {
			h.ServeHTTP(w, r)
			return
		}
		_, pass, basic := r.BasicAuth()
		if basic && s.cfg.Password != "" {
			ok, wait := s.logins.Attempt(r.RemoteAddr, func() bool { return session.SamePassword(pass, s.cfg.Password) })
			if ok {
				h.ServeHTTP(w, r)
				return
			}
			if wait > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
				http.Error(w, "too many failed logins from "+clientAddr(r)+": try again later", http.StatusTooManyRequests)
				return
			}
			s.log.Warn("web: wrong password for "+r.URL.Path, "client", clientAddr(r))
		}
		w.Header().Set("WWW-Authenticate", `Basic realm="boardd", charset="UTF-8"`)
		http.Error(w, r.URL.Path+" is for the board's owner: log in on the page, or use HTTP basic authentication with the display's password", http.StatusUnauthorized)
	})
}

// fromThisMachine tells whether the request came from the board itself.
func fromThisMachine(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	ip = ip.Unmap().WithZone("")
	return ip == netip.MustParseAddr("127.0.0.1") || ip == netip.IPv6Loopback()
}
