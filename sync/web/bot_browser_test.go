package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boardd/referee"
)

// TestBrowserBotSeats: the New game dialog makes seats bots — a level per
// seat — and the new_game command carries them as the Bots tag, with the
// bot seats remote and named after the bot when no name is given.
func TestBrowserBotSeats(t *testing.T) {
	ctx := browser(t, 1366, 768)
	errs := jsErrors(ctx)
	f, _, ts := newTestServer(t, Config{Password: testPassword, Title: "Club board"})
	do2(t, ctx, "loading the page", chromedp.EmulateViewport(1366, 768), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h1"][data-piece="rK"]`)))
	logIn(t, ctx)
	do2(t, ctx, "opening the dialog", chromedp.Click(chromedp.ID("new-game-open")), chromedp.WaitVisible(chromedp.ID("ng-form")))
	js := `(() => { const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
		set('ng-variant', 'teams'); set('ng-name-Red', 'Ann'); set('ng-name-Yellow', 'Cy');
		set('ng-name-Blue', 'Deep Blue'); set('ng-bot-Blue', '2'); set('ng-name-Green', ''); set('ng-bot-Green', '4'); return true })()`
	eval[bool](t, ctx, js)
	within(t, ctx, time.Second, "the dialog's inputs fit", fits(`#new-game-dialog input[type=text], #new-game-dialog select`, 40))
	shoot(t, ctx, "bot-new-game-dialog")
	do2(t, ctx, "starting the game", chromedp.Click(chromedp.ID("ng-start-game")))
	c := waitCommand(t, f, referee.CmdNewGame)
	if c.Tags["Bots"] != "Blue:2,Green:4" || c.Tags["Remote"] != "Blue,Green" || c.Tags["Green"] != "boardd bot 4" || c.Tags["Blue"] != "Deep Blue" || c.Tags["Red"] != "Ann" {
		t.Errorf("new_game tags %v: want Bots Blue:2,Green:4, Remote Blue,Green, Green named after the bot", c.Tags)
	}
	within(t, ctx, 2*time.Second, "the dialog closed", `!document.getElementById('new-game-dialog').open`)

	// The page shows the bot seats as bots with their level, not as
	// remote seats (they are remote seats to the referee); a seat played
	// from elsewhere by a person stays "remote"; the bot's move waiting
	// to be made on the board says whose bot chose it.
	f.Update(func(st *referee.State) {
		st.Tags["Bots"], st.Tags["Remote"] = "Blue:2,Green", "Blue,Yellow,Green"
		for i := range st.Seats {
			st.Seats[i].Remote = st.Seats[i].Seat != "Red"
		}
		st.Turn = "Blue"
		st.Remote = &referee.MoveInfo{Seat: "Blue", Move: "b7-d7"}
	})
	within(t, ctx, 2*time.Second, "the seat kinds on the cards",
		`(() => { const info = s => document.querySelector('.card[data-seat="'+s+'"] .info').textContent;
		return info('Blue') === '0 pts · bot 2' && info('Green') === '0 pts · bot 3' && info('Yellow') === '0 pts · remote' && info('Red') === '0 pts' &&
			document.querySelector('.card[data-seat="Blue"]').dataset.kind === 'bot' && document.querySelector('.card[data-seat="Red"]').dataset.kind === 'board' })()`)
	within(t, ctx, time.Second, "the cards' texts not cut", fits(`.card .info`, 10))
	within(t, ctx, time.Second, "the remote seats' boxes name the bots", `document.getElementById('remote-seats').textContent.replace(/\s+/g, ' ').trim() === 'Remote seats Red Blue (bot 2) Yellow Green (bot 3)'`)
	within(t, ctx, time.Second, "the bot's move on the banner", `document.getElementById('banner').textContent.includes("Blue's bot (level 2) plays b7-d7: make the move on the board")`)
	shoot(t, ctx, "bot-seats")
	if e := errs(); len(e) > 0 {
		t.Errorf("javascript errors: %v", e)
	}
}
