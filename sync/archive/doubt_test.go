package archive

import (
	"strings"
	"testing"
	"time"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sensors"
)

// A capture read on the first of two readings that leave the same board,
// decided four turns later by a move only the other reading allows: the
// messages take those turns back, revise the capture (move_revised) and
// play them again, and the journal holds the game played: after a restart
// it has the capture that was made, then the four moves and the fifth.
func TestRecorderKeepsADoubtedCaptureRevisedLaterAcrossACrash(t *testing.T) {
	prelude := "g2-g3 b9-d9 i13-i11 m5-l5 d2-d4 a8-e12 j13-j11 m10-k10 f1-h3 b10-d10 i14-l11 m6-l6 e1-f3 e12-e13"
	played := []string{"Bl11xk10", "m4-l4", "k2-k3", "b4-c4", "d13-d12", "Bn9-m10"}
	v, _ := builtin("ffa", "")
	g, _ := rules.NewGame(v, "")
	final, _ := rules.NewGame(v, "")
	for _, mv := range append(strings.Fields(prelude), played...) {
		for i, gm := range []*rules.Game{g, final} {
			if i == 0 && len(gm.Records()) == 14 {
				continue // g stays at the position before the capture
			}
			m, err := pgn4.Resolve(gm, mv)
			if err != nil {
				t.Fatal(mv, err)
			}
			if _, err := gm.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir := t.TempDir()
	b := openBoardWith(t, dir, g.Position().Occupancy(), builtin, "ffa", g.Position().FEN4())
	var kinds []string
	wait := func(kind string) referee.Message {
		t.Helper()
		for {
			select {
			case m := <-b.msgs:
				kinds = append(kinds, m.Kind)
				if m.Kind == kind {
					return m
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no %s message (got %v)", kind, kinds)
			}
		}
	}
	touch := func(tr string) {
		for _, f := range strings.Fields(tr) {
			k := sensors.Place
			if f[0] == '-' {
				k = sensors.Lift
			}
			b.live.Touches() <- sensors.Event{Kind: k, Square: sqr(f[1:])}
		}
	}
	// Yellow's bishop takes k10; Green's bishop on n9 is lifted and put
	// back: the switches read Bl11xBn9 as well.
	touch("-l11 -n9 +n9 -k10 +k10")
	if m := wait(referee.MsgMove); m.Move != "Bl11xBn9" || !strings.Contains(m.Text, "Bl11xk10 would leave the same board") {
		t.Fatalf("read %s (%q), want the first reading Bl11xBn9 naming the other", m.Move, m.Text)
	}
	for _, tr := range []string{"-m4 +l4", "-k2 +k3", "-b4 +c4", "-d13 +d12"} {
		touch(tr)
		wait(referee.MsgMove)
	}
	kinds = nil
	touch("-n9 +m10") // Green's bishop on n9 moves: it was never taken
	if m := wait(referee.MsgMoveRevised); m.Move != "Bl11xk10" || len(m.Candidates) != 1 || m.Candidates[0] != "Bl11xBn9" {
		t.Fatalf("revision %+v", m)
	}
	if m := wait(referee.MsgMove); m.Move != "m4-l4" {
		t.Fatalf("the first move played again is %s", m.Move)
	}
	for range 4 {
		wait(referee.MsgMove)
	}
	if want := "takeback takeback takeback takeback move_revised move move move move move"; strings.Join(kinds, " ") != want {
		t.Errorf("messages %v, want %s", kinds, want)
	}
	b.stop()
	b = openBoardWith(t, dir, final.Position().Occupancy(), builtin, "ffa", g.Position().FEN4())
	defer b.stop()
	st := b.live.State()
	var got []string
	for _, m := range st.Moves {
		got = append(got, m.Move)
	}
	if strings.Join(got, " ") != strings.Join(played, " ") || st.Status != "playing" {
		t.Fatalf("after restart: moves %v, status %s; want %v", got, st.Status, played)
	}
}
