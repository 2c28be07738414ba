package web_test

import (
	"fmt"
	"strings"
	"testing"
)

type roundJSON struct {
	Number int  `json:"number"`
	Pushed bool `json:"pushed"`
	Tables []struct {
		Table     int    `json:"table"`
		Board     string `json:"board"`
		PushError string `json:"push_error"`
		Seats     []struct {
			Seat string `json:"seat"`
			Name string `json:"name"`
		} `json:"seats"`
	} `json:"tables"`
	Byes []struct {
		Name string `json:"name"`
	} `json:"byes"`
}

type eventJSON struct {
	Units []struct {
		Name string `json:"name"`
	} `json:"units"`
	Rounds []roundJSON `json:"rounds"`
}

// A Teams event: teams pasted, a round paired with each team on one
// side (Red and Yellow, or Blue and Green) and one team out with a bye;
// pushing sends each board new_game with the variant, the time control,
// the names, the event and the round; a board that refuses is reported
// and kept with the table.
func TestTeamsEventPush(t *testing.T) {
	srv, _, fb := hubWeb(t, false)
	c := newEventClient(t, srv.URL)
	c.must(200, "POST", "/api/director/login", map[string]string{"password": "pw"}, nil)
	var ev struct{ ID int64 }
	c.must(201, "POST", "/api/events", map[string]any{"name": "Teams cup", "kind": "teams", "time_control": "10+5", "rounds": 2, "boards": []string{"t1"}}, &ev)
	base := fmt.Sprintf("/api/events/%d", ev.ID)
	var e eventJSON
	c.must(200, "PUT", base+"/players", "Ann & Cy\nBob / Di\nEve, Fay\n", &e)
	if len(e.Units) != 3 || e.Units[0].Name != "Ann & Cy" || e.Units[2].Name != "Eve & Fay" {
		t.Fatalf("teams %+v", e.Units)
	}
	if code, body := c.do("POST", base+"/rounds/2/pair", nil); code != 409 || !strings.Contains(string(body), "pair round 1 first") {
		t.Errorf("pairing round 2 first: %d %s", code, body)
	}
	c.must(200, "POST", base+"/rounds/1/pair", nil, &e)
	r := e.Rounds[0]
	if len(r.Tables) != 1 || len(r.Byes) != 1 || r.Tables[0].Board != "t1" {
		t.Fatalf("round 1: %+v", r)
	}
	partner := map[string]string{"Ann": "Cy", "Cy": "Ann", "Bob": "Di", "Di": "Bob", "Eve": "Fay", "Fay": "Eve"}
	seats := map[string]string{}
	for _, s := range r.Tables[0].Seats {
		seats[s.Seat] = s.Name
	}
	if partner[seats["Red"]] != seats["Yellow"] || partner[seats["Blue"]] != seats["Green"] {
		t.Errorf("teams not on their sides: %v", seats)
	}
	c.must(200, "POST", base+"/rounds/1/push", nil, nil)
	if len(fb.cmds) != 1 {
		t.Fatalf("sent %+v", fb.cmds)
	}
	got := fb.cmds[0]
	if got.board != "t1" || got.cmd.Name != "new_game" || got.cmd.Variant != "teams" || got.cmd.TimeControl != "10+5" ||
		got.cmd.Tags["Event"] != "Teams cup" || got.cmd.Tags["Round"] != "1" || got.cmd.Tags["Red"] != seats["Red"] || got.cmd.Tags["Green"] != seats["Green"] {
		t.Errorf("pushed %s %+v", got.board, got.cmd)
	}
	if code, body := c.do("POST", base+"/rounds/1/pair", nil); code != 409 || !strings.Contains(string(body), "was pushed") {
		t.Errorf("pairing a pushed round again: %d %s", code, body)
	}
	// A board that refuses: 502, and the table keeps the reason.
	c.must(200, "POST", base+"/rounds/2/pair", nil, nil)
	fb.fail["t1"] = "new_game: the board is paused"
	if code, body := c.do("POST", base+"/rounds/2/push", nil); code != 502 || !strings.Contains(string(body), "the board is paused") {
		t.Errorf("a refused push: %d %s", code, body)
	}
	c.must(200, "GET", base, nil, &e)
	if e.Rounds[1].Tables[0].PushError != "new_game: the board is paused" {
		t.Errorf("round 2's table after a refused push: %+v", e.Rounds[1].Tables[0])
	}
	// Round 2 gives the bye to another team.
	if e.Rounds[0].Byes[0].Name == e.Rounds[1].Byes[0].Name {
		t.Errorf("%s has the bye twice", e.Rounds[0].Byes[0].Name)
	}
	if code, body := c.do("POST", base+"/rounds/3/pair", nil); code != 400 || !strings.Contains(string(body), "has 2 rounds") {
		t.Errorf("round 3 of 2: %d %s", code, body)
	}
}

// What the director sends is checked, each refusal saying what to do.
func TestEventRefusals(t *testing.T) {
	srv, _, _ := hubWeb(t, false)
	c := newEventClient(t, srv.URL)
	c.must(200, "POST", "/api/director/login", map[string]string{"password": "pw"}, nil)
	ok := map[string]any{"name": "Night", "kind": "ffa", "rounds": 3, "boards": []string{"b1"}}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range ok {
			m[a] = b
		}
		m[k] = v
		return m
	}
	for _, tc := range []struct {
		body any
		want string
	}{
		{with("kind", "blitz"), "want ffa (every player for themselves) or teams"},
		{with("variant", "teams"), "variant teams: a ffa event plays"},
		{with("variant", "nonsense"), "variant"},
		{with("time_control", "fast"), "time control"},
		{with("rounds", 0), "rounds: 0"},
		{with("boards", []string{"a/b"}), "board"},
		{with("name", ""), "needs a name"},
		{map[string]any{"name": "x", "colour": "red"}, "unknown field"},
	} {
		if code, body := c.do("POST", "/api/events", tc.body); code != 400 || !strings.Contains(string(body), tc.want) {
			t.Errorf("%v: %d %s, want 400 with %q", tc.body, code, body, tc.want)
		}
	}
	c.must(201, "POST", "/api/events", ok, nil)
	if code, body := c.do("POST", "/api/events", ok); code != 409 || !strings.Contains(string(body), "already exists") {
		t.Errorf("the same name twice: %d %s", code, body)
	}
	if code, body := c.do("PUT", "/api/events/1/players", "Ann\nAnn\n"); code != 400 || !strings.Contains(string(body), "already on line 1") {
		t.Errorf("a player twice: %d %s", code, body)
	}
	c.must(200, "PUT", "/api/events/1/players", "Ann\nBob\nCy\nDi\nEve\nFay\nGus\nHal\n", nil)
	if code, body := c.do("POST", "/api/events/1/rounds/1/pair", nil); code != 409 || !strings.Contains(string(body), "needs 2 boards and the event has 1") {
		t.Errorf("two tables on one board: %d %s", code, body)
	}
	if code, _ := c.do("GET", "/api/events/7", nil); code != 404 {
		t.Errorf("event 7: %d, want 404", code)
	}
	if code, _ := c.do("GET", "/api/events/1/players/99", nil); code != 404 {
		t.Errorf("player 99: %d, want 404", code)
	}
	if code, body := c.do("POST", "/api/events/1/rounds/1/push", nil); code != 409 || !strings.Contains(string(body), "not paired yet") {
		t.Errorf("pushing a round not paired: %d %s", code, body)
	}
}
