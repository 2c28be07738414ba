// Package web is the club hub's web server: the page of all boards, each
// board's full live display, the stored games to look back at, and the
// JSON and event-stream routes they read. Nothing here needs a login;
// boardd hub --viewers-login puts them all behind the viewers' login
// (WithEvents, viewers.go).
//
// # Routes
//
//	GET /                            the page of all boards: a live mini board per table
//	GET /board/{board}               one board's full live display (the board's own page, sync/web)
//	GET /games                       the stored games: search by player, event, date, board
//	GET /static/...                  the board's page's script and style sheets (sync/web)
//	GET /assets/...                  the hub's own pages' script and style sheet
//	GET /api/boards                  every board that ever joined (JSON)
//	GET /api/live                  every board, live (SSE; stream.go)
//	GET /api/boards/{board}/...      one board's routes, as its own page reads them (board.go)
//	GET /api/games                   stored games (JSON; games.go)
//	GET /api/games/{id}.pgn4         one game's PGN4 (?download=1: as a file)
//	GET /api/games/{id}/replay       every position of a game, for the viewer
//
// Event streams are capped per client address and in total
// (Config.MaxStreamsPerAddress, Config.MaxStreams; internal/connlimit);
// past a cap the answer is 503 with Retry-After.
package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"boardd/app/hub/live"
	"boardd/app/hub/store"
	"boardd/internal/connlimit"
	"boardd/rules/pgn4"
	syncweb "boardd/sync/web"
)

// Config is what New's options set.
type Config struct {
	// Live is the hub's live broadcast (nil: no live routes, 404).
	Live *live.Hub
	// Lookup finds the variants of stored games (nil: the built-in ones).
	Lookup pgn4.Lookup
	// MaxStreams caps the event streams open at once (default 1000);
	// MaxStreamsPerAddress those of one client address (default 8: a TV
	// and a few phones behind one address). This machine's own address
	// counts only toward MaxStreams (a reverse proxy on it).
	MaxStreams, MaxStreamsPerAddress int
}

// Option sets a field of Config.
type Option func(*Config)

// WithLive serves the live routes from the broadcast l.
func WithLive(l *live.Hub) Option { return func(c *Config) { c.Live = l } }

// WithLookup finds the stored games' variants with lookup.
func WithLookup(lookup pgn4.Lookup) Option { return func(c *Config) { c.Lookup = lookup } }

// WithStreams caps the event streams (see Config).
func WithStreams(total, perAddress int) Option {
	return func(c *Config) { c.MaxStreams, c.MaxStreamsPerAddress = total, perAddress }
}

// Handler is the hub's web server; Close ends its event streams.
type Handler struct {
	*handler
	mux *http.ServeMux
}

type handler struct {
	cfg     Config
	store   *store.Store
	live    *live.Hub
	log     *slog.Logger
	streams *connlimit.Limiter
	timing  streamTiming
	ctx     context.Context
	stop    context.CancelFunc
}

// New returns the hub's HTTP handler over the store.
func New(s *store.Store, log *slog.Logger, opts ...Option) *Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var cfg Config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = 1000
	}
	if cfg.MaxStreamsPerAddress <= 0 {
		cfg.MaxStreamsPerAddress = 8
	}
	h := &handler{cfg: cfg, store: s, live: cfg.Live, log: log, timing: defaultTiming,
		streams: connlimit.New(connlimit.Config{PerAddress: cfg.MaxStreamsPerAddress, Total: cfg.MaxStreams})}
	h.ctx, h.stop = context.WithCancel(context.Background())
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/boards", func(w http.ResponseWriter, r *http.Request) {
		boards, err := s.Boards(r.Context())
		if err != nil {
			log.Error("hub web: cannot read the boards", "error", err)
			http.Error(w, "the hub cannot read its database; see its log", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(boards)
	})
	h.pageRoutes(mux)
	h.boardRoutes(mux)
	h.gameRoutes(mux)
	mux.HandleFunc("GET /api/live", h.handleEvents)
	return &Handler{handler: h, mux: mux}
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w)
	h.mux.ServeHTTP(w, r)
}

// secure sets the headers every answer of the hub's pages carries.
func secure(w http.ResponseWriter) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", syncweb.CSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
}

// Close ends the open event streams (their viewers come back later) and
// refuses new ones: call it when the HTTP server shuts down
// (http.Server.RegisterOnShutdown), since a stream never goes idle.
func (h *Handler) Close() error {
	h.stop()
	return nil
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

// writeError answers {"error": text}.
func writeError(w http.ResponseWriter, code int, text string) {
	writeJSON(w, code, map[string]string{"error": text})
}

// clip shortens a name from a request for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
