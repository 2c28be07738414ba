package termsim

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"boardd/app/board"
	"boardd/configs"
	"boardd/referee"
	"boardd/rules/square"
	"boardd/sensors/sim"
)

// Issue 27: a typed Kf13-f12 was echoed Kf13xf12: the rules resolve a
// move by its squares, so '-' onto an occupied square plays the capture.
// The terminal now says so; a capture written onto an empty square, or
// naming a piece the square does not hold, is refused.
func TestTypedCaptureMarks(t *testing.T) {
	opening := "Ne1-d3\nb7-c7\ne13-e12\nm5-l5\n" // Red's knight on d3 attacks Blue's pawn on b4
	for _, tc := range []struct {
		name, line string
		says       []string
		refused    bool
		moves      string
	}{
		{"dash onto a piece", "Nd3-b4", []string{"note: Nd3-b4 takes Blue's pawn on b4: played as Nd3xb4", "Red: Nd3xb4"}, false, "Nd3xb4"},
		{"capture written", "Nd3xb4", []string{"Red: Nd3xb4"}, false, "Nd3xb4"},
		{"capture of an empty square", "Nd3xf4", []string{"?? Nd3xf4: f4 is empty, there is nothing to take: type Nd3-f4"}, true, ""},
		{"capture of the wrong piece", "Nd3xQb4", []string{"?? Nd3xQb4: b4 holds Blue's pawn, not a queen: type Nd3xb4"}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, out := newBoard(t, nil)
			if err := b.PlayLines(strings.NewReader(opening+tc.line+"\n"), ""); err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.says {
				if !strings.Contains(out.String(), s) {
					t.Errorf("typed %s: output lacks %q:\n%s", tc.line, s, out)
				}
			}
			st := b.live.State()
			if tc.refused != (len(st.Moves) == 4) || !tc.refused && st.Moves[4].Move != tc.moves {
				t.Errorf("typed %s: moves %v", tc.line, st.Moves)
			}
		})
	}
}

// Issue 27: boardd run's messages named ranks 1-16 on the 14×14 board.
// Every answer to a line that is not a move of this board names this
// board's files and ranks.
func TestNotAMoveNamesThisBoard(t *testing.T) {
	if got := sim.Span(square.Cross()); got != "files a–n, ranks 1–14" {
		t.Errorf("Span(cross) = %q", got)
	}
	if got := sim.Span(square.Full()); got != "files a–p, ranks 1–16" {
		t.Errorf("Span(16×16) = %q", got)
	}
	for _, line := range []string{"z1-z2", "Q", "hello", "o15-o16", "lift z9", "place p16", "-z3"} {
		b, out := newBoard(t, nil)
		b.PlayLines(strings.NewReader(line+"\n"), "")
		if s := out.String(); !strings.Contains(s, "files a–n, ranks 1–14") || strings.Contains(s, "1-16") || strings.Contains(s, "1–16") {
			t.Errorf("sim, %q: %s", line, s)
		}
	}
}

// startDaemon is boardd run's board on simulated switches.
func startDaemon(t *testing.T) *board.Daemon {
	t.Helper()
	cfg := configs.Defaults()
	cfg.StateDir, cfg.MQTT.Disabled, cfg.Web.Listen = t.TempDir(), true, "off"
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// waitState polls the board until ok, or fails after a generous time
// (the referee's own timers run in real time here).
func waitState(t *testing.T, d *board.Daemon, what string, ok func(referee.State) bool) referee.State {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if st := d.Live.State(); ok(st) {
			return st
		}
		if time.Now().After(end) {
			t.Fatalf("%s: not reached; state %+v", what, d.Live.State())
		}
	}
}

// boardd run's terminal: moves typed one after the other are each read
// in the position the board judged (before, the second merged into the
// first's quiet period and neither got an answer); a bare wait is taken
// as boardd sim takes it; not-a-move lines name this board's squares.
func TestRunLinesOneAfterAnother(t *testing.T) {
	d := startDaemon(t)
	var out strings.Builder
	ls := &Lines{Live: d.Live, Board: d.SimBoard, Settle: DefaultSettle, Out: &out}
	ctx := context.Background()
	for _, line := range []string{"h2-h4", "b7-c7", "wait", "e13-e12"} {
		if err := ls.Play(ctx, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	waitState(t, d, "three moves", func(st referee.State) bool { return len(st.Moves) == 3 })
	// Blue's move typed for Red's turn, right after Green's: refused with
	// the rules' words once Green's move is judged, not merged into it.
	if err := ls.Play(ctx, "m5-l5"); err != nil {
		t.Fatal(err)
	}
	if err := ls.Play(ctx, "c7-d7"); err == nil || !strings.Contains(err.Error(), "Red's turn") {
		t.Errorf("a move out of turn right after a move: %v", err)
	}
	st := waitState(t, d, "four moves", func(st referee.State) bool { return len(st.Moves) == 4 })
	if st.Status != "playing" {
		t.Errorf("status %q after the refused line, want playing", st.Status)
	}
	for _, line := range []string{"Q", "z1-z2", "o15-o16", "wait 5"} {
		err := ls.Play(ctx, line)
		if err == nil || strings.Contains(err.Error(), "1-16") {
			t.Errorf("%q: %v", line, err)
		}
		if line != "wait 5" && !strings.Contains(err.Error(), "files a–n, ranks 1–14") {
			t.Errorf("%q: %v, want this board's files and ranks", line, err)
		}
	}
}

// Issue 27: after New game the simulated board had no one-line way back
// to the start (73 lift and place lines after an 80-move game): reset.
func TestRunResetAfterNewGame(t *testing.T) {
	d := startDaemon(t)
	ls := &Lines{Live: d.Live, Board: d.SimBoard, Settle: DefaultSettle, Out: io.Discard}
	ctx := context.Background()
	for _, line := range []string{"h2-h4", "b7-c7", "e13-e12", "m5-l5", "Ne1-d3", "wait", "lift a4"} { // a Blue rook in hand at New game
		if err := ls.Play(ctx, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	waitState(t, d, "five moves", func(st referee.State) bool { return len(st.Moves) == 5 })
	if r := d.Live.Do(ctx, referee.Command{Name: referee.CmdNewGame}); !r.OK {
		t.Fatalf("new game: %s", r.Error)
	}
	if err := ls.Play(ctx, "reset"); err != nil {
		t.Fatal(err)
	}
	waitState(t, d, "the start position, in step", func(st referee.State) bool {
		return st.Status == "playing" && len(st.Moves) == 0 && len(st.Wrong) == 0 && len(st.Missing) == 0
	})
	if err := ls.Play(ctx, "h2-h4"); err != nil {
		t.Fatalf("first move after reset: %v", err)
	}
	waitState(t, d, "the new game's first move", func(st referee.State) bool { return len(st.Moves) == 1 })
}

// The sim's reset: one line for what the lights ask.
func TestSimReset(t *testing.T) {
	b, out := newBoard(t, nil)
	if err := b.PlayLines(strings.NewReader("h2-h4\nb7-c7\nlift h4\nlift c7\nplace a1\nplace e7\nwait\nreset\n"), ""); err != nil {
		t.Fatal(err)
	}
	st := b.live.State()
	if st.Status != "playing" || len(st.Moves) != 2 || len(st.Wrong) != 0 || len(st.Missing) != 0 {
		t.Errorf("after reset: status %s, moves %v, wrong %v, missing %v\n%s", st.Status, st.Moves, st.Wrong, st.Missing, out)
	}
}
