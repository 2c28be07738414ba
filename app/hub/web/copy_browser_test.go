package web_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boardd/internal/browsertest"
	syncweb "boardd/sync/web"
)

// A board's display on the hub is a read-only copy of the board's own
// page: in a real browser it shows the game and says where commands are
// given; what cannot work on the copy is not there (the LEDs toggle: the
// hub has no lights, even with ?leds=1; the login; the controls). Every
// control a viewer sees works on the copy. The board's own page keeps
// its LEDs toggle.
func TestBrowserBoardCopyIsReadOnly(t *testing.T) {
	own, err := syncweb.RenderPage(syncweb.PageData{Title: "club-1", CanLogin: true})
	if err != nil {
		t.Fatal(err)
	}
	page := string(own)
	i := strings.Index(page, `id="show-leds"`)
	label := page[strings.LastIndex(page[:max(i, 0)], "<label"):max(i, 0)]
	if i < 0 || strings.Contains(label, "hidden") || strings.Contains(page, `id="copy-note"`) {
		t.Fatal("the board's own page lost its LEDs toggle, or says it is a copy")
	}

	ctx := browsertest.Browser(t, 1366, 768, 60*time.Second)
	h := newHub(t)
	h.finishedGame(t, "club-1", 4)
	if err := chromedp.Do(ctx, chromedp.Navigate(h.srv.URL+"/board/club-1?leds=1")); err != nil {
		t.Fatal(err)
	}
	if _, err := poll(ctx, `document.querySelectorAll('#moves td.mv').length > 0`, 10*time.Second); err != nil {
		t.Fatalf("the copy never showed the game's moves: %v", err)
	}
	var got struct {
		LEDsShown, LEDsLit bool
		Note               string
		Visible            []string
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify((() => {
		const shown = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
		const visible = [...document.querySelectorAll('button, input, select, textarea, a.button, summary')]
			.filter((e) => shown(e) && !e.closest('dialog'))
			.map((e) => e.id || e.textContent.trim());
		return {LEDsShown: shown(document.getElementById('leds-toggle')), LEDsLit: document.body.classList.contains('leds'),
			Note: shown(document.getElementById('copy-note')) ? document.getElementById('copy-note').textContent : '', Visible: visible};
	})())`))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("%v in %s", err, raw)
	}
	if got.LEDsShown || got.LEDsLit {
		t.Errorf("the hub's copy shows the LEDs toggle (%v) or tints the squares with ?leds=1 (%v): it has no lights", got.LEDsShown, got.LEDsLit)
	}
	if !strings.Contains(got.Note, "takes no commands") || !strings.Contains(got.Note, "the board's own page") {
		t.Errorf("the copy's note: %q, want where commands are given", got.Note)
	}
	works := []string{"rotate", "spectate", "games-open", "sound"} // each works on the copy
	for _, id := range got.Visible {
		if !slices.Contains(works, id) {
			t.Errorf("the copy shows the control %q, which takes commands or needs the board", id)
		}
	}
}

// poll evaluates expr until it is true, for d at most.
func poll(ctx context.Context, expr string, d time.Duration) (bool, error) {
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if ok || time.Now().After(deadline) {
			return ok, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
