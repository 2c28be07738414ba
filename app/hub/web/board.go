package web

import (
	"net/http"
	"slices"
	"strings"

	"boardd/app/hub/live"
	"boardd/app/hub/store"
	syncweb "boardd/sync/web"
)

// A board's routes under /api/boards/{board}/, the ones its own page
// (sync/web's app.js) reads, so /board/{board} is the board's own display:
//
//	GET events                 its live stream (stream.go)
//	GET state                  its View's state (JSON)
//	GET me                     never logged in: the hub takes no commands for a board
//	GET games                  its stored games, as the board lists its archive
//	GET games/{id}             one game's PGN4 (?download=1)
//	GET games/{id}/replay      its positions, for the viewer
//	GET export?event=E         its games of an event in one PGN4 file
//
// Anything else (a command, a login, the join code) answers 404 in JSON.

func (h *handler) boardRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/boards/{board}/events", h.handleBoardEvents)
	m.HandleFunc("GET /api/boards/{board}/state", func(w http.ResponseWriter, r *http.Request) {
		if v, ok := h.boardView(w, r); ok {
			writeJSON(w, http.StatusOK, v.State)
		}
	})
	m.HandleFunc("GET /api/boards/{board}/me", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]bool{"authenticated": false, "can_login": false})
	})
	m.HandleFunc("GET /api/boards/{board}/games", func(w http.ResponseWriter, r *http.Request) {
		items, ok := h.boardGames(w, r, "")
		if ok {
			writeJSON(w, http.StatusOK, items)
		}
	})
	m.HandleFunc("GET /api/boards/{board}/games/{id}", func(w http.ResponseWriter, r *http.Request) {
		h.servePGN4(w, r, strings.TrimSuffix(r.PathValue("id"), ".pgn4"))
	})
	m.HandleFunc("GET /api/boards/{board}/games/{id}/replay", func(w http.ResponseWriter, r *http.Request) {
		h.serveReplay(w, r, r.PathValue("id"))
	})
	m.HandleFunc("GET /api/boards/{board}/export", h.handleBoardExport)
	m.HandleFunc("/api/boards/{board}/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "the hub shows boards; it takes no commands or logins for them (use the board's own page): "+r.Method+" "+clip(r.URL.Path))
	})
}

// boardView finds the board of the request, or answers 404.
func (h *handler) boardView(w http.ResponseWriter, r *http.Request) (live.View, bool) {
	name := r.PathValue("board")
	if h.live != nil {
		if v, ok := h.live.View(name); ok {
			return v, true
		}
	}
	writeError(w, http.StatusNotFound, "no board "+clip(name)+" has joined this hub (GET /api/boards lists them)")
	return live.View{}, false
}

// boardGames lists the board's stored games (of an event, if given), the
// finished ones, newest first.
func (h *handler) boardGames(w http.ResponseWriter, r *http.Request, event string) ([]syncweb.GameItem, bool) {
	name := r.PathValue("board")
	items, err := h.store.Games(r.Context(), store.GameFilter{Board: name, Event: event})
	if err != nil {
		h.log.Error("hub web: cannot list the games", "error", err)
		writeError(w, http.StatusServiceUnavailable, "the hub cannot read its database; see its log")
		return nil, false
	}
	out := []syncweb.GameItem{}
	for _, it := range items {
		if it.Board != name || it.Status != "over" || (event != "" && it.Event != event) {
			continue // Board and Event match parts of names; the board's list wants its own
		}
		g := listItem(it)
		if g.Corrected {
			g.Result += " (corrected)"
		}
		out = append(out, syncweb.GameItem{File: g.ID, Date: it.Started[:min(10, len(it.Started))], Event: it.Event, Round: it.Round,
			Board: it.Board, Variant: it.Variant, Players: it.Players, Result: g.Result})
	}
	return out, true
}

// handleBoardExport answers the board's games of ?event= as one PGN4 file.
func (h *handler) handleBoardExport(w http.ResponseWriter, r *http.Request) {
	event := r.URL.Query().Get("event")
	items, ok := h.boardGames(w, r, event)
	if !ok {
		return
	}
	if len(items) == 0 {
		writeError(w, http.StatusNotFound, "export: no finished game of board "+clip(r.PathValue("board"))+" in event "+clip(event))
		return
	}
	var all []byte
	for i, it := range slices.Backward(items) {
		board, game, _ := parseGameID(it.File)
		text, code, err := h.gamePGN4(r.Context(), board, game)
		if err != nil {
			writeError(w, code, err.Error())
			return
		}
		if i < len(items)-1 {
			all = append(all, '\n')
		}
		all = append(all, text...)
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("Content-Disposition", `attachment; filename="`+fileName(r.PathValue("board"), "games")+`"`)
	w.Write(all)
}
