package sim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"boardd/rules/square"
)

// Op is a script command.
type Op uint8

// The script commands.
const (
	OpLift Op = iota + 1
	OpPlace
	OpWait
	OpBounce
	// OpBreak makes every read fail, as a broken 74HC165 chain does;
	// OpMend undoes it (the sensor fault a player sees, on a laptop).
	OpBreak
	OpMend
)

func (o Op) String() string {
	switch o {
	case OpLift:
		return "lift"
	case OpPlace:
		return "place"
	case OpWait:
		return "wait"
	case OpBounce:
		return "bounce"
	case OpBreak:
		return "break"
	case OpMend:
		return "mend"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Step is one parsed script line.
type Step struct {
	Op     Op
	Square square.Square // lift, place, bounce
	Dur    time.Duration // wait, bounce
	Line   int           // 1-based line in the script
}

func (s Step) String() string {
	switch s.Op {
	case OpWait:
		return fmt.Sprintf("wait %s", s.Dur)
	case OpBounce:
		return fmt.Sprintf("bounce %s %d", s.Square, s.Dur.Milliseconds())
	case OpBreak, OpMend:
		return s.Op.String()
	}
	return fmt.Sprintf("%s %s", s.Op, s.Square)
}

// Script is a parsed sensor script.
type Script []Step

// MaxWait bounds a single wait (a typo like "wait 10h" is an error).
const MaxWait = time.Hour

// ParseLine parses one script or control-channel line. ok is false for a
// blank or comment-only line.
func ParseLine(text string) (st Step, ok bool, err error) { return parseLine(text, cross) }

// ParseLineOn is ParseLine for a board with the given squares (the 16×16
// board of NewOn): a square not on it is an error.
func ParseLineOn(text string, board square.Set) (st Step, ok bool, err error) {
	return parseLine(text, board)
}

// parseLine parses a line for a board with the given squares.
func parseLine(text string, board square.Set) (st Step, ok bool, err error) {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	f := strings.Fields(text)
	if len(f) == 0 {
		return Step{}, false, nil
	}
	want := func(n int, usage string) error {
		if len(f) != n {
			return fmt.Errorf("%s: want %q", f[0], usage)
		}
		return nil
	}
	sq := func(s string) (square.Square, error) {
		q, err := square.Parse(s)
		if err != nil {
			return square.None, fmt.Errorf("%q is not a square of this board (%s)", s, Span(board))
		}
		if !board.Has(q) && board == cross {
			return square.None, fmt.Errorf("square %s is not on the four-player board (a corner)", q)
		}
		if !board.Has(q) {
			return square.None, fmt.Errorf("square %s is not on this board", q)
		}
		return q, nil
	}
	switch strings.ToLower(f[0]) {
	case "lift", "place":
		if err := want(2, f[0]+" <square>"); err != nil {
			return Step{}, false, err
		}
		q, err := sq(f[1])
		if err != nil {
			return Step{}, false, err
		}
		op := OpLift
		if strings.ToLower(f[0]) == "place" {
			op = OpPlace
		}
		return Step{Op: op, Square: q}, true, nil
	case "wait":
		if err := want(2, "wait <duration>, like 20ms or 1.5s"); err != nil {
			return Step{}, false, err
		}
		d, err := time.ParseDuration(f[1])
		if err != nil {
			return Step{}, false, fmt.Errorf("wait: %q is not a duration (like 20ms or 1.5s)", f[1])
		}
		if d < 0 || d > MaxWait {
			return Step{}, false, fmt.Errorf("wait: %s out of range 0-%s", d, MaxWait)
		}
		return Step{Op: OpWait, Dur: d}, true, nil
	case "bounce":
		if err := want(3, "bounce <square> <ms>"); err != nil {
			return Step{}, false, err
		}
		q, err := sq(f[1])
		if err != nil {
			return Step{}, false, err
		}
		ms, err := strconv.Atoi(f[2])
		if err != nil || ms < 1 || ms > 1000 {
			return Step{}, false, fmt.Errorf("bounce: %q is not a number of milliseconds 1-1000", f[2])
		}
		return Step{Op: OpBounce, Square: q, Dur: time.Duration(ms) * time.Millisecond}, true, nil
	case "break", "mend":
		if err := want(1, strings.ToLower(f[0])); err != nil {
			return Step{}, false, err
		}
		op := OpBreak
		if strings.ToLower(f[0]) == "mend" {
			op = OpMend
		}
		return Step{Op: op}, true, nil
	}
	return Step{}, false, fmt.Errorf("unknown command %q (want lift, place, wait, bounce, break or mend)", f[0])
}

// ParseScript reads a whole script. Errors name the script and line, like
// "game.txt:3: unknown command …".
func ParseScript(name string, r io.Reader) (Script, error) { return ParseScriptOn(name, r, cross) }

// ParseScriptOn reads a script for a board with the given squares (a
// variant's own board, such as Russian Fortress Chess's 16×16; see NewOn).
func ParseScriptOn(name string, r io.Reader, board square.Set) (Script, error) {
	var out Script
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		st, ok, err := parseLine(sc.Text(), board)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if ok {
			st.Line = n
			out = append(out, st)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, n+1, err)
	}
	return out, nil
}

// Apply performs one step on b; waits are handed to wait.
func (st Step) Apply(b *Board, wait func(time.Duration) error) error {
	switch st.Op {
	case OpLift:
		b.Lift(st.Square)
	case OpPlace:
		b.Place(st.Square)
	case OpBounce:
		b.Bounce(st.Square, st.Dur)
	case OpWait:
		return wait(st.Dur)
	case OpBreak:
		b.SetReadError(ErrBroken)
	case OpMend:
		b.SetReadError(nil)
	}
	return nil
}

// ErrBroken is the read error of a board broken with the script line
// break: what a 74HC165 chain with a cut wire makes the scanner see.
var ErrBroken = errors.New("sim: the simulated switches cannot be read (the script said break; mend undoes it)")

// Play runs the script against b. wait lets time pass: VirtualWait for a
// simulated clock, SleepWait for real time.
func (s Script) Play(b *Board, wait func(time.Duration) error) error {
	for _, st := range s {
		if err := st.Apply(b, wait); err != nil {
			return fmt.Errorf("line %d (%s): %w", st.Line, st, err)
		}
	}
	return nil
}

// SleepWait returns a wait function that sleeps in real time until ctx is
// done.
func SleepWait(ctx context.Context) func(time.Duration) error {
	return func(d time.Duration) error {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		}
	}
}

// Span names a board's files and ranks for a message: "files a–n,
// ranks 1–14" on the cross, "files a–p, ranks 1–16" on a 16×16 board.
func Span(board square.Set) string {
	minF, maxF, minR, maxR := square.MaxFiles, -1, square.MaxFiles, -1
	for _, q := range board.Squares() {
		minF, maxF = min(minF, q.File()), max(maxF, q.File())
		minR, maxR = min(minR, q.Rank()), max(maxR, q.Rank())
	}
	if maxF < 0 {
		return "no squares"
	}
	return fmt.Sprintf("files %c–%c, ranks %d–%d", 'a'+minF, 'a'+maxF, minR+1, maxR+1)
}
