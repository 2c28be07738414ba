package referee

import (
	"fmt"
	"strings"
	"testing"

	"boardd/leds"
	"boardd/rules"
	"boardd/rules/square"
)

// A small position keeps the walk-through short: two kings and a few men.
const setupFEN = "R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-x,x,x,4,yK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/14/14/14/bK,13/14/14/14/x,x,x,8,x,x,x/x,x,x,3,rP,4,x,x,x/x,x,x,1,rN,2,rK,3,x,x,x"

// "A board that cannot be brought back offers to resume from a set-up of
// the current position": the board emptied during a correction starts a
// guided set-up; the pieces go back one at a time, each square lit in its
// owner's colour; a stray piece is lit to be taken off and holds the
// set-up until it is; the board matching the game ends it.
func TestGuidedSetupOfTheCurrentPosition(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, setupFEN)
	// The knight knocked onto a neighbouring square: correction.
	if got := kinds(feed(r, "-e1 +e2")); len(got) != 1 || got[0] != EvIllegal {
		t.Fatalf("knocked piece: %v, want illegal", got)
	}
	// Nobody remembers what stood where: every piece comes off.
	evs := feed(r, "-e2 -g2 -h1 -h14 -a7")
	if got := kinds(evs); len(got) != 1 || got[0] != EvSetup {
		t.Fatalf("board emptied in correction: %v, want a set-up", got)
	}
	step, ok := r.Setup()
	if !ok || step.Clearing || step.Total != 5 || step.Done != 0 {
		t.Fatalf("set-up step %+v (running %v), want 0 of 5 with the board clear", step, ok)
	}
	// Red's pieces first (pieces before pawns), then Blue, then Yellow.
	wantOrder := []string{"e1", "h1", "g2", "a7", "h14"}
	for i, q := range wantOrder {
		step, _ := r.Setup()
		if step.Square.String() != q || step.Done != i {
			t.Fatalf("step %d: %+v, want %s", i, step, q)
		}
		pc := r.Game().Position().At(step.Square)
		if step.Piece != pc {
			t.Errorf("step %d names %v, the game has %v on %s", i, step.Piece, pc, q)
		}
		var f leds.Frame
		r.Frame(&f)
		if c := f.At(step.Square); c != r.Palette.Turn[pc.Seat()] {
			t.Errorf("%s lit %v, want %s's colour %v", q, c, pc.Seat(), r.Palette.Turn[pc.Seat()])
		}
		if i == 2 {
			// A piece put down elsewhere is lit to come off and holds the
			// set-up there.
			if got := feed(r, "+c7 +"+q); len(got) != 0 {
				t.Fatalf("stray piece: events %v", kinds(got))
			}
			if s, _ := r.Setup(); s.Done != i {
				t.Fatalf("the set-up moved on past a stray piece: %+v", s)
			}
			var f leds.Frame
			r.Frame(&f)
			if f.At(sqMust(t, "c7")) != r.Palette.Wrong {
				t.Errorf("stray c7 not lit to be taken off")
			}
			if got := feed(r, "-c7"); len(got) != 0 {
				t.Fatalf("stray piece removed: events %v", kinds(got))
			}
			if s, _ := r.Setup(); s.Done != i+1 {
				t.Fatalf("the stray piece gone, the set-up did not move on: %+v", s)
			}
			continue
		}
		evs := feed(r, "+"+q)
		if i+1 < len(wantOrder) && len(evs) != 0 {
			t.Fatalf("step %d: events %v", i, kinds(evs))
		}
		if i+1 == len(wantOrder) {
			if got := kinds(evs); len(got) != 1 || got[0] != EvCorrected {
				t.Fatalf("last piece placed: %v, want corrected", got)
			}
		}
	}
	if _, ok := r.Setup(); ok || !r.InStep() {
		t.Fatal("the set-up did not end with the board in step")
	}
	// Play goes on from the same position.
	if got := kinds(feed(r, "-e1 +f3")); len(got) != 1 || got[0] != EvMove {
		t.Fatalf("a move after the set-up: %v", got)
	}
}

// StartSetup (the setup command) on a board with pieces on it asks for the
// board to be cleared first.
func TestStartSetupClearsFirst(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, setupFEN)
	r.StartSetup()
	step, ok := r.Setup()
	if !ok || !step.Clearing || step.Square != square.None {
		t.Fatalf("step %+v, want clearing", step)
	}
	var f leds.Frame
	r.Frame(&f)
	for _, q := range []string{"e1", "g2", "h1", "a7", "h14"} {
		if f.At(sqMust(t, q)) != r.Palette.Wrong {
			t.Errorf("%s not lit to be taken off while clearing", q)
		}
	}
	feed(r, "-e1 -g2 -h1 -a7")
	if step, _ := r.Setup(); !step.Clearing {
		t.Fatalf("clearing ended with h14 still on the board: %+v", step)
	}
	feed(r, "-h14")
	if step, _ := r.Setup(); step.Clearing || step.Square.String() != "e1" {
		t.Fatalf("after clearing: %+v, want e1 first", step)
	}
}

// A board that is merely in correction and gets emptied with nothing
// touched since (a new game on an empty board) is not a set-up gesture.
func TestEmptyBoardAtANewGameIsNoSetupGesture(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, setupFEN)
	r.Resync(square.Set{})
	if evs := r.Quiet(); len(evs) != 0 {
		t.Fatalf("events %v", kinds(evs))
	}
	if _, ok := r.Setup(); ok {
		t.Fatal("a set-up started without a gesture")
	}
}

func sqMust(t *testing.T, name string) square.Square {
	t.Helper()
	q, err := square.Parse(name)
	if err != nil {
		t.Fatal(fmt.Errorf("%s: %v", strings.TrimSpace(name), err))
	}
	return q
}
