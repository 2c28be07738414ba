package web

import (
	"embed"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

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
// reading its routes under /api/boards/{board}.
func (h *handler) handleBoardPage(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("board")
	if h.live == nil {
		http.Error(w, "this hub has no live broadcast", http.StatusNotFound)
		return
	}
	if _, ok := h.live.View(name); !ok {
		http.Error(w, "no board "+clip(name)+" has joined this hub: the boards are listed at /", http.StatusNotFound)
		return
	}
	data, err := syncweb.RenderPage(syncweb.PageData{Title: name, API: "/api/boards/" + url.PathEscape(name), Home: "/"})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(data)
}
