package web

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"boardd/configs"
	"boardd/internal/browsertest"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/variants"
)

// go test ./sync/web -run Browser -screenshot ../../docs/web-display.png
var screenshotPath = flag.String("screenshot", "", "TestBrowserScreenshot writes the display in mid-game to this PNG file")

// browser starts a headless chromium with a window of the given size; the
// whole test must finish within a minute.
func browser(t *testing.T, width, height int) context.Context {
	return browsertest.Browser(t, width, height, 60*time.Second)
}

// jsErrors collects the page's uncaught exceptions and console errors.
func jsErrors(ctx context.Context) func() []string {
	var mu sync.Mutex
	var errs []string
	add := func(s string) {
		mu.Lock()
		errs = append(errs, s)
		mu.Unlock()
	}
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	console := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			text := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				text += " " + ex.Description
			}
			add(text)
		}
	}()
	go func() {
		for ev, err := range console {
			if err != nil {
				return
			}
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				add(fmt.Sprintf("console.error %v", ev.Args))
			}
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(errs)
	}
}

// within waits until the JavaScript expression is true, at most d.
func within(t *testing.T, ctx context.Context, d time.Duration, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(d), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("%s: not within %v (%s): %v", what, d, expr, err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

func do2(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitCommand waits until the fake received a command with that name.
func waitCommand(t *testing.T, f *fakeBoard, name string) referee.Command {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		for _, c := range f.Commands() {
			if c.Name == name {
				return c
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the board received no %s command (got %+v)", name, f.Commands())
	return referee.Command{}
}

// logIn logs in through the page's form and waits for the controls.
func logIn(t *testing.T, ctx context.Context) {
	t.Helper()
	do2(t, ctx, "logging in", chromedp.Click(chromedp.ID("login-open")),
		chromedp.SendKeys(chromedp.ID("password"), testPassword),
		chromedp.Click(chromedp.ID("login-submit")),
		chromedp.WaitVisible(chromedp.ID("controls")))
}

// boardPieces reads the pieces the page shows, square → piece.
const boardPieces = `Object.fromEntries([...document.querySelectorAll('#board [data-square]')].filter(e => e.dataset.piece).map(e => [e.dataset.square, e.dataset.piece]))`

func artefactDir(t *testing.T) string { return browsertest.Artefacts(t) }

func TestBrowser(t *testing.T) {
	ctx := browser(t, 1280, 900)
	errs := jsErrors(ctx)
	f, _, ts := newTestServer(t, Config{Password: testPassword, Title: "Club night"})
	f.SetReply(func(c referee.Command) referee.Reply {
		if c.Name == referee.CmdMove {
			return referee.Reply{Error: "move " + c.Move + ": no piece can go there"}
		}
		return referee.Reply{OK: true}
	})

	// The board renders: 160 squares, no cut corners, every piece where the
	// state says.
	do2(t, ctx, "loading the page", chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h1"][data-piece="rK"]`)))
	if n := eval[int](t, ctx, `document.querySelectorAll('#board [data-square]').length`); n != 160 {
		t.Errorf("%d squares drawn, want 160", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#board .card').length`); n != 4 {
		t.Errorf("%d seat cards, want 4", n)
	}
	for _, cut := range []string{"a1", "c3", "l12", "n14", "a14", "n1"} {
		if eval[bool](t, ctx, `!!document.querySelector('[data-square="`+cut+`"]')`) {
			t.Errorf("cut corner %s is drawn", cut)
		}
	}
	// "(If one would imagine a complete 14x14 board, the "n1" square on
	// the bottom right should be a light square.)" and "All kings are
	// placed on light squares and all queens are placed on dark squares"
	// (chess.com's rules text, whose array has the kings on h1, a8, g14
	// and n7 and the queens on g1, a7, h14 and n8; today's array swaps
	// Blue's and Green's, so those two kings stand on dark squares).
	for _, tt := range []struct{ sq, class string }{
		{"h1", "light"}, {"a8", "light"}, {"g14", "light"}, {"n7", "light"},
		{"g1", "dark"}, {"a7", "dark"}, {"h14", "dark"}, {"n8", "dark"},
		{"k4", "light"}, {"d4", "dark"}, {"k1", "dark"}, {"d1", "light"}, {"d14", "dark"}, {"a11", "dark"}, // k4: the central 8x8 part's lower right
	} {
		if !eval[bool](t, ctx, `document.querySelector('[data-square="`+tt.sq+`"]').classList.contains('`+tt.class+`')`) {
			t.Errorf("square %s is not drawn %s", tt.sq, tt.class)
		}
	}
	want := f.State().Pieces
	got := eval[map[string]string](t, ctx, boardPieces)
	if fmt.Sprint(got) != fmt.Sprint(want) || got["a7"] != "bK" || got["n8"] != "gK" || got["g14"] != "yK" {
		t.Errorf("pieces drawn:\n%v\nwant\n%v", got, want)
	}
	if txt := eval[string](t, ctx, `document.querySelector('.card.c-r').textContent`); !strings.Contains(txt, "Anna") || !strings.Contains(txt, "10:00") && !strings.Contains(txt, "9:5") {
		t.Errorf("Red's card reads %q, want the name and the clock", txt)
	}
	within(t, ctx, 2*time.Second, "live status", `document.getElementById('conn').textContent === 'live'`)

	// A move on the board shows within a couple of seconds.
	f.play("h2", "h4", "h2-h4")
	within(t, ctx, 2*time.Second, "the move on the board",
		`document.querySelector('[data-square="h4"]').dataset.piece === 'rP' && !document.querySelector('[data-square="h2"]').dataset.piece`)
	within(t, ctx, 2*time.Second, "the move in the list and the log",
		`document.getElementById('moves').textContent.includes('h2-h4') && document.getElementById('log').textContent.includes('Red: h2-h4')`)
	if !eval[bool](t, ctx, `document.querySelector('[data-square="h2"]').classList.contains('last') && document.querySelector('[data-square="h4"]').classList.contains('last')`) {
		t.Error("the last move is not highlighted")
	}
	if txt := eval[string](t, ctx, `document.getElementById('banner').textContent`); !strings.Contains(txt, "Blue to move") {
		t.Errorf("banner %q, want Blue to move", txt)
	}

	// Rotation puts Blue (file a) at the bottom, rank 14 on the left.
	do2(t, ctx, "rotating", chromedp.Click(chromedp.ID("rotate")))
	if !eval[bool](t, ctx, `(() => { const r = s => document.querySelector('[data-square="'+s+'"]').getBoundingClientRect();
		return r('a7').top > r('n7').top && r('h14').left < r('h1').left && location.search.includes('seat=Blue') })()`) {
		t.Error("after rotating, Blue is not at the bottom")
	}
	for range 3 {
		do2(t, ctx, "rotating back", chromedp.Click(chromedp.ID("rotate")))
	}

	// The stream breaks; the page reconnects and resumes after the last
	// message it saw, so what happened meanwhile shows.
	seen := f.State().Seq
	ts.CloseClientConnections()
	f.Emit(referee.Message{Kind: referee.MsgTags, Text: "said while the display was away"})
	within(t, ctx, 6*time.Second, "the message sent while disconnected",
		`document.getElementById('log').textContent.includes('said while the display was away')`)
	if froms := f.SubscribeFroms(); froms[len(froms)-1] != seen+1 {
		t.Errorf("the page resubscribed from %d, want %d (after the last message seen); all: %v", froms[len(froms)-1], seen+1, froms)
	}

	// Log in through the form and resign a seat (two clicks: arm, confirm).
	if !eval[bool](t, ctx, `document.getElementById('controls').hidden`) {
		t.Error("controls shown before logging in")
	}
	logIn(t, ctx)
	do2(t, ctx, "resigning Blue", chromedp.SetValue(chromedp.ID("resign-seat"), "Blue"),
		chromedp.Click(chromedp.ID("resign")), chromedp.Click(chromedp.ID("resign")))
	if c := waitCommand(t, f, referee.CmdResign); c.Seat != "Blue" {
		t.Errorf("resign command for %q, want Blue", c.Seat)
	}
	within(t, ctx, 2*time.Second, "the command's success", `document.getElementById('cmd-status').textContent.includes('resign: done')`)

	// A refused command shows its error.
	do2(t, ctx, "sending a remote move", chromedp.SendKeys(chromedp.ID("move-text"), "h2-h5"), chromedp.Click(chromedp.ID("move-send")))
	within(t, ctx, 2*time.Second, "the refusal", `document.getElementById('cmd-status').textContent.includes('no piece can go there')`)
	if c := waitCommand(t, f, referee.CmdMove); c.Seat != "Blue" || c.Move != "h2-h5" {
		t.Errorf("move command %+v, want Blue's h2-h5 (the seat to move)", c)
	}

	// A promotion with a choice offers the pieces.
	f.Emit(referee.Message{Kind: referee.MsgPromotionChoice, Candidates: []string{"b8-h8=D", "b8-h8=N"}, Text: "promotion: choose"})
	f.play("b7", "c7", "b7-c7")
	within(t, ctx, 2*time.Second, "the promotion buttons", `!document.getElementById('promo-box').hidden && document.querySelectorAll('#promo-buttons button').length === 2`)
	do2(t, ctx, "choosing a knight", chromedp.Click(chromedp.CSS(`#promo-buttons button:last-child`)))
	if c := waitCommand(t, f, referee.CmdPromote); c.Piece != "N" {
		t.Errorf("promote command for %q, want N", c.Piece)
	}

	// A takeback the board asks about can be confirmed.
	f.Update(func(st *referee.State) { st.Status = "takeback_asked" })
	do2(t, ctx, "confirming the takeback", chromedp.WaitVisible(chromedp.ID("takeback")), chromedp.Click(chromedp.ID("takeback")))
	waitCommand(t, f, referee.CmdTakebackConfirm)

	// Blocking double chess: the row for moving into check shows only in
	// that variant; an announcement waiting for its reply is on the banner
	// and the seat to reply is chosen.
	if !eval[bool](t, ctx, `document.getElementById('protocol-row').hidden`) {
		t.Error("the into-check row is shown in an ffa game")
	}
	f.Update(func(st *referee.State) {
		st.Status, st.Variant, st.Turn = "playing", "blocking-double", "Green"
		st.Announcement = &referee.AnnouncementInfo{Seat: "Green", Move: "Kn7-n6", Coord: "n7-n6", ReplyBy: "Yellow"}
	})
	within(t, ctx, 2*time.Second, "the announcement on the banner and the row for replying",
		`!document.getElementById('protocol-row').hidden && document.getElementById('banner').textContent.includes('Green announces Kn7-n6 into check: Yellow replies') && document.getElementById('proto-seat').value === 'Yellow'`)
	do2(t, ctx, "replying Another", chromedp.SetValue(chromedp.ID("reply-kind"), "another"), chromedp.Click(chromedp.ID("reply")))
	if c := waitCommand(t, f, referee.CmdReply); c.Seat != "Yellow" || c.Reply != "another" {
		t.Errorf("reply command %+v, want Yellow's another", c)
	}
	f.Update(func(st *referee.State) { st.Announcement = nil })
	within(t, ctx, 2*time.Second, "the seat to move chosen again", `document.getElementById('proto-seat').value === 'Green' && !document.getElementById('banner').textContent.includes('announces')`)
	do2(t, ctx, "announcing n7-m6", chromedp.SendKeys(chromedp.ID("announce-text"), "n7-m6"), chromedp.Click(chromedp.ID("announce")))
	if c := waitCommand(t, f, referee.CmdAnnounce); c.Seat != "Green" || c.Move != "n7-m6" {
		t.Errorf("announce command %+v, want Green's n7-m6", c)
	}
	do2(t, ctx, "claiming stalemate", chromedp.Click(chromedp.ID("claim-stalemate")), chromedp.Click(chromedp.ID("claim-stalemate")))
	if c := waitCommand(t, f, referee.CmdClaimStalemate); c.Seat != "Green" {
		t.Errorf("claim_stalemate command %+v, want Green's", c)
	}
	f.Update(func(st *referee.State) { st.Variant = "ffa" })
	within(t, ctx, 2*time.Second, "the into-check row hidden again", `document.getElementById('protocol-row').hidden`)

	// FFA's claim win: offered only while two players are left, for the
	// one ahead.
	if !eval[bool](t, ctx, `document.getElementById('claim-row').hidden`) {
		t.Error("the claim-win row is shown with four players left")
	}
	f.Update(func(st *referee.State) {
		for i, p := range []struct {
			status string
			points int
		}{{"checkmated", 12}, {"playing", 9}, {"resigned", 3}, {"playing", 31}} {
			st.Seats[i].Status, st.Seats[i].Points = p.status, p.points
		}
	})
	within(t, ctx, 2*time.Second, "the claim-win row for Green, ahead", `!document.getElementById('claim-row').hidden && document.getElementById('claim-seat').value === 'Green'`)
	do2(t, ctx, "claiming the win", chromedp.Click(chromedp.ID("claim-win")), chromedp.Click(chromedp.ID("claim-win")))
	if c := waitCommand(t, f, referee.CmdClaimWin); c.Seat != "Green" {
		t.Errorf("claim_win command %+v, want Green's", c)
	}

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artefactDir(t), "web-display-test.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)

	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// midGame plays four rounds of an FFA game with clocks, points, a check,
// a lifted knight and lit LEDs.
func midGame(f *fakeBoard) {
	for _, m := range [][3]string{
		{"h2", "h4", "h2-h4"}, {"b7", "d7", "b7-d7"}, {"g13", "g11", "g13-g11"}, {"m8", "k8", "m8-k8"},
		{"j1", "i3", "Nj1-i3"}, {"a10", "c9", "Na10-c9"}, {"e13", "e12", "e13-e12"}, {"n10", "l9", "Nn10-l9"},
		{"j2", "j3", "j2-j3"}, {"a8", "e4", "Qa8-e4"}, {"f14", "j10", "Bf14-j10"}, {"m6", "l6", "m6-l6"},
		{"d2", "d4", "d2-d4"}, {"e4", "h4", "Qe4xh4+"}, {"j14", "i12", "Nj14-i12"},
	} {
		f.play(m[0], m[1], m[2])
	}
	f.Update(func(st *referee.State) {
		clocks := []int64{521000, 542000, 535000, 560400}
		for i := range st.Seats {
			st.Seats[i].ClockMS = clocks[i]
		}
		st.Seats[1].Points = 1
		st.Checks = []string{"h1"}
		st.Lifted = "l9"
		st.Destinations = []string{"k11", "k7", "j10", "j8", "n10"}
		st.Tags["Event"] = "Club night"
	})
	f.SetLights(map[string]string{"h1": "#ff0000", "l9": "#00c000", "k11": "#0040ff", "k7": "#0040ff", "j10": "#ff8000", "j8": "#0040ff", "n10": "#0040ff"})
}

// TestBrowserScreenshot writes the picture the README shows, when asked:
//
//	go test ./sync/web -run BrowserScreenshot -screenshot ../../docs/web-display.png
func TestBrowserScreenshot(t *testing.T) {
	if *screenshotPath == "" {
		t.Skip("no -screenshot path given")
	}
	ctx := browser(t, 1280, 800)
	errs := jsErrors(ctx)
	f := newFake()
	s, err := New(Config{Board: f, Title: "boardd — Club night"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Close()
	midGame(f)
	do2(t, ctx, "loading the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h4"][data-piece="bQ"]`)))
	within(t, ctx, 2*time.Second, "the move list", `document.querySelectorAll('#moves tbody tr').length === 4`)
	time.Sleep(300 * time.Millisecond) // let the clock tick once
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*screenshotPath, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", *screenshotPath)
	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// TestBrowserLayouts draws a mid-game position on a phone, a laptop and a
// TV (spectator mode), rotated and with the LEDs shown, checks that the
// board fits and keeps square squares, and saves each as an artefact.
func TestBrowserLayouts(t *testing.T) {
	ctx := browser(t, 1280, 800)
	errs := jsErrors(ctx)
	f, _, ts := newTestServer(t, Config{Password: testPassword})
	midGame(f)
	dir := artefactDir(t)
	for _, tc := range []struct {
		name          string
		width, height int64
		mobile        bool
		query         string
		check         string // JavaScript that must be true
	}{
		{"phone", 390, 844, true, "",
			`(() => { const b = document.getElementById('board').getBoundingClientRect();
			return b.width >= 0.9 * innerWidth && b.right <= innerWidth && b.top < innerHeight / 3 })()`},
		{"phone-landscape", 844, 390, true, "",
			`(() => { const b = document.getElementById('board').getBoundingClientRect(), s = document.getElementById('side').getBoundingClientRect();
			return b.bottom <= innerHeight && s.left >= b.right })()`},
		{"laptop-rotated-green", 1366, 768, false, "?seat=Green",
			`(() => { const r = q => document.querySelector('[data-square="'+q+'"]').getBoundingClientRect();
			return r('n7').top > r('a7').top && r('d1').left < r('d14').left && document.getElementById('rotate-seat').textContent === 'Green' })()`},
		{"tv-spectator", 1920, 1080, false, "?spectator=1&leds=1",
			`(() => { const b = document.getElementById('board').getBoundingClientRect(), led = document.querySelector('[data-square="h1"] .led');
			return getComputedStyle(document.getElementById('top')).display === 'none' && b.height >= 0.95 * innerHeight &&
				getComputedStyle(led).backgroundColor === 'rgb(255, 0, 0)' && getComputedStyle(led).opacity > 0.3 &&
				document.getElementById('controls').offsetParent === null })()`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emulate := chromedp.EmulateViewport(tc.width, tc.height)
			if tc.mobile {
				emulate = chromedp.EmulateViewport(tc.width, tc.height, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			do2(t, ctx, "loading the page", emulate, chromedp.Navigate(ts.URL+"/"+tc.query),
				chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h4"][data-piece="bQ"]`)))
			within(t, ctx, 2*time.Second, "the layout", tc.check)
			if !eval[bool](t, ctx, `document.documentElement.scrollWidth <= innerWidth`) {
				t.Error("the page scrolls sideways")
			}
			if !eval[bool](t, ctx, `[...document.querySelectorAll('#board [data-square]')].every(e => { const r = e.getBoundingClientRect(); return Math.abs(r.width - r.height) < 1.5 && r.width > 15 })`) {
				t.Error("squares are not square, or too small to read")
			}
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "web-display-"+tc.name+".png")
			if err := os.WriteFile(path, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", path)
		})
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// fortressState is the state of a new Russian Fortress Chess game as the
// referee publishes it: 256 squares, the fortress walls, 76 pieces.
func fortressState(t *testing.T) referee.State {
	t.Helper()
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	d, err := variants.Find(cat, "russian-fortress")
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	l, err := referee.NewLive(referee.LiveConfig{Board: "test", Variant: v.Name, Occupancy: g.Position().Occupancy(),
		Lookup: func(string, string) (*rules.Variant, error) { return v, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return l.State()
}

// TestBrowserSixteenBySixteen draws Russian Fortress Chess's 16×16 board
// (files a-p, ranks 1-16): 256 squares, the fortress walls on the
// squares' edges, the seat cards above and below the board, and saves
// the screenshots (Red and Blue at the bottom) as artefacts.
func TestBrowserSixteenBySixteen(t *testing.T) {
	ctx := browser(t, 1280, 900)
	errs := jsErrors(ctx)
	f, _, ts := newTestServer(t, Config{Password: testPassword})
	fs := fortressState(t)
	if len(fs.Squares) != 256 || len(fs.Walls) != 68 || len(fs.Pieces) != 76 {
		t.Fatalf("the referee's state: %d squares, %d walls, %d pieces", len(fs.Squares), len(fs.Walls), len(fs.Pieces))
	}
	f.Update(func(st *referee.State) {
		*st = fs
		st.Board = "test"
	})
	dir := artefactDir(t)
	for _, tc := range []struct{ name, query, check string }{
		{"red", "", `(() => { const r = q => document.querySelector('[data-square="'+q+'"]').getBoundingClientRect();
			const cl = q => document.querySelector('[data-square="'+q+'"] .cl').textContent, cb = q => document.querySelector('[data-square="'+q+'"] .cb').textContent;
			return r('p16').left > r('a1').left && r('p16').top < r('a1').top && r('p1').left > r('o1').left &&
				cb('a1') === 'a' && cb('p1') === 'p' && cl('a16') === '16' && cl('a1') === '1' && cb('a2') === '' })()`},
		{"blue", "?seat=Blue", `(() => { const r = q => document.querySelector('[data-square="'+q+'"]').getBoundingClientRect();
			return r('a16').top > r('p16').top && r('a1').left > r('a16').left && document.getElementById('rotate-seat').textContent === 'Blue' })()`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			do2(t, ctx, "loading the page", chromedp.Navigate(ts.URL+"/"+tc.query),
				chromedp.WaitVisible(chromedp.CSS(`#board [data-square="m4"][data-piece="rN"]`)))
			if n := eval[int](t, ctx, `document.querySelectorAll('#board [data-square]').length`); n != 256 {
				t.Errorf("%d squares drawn, want 256", n)
			}
			if n := eval[string](t, ctx, `document.getElementById('board').dataset.n`); n != "16" {
				t.Errorf("board side %q, want 16", n)
			}
			got := eval[map[string]string](t, ctx, boardPieces)
			if fmt.Sprint(got) != fmt.Sprint(fs.Pieces) || got["p16"] != "" || got["n3"] != "rR" || got["h3"] != "rQ" {
				t.Errorf("pieces drawn:\n%v\nwant\n%v", got, fs.Pieces)
			}
			within(t, ctx, 2*time.Second, "the layout", tc.check)
			// Every square is square and on the page; the seat cards sit
			// outside the squares, two above the board and two below.
			if !eval[bool](t, ctx, `[...document.querySelectorAll('#board [data-square]')].every(e => { const r = e.getBoundingClientRect(); return Math.abs(r.width - r.height) < 1.5 && r.width > 15 && r.bottom <= innerHeight })`) {
				t.Error("squares are not square, too small, or off the page")
			}
			if !eval[bool](t, ctx, `(() => { const sq = [...document.querySelectorAll('#board [data-square]')].map(e => e.getBoundingClientRect());
				const top = Math.min(...sq.map(r => r.top)), bottom = Math.max(...sq.map(r => r.bottom));
				const cards = [...document.querySelectorAll('#board .card')].map(e => e.getBoundingClientRect());
				return cards.length === 4 && cards.filter(c => c.bottom <= top + 1).length === 2 && cards.filter(c => c.top >= bottom - 1).length === 2 && cards.every(c => c.height > 20) })()`) {
				t.Error("the seat cards overlap the board")
			}
			// Walls: Red's fortress m1-p4 is walled from l1 and l2 (m1|l1,
			// m2|l2) and along m4|m5 … p4|p5; its gate l3/l4 → m3/m4 is open.
			walls := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#board [data-square] .wall')].filter(e => e.classList.length > 1).map(e => [e.parentElement.dataset.square, [...e.classList].slice(1).sort().join(' ')]))`)
			if len(walls) < 40 || walls["m3"] != "" || walls["l3"] != "" {
				t.Errorf("walled squares: %d %v", len(walls), walls)
			}
			if tc.name == "red" && (walls["m1"] != "wl" || walls["l2"] != "wr" || walls["m4"] != "wt" || walls["p5"] != "wb") {
				t.Errorf("Red's fortress walls: m1 %q l2 %q m4 %q p5 %q", walls["m1"], walls["l2"], walls["m4"], walls["p5"])
			}
			if tc.name == "blue" && walls["m1"] != "wb" { // Blue at the bottom: file a at the bottom, rank 1 on the right, l1 below m1
				t.Errorf("rotated: m1's wall %q, want wb", walls["m1"])
			}
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "web-display-fortress-"+tc.name+".png")
			if err := os.WriteFile(path, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", path)
		})
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}
