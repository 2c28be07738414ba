package web

import (
	"fmt"
	"net/http"
	"strings"

	"boardd/app/hub/event"
)

// eventPGN4 answers every game of the event, round by round, as one
// PGN4 file.
func (e *events) eventPGN4(w http.ResponseWriter, r *http.Request) {
	st := e.loadReq(w, r)
	if st == nil {
		return
	}
	e.writePGN4(w, r, st, 0, fileSlug(st.ev.Name)+".pgn4")
}

// roundPGN4 answers the games of one round as one PGN4 file.
func (e *events) roundPGN4(w http.ResponseWriter, r *http.Request) {
	st, n := e.roundReq(w, r)
	if st == nil {
		return
	}
	if n > len(st.rounds) {
		eventError(w, http.StatusNotFound, fmt.Sprintf("event %d has no round %d yet", st.ev.ID, n))
		return
	}
	e.writePGN4(w, r, st, n, fmt.Sprintf("%s-round-%d.pgn4", fileSlug(st.ev.Name), n))
}

// writePGN4 writes the games of round (0: every round) as the boards
// recorded them, a corrected result in place of the board's with the
// note as a ResultCorrected tag; a table without a game is left out.
func (e *events) writePGN4(w http.ResponseWriter, r *http.Request, st *eventState, round int, name string) {
	var games []string
	for _, rd := range st.rounds {
		if round > 0 && rd.Number != round {
			continue
		}
		p := st.pairing(rd)
		for i, rt := range rd.Tables {
			if rt.Game == "" {
				continue
			}
			ms, err := e.s.GameMessages(r.Context(), rt.Board, rt.Game)
			if err != nil {
				e.fail(w, err)
				return
			}
			bodies := make([][]byte, len(ms))
			for j, m := range ms {
				bodies[j] = m.Body
			}
			text, err := event.GamePGN4(rt.Board, rt.Game, bodies)
			if err != nil {
				e.log.Warn("hub events: a game cannot be exported", "board", rt.Board, "game", rt.Game, "error", err)
				continue
			}
			if gr := st.results[rt.Board+"/"+rt.Game]; gr != nil && gr.Corrected && gr.Result != nil && i < len(p.Tables) {
				var names [4]string
				for c, pl := range p.Tables[i].Seats {
					names[c] = st.names[pl]
				}
				text = event.SetResult(text, event.ResultTag(st.ev.Kind, *gr.Result, names), gr.Note)
			}
			games = append(games, strings.TrimRight(text, "\n")+"\n")
		}
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Write([]byte(strings.Join(games, "\n")))
}
