package engine

import (
	"context"
	"testing"
	"time"

	"boardd/rules"
)

const (
	us = time.Microsecond
	ms = time.Millisecond
	s  = time.Second
)

// TestClockPlan: the time for one move, worked out by hand from the
// plan's rule (Clock.Plan's doc): a share of the bank over the moves to
// go plus what each later move gives back, the free part of a delay,
// half the target as the soft limit, two and a half times it as the hard
// one, never more than free time plus a quarter of the bank.
func TestClockPlan(t *testing.T) {
	cases := []struct {
		name string
		c    Clock
		mtg  int
		want Plan
	}{
		// cost 1 + 0.05 (moveOverhead); bank 60-0.3-1.05 = 58.65;
		// share (58.65 + 39×(1-1.05))/40 = 1.4175
		{"1+1 at the start, a person's hand of 1s", Clock{Left: 60 * s, Increment: s, Hand: s}, 40, Plan{708750 * us, 3543750 * us}},
		// share (58.65 + 39×(0-1.05))/40 = 0.4425: the hands' time for
		// the 39 later moves is kept back
		{"1+0: the hand eats the clock", Clock{Left: 60 * s, Hand: s}, 40, Plan{221250 * us, 1106250 * us}},
		// free 15-1.05 = 13.95; bank 59.7; share 59.7/40 = 1.4925;
		// hard capped at 13.95 + 59.7/4
		{"1+15D: the delay is free", Clock{Left: 60 * s, Delay: 15 * s, Hand: s}, 40, Plan{7721250 * us, 28875 * ms}},
		// the delay is gone: the cost charged this move, not later ones;
		// share 58.65/40 = 1.46625
		{"1+15D, the delay used up", Clock{Left: 60 * s, Delay: 15 * s, Used: 15 * s, Hand: s}, 40, Plan{733125 * us, 3665625 * us}},
		// 10 s of the delay used: free 5-1.05 = 3.95; share 1.4925
		{"1+15D, part of the delay used", Clock{Left: 60 * s, Delay: 15 * s, Used: 10 * s, Hand: s}, 40, Plan{2721250 * us, 13606250 * us}},
		{"1+1 with nothing above the hand and the margin: at once", Clock{Left: 1200 * ms, Increment: s, Hand: s}, 20, Plan{}},
		// bank 0.2-0.3 < 0: the margin comes out of the free 13.95 s
		{"1+15D with 0.2s left: the delay only", Clock{Left: 200 * ms, Delay: 15 * s, Hand: s}, 20, Plan{6925 * ms, 13850 * ms}},
		// bank 10-0.3-0.05 = 9.65, all of it the share, capped at a quarter
		{"the last move: a quarter of the bank", Clock{Left: 10 * s, Hand: 0}, 1, Plan{1206250 * us, 2412500 * us}},
		// a program (no hand), 45 s + 1 s: (44.65 + 39×0.95)/40 = 2.0425
		{"a program, 45s+1s", Clock{Left: 45 * s, Increment: s}, 40, Plan{1021250 * us, 5106250 * us}},
		{"a hand slower than the increment: at once", Clock{Left: 60 * s, Increment: s, Hand: 3 * s}, 40, Plan{}},
		// bank 45-1-0.05 = 43.95; (43.95 - 19×0.05)/20 = 2.15
		{"a safety margin of 1s", Clock{Left: 45 * s, Safety: s}, 20, Plan{1075 * ms, 5375 * ms}},
		{"moves to go below 1 count as 1", Clock{Left: 10 * s}, 0, Plan{1206250 * us, 2412500 * us}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.c.Plan(c.mtg); got != c.want {
				t.Errorf("Plan(%d) of %+v = %v, want %v", c.mtg, c.c, got, c.want)
			}
		})
	}
}

// TestClockPlanNeverFlags: over a grid of clocks, the plan's hard limit
// and the person's hand never charge the clock more than it holds above
// the safety margin (unless the hand alone does, and then the plan adds
// nothing); the soft limit is never above the hard; more time
// left, more increment or fewer moves to go never give less time.
func TestClockPlanNeverFlags(t *testing.T) {
	durs := []time.Duration{0, 50 * ms, 300 * ms, s, 2 * s, 15 * s}
	lefts := []time.Duration{ms, 100 * ms, 800 * ms, 1500 * ms, 5 * s, 60 * s, 10 * time.Minute}
	n := 0
	for _, left := range lefts {
		for _, inc := range durs {
			for _, delay := range durs {
				for _, hand := range durs {
					for _, used := range durs {
						for _, mtg := range []int{1, 15, 40, 65} {
							c := Clock{Left: left, Increment: inc, Delay: delay, Hand: hand, Used: used}
							p := c.Plan(mtg)
							n++
							if p.Soft > p.Hard || p.Soft < 0 {
								t.Fatalf("%+v, %d to go: soft %v, hard %v", c, mtg, p.Soft, p.Hard)
							}
							// What the clock charges from now: the time
							// past what is left of the delay. The hand's
							// own part the plan cannot help; the
							// thinking's must fit above the margin.
							handOnly := max(hand+moveOverhead-max(delay-used, 0), 0)
							charged := max(p.Hard+hand+moveOverhead-max(delay-used, 0), 0)
							if charged > handOnly && charged > left-DefaultSafety {
								t.Fatalf("%+v, %d to go: hard %v charges %v of %v left", c, mtg, p.Hard, charged, left)
							}
							more := []Clock{c, c, c}
							more[0].Left += s
							more[1].Increment += s
							for i, m := range more[:2] {
								if q := m.Plan(mtg); q.Hard < p.Hard || q.Soft < p.Soft {
									t.Fatalf("%+v (more %s) gives %v, less than %v", m, []string{"time left", "increment"}[i], q, p)
								}
							}
							if q := c.Plan(mtg + 5); q.Hard > p.Hard {
								t.Fatalf("%+v: %d to go gives %v, more than %v for %d", c, mtg+5, q, p, mtg)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d clocks", n)
}

// TestClockCheck: a clock that cannot be is refused, naming what is
// wrong.
func TestClockCheck(t *testing.T) {
	cases := []struct {
		c    Clock
		want string
	}{
		{Clock{Left: s}, ""},
		{Clock{Left: -s}, "the time left -1s is negative"},
		{Clock{Left: s, Increment: -s}, "the increment -1s is negative"},
		{Clock{Left: s, Delay: -s}, "the delay -1s is negative"},
		{Clock{Left: s, Hand: -s}, "the hand time -1s is negative"},
		{Clock{Left: s, MovesToGo: -1}, "-1 moves to go is negative"},
		{Clock{}, "no time left"},
	}
	for _, c := range cases {
		err := c.c.Check()
		if got := ""; err != nil {
			got = err.Error()
			if c.want == "" || got != "clock: "+c.want {
				t.Errorf("%+v: %q, want %q", c.c, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("%+v: accepted, want %q", c.c, c.want)
		}
	}
}

// TestMovesToGo: the estimate starts at the mode's start, falls as the
// pieces come off and stops at the floor.
func TestMovesToGo(t *testing.T) {
	cases := []struct {
		variant, fen string
		want         int
	}{
		{"teams", "", partnersMovesStart},
		{"ffa", "", singlesMovesStart},
		// kings and pawns only
		{"teams", "R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-x,x,x,3,yK,4,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/1,bP,10,gP,1/1,bP,10,gP,1/1,bP,10,gP,1/bK,bP,10,gP,gK/1,bP,10,gP,1/1,bP,10,gP,1/1,bP,10,gP,1/1,bP,10,gP,1/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,4,rK,3,x,x,x", partnersMovesFloor},
	}
	for _, c := range cases {
		g, err := rules.NewGame(loadVariant(t, c.variant), c.fen)
		if err != nil {
			t.Fatal(err)
		}
		b := newBoard(gamePosition(g))
		if got := b.movesToGo(b.singles()); got != c.want {
			t.Errorf("%s %q: %d moves to go, want %d", c.variant, c.fen, got, c.want)
		}
	}
	// Halfway: between the floor and the start.
	g, _ := rules.NewGame(loadVariant(t, "teams"), "Y-0,0,0,0-0,0,1,0-0,1,1,0-0,0,0,0-1-{'enPassant':('','','i12:i11','')}-x,x,x,yR,2,yK,gQ,gB,yN,yR,x,x,x/x,x,x,1,yP,yP,1,yP,2,yP,x,x,x/x,x,x,1,bN,1,yP,4,x,x,x/bR,bP,1,yP,4,yP,yP,2,gP,gR/1,bP,6,gP,4,gN/bB,7,yN,2,gP,2/1,bP,9,gK,2/bK,bP,4,yB,5,gP,1/bB,bP,4,bN,5,gP,gB/bR,3,bP,2,rP,3,gP,1,gN/2,yQ,5,rP,1,rP,rN,1,gR/x,x,x,bP,rP,2,rP,1,rP,1,x,x,x/x,x,x,rP,1,rP,rK,4,x,x,x/x,x,x,rR,1,rB,rQ,1,rB,1,rR,x,x,x")
	b := newBoard(gamePosition(g))
	if got := b.movesToGo(false); got <= partnersMovesFloor || got >= partnersMovesStart {
		t.Errorf("a middle game: %d moves to go, want between %d and %d", got, partnersMovesFloor, partnersMovesStart)
	}
}

// onlyMove are positions where the seat to move has one legal move
// (found by random play from the start array).
var onlyMove = []struct{ variant, fen string }{
	{"teams", "Y-0,0,0,0-0,0,1,0-0,1,1,0-0,0,0,0-1-{'enPassant':('','','i12:i11','')}-x,x,x,yR,2,yK,gQ,gB,yN,yR,x,x,x/x,x,x,1,yP,yP,1,yP,2,yP,x,x,x/x,x,x,1,bN,1,yP,4,x,x,x/bR,bP,1,yP,4,yP,yP,2,gP,gR/1,bP,6,gP,4,gN/bB,7,yN,2,gP,2/1,bP,9,gK,2/bK,bP,4,yB,5,gP,1/bB,bP,4,bN,5,gP,gB/bR,3,bP,2,rP,3,gP,1,gN/2,yQ,5,rP,1,rP,rN,1,gR/x,x,x,bP,rP,2,rP,1,rP,1,x,x,x/x,x,x,rP,1,rP,rK,4,x,x,x/x,x,x,rR,1,rB,rQ,1,rB,1,rR,x,x,x"},
	{"ffa", "G-0,0,0,0-0,1,1,1-0,0,1,1-0,0,1,0-0-x,x,x,yR,yN,yB,yK,1,yB,1,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,2,yP,x,x,x/x,x,x,7,yN,x,x,x/1,bR,bP,5,yP,yP,2,gP,gR/1,bP,10,gP,gN/bB,bP,10,yQ,1/bQ,bP,2,bN,6,gP,gB,gK/bK,bP,10,gP,gQ/bB,bP,bN,9,gP,1/1,bP,8,rP,gP,gB,gN/bR,bP,6,rP,3,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rK,rP,1,x,x,x/x,x,x,rR,rN,rB,rQ,1,rB,rN,rR,x,x,x"},
}

// TestOnlyMoveAtOnce: with one legal move the bot answers without a
// search, whatever its limits: no node searched, no depth, even when told
// to search deep with no time limit or to think on a long clock.
func TestOnlyMoveAtOnce(t *testing.T) {
	for _, c := range onlyMove {
		g, err := rules.NewGame(loadVariant(t, c.variant), c.fen)
		if err != nil {
			t.Fatal(err)
		}
		legal := g.LegalMoves()
		if len(legal) != 1 {
			t.Fatalf("%s: %d legal moves, want a position with one", c.variant, len(legal))
		}
		for _, opt := range []Options{
			{Level: 5, Depth: 30, NoTimeLimit: true},
			{Level: 5, Clock: &Clock{Left: 10 * time.Minute, Increment: 10 * s}},
			{Level: 1, MoveTime: time.Hour},
		} {
			r, err := New(opt).Think(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if r.Move != legal[0] || !r.Forced || r.Nodes != 0 || r.Depth != 0 || r.Allowed != 0 {
				t.Errorf("%s %+v: %+v; want the only move %s at once, no node searched", c.variant, opt, r, MoveText(g, legal[0]))
			}
		}
	}
}

// TestThinkOnTheClock: Think gives itself the clock's plan, scaled by the
// level's share, with the moves to go estimated from the position or
// given; a fixed time per move, when given, wins over the clock.
func TestThinkOnTheClock(t *testing.T) {
	g, err := rules.NewGame(loadVariant(t, "teams"), "")
	if err != nil {
		t.Fatal(err)
	}
	c := Clock{Left: 60 * s, Increment: s, Hand: s}
	cases := []struct {
		opt  Options
		want time.Duration
	}{
		{Options{Level: 5, Clock: &c}, c.Plan(partnersMovesStart).Hard},
		{Options{Level: 2, Clock: &c}, time.Duration(float64(c.Plan(partnersMovesStart).Hard) * levels[2].timeFrac)},
		{Options{Level: 5, Clock: &Clock{Left: 60 * s, Increment: s, Hand: s, MovesToGo: 10}}, c.Plan(10).Hard},
	}
	for _, cs := range cases {
		// A node limit keeps the search short; the plan is what the bot
		// allowed itself.
		cs.opt.Nodes = 2000
		e := New(cs.opt)
		e.thought = true // not a process started for this move
		r, err := e.Think(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if r.Allowed != cs.want {
			t.Errorf("%+v: allowed %v, want %v", cs.opt, r.Allowed, cs.want)
		}
	}
	// Nothing left above the margin: the first iteration's move, no
	// second iteration however fast the first.
	e := New(Options{Level: 5, Clock: &Clock{Left: 5 * ms}})
	e.thought = true
	r, err := e.Think(context.Background(), g)
	if err != nil || r.Depth != 1 || r.Allowed != 0 {
		t.Errorf("5 ms left: %+v, %v; want depth 1, nothing allowed", r, err)
	}
}
