package archive

import (
	"fmt"
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

// clocked writes g as the archive does, with a [%clk] comment after every
// move: record i's mover has 2 h - i s left. It answers the text and, per
// record, the clock written (-1 for a record without one).
func clocked(t *testing.T, g *rules.Game) (string, []int64) {
	t.Helper()
	recs := g.Records()
	written := make([]int64, len(recs))
	for i := range written {
		written[i] = -1
	}
	pg, err := pgn4.FromGameWith(g, nil, func(i int, rec rules.Record) string {
		s := int64(2*3600 - i)
		written[i] = s * 1000
		return fmt.Sprintf("[%%clk %d:%02d:%02d]", s/3600, s/60%60, s%60)
	})
	if err != nil {
		t.Fatal(err)
	}
	return pg.String(), written
}

// withEvents plays the first half of a real game's turns again and goes
// on with what a club night adds: a move taken back, a player resigning
// out of turn (another seat is to move), moves, a player's flag falling
// on its turn, moves, another flag falling out of turn, moves, and a draw
// agreed where the game is still going. The moves after the real half
// are the first legal move each time. It answers the game and whether a
// seat left out of turn with the game going on after it.
func withEvents(g0 *rules.Game) (*rules.Game, bool, error) {
	g, err := rules.NewGame(g0.Variant(), g0.StartFEN4())
	if err != nil {
		return nil, false, err
	}
	recs := g0.Records()
	leave := func(s rules.Seat, a rules.Action) error {
		var err error
		if a == rules.ActTimeout {
			_, err = g.Timeout(s)
		} else {
			_, err = g.Resign(s)
		}
		return err
	}
	for i := 0; i < len(recs)/2; i++ {
		r := recs[i]
		switch {
		case r.Action == rules.ActMove:
			_, err = g.Play(r.Move)
		case r.TurnAfter == r.Seat && i+1 < len(recs) && recs[i+1].Action == rules.ActMove && recs[i+1].Seat == r.Seat:
			_, err = g.LeaveAndWalk(r.Action, recs[i+1].Move) // "Kj8xNj9T"
			i++
		default:
			err = leave(r.Seat, r.Action)
		}
		if err != nil {
			return nil, false, fmt.Errorf("turn %d %s %s: %v", i+1, r.Seat, r.Text, err)
		}
	}
	over := func() bool { _, o := g.Result(); return o }
	moves := func(n int) {
		for ; n > 0 && !over(); n-- {
			lm := g.LegalMoves()
			if len(lm) == 0 {
				return
			}
			if _, err := g.Play(lm[0]); err != nil {
				return
			}
		}
	}
	// A player other than the one to move and the next.
	other := func() rules.Seat {
		for d := rules.Seat(2); d < rules.NumSeats+2; d++ {
			if s := (g.Turn() + d) % rules.NumSeats; s != g.Turn() && g.Status(s) == rules.Playing {
				return s
			}
		}
		return rules.NoSeat
	}
	if lm := g.LegalMoves(); len(lm) > 0 {
		if _, err := g.Play(lm[len(lm)-1]); err != nil {
			return nil, false, err
		}
		if err := g.Takeback(); err != nil {
			return nil, false, err
		}
	}
	left := false
	if s := other(); s != rules.NoSeat && !over() {
		if err := leave(s, rules.ActResign); err != nil {
			return nil, false, fmt.Errorf("%s resigning out of turn: %v", s, err)
		}
		left = !over()
	}
	moves(8)
	if !over() {
		leave(g.Turn(), rules.ActTimeout)
	}
	moves(8)
	if s := other(); s != rules.NoSeat && !over() {
		leave(s, rules.ActTimeout)
	}
	moves(8)
	if !over() {
		var playing []rules.Seat
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			if g.Status(s) == rules.Playing {
				playing = append(playing, s)
			}
		}
		g.AgreeDraw(playing) // where the variant allows it
	}
	return g, left, nil
}

// Clocks stay with their moves whatever else the game holds: every real
// game of testdata/games (FFA and Teams from chess.com, with lone R, T, S
// and #, "Qd1-d4R" and a walking king's "Kj8xNj9T"; blocking double
// chess with its notes as comments) written as the archive writes it,
// each also with a resignation or time-out moved out of turn ("{Yellow
// resigns}"), a takeback, and an agreed draw at the end. Each ply of the
// viewer shows, for every seat, the clock written after that seat's last
// move so far. (Before, one slot more or less than the records and the
// viewer dropped every clock of the game.)
func TestReplayClocksStayWithTheirMoves(t *testing.T) {
	var files []string
	for _, dir := range []string{"ffa", "teams", "blocking-double"} {
		fs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "games", dir, "*.pgn4"))
		files = append(files, fs...)
	}
	if len(files) < 40 {
		t.Fatalf("%d games found in testdata/games, want the 40 or more real ones", len(files))
	}
	uneven, moved := 0, 0
	lookup := pgn4.Lookup(catalog(t))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		pg, _, err := pgn4.ParseString(string(data))
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := pgn4.ReplayWith(pg, "", lookup)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		games := map[string]*rules.Game{"as played": g}
		if !strings.Contains(path, "blocking-double") { // its notes decide moves: not rebuilt from the records
			g2, left, err := withEvents(g)
			if err != nil {
				t.Fatalf("%s: %v", filepath.Base(path), err)
			}
			games["with a club night's events"] = g2
			if left {
				moved++
			}
		}
		for how, g := range games {
			text, written := clocked(t, g)
			pg2, _, _ := pgn4.ParseString(text)
			slots := 0
			for _, rd := range pg2.Rounds {
				slots += len(rd.Slots)
			}
			if slots != len(g.Records()) {
				uneven++
			}
			r, err := Replay([]byte(text), lookup)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", filepath.Base(path), how, err, text)
			}
			want := []int64{-1, -1, -1, -1}
			for i, p := range r.Plies {
				if i > 0 && written[i-1] >= 0 {
					want[g.Records()[i-1].Seat] = written[i-1]
				}
				if strings.Join(int64s(p.ClockMS), ",") != strings.Join(int64s(want), ",") {
					t.Errorf("%s %s: ply %d (%s %s) clocks %v, want %v", filepath.Base(path), how, i, p.Seat, p.Move, p.ClockMS, want)
					break
				}
			}
		}
	}
	if uneven < 10 || moved < 5 {
		t.Errorf("only %d games with slots and records uneven, %d going on after a resignation out of turn: the test covers too little", uneven, moved)
	}
	t.Logf("%d games, %d with slots and records uneven, %d going on after a resignation out of turn", len(files), uneven, moved)
}
