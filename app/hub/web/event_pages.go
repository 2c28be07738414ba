package web

import (
	"embed"
	"net/http"
)

// eventFiles are the events' page (one page: the list, an event, a
// player, chosen by its path) and its script and style.
//
//go:embed event.html event.js event.css
var eventFiles embed.FS

// pages serves the events' pages: /events, /events/{id},
// /events/{id}/players/{pid}, and their files under /events/static/.
func (e *events) pages(mux *http.ServeMux) {
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'")
		http.ServeFileFS(w, r, eventFiles, "event.html")
	}
	mux.HandleFunc("GET /events", page)
	mux.HandleFunc("GET /events/{id}", page)
	mux.HandleFunc("GET /events/{id}/players/{pid}", page)
	mux.HandleFunc("GET /events/static/{file}", func(w http.ResponseWriter, r *http.Request) {
		switch f := r.PathValue("file"); f {
		case "event.js", "event.css":
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, eventFiles, f)
		default:
			http.NotFound(w, r)
		}
	})
}
