package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

// clubArchive saves a small club night: two rounds of "Club Night" and
// one game of another event.
func clubArchive(t *testing.T) *archive.Store {
	t.Helper()
	st := &archive.Store{Dir: t.TempDir()}
	day := time.Date(2026, 11, 20, 19, 0, 0, 0, time.UTC)
	for i, g := range []struct{ event, round, red, moves, result string }{
		{"Club Night", "1", "Ann", "1. h2-h4 { [%clk 0:09:58] } .. b7-c7 { [%clk 0:09:55] } .. g13-g11 { [%clk 0:09:50] } .. m8-l8 { [%clk 0:09:41] }\n2. R\n", "0-1"},
		{"Club Night", "2", "Bob", "1. h2-h3 .. b8-c8 .. g13-g12 .. m7-l7\n", "*"},
		{"Open Day", "1", "Cy", "1. h2-h4\n", "*"},
	} {
		pg, _, err := pgn4.ParseString("[Variant \"Teams\"]\n[StartFen4 \"4PC\"]\n\n" + g.moves)
		if err != nil {
			t.Fatal(err)
		}
		pg.Set("Event", g.event)
		pg.Set("Round", g.round)
		pg.Set("Red", g.red)
		pg.Set("Result", g.result)
		if _, err := st.Save(pg, "1", day.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestGamesRoutes(t *testing.T) {
	_, _, ts := newTestServer(t, Config{Games: clubArchive(t)})
	c := client(t)

	res, body := do(t, c, "GET", ts.URL+"/api/games", "", nil)
	var list []GameItem
	if err := json.Unmarshal([]byte(body), &list); err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /api/games: %d %s (%v)", res.StatusCode, body, err)
	}
	if len(list) != 3 || list[0].Event != "Open Day" || list[2].Round != "1" || list[2].Players["Red"] != "Ann" || list[2].Result != "0-1" {
		t.Fatalf("list (newest first) %+v", list)
	}
	first := list[2].File

	res, body = do(t, c, "GET", ts.URL+"/api/games/"+first, "", nil)
	if res.StatusCode != 200 || !strings.Contains(body, `[Red "Ann"]`) || res.Header.Get("Content-Disposition") != "" {
		t.Errorf("one game: %d %q %s", res.StatusCode, res.Header.Get("Content-Disposition"), body)
	}
	res, _ = do(t, c, "GET", ts.URL+"/api/games/"+first+"?download=1", "", nil)
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="`+first+`"` {
		t.Errorf("download: Content-Disposition %q", cd)
	}

	res, body = do(t, c, "GET", ts.URL+"/api/games/"+first+"/replay", "", nil)
	var rep archive.Replayed
	if err := json.Unmarshal([]byte(body), &rep); err != nil || res.StatusCode != 200 {
		t.Fatalf("replay: %d %s (%v)", res.StatusCode, body, err)
	}
	if len(rep.Plies) != 6 || rep.Plies[1].Move != "h2-h4" || rep.Plies[4].ClockMS[3] != 581000 || rep.Tags["Event"] != "Club Night" {
		t.Errorf("replay %+v", rep)
	}

	res, body = do(t, c, "GET", ts.URL+"/api/export?event=Club+Night", "", nil)
	if res.StatusCode != 200 || strings.Count(body, "[Event \"Club Night\"]") != 2 || strings.Contains(body, "Open Day") ||
		res.Header.Get("Content-Disposition") != `attachment; filename="Club-Night.pgn4"` {
		t.Errorf("export: %d %q\n%s", res.StatusCode, res.Header.Get("Content-Disposition"), body)
	}

	for _, tc := range []struct {
		path string
		code int
		has  string
	}{
		{"/api/games/..%2Fsecret.pgn4", 400, "want a file name from GET /api/games"},
		{"/api/games/index.tsv", 400, "want a file name"},
		{"/api/games/nope.pgn4", 404, "no such file in the archive"},
		{"/api/games/nope.pgn4/replay", 404, "no such file"},
		{"/api/export?event=Nobody", 404, "no archived game of event Nobody"},
	} {
		res, body := do(t, c, "GET", ts.URL+tc.path, "", nil)
		if res.StatusCode != tc.code || !strings.Contains(body, tc.has) {
			t.Errorf("GET %s: %d %s, want %d with %q", tc.path, res.StatusCode, body, tc.code, tc.has)
		}
	}
}

func TestGamesWithoutAnArchive(t *testing.T) {
	_, _, ts := newTestServer(t, Config{})
	res, body := do(t, client(t), "GET", ts.URL+"/api/games", "", nil)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "no game archive") {
		t.Errorf("no archive: %d %s", res.StatusCode, body)
	}
}

// The viewer keeps every clock of a game that holds more than moves: a
// resignation out of turn ("{Yellow resigns}" while Red is to move) is a
// turn without a slot of its own. (sync/archive's
// TestReplayClocksStayWithTheirMoves covers the whole family.)
func TestGamesReplayKeepsTheClocks(t *testing.T) {
	st := &archive.Store{Dir: t.TempDir()}
	pg, _, err := pgn4.ParseString(`[Variant "Teams"]
[StartFen4 "4PC"]
[Event "Club Night"]
[Result "0-1"]

1. h2-h4 { [%clk 0:09:58] } .. b7-c7 { [%clk 0:09:55] } .. g13-g11 { [%clk 0:09:50] } .. m8-l8 { [%clk 0:09:41] } {Yellow resigns}
`)
	if err != nil {
		t.Fatal(err)
	}
	path, err := st.Save(pg, "1", time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	_, _, ts := newTestServer(t, Config{Games: st})
	res, body := do(t, client(t), "GET", ts.URL+"/api/games/"+filepath.Base(path)+"/replay", "", nil)
	var rep archive.Replayed
	if err := json.Unmarshal([]byte(body), &rep); err != nil || res.StatusCode != 200 {
		t.Fatalf("replay: %d %s (%v)", res.StatusCode, body, err)
	}
	want := [][]int64{{-1, -1, -1, -1}, {598000, -1, -1, -1}, {598000, 595000, -1, -1}, {598000, 595000, 590000, -1},
		{598000, 595000, 590000, 581000}, {598000, 595000, 590000, 581000}}
	if len(rep.Plies) != len(want) {
		t.Fatalf("%d plies, want %d: %+v", len(rep.Plies), len(want), rep.Plies)
	}
	for i, w := range want {
		if fmt.Sprint(rep.Plies[i].ClockMS) != fmt.Sprint(w) {
			t.Errorf("ply %d (%s %s): clocks %v, want %v", i, rep.Plies[i].Seat, rep.Plies[i].Move, rep.Plies[i].ClockMS, w)
		}
	}
}
