package web

import (
	"net/http"

	"boardd/internal/lan"
)

// The join view: the address a phone on the club's network opens, as a
// QR code the page shows (the Join button, or ?join=1 for a TV), drawn
// by the same package and for the same URL as the QR code the terminal
// prints at start.
//
//	GET /api/join      {"url": first, "urls": [all]}, or 404 when the
//	                   display listens on this machine only
//	GET /api/join.png  the first URL as a QR code (PNG, 8 px per module)

// joinInfo is /api/join's answer.
type joinInfo struct {
	URL  string   `json:"url"`
	URLs []string `json:"urls"`
}

func (s *Server) joinRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/join", func(w http.ResponseWriter, r *http.Request) {
		urls, ok := s.joinURLs(w)
		if ok {
			writeJSON(w, http.StatusOK, joinInfo{URL: urls[0], URLs: urls})
		}
	})
	m.HandleFunc("GET /api/join.png", func(w http.ResponseWriter, r *http.Request) {
		urls, ok := s.joinURLs(w)
		if !ok {
			return
		}
		img, err := lan.PNG(urls[0])
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "no-cache") // the address may change with the network
		w.Write(img)
	})
}

// joinURLs is Config.Join's list, or answers 404 saying why there is none.
func (s *Server) joinURLs(w http.ResponseWriter) ([]string, bool) {
	var urls []string
	if s.cfg.Join != nil {
		urls = s.cfg.Join()
	}
	if len(urls) == 0 {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no join address: the web display listens on this machine only; set web.listen: 0.0.0.0:8080 in the config for phones on the network"})
		return nil, false
	}
	return urls, true
}
