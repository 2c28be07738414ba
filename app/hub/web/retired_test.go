package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"boardd/app/hub/live"
	"boardd/app/hub/web"
)

// After boardd hub forget club-1 and a restart of the hub, the retired
// history (club-1~<date>) is no tile on the page of all boards and not in
// /api/boards; its games stay in /games, found by the board's name, and
// open in the viewer.
func TestRetiredBoardIsHistoryNotABoard(t *testing.T) {
	h := newHub(t)
	h.finishedGame(t, "club-1", 2)
	retired, err := h.store.RetireBoard(context.Background(), "club-1", time.Date(2026, 11, 28, 15, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}

	// the hub restarts: its broadcast is loaded from the store
	lv := live.New(live.Config{})
	if err := lv.Load(context.Background(), h.store); err != nil {
		t.Fatal(err)
	}
	if _, ok := lv.View(retired); ok {
		t.Errorf("the broadcast has a view (a tile) of %s", retired)
	}
	wh := web.New(h.store, nil, web.WithLive(lv))
	srv := httptest.NewServer(wh)
	t.Cleanup(func() { wh.Close(); srv.Close() })

	code, _, body := get(t, srv.URL+"/api/boards")
	var boards []map[string]any
	if json.Unmarshal([]byte(body), &boards); code != 200 || len(boards) != 0 {
		t.Errorf("GET /api/boards after club-1 was retired: %d %s, want []", code, body)
	}
	code, _, body = get(t, srv.URL+"/api/games?board=club-1")
	var games []struct{ ID, Board string }
	if json.Unmarshal([]byte(body), &games); code != 200 || len(games) != 1 || games[0].Board != retired {
		t.Fatalf("GET /api/games?board=club-1: %d %s, want the game under %s", code, body, retired)
	}
	id := games[0].ID
	for _, c := range []struct {
		path, location string
		code           int
	}{
		{"/board/" + url.PathEscape(retired) + "?view=" + url.QueryEscape(id), "", 200},
		{"/board/" + url.PathEscape(retired), "/games?board=" + url.QueryEscape(retired), 303},
		{"/board/" + url.PathEscape("club-9~20261128-150405") + "?view=x", "", 404},
		{"/api/games/" + url.PathEscape(id) + "/replay", "", 200},
		{"/api/games/" + url.PathEscape(id) + ".pgn4", "", 200},
	} {
		c0 := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c0.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code || resp.Header.Get("Location") != c.location {
			t.Errorf("GET %s: %d to %q, want %d to %q", c.path, resp.StatusCode, resp.Header.Get("Location"), c.code, c.location)
		}
	}
}
