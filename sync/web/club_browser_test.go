package web

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boardd/referee"
)

// shoot saves a screenshot of the viewport as an artefact.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artefactDir(t), name+".png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// fits is JavaScript: every element the selector finds is drawn, at least
// minWidth wide, not cut off (its content fits) and inside the viewport.
func fits(selector string, minWidth int) string {
	return `[...document.querySelectorAll(` + "`" + selector + "`" + `)].every(e => { const r = e.getBoundingClientRect();
		return r.width >= ` + strconv.Itoa(minWidth) + ` && r.right <= innerWidth + 0.5 && r.left >= -0.5 && e.scrollWidth <= e.clientWidth + 1 })`
}

// fetchText fetches a URL in the page (with its cookies) and answers the body.
func fetchText(t *testing.T, ctx context.Context, urlExpr string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(`+urlExpr+`).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetching %s: %v", urlExpr, err)
	}
	return v
}

// TestBrowserClubNight runs a club night on a laptop-sized page: the new
// game dialog, event and round on the page, the finished games, the
// viewer with the keyboard, the downloads, and sound cues switched on.
func TestBrowserClubNight(t *testing.T) {
	ctx := browser(t, 1366, 768)
	errs := jsErrors(ctx)
	f, _, ts := newTestServer(t, Config{Password: testPassword, Title: "Club board", Games: clubArchive(t)})

	do2(t, ctx, "loading the page", chromedp.EmulateViewport(1366, 768), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h1"][data-piece="rK"]`)))
	logIn(t, ctx)

	// The player names, event and round fit the side panel at 1366 px.
	do2(t, ctx, "opening the names", chromedp.Click(chromedp.CSS(`#game-box summary`)))
	within(t, ctx, 2*time.Second, "the name inputs fit", fits(`#game-box input`, 60))

	// The new game dialog: variant, time control with a delay, names,
	// event, round, a remote seat.
	do2(t, ctx, "opening the dialog", chromedp.Click(chromedp.ID("new-game-open")), chromedp.WaitVisible(chromedp.ID("ng-form")))
	if v := eval[string](t, ctx, `document.getElementById('ng-variant').value`); v != "ffa" {
		t.Errorf("the dialog offers variant %q, want the game's (ffa)", v)
	}
	if v := eval[string](t, ctx, `document.getElementById('ng-name-Red').value`); v != "Anna" {
		t.Errorf("the dialog offers Red %q, want the game's Anna", v)
	}
	js := `(() => { const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
		set('ng-variant', 'teams'); set('ng-base', '15'); set('ng-extra', '10'); set('ng-kind', 'delay');
		set('ng-name-Red', 'Ann'); set('ng-name-Blue', 'Bob'); set('ng-name-Yellow', 'Cy'); set('ng-name-Green', 'Dee');
		set('ng-event', 'Club Night'); set('ng-round', '3'); document.getElementById('ng-remote-Green').checked = true; return true })()`
	eval[bool](t, ctx, js)
	within(t, ctx, time.Second, "the dialog's inputs fit", fits(`#new-game-dialog input[type=text], #new-game-dialog select`, 40))
	shoot(t, ctx, "club-new-game-dialog")
	do2(t, ctx, "starting the game", chromedp.Click(chromedp.ID("ng-start-game")))
	c := waitCommand(t, f, referee.CmdNewGame)
	if c.Variant != "teams" || c.TimeControl != "15+10D" || c.Tags["Red"] != "Ann" || c.Tags["Green"] != "Dee" || c.Tags["Event"] != "Club Night" || c.Tags["Round"] != "3" {
		t.Errorf("new_game %+v", c)
	}
	if r := waitCommand(t, f, referee.CmdRemote); r.Seat != "Green" || r.On == nil || !*r.On {
		t.Errorf("remote %+v, want Green on", r)
	}
	within(t, ctx, 2*time.Second, "the dialog closed", `!document.getElementById('new-game-dialog').open`)
	// A refused new game keeps the dialog open with the referee's error.
	f.SetReply(func(c referee.Command) referee.Reply {
		if c.Name == referee.CmdNewGame {
			return referee.Reply{Error: "new_game: unknown variant \"tems\""}
		}
		return referee.Reply{OK: true}
	})
	do2(t, ctx, "a refused game", chromedp.Click(chromedp.ID("new-game-open")), chromedp.WaitVisible(chromedp.ID("ng-form")))
	eval[bool](t, ctx, `(() => { document.getElementById('ng-base').value = '0'; return true })()`)
	do2(t, ctx, "no minutes", chromedp.Click(chromedp.ID("ng-start-game")))
	within(t, ctx, time.Second, "the time control's error", `document.getElementById('ng-error').textContent.includes('more than 0 minutes')`)
	eval[bool](t, ctx, `(() => { document.getElementById('ng-base').value = '5'; return true })()`)
	do2(t, ctx, "a refused variant", chromedp.Click(chromedp.ID("ng-start-game")))
	within(t, ctx, 2*time.Second, "the referee's error in the dialog", `document.getElementById('ng-error').textContent.includes('unknown variant') && document.getElementById('new-game-dialog').open`)
	do2(t, ctx, "cancelling", chromedp.Click(chromedp.ID("ng-cancel")))
	f.SetReply(nil)

	// Event and round on the page; the title stays the board's name.
	f.Update(func(st *referee.State) { st.Tags["Event"], st.Tags["Round"] = "Club Night", "3" })
	within(t, ctx, 2*time.Second, "event and round in the header and the banner",
		`document.getElementById('event').textContent === 'Club Night · round 3' && document.getElementById('banner').textContent.includes('Club Night · round 3')`)
	if title := eval[string](t, ctx, `document.title`); title != "Club board" {
		t.Errorf("page title %q, want the board's name", title)
	}

	// Sound cues, switched on for this device.
	if eval[bool](t, ctx, `document.getElementById('sound').checked`) {
		t.Error("sound is on before anyone switched it on")
	}
	f.play("h2", "h4", "h2-h4")
	within(t, ctx, 2*time.Second, "the move", `document.getElementById('moves').textContent.includes('h2-h4')`)
	if cues := eval[string](t, ctx, `document.body.dataset.cues || ''`); cues != "" {
		t.Errorf("cues %q played with the sound off", cues)
	}
	do2(t, ctx, "switching the sound on", chromedp.Click(chromedp.ID("sound")))
	within(t, ctx, time.Second, "the test cue and the AudioContext", `document.body.dataset.cues === 'move' && localStorage.getItem('boardd.sound') === '1'`)
	f.play("b7", "c7", "b7-c7")
	f.Emit(referee.Message{Kind: referee.MsgIllegal, Text: "no legal move explains the board"})
	f.Emit(referee.Message{Kind: referee.MsgMove, Seat: "Yellow", Move: "Qg14-h13+", Checks: []string{"Red"}, Text: "Yellow: Qg14-h13+"})
	f.Emit(referee.Message{Kind: referee.MsgTimeout, Seat: "Green", Text: "Green's flag fell"})
	f.Emit(referee.Message{Kind: referee.MsgGameOver, Result: &referee.ResultInfo{Reason: "timeout", PGN4: "1-0"}, Text: "game over"})
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.cues === 'move,move,illegal,check,flag,over'`, chromedp.WithPollingTimeout(2*time.Second))); err != nil {
		t.Errorf("cues %q, want move (the switch-on), move, illegal, check, flag, over", eval[string](t, ctx, `document.body.dataset.cues`))
	}
	shoot(t, ctx, "club-sound-on")
	do2(t, ctx, "reloading", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h4"]`)))
	within(t, ctx, 2*time.Second, "sound still on after a reload, and no cues for the old messages",
		`document.getElementById('sound').checked && !document.body.dataset.cues && document.getElementById('log').textContent.includes('game over')`)

	// The finished games: newest first, filtered by event.
	do2(t, ctx, "opening the games", chromedp.Click(chromedp.ID("games-open")))
	within(t, ctx, 2*time.Second, "three games listed", `document.querySelectorAll('#games tbody tr').length === 3`)
	if txt := eval[string](t, ctx, `document.querySelector('#games tbody tr:last-child').textContent`); !strings.Contains(txt, "2026-11-20") || !strings.Contains(txt, "Club Night r1") || !strings.Contains(txt, "Ann") || !strings.Contains(txt, "0-1") {
		t.Errorf("the oldest game's row reads %q", txt)
	}
	do2(t, ctx, "choosing the event", chromedp.SetValue(chromedp.ID("games-event"), "Club Night"))
	eval[bool](t, ctx, `(() => { document.getElementById('games-event').dispatchEvent(new Event('change')); return true })()`)
	within(t, ctx, time.Second, "two games of the event", `document.querySelectorAll('#games tbody tr').length === 2 && document.getElementById('games-export').getAttribute('href') === '/api/export?event=Club%20Night'`)
	exported := fetchText(t, ctx, `document.getElementById('games-export').href`)
	if strings.Count(exported, `[Event "Club Night"]`) != 2 || strings.Contains(exported, "Open Day") {
		t.Errorf("the event's download:\n%s", exported)
	}
	one := fetchText(t, ctx, `document.querySelector('#games tbody tr:last-child a').href`)
	if !strings.Contains(one, `[Red "Ann"]`) || strings.Contains(one, `[Red "Bob"]`) {
		t.Errorf("one game's download:\n%s", one)
	}
	shoot(t, ctx, "club-games-list")

	// The viewer: the start, then move by move with the arrow keys.
	do2(t, ctx, "viewing Ann's game", chromedp.Click(chromedp.CSS(`#games tbody tr:last-child button.view`)))
	within(t, ctx, 2*time.Second, "the start position", `!document.getElementById('viewer-box').hidden && document.querySelector('[data-square="h2"]').dataset.piece === 'rP' && !document.querySelector('[data-square="h4"]').dataset.piece && document.getElementById('view-pos').textContent === 'move 0 of 5'`)
	do2(t, ctx, "one move on", chromedp.KeyEvent(kb.ArrowRight))
	within(t, ctx, time.Second, "Red's h2-h4", `document.querySelector('[data-square="h4"]').dataset.piece === 'rP' && !document.querySelector('[data-square="h2"]').dataset.piece &&
		document.querySelector('[data-square="h4"]').classList.contains('last') && document.getElementById('banner').textContent.includes('Red: h2-h4') &&
		document.querySelector('.card.c-r .clock').textContent === '9:58' && document.querySelector('.card.c-r .name').textContent === 'Ann'`)
	f.play("m8", "l8", "m8-l8") // the live game goes on meanwhile
	do2(t, ctx, "to the end", chromedp.KeyEvent(kb.End))
	within(t, ctx, time.Second, "the end", `document.getElementById('view-pos').textContent === 'move 5 of 5' && document.getElementById('banner').textContent.includes('Result: 0-1') &&
		document.querySelector('.card.c-g .clock').textContent === '9:41' && document.getElementById('moves').textContent.includes('m8-l8') && !!document.querySelector('[data-square="l8"]').dataset.piece`)
	do2(t, ctx, "back three", chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft))
	within(t, ctx, time.Second, "move 2", `document.getElementById('view-pos').textContent === 'move 2 of 5' && document.querySelector('[data-square="c7"]').dataset.piece === 'bP' && document.querySelector('[data-square="g13"]').dataset.piece === 'yP'`)
	if href := eval[string](t, ctx, `document.getElementById('view-download').getAttribute('href')`); !strings.HasSuffix(href, "?download=1") || !strings.Contains(href, "Club-Night_r1") {
		t.Errorf("the viewer's download link %q", href)
	}
	shoot(t, ctx, "club-viewer")
	do2(t, ctx, "back to live", chromedp.KeyEvent(kb.Escape))
	within(t, ctx, 2*time.Second, "the live game again, with the move made meanwhile", `document.getElementById('viewer-box').hidden &&
		document.querySelector('[data-square="l8"]').dataset.piece === '`+f.State().Pieces["l8"]+`' && !document.querySelector('[data-square="m8"]').dataset.piece &&
		document.getElementById('moves').textContent.includes('m8-l8') && document.querySelector('.card.c-r .name').textContent === 'Anna'`)

	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}

// TestBrowserTVAndPhone checks the spectator view on a 1080p TV (text
// readable across a room, moves and results only) and the phone's header
// (Spectator and Games within reach).
func TestBrowserTVAndPhone(t *testing.T) {
	ctx := browser(t, 1920, 1080)
	errs := jsErrors(ctx)
	f, _, ts := newTestServer(t, Config{Password: testPassword, Title: "Club board", Games: clubArchive(t)})
	midGame(f)
	f.Update(func(st *referee.State) { st.Tags["Round"] = "2" })
	f.Emit(referee.Message{Kind: referee.MsgSensorFault, Square: "e5", Text: "the switch under e5 seems stuck closed"})
	f.Emit(referee.Message{Kind: referee.MsgIllegal, Text: "no legal move explains the board: correction"})

	do2(t, ctx, "the TV", chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(ts.URL+"/?spectator=1"),
		chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h4"][data-piece="bQ"]`)))
	within(t, ctx, 2*time.Second, "moves listed, housekeeping hidden",
		`(() => { const li = [...document.querySelectorAll('#log li')], shown = li.filter(e => e.offsetParent !== null).map(e => e.textContent).join('|');
		return shown.includes('Qe4xh4+') && !shown.includes('stuck') && !shown.includes('correction') && li.some(e => e.textContent.includes('stuck')) })()`)
	within(t, ctx, time.Second, "text readable across a room (24 px and more)",
		`parseFloat(getComputedStyle(document.querySelector('#log li')).fontSize) >= 24 && parseFloat(getComputedStyle(document.querySelector('#moves td.mv')).fontSize) >= 24 &&
		parseFloat(getComputedStyle(document.querySelector('.banner .main')).fontSize) >= 30`)
	within(t, ctx, time.Second, "event and round on the TV", `document.getElementById('banner').textContent.includes('Club night · round 2')`)
	if !eval[bool](t, ctx, `document.documentElement.scrollWidth <= innerWidth`) {
		t.Error("the TV page scrolls sideways")
	}
	shoot(t, ctx, "club-tv-1080p")

	do2(t, ctx, "the phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h4"][data-piece="bQ"]`)))
	within(t, ctx, time.Second, "Spectator, Games and Sound within reach", fits(`#spectate, #games-open, #login-open, #sound`, 10)+
		` && [...document.querySelectorAll('#spectate, #games-open')].every(e => e.offsetParent !== null)`)
	if !eval[bool](t, ctx, `document.documentElement.scrollWidth <= innerWidth`) {
		t.Error("the phone page scrolls sideways")
	}
	do2(t, ctx, "the games on a phone", chromedp.Click(chromedp.ID("games-open")))
	within(t, ctx, 2*time.Second, "the list", `document.querySelectorAll('#games tbody tr').length === 3 && document.documentElement.scrollWidth <= innerWidth`)
	shoot(t, ctx, "club-phone-games")
	do2(t, ctx, "logging in on a phone", chromedp.Click(chromedp.ID("login-open")),
		chromedp.SendKeys(chromedp.ID("password"), testPassword),
		chromedp.Click(chromedp.ID("login-submit")),
		chromedp.WaitVisible(chromedp.ID("new-game-open")),
		chromedp.Click(chromedp.ID("new-game-open")), chromedp.WaitVisible(chromedp.ID("ng-form")))
	within(t, ctx, time.Second, "the dialog fits a phone", fits(`#new-game-dialog input[type=text], #new-game-dialog select, #ng-start-game`, 40)+
		` && document.getElementById('new-game-dialog').getBoundingClientRect().right <= innerWidth`)
	shoot(t, ctx, "club-phone-new-game")
	do2(t, ctx, "closing the dialog", chromedp.Click(chromedp.ID("ng-cancel")))
	do2(t, ctx, "spectating on a phone", chromedp.Click(chromedp.ID("spectate")))
	within(t, ctx, time.Second, "spectator mode", `document.body.classList.contains('spectator')`)
	shoot(t, ctx, "club-phone-spectator")

	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}
