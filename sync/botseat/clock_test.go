package botseat

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"boardd/engine"
	"boardd/referee"
	"boardd/referee/clock"
	"boardd/rules"
	"boardd/sensors/sim"
)

// t0 is when the tests' clocks start.
var t0 = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// TestSetUpClock: the bot plans on the seat's clock as it stood when the
// turn was first seen, less what has run of it since (past the delay),
// with the game's increment or delay and the person's hand time; a game
// without clocks gives the fixed time per move.
func TestSetUpClock(t *testing.T) {
	fc := sim.NewClock(t0)
	cfg := Config{Lookup: lookup, MoveTime: 2 * time.Second, HandTime: 1500 * time.Millisecond, Now: fc.Now}
	state := func(tc string, ms int64, running bool) referee.State {
		st := botState("g1", "Red:3", true)
		st.Tags["TimeControl"] = tc
		for i := range st.Seats {
			st.Seats[i].ClockMS = ms
		}
		st.Seats[0].Running = running
		return st
	}
	cases := []struct {
		name  string
		st    referee.State
		first int64         // the seat's clock when the turn was first seen (ms), -1: another turn
		since time.Duration // since the turn was first seen
		want  *engine.Clock // nil: no clock, the fixed time per move
	}{
		{"no clocks", state("-", -1, false), -1, 0, nil},
		{"1+1, the turn just begun", state("1+1", 60000, true), 60000, 0,
			&engine.Clock{Left: time.Minute, Increment: time.Second, Hand: 1500 * time.Millisecond}},
		{"1+1, 2 s gone (a refused move, thinking again)", state("1+1", 59000, true), 60000, 2 * time.Second,
			&engine.Clock{Left: 58 * time.Second, Increment: time.Second, Used: 2 * time.Second, Hand: 1500 * time.Millisecond}},
		{"1+15D, 5 s gone: still in the delay", state("1+15D", 60000, true), 60000, 5 * time.Second,
			&engine.Clock{Left: time.Minute, Delay: 15 * time.Second, Used: 5 * time.Second, Hand: 1500 * time.Millisecond}},
		{"1+15D, 20 s gone", state("1+15D", 60000, true), 60000, 20 * time.Second,
			&engine.Clock{Left: 55 * time.Second, Delay: 15 * time.Second, Used: 20 * time.Second, Hand: 1500 * time.Millisecond}},
		{"clocks not running (before the first move)", state("1+1", 60000, false), 60000, 30 * time.Second,
			&engine.Clock{Left: time.Minute, Increment: time.Second, Hand: 1500 * time.Millisecond}},
		{"a turn not seen before: the state's clock", state("2+10", 100000, true), -1, 3 * time.Second,
			&engine.Clock{Left: 100 * time.Second, Increment: 10 * time.Second, Hand: 1500 * time.Millisecond}},
		{"an unreadable time control: the clock all the same", state("ten minutes", 30000, true), 30000, 0,
			&engine.Clock{Left: 30 * time.Second, Hand: 1500 * time.Millisecond}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fc.Advance(t0.Add(c.since).Sub(fc.Now()))
			turn := turnSeen{key: turnKey(c.st), at: t0, left: c.first}
			if c.first < 0 {
				turn = turnSeen{key: "another turn", at: t0, left: 1}
			}
			_, opt, err := setUp(c.st, rules.Red, 3, cfg, turn)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.want == nil && (opt.Clock != nil || opt.MoveTime != cfg.MoveTime):
				t.Errorf("clock %+v, movetime %v; want no clock and %v a move", opt.Clock, opt.MoveTime, cfg.MoveTime)
			case c.want != nil && (opt.Clock == nil || *opt.Clock != *c.want || opt.MoveTime != 0):
				t.Errorf("clock %+v, movetime %v; want %+v", opt.Clock, opt.MoveTime, *c.want)
			}
		})
	}
}

// TestPlanKeepsTheClock: a seat's clock (the referee's own) played move
// after move, each charged the plan's hard limit (the most the search
// takes), 5 ms beyond it (the first iteration, the messages) and the
// person's hand: the seat does not flag in 1+1 or longer. Played to the
// plan's target instead (twice the soft limit), it uses its time: at
// least a quarter of the base in its first 40 moves. A hand that the increment or delay covers with some
// milliseconds to spare never costs the clock: 300 moves and more. A hand
// that takes the whole increment (1+1, a second) leaves those 5 ms a move
// to the clock once the bot has spent its bank: the plan's reserve
// (moveOverhead for each of the moves to go) still lasts 250 moves a
// seat, more than chess.com's longest four-player game in
// testdata/games (180).
func TestPlanKeepsTheClock(t *testing.T) {
	cases := []struct {
		tc    string
		hand  time.Duration
		moves int
	}{
		{"1+1", engine.DefaultHand, 250},
		{"1+1", 0, 300},
		{"1+1", 900 * time.Millisecond, 1000},
		{"1+15D", 3 * time.Second, 1000},
		{"1+7", 2 * time.Second, 1000},
		{"2+10", 2 * time.Second, 1000},
		{"3+2", time.Second, 1000},
		{"10+5", 2 * time.Second, 1000},
	}
	for _, c := range cases {
		t.Run(c.tc+" hand "+c.hand.String(), func(t *testing.T) {
			ctl, _, err := clock.Parse(c.tc)
			if err != nil {
				t.Fatal(err)
			}
			// spend plays the moves, each charged what spend says the
			// search took, and returns the thinking of the first 40.
			play := func(spend func(engine.Plan) time.Duration) time.Duration {
				clocks, err := clock.New(ctl)
				if err != nil {
					t.Fatal(err)
				}
				now := t0
				clocks.Start(rules.Red, now)
				var first40 time.Duration
				for move := 0; move < c.moves; move++ {
					left := clocks.Left(rules.Red, now)
					// The estimate falls as the pieces come off, to its floor.
					mtg := max(15, 40-move/2)
					p := (engine.Clock{Left: left, Increment: ctl.Increment, Delay: ctl.Delay, Hand: c.hand}).Plan(mtg)
					think := spend(p)
					if move < 40 {
						first40 += think
					}
					now = now.Add(think + c.hand)
					if clocks.Moved(rules.Red, now) {
						t.Fatalf("flagged at move %d: %v left, plan %+v", move+1, left, p)
					}
				}
				t.Logf("after %d moves %v left; %v thinking in the first 40", c.moves, clocks.Left(rules.Red, now), first40)
				return first40
			}
			// The worst case: every search to its hard limit and beyond.
			play(func(p engine.Plan) time.Duration { return p.Hard + 5*time.Millisecond })
			// The usual case: to the target, twice the soft limit.
			if used := play(func(p engine.Plan) time.Duration { return 2*p.Soft + 5*time.Millisecond }); used < ctl.Base/4 {
				t.Errorf("%v thinking in the first 40 moves: the bot hoards its %v", used, ctl.Base)
			}
		})
	}
}

// allowedLog takes each "bot move" log record's allowed time: the most
// the bot gave itself for the move.
type allowedLog struct{ ch chan time.Duration }

func (h allowedLog) Enabled(context.Context, slog.Level) bool { return true }
func (h allowedLog) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h allowedLog) WithGroup(string) slog.Handler            { return h }
func (h allowedLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "bot move" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "allowed" {
			h.ch <- a.Value.Duration()
		}
		return true
	})
	return nil
}

// TestBotsPlayOnTheClock: four bot seats play a whole game (Teams, FFA)
// at 1+1
// on a live board whose clock is the test's: each lit move is made after
// the time the bot allowed itself (the most its search takes) and the
// person's hand of one second, so the clocks run as in the worst case,
// however fast this machine is. No seat flags, and every clock still
// holds time at the end.
func TestBotsPlayOnTheClock(t *testing.T) {
	for _, variant := range []string{"teams", "ffa"} {
		t.Run(variant, func(t *testing.T) { playOnTheClock(t, variant) })
	}
}

// playOnTheClock plays one game of variant for TestBotsPlayOnTheClock.
func playOnTheClock(t *testing.T, variant string) {
	fc := sim.NewClock(t0)
	bots := map[rules.Seat]int{rules.Red: 2, rules.Blue: 2, rules.Yellow: 2, rules.Green: 2}
	v, err := rules.NewVariant(variant, "")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(v, "")
	l, err := referee.NewLive(referee.LiveConfig{Board: "t1", Variant: variant, Tags: SeatTags(map[string]string{"TimeControl": "1+1"}, bots),
		Occupancy: g.Position().Occupancy(), Quiet: 2 * time.Millisecond, Now: fc.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	liveDone := make(chan struct{})
	go func() { l.Run(ctx); close(liveDone) }()
	defer func() { stop(); <-liveDone }()
	allowed := allowedLog{ch: make(chan time.Duration, 16)}
	botDone := make(chan error, 1)
	go func() {
		botDone <- Run(ctx, l, Config{Lookup: lookup, HandTime: time.Second, Now: fc.Now, Logger: slog.New(allowed)})
	}()
	limit := 800 // turns: 200 a seat
	if testing.Short() {
		limit = 200
	}
	st := handsThen(t, l, limit, func(st referee.State) {
		select {
		case took := <-allowed.ch:
			fc.Advance(took + time.Second) // the bot's most, then the hand
		case <-time.After(time.Minute):
			t.Fatalf("a lit move %s and no bot move logged", st.Remote.Move)
		}
	})
	stop()
	if err := <-botDone; err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Seats {
		if s.Status == rules.TimedOut.String() || s.ClockMS <= 0 {
			t.Errorf("%s flagged: %+v (after %d moves, result %+v)", s.Seat, s, len(st.Moves), st.Result)
		}
	}
	if st.Result != nil && st.Result.Reason == "timeout" {
		t.Errorf("the game ended on time: %+v", st.Result)
	}
	t.Logf("%d moves, result %+v, clocks %d %d %d %d ms", len(st.Moves), st.Result, st.Seats[0].ClockMS, st.Seats[1].ClockMS, st.Seats[2].ClockMS, st.Seats[3].ClockMS)
}
