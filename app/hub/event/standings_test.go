package event

import (
	"bytes"
	"testing"
)

func names(n int) map[int64]string {
	m := map[int64]string{}
	for i := 1; i <= n; i++ {
		m[int64(i)] = string(rune('A' + i - 1))
	}
	return m
}

func ffaTable(a, b, c, d int64) Table {
	return Table{Seats: [4]int64{a, b, c, d}, Units: []int64{a, b, c, d}}
}

type line struct {
	name   string
	rank   int
	shared bool
	points int
	firsts int
	sb     float64
}

// FFA: points (the bye scoring the player's mean), then first places,
// then SB; a game without a result does not count.
func TestStandingsFFA(t *testing.T) {
	units := makeUnits(FFA, 5)
	games := []Game{
		// round 1: A 30, B 20, C 20, D 0; no winners named: the most points is first
		{Round: 1, Table: ffaTable(1, 2, 3, 4), Result: &Result{Points: []int{30, 20, 20, 0}}},
		// round 2: B 10, C 40 (named winner), D 5, E 25
		{Round: 2, Table: ffaTable(2, 3, 4, 5), Result: &Result{Winners: []string{"Blue"}, Points: []int{10, 40, 5, 25}}},
		// round 3 still playing
		{Round: 3, Table: ffaTable(1, 2, 3, 4)},
	}
	byes := []Bye{{1, 5}, {2, 1}}
	got := Standings(FFA, units, names(5), games, byes)
	// A: 30 + bye 30 = 60, 1 first, SB = B 30 + C 60 + D 5 = 95
	// C: 20 + 40 = 60, 1 first, SB: round 1 level with B (30/2), ahead of
	//    D (5); round 2 ahead of B 30, D 5, E 50: 15 + 5 + 85 = 105
	// E: 25 + bye 25 = 50, SB ahead of B and D: 35
	// B: 30, SB round 1 level with C (60/2), ahead of D; round 2 ahead of D: 40
	// D: 5, behind everyone: 0
	want := []line{{"C", 1, false, 60, 1, 105}, {"A", 2, false, 60, 1, 95}, {"E", 3, false, 50, 0, 35}, {"B", 4, false, 30, 0, 40}, {"D", 5, false, 5, 0, 0}}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if (line{g.Name, g.Rank, g.Shared, g.Points, g.Firsts, g.SB}) != w {
			t.Errorf("line %d: %+v, want %+v", i+1, g, w)
		}
	}
}

// Two players level on everything share the rank.
func TestStandingsShared(t *testing.T) {
	units := makeUnits(FFA, 4)
	games := []Game{{Round: 1, Table: ffaTable(1, 2, 3, 4), Result: &Result{Winners: []string{"Red", "Blue"}, Points: []int{10, 10, 0, 0}}}}
	got := Standings(FFA, units, names(4), games, nil)
	if got[0].Rank != 1 || got[1].Rank != 1 || !got[0].Shared || !got[1].Shared || got[2].Rank != 3 || got[2].Shared != true || got[3].Rank != 3 {
		t.Errorf("standings %+v: want A and B 1=, C and D 3=", got)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, FFA, got); err != nil {
		t.Fatal(err)
	}
	// A and B: level with each other (half of 10), ahead of C and D (0)
	want := "rank,player,points,firsts,sb,games,byes\n1=,A,10,1,5,1,0\n1=,B,10,1,5,1,0\n3=,C,0,0,0,1,0\n3=,D,0,0,0,1,0\n"
	if buf.String() != want {
		t.Errorf("CSV:\n%s\nwant\n%s", buf.String(), want)
	}
}

// Teams: match points (2 a win, 1 a draw), then head-to-head among the
// teams level on match points, then SB.
func TestStandingsTeams(t *testing.T) {
	units := makeUnits(Teams, 4)
	tb := func(a, b int64) Table {
		ma, mb := units[a-1].Members, units[b-1].Members
		return Table{Seats: [4]int64{ma[0], mb[0], ma[1], mb[1]}, Units: []int64{a, b}}
	}
	games := []Game{
		{Round: 1, Table: tb(1, 2), Result: &Result{Winners: []string{"Red", "Yellow"}}},
		{Round: 1, Table: tb(3, 4), Result: &Result{}},
		{Round: 2, Table: tb(1, 3), Result: &Result{Winners: []string{"Blue", "Green"}}},
		{Round: 2, Table: tb(2, 4), Result: &Result{Winners: []string{"Red", "Yellow"}}},
	}
	got := Standings(Teams, units, names(4), games, nil)
	type tline struct {
		name       string
		rank, mp   int
		h2h        int
		sb         float64
		w, d, l, n int
	}
	want := []tline{{"C", 1, 3, 0, 2.5, 1, 1, 0, 2}, {"A", 2, 2, 2, 2, 1, 0, 1, 2}, {"B", 3, 2, 0, 1, 1, 0, 1, 2}, {"D", 4, 1, 0, 1.5, 0, 1, 1, 2}}
	for i, w := range want {
		g := got[i]
		if (tline{g.Name, g.Rank, g.MatchPoints, g.HeadToHead, g.SB, g.Wins, g.Draws, g.Losses, g.Games}) != w {
			t.Errorf("line %d: %+v, want %+v", i+1, g, w)
		}
	}
	// a bye is a won match
	got = Standings(Teams, units, names(4), games[:1], []Bye{{1, 3}})
	if got[0].Name != "A" || got[1].Name != "C" || got[1].MatchPoints != 2 || got[1].Byes != 1 {
		t.Errorf("with C's bye: %+v", got)
	}
}

func TestEntrants(t *testing.T) {
	got, err := Entrants(Teams, "# club night\nAnn & Cy\n\n Bob / Di \nEve,Fay\r\nGus\tHal\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0][1] != "Cy" || got[1][0] != "Bob" || got[1][1] != "Di" || got[3][1] != "Hal" {
		t.Errorf("teams %q", got)
	}
	for _, tc := range []struct{ kind, text, want string }{
		{FFA, "Ann\nBob\nann\n", "line 3: ann is already on line 1"},
		{Teams, "Ann & Cy\nBob\n", `line 2 "Bob": a team is two players`},
		{FFA, "Ann\u202e\n", "bidi"},
		{FFA, string(bytes.Repeat([]byte("x"), 61)), "at most 60 characters"},
		{"blitz", "Ann", `event kind "blitz"`},
	} {
		if _, err := Entrants(tc.kind, tc.text); err == nil || !contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want %q", tc.kind, tc.text, err, tc.want)
		}
	}
}
