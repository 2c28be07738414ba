package handsim

import (
	"fmt"
	"io"
	"time"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

// Rig is simulated reed switches scanned and debounced in simulated
// time, for hand scripts to play on (sim.Script.Play(rig.Board(),
// rig.Wait)): their lift, place and chatter events go to touch, and judge
// is called once the board has been still for the quiet period.
type Rig struct {
	board   *sim.Board
	sc      *sensors.Scanner
	clk     *sim.Clock
	period  time.Duration
	quiet   time.Duration
	owed    time.Duration
	last    time.Time
	pending bool
	judge   func()
}

// NewRig sets simulated switches up on the squares of board, the
// pieces standing on occ. A sensor fault other than chatter (which touch
// gets, for the board to report) is printed on out.
func NewRig(board, occ square.Set, quiet time.Duration, touch func(sensors.Event), judge func(), out io.Writer) (*Rig, error) {
	clk := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	sb, err := sim.NewOn(board, occ, clk.Now)
	if err != nil {
		return nil, err
	}
	r := &Rig{board: sb, clk: clk, quiet: quiet, judge: judge}
	sc, err := sensors.NewScanner(r.board, r.board.Map(), sensors.Config{Now: clk.Now, OnEvent: func(e sensors.Event) {
		switch e.Kind {
		case sensors.Lift, sensors.Place:
			touch(e)
			r.last, r.pending = e.Time, true
		case sensors.Fault:
			if e.Cause == sensors.Chatter {
				touch(e)
			} else {
				fmt.Fprintf(out, "!! sensor fault on %s\n", e.Square)
			}
		}
	}})
	if err != nil {
		return nil, err
	}
	r.sc, r.period = sc, sc.Config().Period
	if err := sc.Step(clk.Now()); err != nil { // the first scan sets the state
		return nil, err
	}
	return r, nil
}

// Wait lets d of simulated time pass: the scanner scans every period and
// the board is judged once it has been still for the quiet period.
func (r *Rig) Wait(d time.Duration) error {
	r.owed += d
	for r.owed >= r.period {
		r.owed -= r.period
		now := r.clk.Advance(r.period)
		if err := r.sc.Step(now); err != nil {
			return err
		}
		if r.pending && now.Sub(r.last) >= r.quiet {
			r.pending = false
			r.judge()
		}
	}
	return nil
}

// Settle waits until the last touches have been judged.
func (r *Rig) Settle() error { return r.Wait(r.quiet + 10*r.period) }

// Board is the simulated switches, for a script to lift and place on.
func (r *Rig) Board() *sim.Board { return r.board }
