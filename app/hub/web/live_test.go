package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/live"
	"boardd/app/hub/store"
	"boardd/app/hub/web"
	"boardd/referee"
	"boardd/rules/pgn4"
)

// hub is a store and a broadcast fed with a real board's messages, as
// the ingest feeds them, behind the web server.
type hub struct {
	store *store.Store
	live  *live.Hub
	srv   *httptest.Server
}

func newHub(t *testing.T, opts ...web.Option) *hub {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	l := live.New(live.Config{Keep: 8})
	if err := l.Load(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	h := web.New(s, nil, append([]web.Option{web.WithLive(l)}, opts...)...)
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); srv.Close() })
	return &hub{store: s, live: l, srv: srv}
}

// store records a board's messages (the game's start and turns as the
// hub keeps them) and hands them to the broadcast after.
func (h *hub) take(t *testing.T, ms []referee.Message) {
	t.Helper()
	for _, m := range ms {
		body, _ := json.Marshal(m)
		var apply func(*store.Tx) error
		if m.Kind == referee.MsgGameStart {
			apply = func(tx *store.Tx) error { return tx.StartGame(m.Variant, m.Start, m.Tags) }
		}
		if m.Kind == referee.MsgGameOver {
			apply = func(tx *store.Tx) error { return tx.Finish(store.Result{Reason: m.Result.Reason, PGN4: m.Result.PGN4}) }
		}
		n, _, err := h.store.RecordN(context.Background(), store.Message{Board: m.Board, Seq: m.Seq, Game: m.Game, Kind: m.Kind, Time: m.Time, Body: body}, apply)
		if err != nil {
			t.Fatal(err)
		}
		h.live.Stored(n, m, body)
	}
}

// finishedGame plays the first moves of hubtest.TeamsMoves on a real
// board, Green resigns, and the hub takes every message of the game.
func (h *hub) finishedGame(t *testing.T, board string, moves int) *referee.Live {
	t.Helper()
	l := hubtest.Run(t, board, 0)
	hubtest.Play(t, l, hubtest.TeamsMoves[:moves]...)
	if r := l.Do(t.Context(), referee.Command{Name: referee.CmdResign, Seat: "Green"}); !r.OK {
		t.Fatal(r.Error)
	}
	sub, err := referee.Resume(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Cancel()
	ms := sub.Backlog
	for deadline := time.After(5 * time.Second); ms[len(ms)-1].Kind != referee.MsgGameOver; {
		select {
		case m := <-sub.Live:
			ms = append(ms, m)
		case <-deadline:
			t.Fatal("no game_over")
		}
	}
	h.take(t, ms)
	return l
}

func get(t *testing.T, u string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// A stored game's id names its board and game whatever characters they
// hold, and comes back apart.
func TestGameID(t *testing.T) {
	for _, c := range [][2]string{{"club-1", "20261128-124646"}, {"a~b", "c~d"}, {"100%", "%7E"}, {"x", "~"}} {
		id := web.GameID(c[0], c[1])
		if strings.Count(id, "~") != 1 {
			t.Errorf("GameID(%q, %q) = %q: not one ~", c[0], c[1], id)
		}
		h := newHub(t)
		code, _, body := get(t, h.srv.URL+"/api/games/"+url.PathEscape(id)+".pgn4")
		if code != http.StatusNotFound || !strings.Contains(body, "board "+c[0]) || !strings.Contains(body, "game "+c[1]) {
			t.Errorf("%q: %d %s, want 404 naming board %q and game %q", id, code, body, c[0], c[1])
		}
	}
}

// GET /api/games/ID.pgn4 is the game as the board files it, with every
// move, its tags and result, and replays in the viewer; a bad id is 400,
// an unknown game 404.
func TestGamePGN4(t *testing.T) {
	h := newHub(t)
	l := h.finishedGame(t, "club-1", 6)
	id := web.GameID("club-1", l.State().Game)
	code, hd, text := get(t, h.srv.URL+"/api/games/"+id+".pgn4?download=1")
	if code != 200 || !strings.Contains(hd.Get("Content-Disposition"), "club-1_") {
		t.Fatalf("%d %v %s", code, hd, text)
	}
	g, _, err := pgn4.ParseString(text)
	if err != nil {
		t.Fatalf("%v in\n%s", err, text)
	}
	if g.Get("Red") != "Ann" || g.Get("Event") != "Club night" || g.Get("Board") != "club-1" || g.Get("Result") != l.State().Result.PGN4 {
		t.Errorf("tags of\n%s", text)
	}
	for _, mv := range hubtest.TeamsMoves[:6] {
		if !strings.Contains(text, mv) {
			t.Errorf("move %s missing from\n%s", mv, text)
		}
	}
	code, _, rep := get(t, h.srv.URL+"/api/games/"+id+"/replay")
	var r struct{ Plies []json.RawMessage }
	if json.Unmarshal([]byte(rep), &r); code != 200 || len(r.Plies) != 8 { // the start, 6 moves, the resignation
		t.Errorf("replay: %d, %d positions: %.200s", code, len(r.Plies), rep)
	}
	for _, c := range []struct {
		path string
		code int
	}{
		{"/api/games/nothing.pgn4", 400},
		{"/api/games/club-1~nope.pgn4", 404},
		{"/api/games/" + id, 404},
		{"/api/boards/club-1/games/" + id + "/replay", 200},
		{"/api/boards/club-1/me", 200},
		{"/api/boards/club-1/cmd/move", 404},
		{"/board/club-1", 200},
		{"/board/nobody", 404},
		{"/", 200},
		{"/games", 200},
		{"/static/board.js", 200},
		{"/static/index.html", 404},
		{"/assets/hub.js", 200},
		{"/assets/hub.html", 404},
	} {
		if code, _, body := get(t, h.srv.URL+c.path); code != c.code {
			t.Errorf("GET %s: %d, want %d (%.100s)", c.path, code, c.code, body)
		}
	}
	code, _, list := get(t, h.srv.URL+"/api/boards/club-1/games")
	if code != 200 || !strings.Contains(list, `"file":"`+id+`"`) {
		t.Errorf("the board's games: %d %s", code, list)
	}
}

// The event streams are capped in total (and per address, this
// machine's own address aside): past the cap, 503 with Retry-After. A
// viewer asking for messages no longer kept gets a reset, then every
// board's view.
func TestStreamsCappedAndReset(t *testing.T) {
	h := newHub(t, web.WithStreams(2, 1))
	l := hubtest.Run(t, "b", 0)
	hubtest.Play(t, l, hubtest.TeamsMoves[:8]...)
	sub, _ := referee.Resume(l, 1)
	h.take(t, sub.Backlog)
	sub.Cancel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var evs []<-chan hubtest.Event
	for range 2 { // two from one local address: the per-address cap is not theirs
		e, err := hubtest.Events(ctx, h.srv.URL+"/api/live", "0")
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	resp, err := http.Get(h.srv.URL + "/api/live")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a third stream: %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// Message 1 is no longer kept (Keep 8 of 9): a reset, then the view.
	first := <-evs[0]
	second := <-evs[0]
	if first.Name != "reset" || second.Name != "board" || !strings.Contains(second.Data, `"board":"b"`) {
		t.Errorf("after a reset: %+v then %+v", first, second)
	}
}

// A browser's EventSource that reconnects by itself sends Last-Event-ID
// with the URL it first opened: the header, newer than the URL's query,
// says where the stream resumes, on both streams.
func TestLastEventIDBeforeTheQuery(t *testing.T) {
	h := newHub(t)
	l := hubtest.Run(t, "b", 0)
	hubtest.Play(t, l, hubtest.TeamsMoves[:4]...)
	sub, _ := referee.Resume(l, 1)
	h.take(t, sub.Backlog)
	sub.Cancel()
	// One board on a fresh database: its seqs are the database's numbers.
	last := l.State().Seq
	if last < 4 {
		t.Fatalf("the board has %d messages, want 4 or more", last)
	}
	had, next := fmt.Sprint(last-2), fmt.Sprint(last-1)
	for _, c := range []struct{ path, lastID, want string }{
		{"/api/live?after=1", had, next},
		{"/api/live?after=1", "", "2"},
		{"/api/boards/b/events?from=1", had, next},
		{"/api/boards/b/events?from=1", "", "1"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		evs, err := hubtest.Events(ctx, h.srv.URL+c.path, c.lastID)
		if err != nil {
			t.Fatal(err)
		}
		first := "none"
		for ev := range evs {
			if ev.Name == "message" {
				first = ev.ID
				break
			}
		}
		cancel()
		if first != c.want {
			t.Errorf("GET %s with Last-Event-ID %q: the first message is %s, want %s", c.path, c.lastID, first, c.want)
		}
	}
}
