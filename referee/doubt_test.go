package referee

import (
	"testing"
)

// Positions where one piece can take two pieces, found in random games:
// in Teams Yellow's bishop on i11 may take Green's knight on k9 or Blue's
// pawn on b4; in FFA Yellow's bishop on l11 may take Green's bishop on n9
// or Green's pawn on k10.
const (
	teamsTwoCaptures = "j2-j3 b7-d7 d13-d12 m6-k6 k2-k3 a5-c4 j14-k12 n10-l11 i1-j2 a6-b7 k12-j14 m8-k8 j2-c9 b11-c11 d12-d11 m5-l5 j1-i3 b10-c10 j13-j12 n11-n10 h1-j1 b7-d9 g13-g12 m7-l7 d2-d3 a8-f3 e13-e11 l11-k9 h2-h4 f3-c6 f14-i11 m4-k4 g1-h1 c4-d2"
	ffaTwoCaptures   = "g2-g3 b9-d9 i13-i11 m5-l5 d2-d4 a8-e12 j13-j11 m10-k10 f1-h3 b10-d10 i14-l11 m6-l6 e1-f3 e12-e13"
)

// A capture and, in the same quiet period, a touch of another square the
// same piece could take (the next player's hand, a knocked piece) give
// one switch trace for two moves: "took X, then Y was touched" and "X was
// touched with the piece in the hand, then it took Y" leave the same
// board. The referee does not stop: it plays the first reading, keeps the
// other open (Doubt), and the moves after decide, either dropping the
// other reading or revising the move into it (EvRevised, the moves since
// taken back and played again). The game ends holding the moves played.
func TestRefereeCaptureAndATouchLeaveTwoReadings(t *testing.T) {
	for _, tc := range []struct {
		name, variant, moves string
		steps                []step
		want                 string // the doubted move as the game ends up holding it
		open                 bool   // the other reading still open at the end
	}{
		{"Teams: took k9, touched b4; still open", "teams", teamsTwoCaptures,
			[]step{{"-i11 -k9 +k9 -b4 +b4", "move Bi11xNk9"}}, "Bi11xNk9", true},
		{"Teams: took b4 after touching k9; the king's move shows it", "teams", teamsTwoCaptures,
			[]step{{"-i11 -k9 +k9 -b4 +b4", "move Bi11xNk9"}, {"-n8 +m7", "revised Bi11xb4, move Kn8-m7"}}, "Bi11xb4", false},
		{"Teams: took k9, then b4 touched; the recapture shows it", "teams", teamsTwoCaptures,
			[]step{{"-i11 -k9 +k9 -b4 +b4", "move Bi11xNk9"}, {"-k9 -n6 +k9", "move Bn6xBk9"}}, "Bi11xNk9", false},
		{"Teams: the taken piece off first", "teams", teamsTwoCaptures,
			[]step{{"-k9 -i11 +k9 -b4 +b4", "move Bi11xNk9"}, {"-n8 +m7", "revised Bi11xb4, move Kn8-m7"}}, "Bi11xb4", false},
		{"Teams: b4 touched before the bishop was lifted: one reading", "teams", teamsTwoCaptures,
			[]step{{"-b4 +b4 -i11 -k9 +k9", "move Bi11xNk9"}}, "Bi11xNk9", false},
		{"FFA: k10 touched before the bishop was lifted: one reading", "ffa", ffaTwoCaptures,
			[]step{{"-k10 +k10 -l11 -n9 +n9", "move Bl11xBn9"}}, "Bl11xBn9", false},
		{"Teams: the next seat's quick reply in the same quiet period", "teams", teamsTwoCaptures,
			[]step{{"-i11 -k9 +k9 -b4 +b4 -n10 +n11", "move Bi11xNk9, move Rn10-n11"}}, "Bi11xNk9", true},
		{"FFA: took k10 after touching n9; the bishop on n9 moves", "ffa", ffaTwoCaptures,
			[]step{{"-l11 -n9 +n9 -k10 +k10", "move Bl11xBn9"}, {"-n9 +m10", "revised Bl11xk10, move Bn9-m10"}}, "Bl11xk10", false},
		{"FFA: took n9, then k10 touched; the pawn on k10 moves", "ffa", ffaTwoCaptures,
			[]step{{"-l11 -n9 +n9 -k10 +k10", "move Bl11xBn9"}, {"-k10 +j10", "move k10-j10"}}, "Bl11xBn9", false},
		{"FFA: the king takes on n9", "ffa", ffaTwoCaptures,
			[]step{{"-l11 -n9 +n9 -k10 +k10", "move Bl11xBn9"}, {"-n9 -n8 +n9", "move Kn8xBn9"}}, "Bl11xBn9", false},
		{"FFA: the taken piece off first, decided three turns later", "ffa", ffaTwoCaptures,
			[]step{{"-n9 -l11 +n9 -k10 +k10", "move Bl11xBn9"},
				{"-m4 +l4", "move m4-l4"}, {"-k2 +k3", "move k2-k3"}, {"-b4 +c4", "move b4-c4"},
				{"-d13 +d12", "move d13-d12"},
				{"-n9 +m10", "takeback, takeback, takeback, takeback, revised Bl11xk10, move m4-l4, move k2-k3, move b4-c4, move d13-d12, move Bn9-m10"}},
			"Bl11xk10", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refAfter(t, tc.variant, tc.moves)
			ply := len(r.Game().Records())
			runSteps(t, r, tc.steps)
			if got := r.Game().Records()[ply].Text; got != tc.want {
				t.Errorf("the game holds %s, want %s", got, tc.want)
			}
			if at, alts, open := r.Doubt(); open != tc.open || open && (at != ply || len(alts) != 1) {
				t.Errorf("doubt open %v at %d (%v), want open %v at %d", open, at, alts, tc.open, ply)
			}
		})
	}
}

// Three players move before the board is quiet: the order of the lifts
// and put-downs reads the three moves (each lifted after the one before
// was put down), touches and captures included.
func TestRefereeThreeMovesInOneQuietPeriod(t *testing.T) {
	for _, tc := range []struct {
		name, variant, moves string
		steps                []step
	}{
		{"three pawn moves", "teams", "", []step{{"-h2 +h3 -b7 +c7 -g13 +g12", "move h2-h3, move b7-c7, move g13-g12"}}},
		{"a knight, a pawn lifted and put back, a double step", "teams", "", []step{{"-j1 +i3 -b6 +b6 -a10 +c9 -e13 +e11", "move Nj1-i3, move Na10-c9, move e13-e11"}}},
		{"FFA: a neighbour knocked and set back during the second", "ffa", "", []step{{"-h2 +h3 -b7 -b8 +b8 +c7 -g13 +g12", "move h2-h3, move b7-c7, move g13-g12"}}},
		{"FFA: the third takes, its victim off first", "ffa", "e1-d3 b6-d6 g13-g11 m11-k11 g2-g4 d6-e6 h13-h12 n5-l4 d3-c5 b10-d10 d13-d12 n11-m11",
			[]step{{"-j2 +j4 -a10 +c9 -d10 -h14 +d10", "move j2-j4, move Na10-c9, move Qh14xd10"}}},
		{"FFA: the fourth seat's quick fourth move waits for its own quiet period", "ffa", "", []step{{"-h2 +h3 -b7 +c7 -g13 +g12", "move h2-h3, move b7-c7, move g13-g12"}, {"-m8 +l8", "move m8-l8"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, refAfter(t, tc.variant, tc.moves), tc.steps)
		})
	}
}
