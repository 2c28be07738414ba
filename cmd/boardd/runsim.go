package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"boardd/sensors/sim"
)

const runSimHelp = `Simulated board: type a move (h2-h4, Nj1xBi3, O-O), or switch lines
(lift h2, place h4, wait 100ms); the referee judges once the board is still.`

// readSim plays lines from r on the simulated board: whole moves by hand,
// or single switch lines as the sim's scripts take them.
func (d *boardDaemon) readSim(ctx context.Context, r io.Reader, w io.Writer) {
	fmt.Fprintln(w, runSimHelp)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if ctx.Err() != nil {
			return
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := d.simLine(ctx, line); err != nil {
			fmt.Fprintln(w, "??", err)
		}
	}
}

func (d *boardDaemon) simLine(ctx context.Context, line string) error {
	st, ok, err := sim.ParseLineOn(line, d.simBoard.Squares())
	if err == nil && ok {
		return st.Apply(d.simBoard, sim.SleepWait(ctx))
	}
	tok := strings.TrimPrefix(line, "move ")
	steps, err := d.live.HandsFor(ctx, tok)
	if err != nil {
		return fmt.Errorf("%v (want a move such as h2-h4, or lift/place SQ)", err)
	}
	for _, s := range steps {
		if s.Lift {
			d.simBoard.Lift(s.Square)
		} else {
			d.simBoard.Place(s.Square)
		}
		select { // long enough for the debounce to see each step
		case <-time.After(40 * time.Millisecond):
		case <-ctx.Done():
			return nil
		}
	}
	return nil
}
