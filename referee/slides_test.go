package referee

import (
	"testing"

	"boardd/rules"
)

// refAt is a referee on variant v's game from a placement ("rK:h1 …"),
// turn to move.
func refAt(t *testing.T, v *rules.Variant, turn rules.Seat, pieces string) *Referee {
	t.Helper()
	p, err := rules.ParsePlacement(v, turn, pieces)
	if err != nil {
		t.Fatal(err)
	}
	return newRef(t, v, p.FEN4())
}

// Issue 27, item 3: the next player may start moving any time after the
// previous piece lands, while it still bounces or was slid over several
// squares. A slid piece may close the switch of the square it came from
// and of its destination at once, on leaving its square and on landing:
// the lift of the square it left then follows the landing (within
// SlideOverlap). Red's queen slid g1-h2-i3, Blue's queen a8-b9 270 ms
// after the landing: both moves read, no stop.
func TestRefereeQuickReplyAfterASlide(t *testing.T) {
	const teams = "h2-h3 b9-c9 e13-e12 m6-l6"
	const ffa = "h2-h3 b9-c9 e13-e12"
	for _, tc := range []struct {
		name, variant, moves string
		steps                []step
	}{
		{"the seen one: a 55 ms pause on h2, both switches closed on landing, a bounce", "teams", teams,
			[]step{{"-g1@0 +h2@30 +i3@85 -h2@95 -i3@100 +i3@120 -a8@355 +b9@480", "move Qg1-i3, move Qa8-b9"}}},
		{"both switches closed on leaving g1 too", "teams", teams,
			[]step{{"+h2@0 -g1@10 +i3@70 -h2@90 -a8@350 +b9@460", "move Qg1-i3, move Qa8-b9"}}},
		{"neither closed between squares", "teams", teams,
			[]step{{"-g1@0 +h2@30 -h2@85 +i3@95 -a8@360 +b9@470", "move Qg1-i3, move Qa8-b9"}}},
		{"alone, slid with both closed on landing", "teams", teams,
			[]step{{"-g1@0 +h2@30 +i3@85 -h2@95", "move Qg1-i3"}}},
		{"Green's pawn slid over l4 (49 ms) onto k4, Red's reply", "ffa", ffa,
			[]step{{"-m4@0 +l4@20 +k4@69 -l4@80 -k4@85 +k4@95 -h3@300 +h4@420", "move m4-k4, move h3-h4"}}},
		{"Green's pawn slid over l4 onto k4 alone", "ffa", ffa,
			[]step{{"-m4@0 +l4@20 +k4@69 -l4@80", "move m4-k4"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, refAfter(t, tc.variant, tc.moves), tc.steps)
		})
	}
}

// A capture slid onto its square, the square before left last (the tail
// of the slide, within SlideOverlap of the landing): the capture is read
// at once. The same switches with that lift much later are the next
// player taking the piece that landed short of the capture, with another
// piece knocked meanwhile: nothing is read while that piece is in the
// hand, and no capture is made up.
func TestRefereeSlideTailOrAHand(t *testing.T) {
	ffa, _ := rules.NewFFA("modern")
	const pieces = "rK:h1 rR:d1 rB:e4 bK:a7 bR:a4 bN:h7 yK:g14 yR:d14 gK:n8 gR:n4"
	for _, tc := range []struct {
		name, touches, want string
	}{
		{"the bishop's slide onto h7 ends off g6", "-e4@0 +f5@30 -f5@60 +g6@90 -h7@120 +h7@200 -g6@220", "move Be4xNh7"},
		{"the bishop stopped on g6, h7 knocked, g6 lifted by the next hand", "-e4@0 +f5@30 -f5@60 +g6@90 -h7@150 +h7@260 -g6@560", ""},
		{"the bishop stood on g6, h7 knocked, g6 lifted by the next hand at once", "-e4@0 +f5@30 -f5@60 +g6@90 -h7@250 +h7@380 -g6@400", ""},
		{"the same, the bishop set back, the next player's move: both read", "-e4@0 +f5@30 -f5@60 +g6@90 -h7@250 +h7@380 -g6@400 +g6@600 -a7@800 +b7@900", "move Be4-g6, move Ka7-b7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refAt(t, ffa, rules.Red, pieces)
			if got := events(feed(r, tc.touches)); got != tc.want {
				t.Fatalf("events %q, want %q", got, tc.want)
			}
		})
	}
}

// Issue 27, item 4: every capture by one piece leaves the same board, so
// the switches decide, and a neighbour knocked right after a capture is
// not the capture. The piece's way (it rested on squares toward where it
// came down) and the order (the touch came after it came down, not while
// it was in the hand) say which capture was made; the reading read first
// is that one, and where the other fits as well it stays open (a doubt),
// never read silently instead.
func TestRefereeCaptureThenAKnock(t *testing.T) {
	ffa, _ := rules.NewFFA("modern")
	for _, tc := range []struct {
		name        string
		turn        rules.Seat
		pieces      string
		touches     string
		want        string // the move read
		wrongAlways bool   // true: the other capture must not even stay open
	}{
		// Yellow's queen took the rook on d8, sliding g5-f6-e7-d8; then
		// the piece on l10, which the queen could also take, was lifted
		// and put back (156 ms).
		{"Qg5xRd8, slid, landing with e7 still closed; l10 knocked", rules.Yellow, "rK:h1 bK:a4 bR:d8 yK:g14 yQ:g5 gK:n4 gN:l10",
			"-d8@0 -g5@150 +f6@200 -f6@240 +e7@280 +d8@330 -e7@345 -l10@486 +l10@642", "Qg5xRd8", true},
		{"Qg5xRd8, slid; l10 knocked", rules.Yellow, "rK:h1 bK:a4 bR:d8 yK:g14 yQ:g5 gK:n4 gN:l10",
			"-d8@0 -g5@150 +f6@200 -f6@240 +e7@280 -e7@320 +d8@330 -l10@486 +l10@642", "Qg5xRd8", true},
		{"Qg5xRd8, the queen first, the rook off while she rests on e7; l10 knocked", rules.Yellow, "rK:h1 bK:a4 bR:d8 yK:g14 yQ:g5 gK:n4 gN:l10",
			"-g5@0 +f6@50 -f6@90 +e7@130 -d8@300 +d8@420 -e7@440 -l10@560 +l10@716", "Qg5xRd8", true},
		// Red's queen took c7, then d8 (which she could also take) was
		// nudged.
		{"Qd7xc7, the pawn off first, then d8 nudged", rules.Red, "rK:h1 rQ:d7 bK:a4 bP:c7 bN:d8 yK:g14 gK:n4",
			"-c7 -d7 +c7 -d8 +d8", "Qd7xc7", false},
		{"Qd7xc7, the queen first, then d8 nudged", rules.Red, "rK:h1 rQ:d7 bK:a4 bP:c7 bN:d8 yK:g14 gK:n4",
			"-d7 -c7 +c7 -d8 +d8", "Qd7xc7", false},
		{"Qd7xc7 with a bounce, then d8 nudged", rules.Red, "rK:h1 rQ:d7 bK:a4 bP:c7 bN:d8 yK:g14 gK:n4",
			"-d7 -c7 +c7 -c7 +c7 -d8 +d8", "Qd7xc7", false},
		{"Qd7xNd8, c7 nudged before the queen was lifted", rules.Red, "rK:h1 rQ:d7 bK:a4 bP:c7 bN:d8 yK:g14 gK:n4",
			"-c7 +c7 -d7 -d8 +d8", "Qd7xNd8", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refAt(t, ffa, tc.turn, tc.pieces)
			evs := feed(r, tc.touches)
			if len(evs) == 0 || evs[0].Kind != EvMove || evs[0].Record.Text != tc.want {
				t.Fatalf("events %q, want move %s", events(evs), tc.want)
			}
			if _, alts, open := r.Doubt(); tc.wrongAlways && open {
				t.Errorf("the other capture %v is kept open", alts)
			}
		})
	}
}
