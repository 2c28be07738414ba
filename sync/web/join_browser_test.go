package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"rsc.io/qr"

	"boardd/internal/lan"
	"boardd/referee"
)

// In a browser: the Join button opens the join view with the daemon's QR
// code (an image as large as the library's code for the first URL) and
// every address; ?join=1 opens it at once, in the spectator view too. A
// display on localhost only has no Join button. A sensor fault without a
// square (the switches cannot be read) shows in the banner, not on a TV.
func TestBrowserJoinAndUnreadableSwitches(t *testing.T) {
	urls := []string{"http://192.168.1.20:8080/", "http://boardpi.local:8080/"}
	f, _, ts := newTestServer(t, Config{Password: testPassword, Title: "Club board", Join: func() []string { return urls }})
	ctx := browser(t, 1366, 768)
	errs := jsErrors(ctx)
	do2(t, ctx, "the page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#join-open`)))
	if !eval[bool](t, ctx, `document.getElementById('join-box').hidden`) {
		t.Error("the join view is open before Join was pressed")
	}
	do2(t, ctx, "Join", chromedp.Click(chromedp.CSS(`#join-open`)), chromedp.WaitVisible(chromedp.CSS(`#join-box`)))
	within(t, ctx, 3*time.Second, "the QR code loaded", `document.getElementById('join-qr').naturalWidth > 0`)
	code, err := qr.Encode(urls[0], lan.QRLevel)
	if err != nil {
		t.Fatal(err)
	}
	if w := eval[int](t, ctx, `document.getElementById('join-qr').naturalWidth`); w != (code.Size+8)*lan.PNGScale {
		t.Errorf("QR image %d px wide, want %d (the library's code for %s)", w, (code.Size+8)*lan.PNGScale, urls[0])
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll('#join-urls a')].map(a => a.textContent).join(' ')`); got != urls[0]+" "+urls[1] {
		t.Errorf("join addresses %q", got)
	}
	if got := eval[string](t, ctx, `location.search`); got != "?join=1" {
		t.Errorf("the open join view is not in the address: %q", got)
	}

	// The switches cannot be read: the banner says so, with the reason.
	f.Update(func(st *referee.State) { st.SensorFault = "the board cannot read its switches (check chip 9)" })
	within(t, ctx, 3*time.Second, "the sensor fault in the banner", `(document.querySelector('#banner .sensor-fault') || {}).textContent === 'Sensor fault: the board cannot read its switches (check chip 9)'`)

	// A TV: spectator view with the join view open, no sensor fault.
	do2(t, ctx, "the TV", chromedp.Navigate(ts.URL+"/?spectator=1&join=1"), chromedp.WaitVisible(chromedp.CSS(`#join-box`)))
	within(t, ctx, 3*time.Second, "the TV's QR code", `document.getElementById('join-qr').naturalWidth > 0`)
	within(t, ctx, 3*time.Second, "the banner drawn", `!!document.querySelector('#banner .sensor-fault')`)
	if eval[bool](t, ctx, `document.querySelector('#banner .sensor-fault').offsetParent !== null`) {
		t.Error("the spectator view shows the sensor fault")
	}

	// Localhost only: no Join button, no join view even when asked.
	_, _, local := newTestServer(t, Config{Title: "Local"})
	do2(t, ctx, "the local page", chromedp.Navigate(local.URL+"/?join=1"), chromedp.WaitVisible(chromedp.CSS(`#board [data-square="h1"]`)))
	time.Sleep(200 * time.Millisecond) // the /api/join answer
	if !eval[bool](t, ctx, `document.getElementById('join-open').hidden && document.getElementById('join-box').hidden`) {
		t.Error("a display on localhost only offers a join view")
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("JavaScript errors: %v", e)
	}
}
