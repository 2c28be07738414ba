package archive

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/pgn4"
)

// A real chess.com FFA game (testdata/games at the repository root):
// every turn gives a position, the first is the start array and the
// last one's points are the file's result.
func TestReplayRealGame(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "games", "ffa", "hornet-baselines-human_4pc_game_100527014.pgn4")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Replay(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	pg, _, _ := pgn4.ParseString(string(data))
	g, _, err := pgn4.Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Plies) != len(g.Records())+1 {
		t.Fatalf("%d plies for %d turns", len(r.Plies), len(g.Records()))
	}
	if len(r.Squares) != 160 || r.Tags["Red"] != "dalay045" || r.Variant != g.Variant().Name {
		t.Errorf("board %d squares, Red %q, variant %q", len(r.Squares), r.Tags["Red"], r.Variant)
	}
	start := r.Plies[0]
	if start.Seat != "" || start.Move != "" || len(start.Pieces) != 64 || start.Pieces["h2"] != "rP" || start.Turn != "Red" {
		t.Errorf("start ply %+v", start)
	}
	first := r.Plies[1]
	if first.Seat != "Red" || first.Move != "h2-h3" || strings.Join(first.LastMove, "-") != "h2-h3" || first.Pieces["h3"] != "rP" || first.Pieces["h2"] != "" || first.Turn != "Blue" {
		t.Errorf("first ply %+v", first)
	}
	last := r.Plies[len(r.Plies)-1]
	final := g.Position()
	for s, want := range []int{72, 14, 61, 33} {
		if last.Points[s] != want || final.Points(seatOf(s)) != want {
			t.Errorf("seat %d: %d points at the end, want %d (the Result tag)", s, last.Points[s], want)
		}
	}
	for _, p := range r.Plies {
		if len(p.ClockMS) != 4 || p.ClockMS[0] != -1 {
			t.Fatalf("clocks %v: the file has none", p.ClockMS)
		}
	}
}

// A game the board archived has a [%clk] comment after every turn: each
// ply shows the clocks known up to it.
func TestReplayClocks(t *testing.T) {
	text := `[Variant "Teams"]
[StartFen4 "4PC"]
[Red "Ann"]

1. h2-h4 { [%clk 0:09:58] } .. b7-c7 { [%clk 0:09:55] } .. g13-g11 { [%clk 0:09:50] } .. m8-l8 { [%clk 0:09:41] }
2. R
`
	r, err := Replay([]byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int64{
		{-1, -1, -1, -1},
		{598000, -1, -1, -1},
		{598000, 595000, -1, -1},
		{598000, 595000, 590000, -1},
		{598000, 595000, 590000, 581000},
		{598000, 595000, 590000, 581000},
	}
	if len(r.Plies) != len(want) {
		t.Fatalf("%d plies, want %d", len(r.Plies), len(want))
	}
	for i, w := range want {
		if strings.Join(int64s(r.Plies[i].ClockMS), ",") != strings.Join(int64s(w), ",") {
			t.Errorf("ply %d clocks %v, want %v", i, r.Plies[i].ClockMS, w)
		}
	}
	end := r.Plies[5]
	if end.Move != "R" || end.Seat != "Red" || end.LastMove != nil || end.Status[0] == "playing" {
		t.Errorf("resignation ply %+v", end)
	}
}

func TestReplayRefusesAnIllegalGame(t *testing.T) {
	_, err := Replay([]byte("[Variant \"Teams\"]\n\n1. h2-h6\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "h2-h6") {
		t.Errorf("an illegal move: %v", err)
	}
}

func int64s(v []int64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatInt(x, 10)
	}
	return out
}

func seatOf(i int) rules.Seat { return rules.Seat(i) }
