package systest

import (
	"fmt"
	"io"
	"time"

	"boardd/referee"
	"boardd/referee/handsim"
	"boardd/rules/square"
	"boardd/sensors"
)

// refRig is simulated switches under a bare referee.Referee, for the
// tests of hands on reed switches that look inside the referee (InStep,
// NextFix, notes applied to its game): the same handsim.Rig boardd sim
// puts under its live board, with the referee's events printed as the
// sim prints the board's messages.
type refRig struct {
	rig   *handsim.Rig
	ref   *referee.Referee
	board square.Set // the squares
}

func newRefRig(ref *referee.Referee, out io.Writer, quiet time.Duration) (*refRig, error) {
	g := ref.Game()
	board := g.Variant().Geometry.Playable
	r := &refRig{ref: ref, board: board}
	rig, err := handsim.NewRig(board, g.Position().Occupancy(), quiet, func(e sensors.Event) {
		switch e.Kind {
		case sensors.Lift, sensors.Place:
			ref.Touch(referee.Touch{Square: e.Square, Lift: e.Kind == sensors.Lift, At: e.Time})
		case sensors.Fault:
			fmt.Fprintf(out, "!! sensor fault on %s\n", e.Square)
		}
	}, func() { printEvents(out, ref, ref.Quiet()) }, out)
	r.rig = rig
	return r, err
}

// printEvents prints what the referee decided as the sim prints the
// messages Live makes of it.
func printEvents(out io.Writer, ref *referee.Referee, evs []referee.Event) {
	for _, e := range evs {
		switch e.Kind {
		case referee.EvMove:
			fmt.Fprintf(out, "%s: %s\n", e.Record.Seat, e.Record.Text)
		case referee.EvRevised:
			fmt.Fprintf(out, "%s: %s (revised: %s; %s)\n", e.Record.Seat, e.Record.Text, e.Replaced.Text, e.Why)
		case referee.EvOutOfTurn:
			fmt.Fprintf(out, "!! that was %s's move, but it is %s's turn: put it back\n", e.Seat, ref.Game().Turn())
		case referee.EvIllegal:
			why := "no legal move explains the board"
			if e.Why != "" {
				why = e.Why
			}
			fmt.Fprintf(out, "!! %s: follow the lights back\n", why)
		case referee.EvAmbiguous:
			fmt.Fprintf(out, "!! more than one move fits %v: lift and place again more clearly\n", e.Candidates)
		case referee.EvGameOver:
			fmt.Fprintf(out, "game over: %s, winners %v\n", e.Result.Reason, e.Result.Winners)
		}
	}
}
