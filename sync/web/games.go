package web

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"boardd/referee"
	"boardd/sync/archive"
)

// The archive's routes (Config.Games; without it they answer 404 with an
// error that says so):
//
//	GET /api/games                   the finished games, newest first (JSON)
//	GET /api/games/{file}            one game's PGN4 (?download=1: as a file)
//	GET /api/games/{file}/replay     every position of the game (archive.Replayed)
//	GET /api/export?event=E          the event's games in one PGN4 file

// GameItem is one line of GET /api/games: a finished game of the
// archive (the club hub lists a board's stored games the same way, File
// being the game's id there).
type GameItem struct {
	File    string            `json:"file"`
	Date    string            `json:"date"`
	Event   string            `json:"event"`
	Round   string            `json:"round"`
	Board   string            `json:"board"`
	Variant string            `json:"variant"`
	Players map[string]string `json:"players"`
	Result  string            `json:"result"`
}

func (s *Server) gameRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/games", s.handleGames)
	m.HandleFunc("GET /api/games/{file}", s.handleGameFile)
	m.HandleFunc("GET /api/games/{file}/replay", s.handleGameReplay)
	m.HandleFunc("GET /api/export", s.handleExport)
}

// games answers 404 when the display has no archive.
func (s *Server) games(w http.ResponseWriter) (archive.Store, bool) {
	if s.cfg.Games == nil {
		writeJSON(w, http.StatusNotFound, referee.Reply{Error: "this display has no game archive (web.Config.Games is not set)"})
		return archive.Store{}, false
	}
	return *s.cfg.Games, true
}

func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	st, ok := s.games(w)
	if !ok {
		return
	}
	items, bad, err := st.List(archive.Filter{Event: r.URL.Query().Get("event")})
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, referee.Reply{Error: err.Error()})
		return
	}
	for _, b := range bad {
		s.log.Warn("web: game archive", "problem", b)
	}
	out := make([]GameItem, 0, len(items))
	for _, it := range slices.Backward(items) {
		out = append(out, GameItem{File: it.File, Date: it.Date, Event: it.Event, Round: it.Round, Board: it.Board, Variant: it.Variant, Result: it.Result,
			Players: it.PlayerNames()})
	}
	writeJSON(w, http.StatusOK, out)
}

// readGame reads one archived file; the name must be a file of the
// archive's directory.
func (s *Server) readGame(w http.ResponseWriter, r *http.Request) (string, []byte, bool) {
	st, ok := s.games(w)
	if !ok {
		return "", nil, false
	}
	name := r.PathValue("file")
	if name != filepath.Base(name) || !strings.HasSuffix(name, ".pgn4") || strings.HasPrefix(name, ".") {
		writeJSON(w, http.StatusBadRequest, referee.Reply{Error: "game " + clip(name) + ": want a file name from GET /api/games, such as 2026-11-20_Club_r1_board-1.pgn4"})
		return "", nil, false
	}
	data, err := os.ReadFile(filepath.Join(st.Dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		writeJSON(w, http.StatusNotFound, referee.Reply{Error: "game " + name + ": no such file in the archive (GET /api/games lists them)"})
		return "", nil, false
	}
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, referee.Reply{Error: "game " + name + ": " + err.Error()})
		return "", nil, false
	}
	return name, data, true
}

func (s *Server) handleGameFile(w http.ResponseWriter, r *http.Request) {
	name, data, ok := s.readGame(w, r)
	if !ok {
		return
	}
	writePGN4(w, r, name, data)
}

func (s *Server) handleGameReplay(w http.ResponseWriter, r *http.Request) {
	name, data, ok := s.readGame(w, r)
	if !ok {
		return
	}
	rep, err := archive.Replay(data, s.cfg.Lookup)
	if err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, referee.Reply{Error: "game " + name + " cannot be replayed: " + err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	st, ok := s.games(w)
	if !ok {
		return
	}
	event := r.URL.Query().Get("event")
	items, _, err := st.List(archive.Filter{Event: event})
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, referee.Reply{Error: err.Error()})
		return
	}
	if len(items) == 0 {
		writeJSON(w, http.StatusNotFound, referee.Reply{Error: "export: no archived game of event " + clip(event)})
		return
	}
	// One file with every game, blank lines between, as boardd games
	// export writes it.
	var all []byte
	for i, it := range items {
		data, err := os.ReadFile(filepath.Join(st.Dir, it.File))
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, referee.Reply{Error: "export: " + err.Error()})
			return
		}
		if i > 0 {
			all = append(all, '\n')
		}
		all = append(all, data...)
	}
	name := slugName(event, "games") + ".pgn4"
	r.URL.RawQuery = "download=1"
	writePGN4(w, r, name, all)
}

// writePGN4 answers PGN4 text, as a download with ?download=1.
func writePGN4(w http.ResponseWriter, r *http.Request, name string, data []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	if r.URL.Query().Get("download") != "" {
		h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	}
	w.Write(data)
}

// slugName makes a safe file name from an event's name.
func slugName(s, def string) string {
	var b strings.Builder
	dash := false
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
		if ok {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" {
		return def
	}
	return out
}

// clip shortens a user-supplied string for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
