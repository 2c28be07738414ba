package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"boardd/leds"
	"boardd/leds/term"
	"boardd/referee"
	"boardd/rules/square"
)

// isTerminal tells whether f is a terminal (a character device), where a
// person is watching.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// drawBoard writes the board as boardd sim draws it: whose turn, the
// pieces ("rP", "bK"; "xx" a square to empty, "??" one to fill during a
// correction) on the LEDs' colours.
func drawBoard(w io.Writer, st referee.State, li referee.Lights, color bool) {
	f := leds.NewFrame()
	for name, hex := range li.Squares {
		q, err := square.Parse(name)
		c, cerr := parseHexColor(hex) // as boardd watch reads them
		if err == nil && cerr == nil {
			f.Set(q, c)
		}
	}
	marks := map[string]string{}
	for _, q := range st.Wrong {
		marks[q] = "xx"
	}
	for _, q := range st.Missing {
		marks[q] = "??"
	}
	var board square.Set
	for _, name := range st.Squares {
		if q, err := square.Parse(name); err == nil {
			board.Add(q)
		}
	}
	label := func(q square.Square) string {
		if m, ok := marks[q.String()]; ok {
			return m
		}
		return st.Pieces[q.String()]
	}
	line := st.Turn + " to move"
	if p := playerOf(st, st.Turn); p != "" {
		line += " (" + p + ")"
	}
	switch st.Status {
	case "over":
		line = "game over"
		if st.Result != nil {
			line += ": " + st.Result.Reason
			if len(st.Result.Winners) > 0 {
				line += ", " + strings.Join(st.Result.Winners, " & ") + " won"
			}
		}
	case "correction":
		line += " — the board differs from the game: empty xx, fill ??, follow the lights"
	case "setup":
		line += " — setting up: follow the lights"
	}
	fmt.Fprintln(w, line)
	term.Render(w, board, f, label, color)
}

func playerOf(st referee.State, seat string) string {
	for _, s := range st.Seats {
		if s.Seat == seat {
			return s.Player
		}
	}
	return ""
}

// showBoard draws the live board in the terminal whenever its pieces,
// turn, status or lights change, until ctx ends: boardd run on a
// terminal with no LEDs of its own shows what the LEDs would.
func showBoard(ctx context.Context, b referee.Board, w io.Writer, color bool) {
	sig, cancel := b.Changed()
	defer cancel()
	last := ""
	draw := func() {
		st, li := b.State(), b.Lights()
		key := fmt.Sprint(st.FEN4, st.Status, st.Turn, st.Wrong, st.Missing, li.Squares)
		if key == last {
			return
		}
		last = key
		drawBoard(w, st, li, color)
	}
	draw()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sig:
			if !ok {
				return
			}
			select { // let a burst of changes settle
			case <-time.After(50 * time.Millisecond):
			case <-ctx.Done():
				return
			}
			draw()
		}
	}
}
