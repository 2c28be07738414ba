package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"boardd/app/hub/store"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

// A stored game's id is its board and its game id on the board, joined by
// "~" (each with "~" and "%" escaped as %7E and %25): club-1~20261128-124646.

// GameID is the id the hub's routes know a stored game by.
func GameID(board, game string) string {
	esc := strings.NewReplacer("%", "%25", "~", "%7E")
	return esc.Replace(board) + "~" + esc.Replace(game)
}

// parseGameID splits a GameID.
func parseGameID(id string) (board, game string, err error) {
	b, g, ok := strings.Cut(id, "~")
	if ok && !strings.Contains(g, "~") && b != "" && g != "" {
		unesc := strings.NewReplacer("%7E", "~", "%7e", "~", "%25", "%")
		return unesc.Replace(b), unesc.Replace(g), nil
	}
	return "", "", fmt.Errorf("game %q: want BOARD~GAME, as GET /api/games lists them (id)", clip(id))
}

// gameItem is one line of GET /api/games: the store's, with its id.
type gameItem struct {
	ID string `json:"id"`
	store.GameItem
}

func (h *handler) gameRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/games", h.handleGames)
	m.HandleFunc("GET /api/games/{id}", h.handleGameFile)
	m.HandleFunc("GET /api/games/{id}/replay", h.handleGameReplay)
}

// handleGames lists stored games: ?player=, ?event=, ?board= (a part of
// the name) and ?date= (2026-11-28, 2026-11 or 2026).
func (h *handler) handleGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.GameFilter{Player: q.Get("player"), Event: q.Get("event"), Board: q.Get("board"), Date: q.Get("date")}
	for _, v := range []string{f.Player, f.Event, f.Board, f.Date} {
		if len(v) > 200 {
			writeError(w, http.StatusBadRequest, "a search term is at most 200 bytes")
			return
		}
	}
	items, err := h.store.Games(r.Context(), f)
	if err != nil {
		h.log.Error("hub web: cannot list the games", "error", err)
		writeError(w, http.StatusServiceUnavailable, "the hub cannot read its database; see its log")
		return
	}
	out := make([]gameItem, 0, len(items))
	for _, it := range items {
		out = append(out, gameItem{ID: GameID(it.Board, it.Game), GameItem: it})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleGameFile answers GET /api/games/{id}.pgn4.
func (h *handler) handleGameFile(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutSuffix(r.PathValue("id"), ".pgn4")
	if !ok {
		writeError(w, http.StatusNotFound, "no such route: a game's PGN4 is /api/games/ID.pgn4, its positions /api/games/ID/replay")
		return
	}
	h.servePGN4(w, r, id)
}

func (h *handler) servePGN4(w http.ResponseWriter, r *http.Request, id string) {
	board, game, err := parseGameID(id)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	pg, code, err := h.gamePGN4(r.Context(), board, game)
	if err != nil {
		writeError(w, code, err.Error())
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	if r.URL.Query().Get("download") != "" {
		hd.Set("Content-Disposition", `attachment; filename="`+fileName(board, game)+`"`)
	}
	w.Write([]byte(pg.String()))
}

// handleGameReplay answers every position of a game, for the viewer.
func (h *handler) handleGameReplay(w http.ResponseWriter, r *http.Request) {
	h.serveReplay(w, r, r.PathValue("id"))
}

func (h *handler) serveReplay(w http.ResponseWriter, r *http.Request, id string) {
	board, game, err := parseGameID(id)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	pg, code, err := h.gamePGN4(r.Context(), board, game)
	if err != nil {
		writeError(w, code, err.Error())
		return
	}
	rep, err := archive.Replay([]byte(pg.String()), h.cfg.Lookup)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "game "+id+" cannot be replayed: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

// gamePGN4 rebuilds a stored game's PGN4 from its messages, as the board
// files it (archive.GamePGN4); code is the HTTP status of an error.
func (h *handler) gamePGN4(ctx context.Context, board, game string) (*pgn4.Game, int, error) {
	msgs, err := h.store.GameMessages(ctx, board, game)
	if err != nil {
		h.log.Error("hub web: cannot read a game", "board", board, "game", game, "error", err)
		return nil, http.StatusServiceUnavailable, errors.New("the hub cannot read its database; see its log")
	}
	if len(msgs) == 0 {
		return nil, http.StatusNotFound, fmt.Errorf("game %s of board %s: the hub has no such game (GET /api/games lists them)", clip(game), clip(board))
	}
	var entries []archive.Entry
	for _, sm := range msgs {
		var m referee.Message
		if json.Unmarshal(sm.Body, &m) != nil {
			continue
		}
		if m.Kind == referee.MsgGameStart {
			entries = []archive.Entry{{Seq: 1, Kind: "start", Msg: m.Seq, Game: m.Game, Variant: m.Variant, Start: m.Start, Tags: m.Tags, Clocks: m.Clocks}}
			continue
		}
		if len(entries) == 0 {
			continue
		}
		es, err := archive.JournalEntries(m)
		if err != nil {
			continue // a note kind without its note: nothing to replay
		}
		for _, e := range es {
			e.Seq = uint64(len(entries) + 1)
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return nil, http.StatusUnprocessableEntity, fmt.Errorf("game %s of board %s: the hub never had its start (the board no longer kept it when the hub asked), so its moves cannot be replayed", game, board)
	}
	lookup := archive.Lookup(h.cfg.Lookup)
	if lookup == nil {
		lookup = rules.NewVariant
	}
	pg, err := archive.GamePGN4(entries, lookup, board, "", game)
	if err != nil {
		return nil, http.StatusUnprocessableEntity, fmt.Errorf("game %s of board %s cannot be replayed: %v", game, board, err)
	}
	return pg, http.StatusOK, nil
}

// fileName is a download's file name: board_game.pgn4, safe characters only.
func fileName(board, game string) string {
	safe := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
				return r
			}
			return '-'
		}, s)
	}
	return safe(board) + "_" + safe(game) + ".pgn4"
}
