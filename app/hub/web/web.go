// Package web is the club hub's web server. Today it answers one route,
// GET /api/boards: every board that has ever joined the hub, as JSON,
// without a login. The page of all boards, events, pairings and
// standings will be served here too.
package web

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"boardd/app/hub/store"
)

// New returns the hub's HTTP handler over the store.
func New(s *store.Store, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
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
	return mux
}
