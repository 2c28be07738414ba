package pgn4

import (
	"strings"
	"testing"

	"boardd/rules"
)

// Two real chess.com FFA games (testdata/games/ffa) in which players time
// out and their kings walk on. The rules text says only: "When a player
// resigns or times out, leaving two or more active players on the board,
// that player's king remains "alive" and is still worth +20 to whoever can
// capture it. The last remaining player will be given +20 for each king of
// all resigned or timed out players that is still on the board." and "In
// case of stalemate, insufficient material, three-fold repetition or the
// 50-move rule, the remaining players receive +10 points each." The games
// show what it leaves unsaid, and the final scores come out only so:
//
//   - a walking king's moves score nothing: its player has left. A token
//     with a trailing R or T ("Kj8xNj9T") is the seat leaving and its king
//     then moving in the same turn (all 21 such tokens in testdata are king
//     moves); Green's Kj8xNj9T takes a live knight and chess.com's 40 for
//     Green leaves out those 3 points;
//   - a walking king stalemated on its turn (chess.com's lone S) is out and
//     its 20 points are shared by the players still playing, rounded up:
//     7 each among three, 10 each among two;
//   - a draw with a walking king on the board shares its 20 the same way,
//     on top of the +10 each: 97969768 ends "Insufficient material" with
//     Red's walking king beside Blue's and Green's, who get 20 each.
//
// The text and the games do not disagree; the games say what the text does
// not (a walking king's stalemate, a draw with one on the board, and that a
// walking king scores nothing).
func TestReplayWalkingKings(t *testing.T) {
	tests := []struct {
		file string
		// walked: the seat that left with a walking king's move in its slot,
		// the token, and what that move gained.
		walked rules.Seat
		token  string
		// stalemates: for each walking king stalemated, what the seats
		// gained on the turn that did it.
		stalemates map[rules.Seat][rules.NumSeats]int
		// atEnd: points gained when the game ended (the draw's +10 and the
		// walking kings' shares), beyond the turns' records.
		atEnd  [rules.NumSeats]int
		reason string
	}{
		{
			file:   "hornet-baselines-human_4pc_game_97969768.pgn4",
			walked: rules.Red, token: "Kj2-k2",
			atEnd:  [rules.NumSeats]int{0, 20, 0, 20}, // +10 draw, +10 Red's king
			reason: "insufficient material",
		},
		{
			file:   "hornet-collected_games-cc_game_0088.pgn4",
			walked: rules.Green, token: "Kj8xNj9",
			stalemates: map[rules.Seat][rules.NumSeats]int{
				rules.Red:   {0, 7, 7, 7},   // round 52: three still play
				rules.Green: {0, 10, 19, 0}, // Yellow's Rd10xQd7+ also takes a queen (+9)
			},
			reason: "last player standing", // Blue mates Yellow; no walking king left
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			pg, _, _ := readGame(t, "../../testdata/games/ffa/"+tt.file)
			g, notes, err := Replay(pg, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range notes {
				t.Errorf("check marks: %s", n)
			}
			want, _ := resultPoints(pg)
			res, over := g.Result()
			if !over || res.Points != want || res.Reason != tt.reason {
				t.Errorf("over=%v %s %v, want %s %v (the Result tag)", over, res.Reason, res.Points, tt.reason, want)
			}
			recs := g.Records()
			var sum [rules.NumSeats]int
			walked, stalemated := false, map[rules.Seat]bool{}
			for i, r := range recs {
				for s := range sum {
					sum[s] += r.Gained[s]
				}
				if r.Action != rules.ActMove && r.Seat == tt.walked && i+1 < len(recs) && recs[i+1].Seat == tt.walked {
					mv := recs[i+1]
					if r.TurnAfter != tt.walked || mv.Action != rules.ActMove || mv.Text != tt.token || mv.Gained != [rules.NumSeats]int{} {
						t.Errorf("%s left (%s) then %q gained %v; want its walking king's %s, gaining nothing", r.Seat, r.Text, mv.Text, mv.Gained, tt.token)
					}
					walked = true
				}
				for _, s := range r.Out {
					if g.Status(s) == rules.Stalemated && r.Seat != s {
						stalemated[s] = true
						if r.Gained != tt.stalemates[s] {
							t.Errorf("%s's walking king stalemated (after %s): gained %v, want %v", s, r.Text, r.Gained, tt.stalemates[s])
						}
					}
				}
			}
			if !walked {
				t.Errorf("no walking king's move %s after %s left", tt.token, tt.walked)
			}
			if len(stalemated) != len(tt.stalemates) {
				t.Errorf("walking kings stalemated: %v, want %d", stalemated, len(tt.stalemates))
			}
			for s := range sum {
				if got := res.Points[s] - sum[s]; got != tt.atEnd[s] {
					t.Errorf("%s gained %d at the end, want %d", rules.Seat(s), got, tt.atEnd[s])
				}
			}
		})
	}
}

// A walking king's move in its player's leaving turn is written as
// chess.com writes it, the R or T after the move, and reads back the same;
// a move followed by its player's resignation (out of turn) is written
// with a comment, which cannot be mistaken for a walking king's move.
func TestExportWalkingKings(t *testing.T) {
	v, _ := rules.NewFFA("modern")
	g, _ := rules.NewGame(v, "")
	play := func(from, to string) {
		t.Helper()
		m, err := g.Position().FindMove(sqr(from), sqr(to), rules.NoKind)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	play("h2", "h3")
	play("b7", "c7")
	play("g13", "g12")
	play("m8", "l8")
	if _, err := g.Resign(rules.Green); err != nil { // right after its own move
		t.Fatal(err)
	}
	play("i2", "i3")
	m, _ := g.Position().FindMove(sqr("a7"), sqr("b7"), rules.NoKind)
	if _, err := g.LeaveAndWalk(rules.ActTimeout, m); err != nil { // Blue flags; its king walks at once
		t.Fatal(err)
	}
	out, err := FromGame(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	txt := out.String()
	for _, want := range []string{"1. h2-h3 .. b7-c7 .. g13-g12 .. m8-l8 {Green resigns}", "2. i2-i3 .. Ka7-b7T"} {
		if !strings.Contains(txt, want) {
			t.Errorf("export lacks %q:\n%s", want, txt)
		}
	}
	again, _, err := ParseString(txt)
	if err != nil {
		t.Fatal(err)
	}
	g2, _, err := Replay(again, "")
	if err != nil {
		t.Fatal(err)
	}
	if g2.Position().FEN4() != g.Position().FEN4() || len(g2.Records()) != len(g.Records()) {
		t.Errorf("the export replays to another game:\n%s", txt)
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if g2.Status(s) != g.Status(s) {
			t.Errorf("%s is %v after replay, %v before", s, g2.Status(s), g.Status(s))
		}
	}
}
