package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boardd/referee"
)

// overflowing is JavaScript that lists, as "selector-ish: text", every
// drawn element whose content is wider than its box and so is cut off or
// scrolls sideways: table cells and headers, buttons, links styled as
// buttons, inputs, selects, labels, the panel's sections and scrolling
// boxes, the header. A text meant to end in "…" (text-overflow: ellipsis)
// is a shortened name, not a clipped one, and is left out.
const overflowing = `(() => {
	const sel = 'td, th, button, a.button, select, input, label, summary, #side > section, #side .scroll, #side .row, .banner, header, header nav, #side, table';
	const out = [];
	for (const e of document.querySelectorAll(sel)) {
		if (e.offsetParent === null && getComputedStyle(e).position !== 'fixed') continue; // not drawn
		if (e.closest('dialog:not([open])')) continue;
		if (getComputedStyle(e).textOverflow === 'ellipsis') continue;
		if (e.tagName === 'INPUT' && e.type !== 'button' && e.type !== 'submit') {
			const r = e.getBoundingClientRect();
			if (r.right > innerWidth + 0.5) out.push('input#' + e.id + ' past the right edge');
			continue; // a text field scrolls its own text
		}
		if (e.scrollWidth > e.clientWidth + 1) {
			out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') +
				' (' + e.scrollWidth + ' > ' + e.clientWidth + '): ' + (e.textContent || e.value || '').trim().slice(0, 40));
		}
		const r = e.getBoundingClientRect();
		if (r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5)) out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' outside the window');
	}
	if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
	return out;
})()`

// longMoves fills every seat's column of the move list with the widest
// tokens a game writes: captures with the piece taken, checks, mates,
// promotions and two-digit ranks.
func longMoves(f *fakeBoard) {
	f.Update(func(st *referee.State) {
		st.Moves = nil
		for _, round := range [][4]string{
			{"Qg1xRn11+", "Qa7xPm10+", "Qh14xBa10+", "Rn11-k11"},
			{"Rk1xQk11#", "Na10xRd13+", "Bf14xNl10+", "Qn8xRd12+"},
			{"d7-d8=Q+", "Kj8xNj9T", "Nk13xBm12#", "Rn11xRa11+"},
		} {
			for i, m := range round {
				st.Moves = append(st.Moves, referee.MoveInfo{Seat: []string{"Red", "Blue", "Yellow", "Green"}[i], Move: m})
			}
		}
		st.Tags["Event"] = "Thursday Club Night Championship"
		st.Tags["Round"] = "12"
	})
}

// TestBrowserNothingClipped draws the page at the widths of a phone, a
// tablet, a laptop and a TV, logged in with the controls, the move list
// full of long moves and the finished games open, and checks that no
// cell, button, field or box has content wider than itself (before, the
// Green column was cut to "Rn11-k" at 1280 and 1920 px, and the games'
// PGN4 button to "P").
func TestBrowserNothingClipped(t *testing.T) {
	ctx := browser(t, 1280, 800)
	errs := jsErrors(ctx)
	f, _, ts := newTestServer(t, Config{Password: testPassword, Title: "Club board", Games: clubArchive(t)})
	midGame(f)
	longMoves(f)
	for _, w := range []struct {
		name          string
		width, height int64
		mobile        bool
		query         string
	}{
		{"phone", 360, 740, true, ""},
		{"tablet", 768, 1024, true, ""},
		{"laptop", 1280, 800, false, ""},
		{"tv", 1920, 1080, false, ""},
		{"tv-spectator", 1920, 1080, false, "?spectator=1"},
	} {
		t.Run(w.name, func(t *testing.T) {
			emulate := chromedp.EmulateViewport(w.width, w.height)
			if w.mobile {
				emulate = chromedp.EmulateViewport(w.width, w.height, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			do2(t, ctx, "loading the page", emulate, chromedp.Navigate(ts.URL+"/"+w.query),
				chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h4"][data-piece="bQ"]`)))
			within(t, ctx, 2*time.Second, "the move list", `document.getElementById('moves').textContent.includes('Rn11xRa11+')`)
			spectator := strings.Contains(w.query, "spectator")
			if !spectator {
				if !eval[bool](t, ctx, `document.body.classList.contains('authed')`) {
					logIn(t, ctx)
				}
				do2(t, ctx, "opening the games", chromedp.Click(chromedp.ID("games-open")))
				within(t, ctx, 2*time.Second, "the games listed", `document.querySelectorAll('#games tbody tr').length === 3`)
				do2(t, ctx, "opening the names", chromedp.Click(chromedp.CSS(`#game-box summary`)))
			}
			eval[bool](t, ctx, `(() => { document.getElementById('side').scrollTop = 0; scrollTo(0, 0); return true })()`)
			shoot(t, ctx, fmt.Sprintf("fit-%s-%d", w.name, w.width))
			if !spectator {
				eval[bool](t, ctx, `(() => { document.getElementById('games-box').scrollIntoView(); return true })()`)
				shoot(t, ctx, fmt.Sprintf("fit-%s-%d-games", w.name, w.width))
			}
			if w.width >= 1280 {
				// Where there is room, every move stands on one line.
				if bad := eval[[]string](t, ctx, `[...document.querySelectorAll('#moves td.mv')].filter(e => e.textContent && e.getClientRects().length && e.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(e).lineHeight)).map(e => e.textContent)`); len(bad) > 0 {
					t.Errorf("at %d px wide, moves wrap onto two lines: %q", w.width, bad)
				}
			}
			check := func(what string) {
				t.Helper()
				if bad := eval[[]string](t, ctx, overflowing); len(bad) > 0 {
					t.Errorf("at %d px wide, %s: content is cut off:\n%s", w.width, what, strings.Join(bad, "\n"))
				}
			}
			check("the page")
			if spectator {
				return
			}
			// The viewer of a finished game, and the New game dialog with
			// its question about the game under way.
			do2(t, ctx, "viewing a game", chromedp.Click(chromedp.CSS(`#games tbody tr:last-child button.view`)), chromedp.WaitVisible(chromedp.ID("viewer-box")))
			within(t, ctx, 2*time.Second, "the viewer", `document.getElementById('view-pos').textContent === 'move 0 of 5'`)
			check("the viewer")
			do2(t, ctx, "back to live", chromedp.Click(chromedp.ID("view-close")))
			within(t, ctx, 2*time.Second, "the live game", `document.getElementById('viewer-box').hidden && document.getElementById('moves').textContent.includes('Rn11xRa11+')`)
			do2(t, ctx, "opening the dialog", chromedp.Click(chromedp.ID("new-game-open")), chromedp.WaitVisible(chromedp.ID("ng-form")))
			within(t, ctx, time.Second, "the question", `!document.getElementById('ng-running').hidden`)
			shoot(t, ctx, fmt.Sprintf("fit-%s-%d-new-game", w.name, w.width))
			check("the New game dialog")
			do2(t, ctx, "closing the dialog", chromedp.Click(chromedp.ID("ng-cancel")))
		})
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("the page reported errors: %q", e)
	}
}
