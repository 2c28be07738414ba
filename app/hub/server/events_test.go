package server_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	neturl "net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/app/hub/web"
	"boardd/referee"
)

var directorLine = regexp.MustCompile(`(?m)^  events: +(\S+)events  \(tournament director's password (\S+)\)$`)

// api is a browser-free client of the hub's web server.
type api struct {
	t    *testing.T
	base string
	c    *http.Client
}

func (a *api) do(method, path string, body any) (int, []byte) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, a.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(web.DirectorHeader, "1")
	resp, err := a.c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

func (a *api) must(code int, method, path string, body, out any) string {
	a.t.Helper()
	got, data := a.do(method, path, body)
	if got != code {
		a.t.Fatalf("%s %s: %d %s, want %d", method, path, got, data, code)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			a.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return string(data)
}

// The JSON of an event, as far as the test reads it.
type eventJSON struct {
	Event struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"event"`
	Rounds []struct {
		Number int  `json:"number"`
		Pushed bool `json:"pushed"`
		Tables []struct {
			Table int    `json:"table"`
			Board string `json:"board"`
			Seats []struct {
				Seat   string `json:"seat"`
				Player int64  `json:"player"`
				Name   string `json:"name"`
			} `json:"seats"`
			Game   string `json:"game"`
			Result *struct {
				Status    string `json:"status"`
				Corrected bool   `json:"corrected"`
				Note      string `json:"note"`
				Result    *struct {
					Winners []string `json:"winners"`
					Points  []int    `json:"points"`
				} `json:"result"`
			} `json:"result"`
		} `json:"tables"`
	} `json:"rounds"`
	Standings []struct {
		Rank   int    `json:"rank"`
		Name   string `json:"name"`
		Points int    `json:"points"`
		Firsts int    `json:"firsts"`
		Games  int    `json:"games"`
	} `json:"standings"`
}

// The whole flow over HTTP with two real boards: the director logs in,
// creates an FFA event, pastes 8 players, pairs round 1 and pushes it;
// each board starts the new game with the names, the event and the
// round (its own state says so) and the hub links it to the table. The
// games are played and finished on the boards; the standings are the
// boards' results; a corrected result changes them and keeps its note;
// the CSV and the PGN4 exports hold the games.
func TestEventFlow(t *testing.T) {
	h, a, live := eventHub(t)
	// the page itself is served
	if code, page := a.do("GET", "/events", nil); code != 200 || !strings.Contains(string(page), "/events/static/event.js") {
		t.Fatalf("GET /events: %d", code)
	}
	var ev struct{ ID int64 }
	a.must(201, "POST", "/api/events", map[string]any{"name": "Club night", "kind": "ffa", "time_control": "-", "rounds": 3, "boards": []string{"club-1", "club-2"}}, &ev)
	players := []string{"Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"}
	base := fmt.Sprintf("/api/events/%d", ev.ID)
	a.must(200, "PUT", base+"/players", map[string]string{"text": strings.Join(players, "\n")}, nil)
	var e eventJSON
	a.must(200, "POST", base+"/rounds/1/pair", nil, &e)
	if len(e.Rounds) != 1 || len(e.Rounds[0].Tables) != 2 {
		t.Fatalf("round 1: %+v", e.Rounds)
	}
	seated := map[string]bool{}
	for _, tb := range e.Rounds[0].Tables {
		for _, s := range tb.Seats {
			seated[s.Name] = true
		}
	}
	if len(seated) != 8 {
		t.Fatalf("round 1 seats %d players, want all 8: %+v", len(seated), e.Rounds[0].Tables)
	}

	// Push: each board starts the game with the round's names.
	before := map[string]string{}
	for name, l := range live {
		before[name] = l.State().Game
	}
	var pushed []struct {
		Board string
		OK    bool
		Error string
	}
	a.must(200, "POST", base+"/rounds/1/push", nil, &pushed)
	if len(pushed) != 2 || !pushed[0].OK || !pushed[1].OK {
		t.Fatalf("push: %+v", pushed)
	}
	for _, tb := range e.Rounds[0].Tables {
		st := live[tb.Board].State()
		if st.Game == before[tb.Board] || st.Variant != "ffa" {
			t.Errorf("%s: game %s of %s after the push, want a new ffa game", tb.Board, st.Game, st.Variant)
		}
		for _, s := range tb.Seats {
			if st.Tags[s.Seat] != s.Name {
				t.Errorf("%s: %s is %q on the board, the pairing says %q", tb.Board, s.Seat, st.Tags[s.Seat], s.Name)
			}
		}
		if st.Tags["Event"] != "Club night" || st.Tags["Round"] != "1" {
			t.Errorf("%s: tags %v: want Event Club night, Round 1", tb.Board, st.Tags)
		}
	}
	// The hub links each table to its board's new game.
	e = waitEvent(t, a, base, "both tables linked to their games", func(e eventJSON) bool {
		for _, tb := range e.Rounds[0].Tables {
			if tb.Game == "" || tb.Game != live[tb.Board].State().Game {
				return false
			}
		}
		return true
	})
	// A second push while the games are in progress, after a move, is refused.
	hubtest.Play(t, live["club-1"], "h2-h3")
	boards(t, h, "club-1 with a move", func(b []apiBoard) bool { return len(b) == 2 && b[0].Moves == 1 })
	if code, body := a.do("POST", base+"/rounds/1/push", nil); code != 409 || !strings.Contains(string(body), "in progress on club-1") {
		t.Errorf("pushing over a game in progress: %d %s", code, body)
	}

	// Play: on club-1 a few moves then three resign; on club-2 three resign at once.
	hubtest.Play(t, live["club-1"], "b7-c7", "g13-g12", "m8-l8")
	ctx := context.Background()
	for _, l := range live {
		for _, seat := range []string{"Blue", "Yellow", "Green"} {
			if rep := l.Do(ctx, referee.Command{Name: "resign", Seat: seat}); !rep.OK {
				t.Fatalf("%s resigns: %s", seat, rep.Error)
			}
		}
		if st := l.State(); st.Status != "over" || st.Result == nil {
			t.Fatalf("after three resignations the game is %s", st.Status)
		}
	}
	// The expected standings, from the boards' own results.
	want := map[string]int{}
	for _, tb := range e.Rounds[0].Tables {
		res := live[tb.Board].State().Result
		for i, s := range tb.Seats {
			want[s.Name] += res.Points[i]
		}
	}
	e = waitEvent(t, a, base, "both results", func(e eventJSON) bool {
		for _, tb := range e.Rounds[0].Tables {
			if tb.Result == nil || tb.Result.Result == nil {
				return false
			}
		}
		return true
	})
	checkStandings(t, e, want)

	// Correct table 1: its first seat gets 7 points more, with a note.
	tb := e.Rounds[0].Tables[0]
	pts := slices.Clone(tb.Result.Result.Points)
	pts[0] += 7
	want[tb.Seats[0].Name] += 7
	a.must(200, "POST", base+"/rounds/1/tables/1/result", map[string]any{"points": pts, "winners": []string{}, "note": "a capture the board missed"}, &e)
	checkStandings(t, e, want)
	if r := e.Rounds[0].Tables[0].Result; !r.Corrected || r.Note != "a capture the board missed" {
		t.Errorf("table 1's result after the correction: %+v", r)
	}
	if code, _ := a.do("POST", base+"/rounds/1/tables/1/result", map[string]any{"points": pts}); code != 400 {
		t.Errorf("a correction without a note: %d, want 400", code)
	}
	if code, body := a.do("POST", base+"/rounds/1/tables/1/result", map[string]any{"points": pts, "note": "two\nlines"}); code != 400 || !strings.Contains(string(body), "control character") {
		t.Errorf("a note with a line break (it would break the PGN4 tag): %d %s", code, body)
	}

	// Exports: the CSV's standings, every game in the PGN4 files.
	code, data := a.do("GET", base+"/standings.csv", nil)
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if code != 200 || err != nil || len(rows) != 9 {
		t.Fatalf("standings.csv: %d %v\n%s", code, err, data)
	}
	for _, r := range rows[1:] {
		if n, _ := strconv.Atoi(r[2]); n != want[r[1]] {
			t.Errorf("CSV: %s has %s points, want %d", r[1], r[2], want[r[1]])
		}
	}
	_, round1 := a.do("GET", base+"/rounds/1/pgn4", nil)
	_, all := a.do("GET", base+"/pgn4", nil)
	for _, tb := range e.Rounds[0].Tables {
		for _, text := range []string{string(round1), string(all)} {
			if !strings.Contains(text, fmt.Sprintf("[GameId %q]", tb.Game)) || !strings.Contains(text, fmt.Sprintf("[Red %q]", tb.Seats[0].Name)) {
				t.Errorf("PGN4 export lacks game %s of %s:\n%s", tb.Game, tb.Board, text)
			}
		}
	}
	for _, want := range []string{`[Event "Club night"]`, `[Round "1"]`, "h2-h3", "[ResultCorrected \"a capture the board missed\"]"} {
		if !strings.Contains(string(round1), want) {
			t.Errorf("round 1's PGN4 lacks %s:\n%s", want, round1)
		}
	}

	// A player's page lists the game with the result.
	p := e.Rounds[0].Tables[1].Seats[2]
	var page struct {
		Name  string
		Games []struct {
			Round  int
			Board  string
			Seat   string
			Points *int
		}
	}
	a.must(200, "GET", fmt.Sprintf("%s/players/%d", base, p.Player), nil, &page)
	if page.Name != p.Name || len(page.Games) != 1 || page.Games[0].Seat != "Yellow" || page.Games[0].Points == nil || *page.Games[0].Points != want[p.Name] {
		t.Errorf("%s's page: %+v, want one game at Yellow with %d points", p.Name, page, want[p.Name])
	}

	// Round 2: every player at another colour than in round 1.
	a.must(200, "POST", base+"/rounds/2/pair", nil, &e)
	colour := map[int64]string{}
	for _, tb := range e.Rounds[0].Tables {
		for _, s := range tb.Seats {
			colour[s.Player] = s.Seat
		}
	}
	for _, tb := range e.Rounds[1].Tables {
		for _, s := range tb.Seats {
			if colour[s.Player] == s.Seat {
				t.Errorf("%s is %s in both rounds", s.Name, s.Seat)
			}
		}
	}
}

// eventHub starts a hub with two real boards, club-1 and club-2, joined
// with the URL it printed, and logs in as the director with the
// password it printed.
func eventHub(t *testing.T) (*server.Hub, *api, map[string]*referee.Live) {
	t.Helper()
	h, out := startHub(t, t.TempDir(), "127.0.0.1:0")
	m := joinLine.FindStringSubmatch(out)
	d := directorLine.FindStringSubmatch(out)
	if m == nil || d == nil {
		t.Fatalf("no join or director line in:\n%s", out)
	}
	join, _ := neturl.Parse(m[1])
	pw, _ := join.User.Password()
	live := map[string]*referee.Live{}
	for _, name := range []string{"club-1", "club-2"} {
		live[name] = hubtest.Start(t, hubtest.Board{Broker: "tcp://" + join.Host, User: join.User.Username(), Password: pw, Name: name})
	}
	// The director pushes a round to boards the page shows joined: a
	// board not connected yet would miss its new_game.
	boards(t, h, "both boards joined", func(bs []apiBoard) bool {
		on := 0
		for _, b := range bs {
			if b.Status != "offline" {
				on++
			}
		}
		return on == 2
	})
	jar, _ := cookiejar.New(nil)
	a := &api{t: t, base: "http://" + h.WebAddr, c: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
	a.must(200, "POST", "/api/director/login", map[string]string{"password": d[2]}, nil)
	return h, a, live
}

// A Teams event with two real boards: four teams pasted, round 1 pushed
// (each team on one side of its board), one seat resigns on each board;
// the standings give the winners 2 match points, the losers none, and
// a correction to a draw gives each 1.
func TestTeamsEventFlow(t *testing.T) {
	_, a, live := eventHub(t)
	var ev struct{ ID int64 }
	a.must(201, "POST", "/api/events", map[string]any{"name": "Teams night", "kind": "teams", "rounds": 3, "boards": []string{"club-1", "club-2"}}, &ev)
	base := fmt.Sprintf("/api/events/%d", ev.ID)
	a.must(200, "PUT", base+"/players", map[string]string{"text": "Ann & Cy\nBob & Di\nEve & Fay\nGus & Hal"}, nil)
	var e eventJSON
	a.must(200, "POST", base+"/rounds/1/pair", nil, &e)
	a.must(200, "POST", base+"/rounds/1/push", nil, nil)
	e = waitEvent(t, a, base, "both tables linked", func(e eventJSON) bool {
		for _, tb := range e.Rounds[0].Tables {
			if tb.Game == "" || tb.Game != live[tb.Board].State().Game {
				return false
			}
		}
		return true
	})
	// club-1: Blue resigns (Red and Yellow win); club-2: Red resigns.
	winners := map[string]string{}
	for _, tb := range e.Rounds[0].Tables {
		st := live[tb.Board].State()
		if st.Variant != "teams" || st.Tags["Red"] != tb.Seats[0].Name || st.Tags["Event"] != "Teams night" {
			t.Fatalf("%s after the push: %s, tags %v", tb.Board, st.Variant, st.Tags)
		}
		seat, win := "Blue", 0
		if tb.Board == "club-2" {
			seat, win = "Red", 1
		}
		if rep := live[tb.Board].Do(context.Background(), referee.Command{Name: "resign", Seat: seat}); !rep.OK {
			t.Fatal(rep.Error)
		}
		winners[tb.Seats[win].Name+" & "+tb.Seats[win+2].Name] = tb.Board
	}
	e = waitEvent(t, a, base, "both results", func(e eventJSON) bool {
		for _, tb := range e.Rounds[0].Tables {
			if tb.Result == nil || tb.Result.Result == nil {
				return false
			}
		}
		return true
	})
	var rows []struct {
		Name        string `json:"name"`
		MatchPoints int    `json:"match_points"`
		Wins        int    `json:"wins"`
		Draws       int    `json:"draws"`
	}
	a.must(200, "GET", base+"/standings", nil, &rows)
	for _, r := range rows {
		want := 0
		if winners[r.Name] != "" {
			want = 2
		}
		if r.MatchPoints != want {
			t.Errorf("%s: %d match points, want %d (winners %v)", r.Name, r.MatchPoints, want, winners)
		}
	}
	// club-1's game was a draw after all.
	a.must(200, "POST", base+"/rounds/1/tables/1/result", map[string]any{"winners": []string{}, "note": "Blue's resignation was a misunderstanding; agreed drawn"}, &e)
	a.must(200, "GET", base+"/standings", nil, &rows)
	tb := e.Rounds[0].Tables[0]
	for _, r := range rows {
		want := 0
		switch {
		case r.Name == tb.Seats[0].Name+" & "+tb.Seats[2].Name, r.Name == tb.Seats[1].Name+" & "+tb.Seats[3].Name:
			want = 1
		case winners[r.Name] == "club-2":
			want = 2
		}
		if r.MatchPoints != want {
			t.Errorf("after the correction %s: %d match points, want %d", r.Name, r.MatchPoints, want)
		}
	}
}

func checkStandings(t *testing.T, e eventJSON, want map[string]int) {
	t.Helper()
	if len(e.Standings) != len(want) {
		t.Fatalf("standings %+v, want %d players", e.Standings, len(want))
	}
	for i, s := range e.Standings {
		if s.Points != want[s.Name] || s.Games != 1 {
			t.Errorf("standings: %s has %d points in %d games, want %d in 1", s.Name, s.Points, s.Games, want[s.Name])
		}
		if i > 0 && s.Points > e.Standings[i-1].Points {
			t.Errorf("standings out of order: %+v", e.Standings)
		}
	}
}

// waitEvent polls the event (20 s at most) until ok.
func waitEvent(t *testing.T, a *api, base, what string, ok func(eventJSON) bool) eventJSON {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var e eventJSON
		a.must(200, "GET", base, nil, &e)
		if ok(e) {
			return e
		}
		if time.Now().After(deadline) {
			t.Fatalf("the event never showed %s: %+v", what, e.Rounds)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
