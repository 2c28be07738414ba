package web

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boardd/referee"
	"boardd/rules"
	"boardd/sensors"
	"boardd/sync/archive"
)

// A new game over a game under way, on a real live board recording into
// the archive as boardd run does: the dialog says what is at stake and
// starts nothing until asked to end the game; the ended game is in the
// finished games with its players, event and round, unfinished ("*").
func TestBrowserNewGameOverARunningGame(t *testing.T) {
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lookup := func(name, start string) (*rules.Variant, error) { return rules.NewVariant(name, start) }
	rec := &archive.Recorder{Dir: dir, Board: "club", Lookup: lookup}
	l, err := referee.NewLive(referee.LiveConfig{Board: "club", Variant: "teams", Occupancy: g.Position().Occupancy(),
		Quiet: 2 * time.Millisecond, Lookup: lookup, Logger: slog.New(slog.DiscardHandler), Sinks: []func(referee.Message) error{rec.Record}})
	if err != nil {
		t.Fatal(err)
	}
	ctx0, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx0); close(done) }()
	t.Cleanup(func() { stop(); <-done; rec.Close() })
	store := rec.Store()
	_, _, ts := newTestServer(t, Config{Board: l, Password: testPassword, Title: "Club board", Games: &store})

	ctx := browser(t, 1366, 768)
	errs := jsErrors(ctx)
	do2(t, ctx, "loading the page", chromedp.EmulateViewport(1366, 768), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h1"][data-piece="rK"]`)))
	logIn(t, ctx)
	setNames := func(names ...string) {
		t.Helper()
		js := `(() => { const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
			set('ng-variant', 'teams'); set('ng-kind', 'none'); set('ng-event', 'Club Night'); set('ng-round', '` + names[4] + `');
			set('ng-name-Red', '` + names[0] + `'); set('ng-name-Blue', '` + names[1] + `'); set('ng-name-Yellow', '` + names[2] + `'); set('ng-name-Green', '` + names[3] + `'); return true })()`
		eval[bool](t, ctx, js)
	}

	// Before the first move nothing is at stake: no question.
	do2(t, ctx, "opening the dialog", chromedp.Click(chromedp.ID("new-game-open")), chromedp.WaitVisible(chromedp.ID("ng-form")))
	if !eval[bool](t, ctx, `document.getElementById('ng-running').hidden`) {
		t.Error("the dialog asks about a game with no turn played")
	}
	setNames("Ann", "Bob", "Cy", "Dee", "1")
	do2(t, ctx, "starting the first game", chromedp.Click(chromedp.ID("ng-start-game")))
	within(t, ctx, 2*time.Second, "the first game", `!document.getElementById('new-game-dialog').open && document.querySelector('.card.c-r .name').textContent === 'Ann'`)
	first := l.State().Game

	// Red plays h2-h4 on the board.
	p := g.Position()
	m, err := rulesMove(g, "h2-h4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range referee.Hands(p, m) {
		k := sensors.Place
		if tc.Lift {
			k = sensors.Lift
		}
		l.Touches() <- sensors.Event{Kind: k, Square: tc.Square}
	}
	within(t, ctx, 3*time.Second, "the move on the page", `document.getElementById('moves').textContent.includes('h2-h4')`)

	// Now the dialog asks, and starts nothing until the box is ticked.
	do2(t, ctx, "opening the dialog again", chromedp.Click(chromedp.ID("new-game-open")), chromedp.WaitVisible(chromedp.ID("ng-form")))
	within(t, ctx, time.Second, "the question about the game under way",
		`!document.getElementById('ng-running').hidden && !document.getElementById('ng-abandon').checked &&
		document.getElementById('ng-running-text').textContent.includes('Ann, Bob, Cy, Dee') && document.getElementById('ng-running-text').textContent.includes('1 turn')`)
	shoot(t, ctx, "new-game-over-a-running-game")
	setNames("Eve", "Fay", "Gus", "Hal", "2")
	do2(t, ctx, "starting without ticking", chromedp.Click(chromedp.ID("ng-start-game")))
	within(t, ctx, time.Second, "the refusal in the dialog", `document.getElementById('ng-error').textContent.includes('not over') && document.getElementById('new-game-dialog').open`)
	time.Sleep(100 * time.Millisecond)
	if st := l.State(); st.Game != first || len(st.Moves) != 1 {
		t.Fatalf("a new game started without asking: game %s, %d moves", st.Game, len(st.Moves))
	}
	do2(t, ctx, "ticking and starting", chromedp.Click(chromedp.ID("ng-abandon")), chromedp.Click(chromedp.ID("ng-start-game")))
	within(t, ctx, 2*time.Second, "the second game", `!document.getElementById('new-game-dialog').open && document.querySelector('.card.c-r .name').textContent === 'Eve'`)
	if st := l.State(); st.Game == first || st.Tags["Red"] != "Eve" {
		t.Fatalf("after confirming: game %s tags %v", st.Game, st.Tags)
	}

	// The ended game, with its own players, event and round.
	do2(t, ctx, "opening the games", chromedp.Click(chromedp.ID("games-open")))
	within(t, ctx, 2*time.Second, "the ended game listed", `document.querySelectorAll('#games tbody tr').length === 1`)
	row := eval[string](t, ctx, `document.querySelector('#games tbody tr').textContent`)
	for _, want := range []string{"Club Night r1", "Ann", "Bob", "Cy", "Dee", "unfinished"} {
		if !strings.Contains(row, want) {
			t.Errorf("the ended game's row %q lacks %q", row, want)
		}
	}
	if strings.Contains(row, "Eve") {
		t.Errorf("the ended game's row %q has the new game's players", row)
	}
	items, _, err := store.List(archive.Filter{})
	if err != nil || len(items) != 1 {
		t.Fatalf("archive: %v %v", items, err)
	}
	data, err := os.ReadFile(filepath.Join(store.Dir, items[0].File))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Red "Ann"]`, `[Green "Dee"]`, `[Event "Club Night"]`, `[Round "1"]`, `[Result "*"]`, "h2-h4"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the ended game's file lacks %s:\n%s", want, data)
		}
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// rulesMove finds a legal move by its coordinates ("h2-h4").
func rulesMove(g *rules.Game, coord string) (rules.Move, error) {
	for _, m := range g.LegalMoves() {
		if m.String() == coord {
			return m, nil
		}
	}
	return 0, os.ErrNotExist
}
