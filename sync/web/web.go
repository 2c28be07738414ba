// Package web serves the board's live web display: one page that draws the
// cross board, the seats, clocks, move list and recent messages, kept up
// to date over Server-Sent Events, and (after a login) sends commands to
// the referee.
//
// # Routes
//
//	GET  /                 the page (HTML, CSS and JS embedded in the binary)
//	GET  /static/...       the page's script and style sheet (not its HTML
//	                       template, nor a directory listing: 404)
//	GET  /api/state        the current referee.State as JSON
//	GET  /api/lights       the current referee.Lights as JSON
//	GET  /api/events       Server-Sent Events (see below)
//	POST /api/login        {"password":"..."}: starts a session (cookie)
//	POST /api/logout       ends the session
//	GET  /api/me           {"authenticated":bool,"can_login":bool}
//	POST /api/cmd/{name}   a referee command; the body is its JSON payload
//	GET  /api/games...     the archive of finished games (games.go)
//
// The page understands ?seat=Blue (that seat at the bottom), ?spectator=1
// (the board and the essentials, no controls: for a TV) and ?leds=1 (tint
// the squares with the board's LED colours).
//
// # Events
//
// GET /api/events?from=N answers a stream of events. "state" (the full
// referee.State) and "lights" (referee.Lights) come at once and again
// whenever the board signals a change, at most every 50 ms and only when
// they differ from the last one sent. "message" carries each
// referee.Message with Seq >= N in order (the kept backlog first, then live
// ones; from=0 is everything the board keeps) and has the message's Seq
// as its SSE id, so a client resumes with from=lastSeq+1 (or the
// Last-Event-ID header). Without from, the stream
// starts with the last Config.Backlog messages (or as many as the board
// still keeps). "gap" ({"from":N,"error":"..."}) says
// messages from N are no longer kept: the stream continues with new ones,
// and the state event has the whole picture. Comment lines keep idle
// connections alive.
// One client address may hold Config.MaxStreamsPerAddress streams (4)
// and all together Config.MaxStreams (64); past a cap the answer is 503
// with Retry-After, except that when all are taken, the address holding
// the most streams gives up its oldest to an address holding fewer (so a
// few clients cannot blank every display), and a logged-in session always
// gets a stream (up to 16 of them; past that its oldest ends).
//
// # Connections
//
// The daemon serves the display through Listen and HTTPServer (serve.go):
// connections are capped per client address and in total (connections
// that sent nothing yet and kept-alive ones make room for newcomers,
// internal/connlimit), headers must come within 10 s and keep-alives
// close after 30 s. docs/security.md lists every limit.
//
// # Authentication
//
// Everyone may watch; only a logged-in session may send commands. With an
// empty Config.Password nobody can log in. POST /api/login compares the
// password in constant time; a wrong one answers 401. Guessing is limited
// per client address before the password is looked at (internal/throttle):
// after a failure the address waits Config.LoginDelay, doubling with each
// failure in a row up to a minute, and an earlier attempt answers 429 with
// Retry-After, unchecked; past 30 failures a minute from all addresses
// together, only addresses that logged in before and the board itself
// (127.0.0.1, ::1) are checked, so guessing from thousands of addresses
// is bounded too while the owner still gets in. Hanging up early gains
// nothing. The
// right password sets an HttpOnly, SameSite=Strict cookie (Secure when the
// request came over TLS) holding a random token that the server keeps in memory until it expires
// (Config.SessionTTL) or the session logs out; sessions do not survive a
// restart. POST /api/cmd/{name} needs that cookie (401 without) and the
// header "X-Boardd-Request: 1" (403 without), which a cross-site form
// cannot send. The payload may be up to referee.MaxCommandBytes (413
// beyond). The command is checked with referee.ParseCommand (400 with the
// error), carried out with Board.Do, and its referee.Reply is the answer:
// 200 if OK, 409 if the referee refused it. Every error answer of /api/ is
// JSON with an "error" field that says what was wrong.
package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"boardd/internal/session"
	"boardd/internal/throttle"
	"boardd/referee"
	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

//go:embed static
var staticFiles embed.FS

// Config configures a Server.
type Config struct {
	// Board is the live board to show and command. Required.
	Board referee.Board
	// Password unlocks the commands. Empty: nobody can log in and the
	// display is read-only for everyone.
	Password string
	// Title heads the page (default "boardd").
	Title string
	// Log receives logins and commands; nil discards them.
	Log *slog.Logger
	// SessionTTL is how long a login lasts (default 12 h).
	SessionTTL time.Duration
	// LoginDelay is how long a client address must wait after a failed
	// login before its next attempt is checked; it doubles with each
	// failure in a row, up to a minute (default 1 s).
	LoginDelay time.Duration
	// Variants are the variant names the new-game form offers (default
	// ffa, teams, stevenson, essay-ffa, essay-partners). Any name may
	// still be typed.
	Variants []string
	// Backlog is how many recent messages a stream opened without ?from=
	// starts with (default 50).
	Backlog int
	// Games is the archive of finished games the page lists, shows and
	// exports (nil: none; see games.go for the routes).
	Games *archive.Store
	// Lookup finds the variants of archived games (nil: the built-in
	// ones).
	Lookup pgn4.Lookup
	// MaxStreams caps the event streams open at once (default 64, a
	// club's displays and phones several times over); past it
	// /api/events answers 503 with Retry-After, so open streams cannot
	// take the Pi's memory.
	MaxStreams int
	// MaxStreamsPerAddress caps the event streams of one client address
	// (default 4: a TV and a phone's tabs). When MaxStreams are open, the
	// address holding the most gives up its oldest stream to an address
	// holding fewer, and a logged-in session always gets a stream (see
	// Events in the package doc).
	MaxStreamsPerAddress int
	// Join returns the addresses a phone on the club's network can open,
	// the first drawn as the join QR code (lan.Join: the same URL the
	// terminal prints at start); nil, or an empty list, when the display
	// listens on this machine only. See join.go for the routes.
	Join func() []string
}

// Server is the web display. It is an http.Handler for the routes /,
// /static/ and /api/; mount it at the root of the daemon's HTTP listener.
type Server struct {
	cfg       Config
	log       *slog.Logger
	mux       *http.ServeMux
	page      []byte
	ctx       context.Context // cancelled by Close: ends the event streams
	stop      context.CancelFunc
	logins    *throttle.Limiter // failed logins per client address
	streams   atomic.Int64      // event streams open now
	streamTab streamTable       // the open streams by address
	timing    streamTiming      // the event streams' pace (defaultTiming)

	mu       sync.Mutex
	sessions session.Table // the logins
	now      func() time.Time
}

// DefaultVariants are the variant names the new-game form offers unless
// Config.Variants says otherwise.
var DefaultVariants = []string{"ffa", "teams", "stevenson", "essay-ffa", "essay-partners"}

// New checks the config and builds the server.
func New(cfg Config) (*Server, error) {
	if cfg.Board == nil {
		return nil, errors.New("web: Config.Board is nil: the display needs a board to show")
	}
	if cfg.Title == "" {
		cfg.Title = "boardd"
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 12 * time.Hour
	}
	if cfg.LoginDelay <= 0 {
		cfg.LoginDelay = time.Second
	}
	if len(cfg.Variants) == 0 {
		cfg.Variants = DefaultVariants
	}
	if cfg.Backlog <= 0 {
		cfg.Backlog = 50
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = 64
	}
	if cfg.MaxStreamsPerAddress <= 0 {
		cfg.MaxStreamsPerAddress = 4
	}
	s := &Server{cfg: cfg, log: cfg.Log, sessions: session.Table{}, now: time.Now, timing: defaultTiming,
		logins: throttle.New(throttle.Config{Delay: cfg.LoginDelay})}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.ctx, s.stop = context.WithCancel(context.Background())

	page, err := RenderPage(PageData{Title: cfg.Title, Variants: cfg.Variants, CanLogin: cfg.Password != ""})
	if err != nil {
		return nil, err
	}
	s.page = page
	files := http.StripPrefix("/static/", StaticHandler())

	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.handlePage)
	m.Handle("GET /static/", files)
	m.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.cfg.Board.State())
	})
	m.HandleFunc("GET /api/lights", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.cfg.Board.Lights())
	})
	m.HandleFunc("GET /api/events", s.handleEvents)
	m.HandleFunc("POST /api/login", s.handleLogin)
	m.HandleFunc("POST /api/logout", s.handleLogout)
	m.HandleFunc("GET /api/me", s.handleMe)
	m.HandleFunc("POST /api/cmd/{name}", s.handleCmd)
	s.gameRoutes(m)
	s.joinRoutes(m)
	m.HandleFunc("/api/", s.handleNoRoute)
	s.mux = m
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp) // every answer, whatever route serves it
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// A body (a login, a command) must arrive in time: a client that
		// trickles it holds its connection no longer, nor does the server
		// wait for it to discard what a handler did not read.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.timing.body)) // not every writer supports it
	}
	s.mux.ServeHTTP(w, r)
}

// Stats are the web display's counters, for /metrics.
type Stats struct {
	// Streams is the event streams open now.
	Streams int64
	// Logins counts login attempts: checked, failed (of those) and
	// refused unchecked because the client address had to wait.
	Logins throttle.Counts
}

// Stats returns the counters.
func (s *Server) Stats() Stats {
	return Stats{Streams: s.streams.Load(), Logins: s.logins.Counts()}
}

// Close ends the open event streams (their clients reconnect elsewhere or
// later) and refuses new ones. Call it when the HTTP server shuts down, for
// example with http.Server.RegisterOnShutdown: an event stream never goes
// idle by itself, so http.Server.Shutdown would otherwise wait for it.
func (s *Server) Close() error {
	s.stop()
	return nil
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.Write(s.page)
}

// PageData fills the display's page (static/index.html).
type PageData struct {
	// Title heads the page.
	Title string
	// Variants are the names the new-game form offers.
	Variants []string
	// CanLogin shows the login button.
	CanLogin bool
	// API is where the page's script finds its routes (default "/api"):
	// the club hub serves a board's display under /api/boards/NAME.
	API string
	// Home, when set, is a link back before the title (the club hub's
	// page of every board).
	Home string
	// Copy, when set, makes the page a read-only copy of the board's
	// display (the club hub's): it says where the board takes commands,
	// and what cannot work on a copy is left out (the LEDs toggle: the
	// copy has no lights; the login and the controls).
	Copy string
}

// RenderPage fills the display's page. Its script and style sheets are
// at /static/ (StaticHandler).
func RenderPage(d PageData) ([]byte, error) {
	tmpl, err := template.ParseFS(staticFiles, "static/index.html")
	if err != nil {
		return nil, err
	}
	if d.API == "" {
		d.API = "/api"
	}
	var page bytes.Buffer
	if err := tmpl.Execute(&page, d); err != nil {
		return nil, err
	}
	return page.Bytes(), nil
}

// StaticHandler serves the display's script, style sheets and images
// (board.js draws a board, app.js is the page's; the club hub's page
// draws its boards with the same files) from a path without the /static/
// prefix; not the page's template, nor directory listings.
func StaticHandler() http.Handler {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // the embedded directory is there
	}
	return noCache(assetsOnly(http.FileServerFS(sub)))
}

// CSP is the Content-Security-Policy of every answer: the page runs only
// its own script and style.
const CSP = csp

// csp is the Content-Security-Policy of every answer: the page runs only
// its own script and style.
const csp = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// assetsOnly serves the page's script, style sheet and images, but not
// the HTML templates (the page is /, filled in) nor directory listings.
func assetsOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "" || strings.HasSuffix(p, "/") || strings.HasSuffix(p, ".html") {
			http.Error(w, "not found: the page is at /", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// handleNoRoute answers API requests no route takes, in JSON: 405 if the
// path takes another method, else 404.
func (s *Server) handleNoRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		other := r.Clone(r.Context())
		other.Method = method
		if _, pattern := s.mux.Handler(other); pattern != "/api/" {
			allow = append(allow, method)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeJSON(w, http.StatusMethodNotAllowed, referee.Reply{Error: r.URL.Path + " takes " + strings.Join(allow, " or ") + ", not " + r.Method})
		return
	}
	writeJSON(w, http.StatusNotFound, referee.Reply{Error: "no such API route: " + r.Method + " " + r.URL.Path})
}

func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// writeJSON answers v as JSON with the status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "encoding the answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// clientAddr names a request's client for the log.
func clientAddr(r *http.Request) string {
	if i := strings.LastIndexByte(r.RemoteAddr, ':'); i > 0 {
		return r.RemoteAddr[:i]
	}
	return r.RemoteAddr
}
