package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"boardd/app/hub/event"
	"boardd/app/hub/store"
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

// gameItem is one line of GET /api/games: the store's, with its id. A
// result the director corrected is the correction's (result, as the PGN4
// download's Result tag has it), marked so: corrected, the note, and the
// board's own result.
type gameItem struct {
	ID string `json:"id"`
	store.GameItem
	Corrected   bool   `json:"corrected,omitempty"`
	Note        string `json:"correction_note,omitempty"`
	BoardResult string `json:"board_result,omitempty"`
}

// listItem is the store's item as the lists show it: a correction's
// result in place of the board's.
func listItem(it store.GameItem) gameItem {
	g := gameItem{ID: GameID(it.Board, it.Game), GameItem: it}
	if c := it.Correction; c != nil {
		g.Corrected, g.Note, g.BoardResult = true, c.Note, it.Result
		g.Result = correctedTag(it.Variant, it.Players, c.New)
	}
	return g
}

// correctedTag is the PGN4 Result tag of a director's correction r of a
// game of variant, its players by seat.
func correctedTag(variant string, players map[string]string, r store.Result) string {
	kind := event.FFA
	if strings.Contains(strings.ToLower(variant), event.Teams) {
		kind = event.Teams
	}
	var names [4]string
	for i, seat := range []string{"Red", "Blue", "Yellow", "Green"} {
		names[i] = players[seat]
	}
	return event.ResultTag(kind, event.Result{Winners: r.Winners, Points: r.Points}, names)
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
		out = append(out, listItem(it))
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
	text, code, err := h.gamePGN4(r.Context(), board, game)
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
	w.Write([]byte(text))
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
	text, code, err := h.gamePGN4(r.Context(), board, game)
	if err != nil {
		writeError(w, code, err.Error())
		return
	}
	rep, err := archive.Replay([]byte(text), h.cfg.Lookup)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "game "+id+" cannot be replayed: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

// gamePGN4 rebuilds a stored game's PGN4 from its messages, as the board
// files it (event.GamePGN4), a director's correction in place of the
// board's result (with its note as a ResultCorrected tag, as the events'
// exports write it); code is the HTTP status of an error.
func (h *handler) gamePGN4(ctx context.Context, board, game string) (string, int, error) {
	msgs, err := h.store.GameMessages(ctx, board, game)
	if err != nil {
		h.log.Error("hub web: cannot read a game", "board", board, "game", game, "error", err)
		return "", http.StatusServiceUnavailable, errors.New("the hub cannot read its database; see its log")
	}
	if len(msgs) == 0 {
		return "", http.StatusNotFound, fmt.Errorf("game %s of board %s: the hub has no such game (GET /api/games lists them)", clip(game), clip(board))
	}
	bodies := make([][]byte, len(msgs))
	for i, m := range msgs {
		bodies[i] = m.Body
	}
	text, err := event.GamePGN4(board, game, bodies)
	if err != nil {
		return "", http.StatusUnprocessableEntity, fmt.Errorf("%v: its moves cannot be replayed (the board no longer kept its start when the hub asked, or a move the rules refuse)", err)
	}
	r, corrected, err := h.store.Result(ctx, board, game)
	if err != nil || !corrected || r == nil {
		return text, http.StatusOK, nil
	}
	g, _, _ := h.store.Game(ctx, board, game)
	note := ""
	if cs, err := h.store.Corrections(ctx, board, game); err == nil && len(cs) > 0 {
		note = cs[len(cs)-1].Note
	}
	return event.SetResult(text, correctedTag(g.Variant, g.Tags, *r), note), http.StatusOK, nil
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
