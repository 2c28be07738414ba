package web

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/square"
	"boardd/sensors"
)

// A new game on a board that is not set up (the last game's pieces still
// standing where they ended) is a set-up the lights guide, not a sensor
// fault: on the real live board, with the players slow to set up, the page
// lists no "switch under …" or "keeps changing" message and no square is
// lit cyan. (Before, the page filled with fifty such messages and every
// square to fix turned cyan.)
func TestBrowserNewGameOnAnUnsetBoard(t *testing.T) {
	var mu gosync.Mutex
	now := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	clk := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	later := func(d time.Duration) {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
		time.Sleep(350 * time.Millisecond) // a few of Live's 100 ms ticks
	}
	var suspects []square.Square
	// The last game's end: some pieces gone, others on new squares.
	v, err := rules.NewVariant("ffa", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	occ := g.Position().Occupancy()
	for _, q := range []string{"h2", "g1", "b7", "c7", "m8", "d13", "h13"} {
		occ.Remove(mustSquare(t, q))
	}
	for _, q := range []string{"h5", "k5", "k9", "d9", "h11"} {
		occ.Add(mustSquare(t, q))
	}
	l, err := referee.NewLive(referee.LiveConfig{Board: "club", Variant: "ffa", Occupancy: occ, Now: clk,
		Quiet: 5 * time.Millisecond, Logger: slog.New(slog.DiscardHandler), SuspectAfter: 30 * time.Second,
		Suspect: func(q square.Square) { mu.Lock(); suspects = append(suspects, q); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	ctx0, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx0); close(done) }()
	t.Cleanup(func() { stop(); <-done })

	_, _, ts := newTestServer(t, Config{Board: l, Password: testPassword, Title: "Club board"})
	ctx := browser(t, 1366, 768)
	errs := jsErrors(ctx)
	do2(t, ctx, "the page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h1"]`)))

	if r := l.Do(context.Background(), referee.Command{Name: referee.CmdNewGame, Variant: "ffa"}); !r.OK {
		t.Fatal(r.Error)
	}
	later(31 * time.Second) // nobody touches the board
	l.Touches() <- sensors.Event{Kind: sensors.Lift, Square: mustSquare(t, "h5")}
	l.Touches() <- sensors.Event{Kind: sensors.Place, Square: mustSquare(t, "h2")}
	later(time.Second)
	later(45 * time.Second) // some pieces set up, then a long pause
	within(t, ctx, 3*time.Second, "the new game on the page", `[...document.querySelectorAll('#log li')].some(e => e.textContent.includes('set up'))`)
	if log := eval[string](t, ctx, `[...document.querySelectorAll('#log li')].map(e => e.textContent).join('\n')`); containsAny(log, "switch under", "keeps changing", "seems stuck") {
		t.Errorf("sensor-fault messages on the page after a new game on an unset board:\n%s", log)
	}
	fc := referee.DefaultPalette.Fault
	fault := fmt.Sprintf("#%02x%02x%02x", fc.R, fc.G, fc.B)
	for q, c := range l.Lights().Squares {
		if c == fault {
			t.Errorf("square %s lit %s (a suspect switch) while the board is being set up", q, c)
		}
	}
	mu.Lock()
	if len(suspects) != 0 {
		t.Errorf("squares to set up reported to the scanner as suspect switches: %v", suspects)
	}
	mu.Unlock()
	shoot(t, ctx, "unset-board-new-game")
	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// containsAny tells whether s holds one of subs.
func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// mustSquare parses a square's name.
func mustSquare(t *testing.T, name string) square.Square {
	t.Helper()
	q, err := square.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
