package web

import (
	"embed"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"boardd/app/hub/store"
	syncweb "boardd/sync/web"
)

//go:embed static
var staticFiles embed.FS

// pageRoutes serves the pages and their files.
func (h *handler) pageRoutes(m *http.ServeMux) {
	sub := staticSub()
	m.HandleFunc("GET /{$}", staticPage("hub.html"))
	m.HandleFunc("GET /games", staticPage("games.html"))
	assets := http.FileServerFS(sub)
	m.Handle("GET /assets/", http.StripPrefix("/assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "" || strings.HasSuffix(p, "/") || strings.HasSuffix(p, ".html") {
			http.Error(w, "not found: the pages are /, /games and /board/NAME", http.StatusNotFound)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		assets.ServeHTTP(w, r)
	})))
	m.Handle("GET /static/", http.StripPrefix("/static/", syncweb.StaticHandler()))
	m.HandleFunc("GET /board/{board}", h.handleBoardPage)
}

func staticSub() fs.FS {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // the embedded directory is there
	}
	return sub
}

// staticPage serves the page name of the static directory.
func staticPage(name string) http.HandlerFunc {
	data, err := fs.ReadFile(staticSub(), name)
	if err != nil {
		panic(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(data)
	}
}

// handleBoardPage is a board's full live display: the board's own page,
// reading its routes under /api/boards/{board}. A retired board's history
// (boardd hub forget) has no live display: its page opens one of its
// games (?view=ID, from /games), else goes to its games.
func (h *handler) handleBoardPage(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("board")
	if h.live == nil {
		http.Error(w, "this hub has no live broadcast", http.StatusNotFound)
		return
	}
	if _, ok := h.live.View(name); !ok {
		if _, retired := store.Retired(name); !retired || !h.known(r, name) {
			http.Error(w, "no board "+clip(name)+" has joined this hub: the boards are listed at /", http.StatusNotFound)
			return
		}
		if r.URL.Query().Get("view") == "" { // a retired board's history: its games, not a live board
			http.Redirect(w, r, "/games?board="+url.QueryEscape(name), http.StatusSeeOther)
			return
		}
	}
	data, err := syncweb.RenderPage(syncweb.PageData{Title: name, API: "/api/boards/" + url.PathEscape(name), Home: "/", Copy: copyNote})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(data)
}

// copyNote heads a board's display on the hub: a copy that shows and
// takes no commands, and where they are given.
const copyNote = "The hub's copy of this board's display: it shows the game and takes no commands. " +
	"Commands (a new game, the clock, names, a resignation) are given on the board or on the board's own page, " +
	"at the address the board printed when it started; an event's rounds are pushed from Events."

// known tells whether the store holds anything of the board name.
func (h *handler) known(r *http.Request, name string) bool {
	n, err := h.store.LastSeq(r.Context(), name)
	return err == nil && n > 0
}
