package web_test

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/store"
	"boardd/app/hub/web"
)

// A result the tournament director corrected is the one /games lists (as
// the PGN4 download's Result tag has it), marked as corrected with the
// note and the board's own result; so is the board's list of games on
// its display. A game never corrected lists the board's result, unmarked.
func TestGamesListTheCorrectedResult(t *testing.T) {
	h := newHub(t)
	ctx := context.Background()

	// a Teams game played on a real board: Green resigns, Red and Yellow win
	l := h.finishedGame(t, "club-1", 2)
	teamsGame := l.State().Game
	boardTeams := l.State().Result.PGN4

	// an FFA game and one nobody corrects, stored as the ingest stores them
	at := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	for i, g := range []string{"ffa-1", "ffa-2"} {
		seq := uint64(1 + 2*i)
		if _, err := h.store.Record(ctx, store.Message{Board: "club-2", Seq: seq, Game: g, Kind: "game_start", Time: at, Body: []byte("{}")}, func(tx *store.Tx) error {
			return tx.StartGame("ffa", "", map[string]string{"Red": "Ann", "Blue": "Bob", "Yellow": "Cy", "Green": "Di"})
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.store.Record(ctx, store.Message{Board: "club-2", Seq: seq + 1, Game: g, Kind: "game_over", Time: at, Body: []byte("{}")}, func(tx *store.Tx) error {
			return tx.Finish(store.Result{Reason: "checkmate", Points: []int{20, 10, 0, 5}, PGN4: "Ann: 20 - Bob: 10 - Cy: 0 - Di: 5"})
		}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		board, game string
		r           store.Result
	}{
		{"club-1", teamsGame, store.Result{Winners: []string{"Blue", "Green"}}},
		{"club-2", "ffa-1", store.Result{Points: []int{40, 10, 0, 5}}},
	} {
		if err := h.store.Correct(ctx, c.board, c.game, c.r, "director@127.0.0.1", "fixed for "+c.game); err != nil {
			t.Fatal(err)
		}
	}

	code, _, body := get(t, h.srv.URL+"/api/games")
	var list []struct {
		ID, Board, Game, Result, Reason string
		Corrected                       bool
		Note                            string `json:"correction_note"`
		BoardResult                     string `json:"board_result"`
	}
	if err := json.Unmarshal([]byte(body), &list); code != 200 || err != nil {
		t.Fatalf("GET /api/games: %d %v %s", code, err, body)
	}
	byGame := map[string]int{}
	for i, g := range list {
		byGame[g.Game] = i
	}
	for _, want := range []struct {
		game, result, boardResult, note string
	}{
		{teamsGame, "0-1", boardTeams, "fixed for " + teamsGame},
		{"ffa-1", "Ann: 40 - Bob: 10 - Cy: 0 - Di: 5", "Ann: 20 - Bob: 10 - Cy: 0 - Di: 5", "fixed for ffa-1"},
		{"ffa-2", "Ann: 20 - Bob: 10 - Cy: 0 - Di: 5", "", ""},
	} {
		i, ok := byGame[want.game]
		if !ok {
			t.Fatalf("game %s not listed: %s", want.game, body)
		}
		g := list[i]
		if g.Result != want.result || g.Corrected != (want.note != "") || g.Note != want.note || g.BoardResult != want.boardResult {
			t.Errorf("game %s listed with result %q (corrected %v, note %q, the board's %q); want %q (corrected %v, note %q, the board's %q)",
				want.game, g.Result, g.Corrected, g.Note, g.BoardResult, want.result, want.note != "", want.note, want.boardResult)
		}
	}
	if boardTeams == "0-1" {
		t.Fatalf("the board's own Teams result is already %q: the correction changes nothing to see", boardTeams)
	}

	// the list and the PGN4 download agree
	id := web.GameID("club-1", teamsGame)
	_, _, text := get(t, h.srv.URL+"/api/games/"+url.PathEscape(id)+".pgn4")
	if m := regexp.MustCompile(`\[Result "([^"]*)"\]`).FindStringSubmatch(text); m == nil || m[1] != list[byGame[teamsGame]].Result {
		t.Errorf("the PGN4 download's Result tag %v, the list's %q", m, list[byGame[teamsGame]].Result)
	}
	// the board's own list of games, on its display
	_, _, own := get(t, h.srv.URL+"/api/boards/club-1/games")
	var items []struct{ File, Result string }
	json.Unmarshal([]byte(own), &items)
	if len(items) != 1 || items[0].File != id || !strings.HasPrefix(items[0].Result, "0-1") || !strings.Contains(items[0].Result, "corrected") {
		t.Errorf("the board's games on its display: %s, want %s with 0-1, marked corrected", own, id)
	}
}
