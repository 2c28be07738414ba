package web_test

import (
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boardd/app/hub/web"
	"boardd/internal/browsertest"
)

// guardedHub is a hub with a finished game of club-1 behind
// --viewers-login (the viewers' password "viewpw"), on a clock that later
// moves on.
func guardedHub(t *testing.T) (h *hub, srv *httptest.Server, later func(time.Duration)) {
	h = newHub(t)
	h.finishedGame(t, "club-1", 2)
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	srv = httptest.NewServer(web.WithEvents(h.srv.Config.Handler, web.EventsConfig{Store: h.store, Password: "dirpw", ViewersLogin: true, ViewersPassword: "viewpw", Now: now}))
	t.Cleanup(srv.Close)
	return h, srv, func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
}

// With --viewers-login a viewer in a real browser asking for /games lands
// on the login page, is told a wrong password, logs in with the viewers'
// password and is back on /games, which lists the games.
func TestBrowserViewersLogin(t *testing.T) {
	_, srv, later := guardedHub(t)
	ctx := browsertest.Browser(t, 1024, 768, 60*time.Second)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/games?board=club")); err != nil {
		t.Fatal(err)
	}
	if ok, err := poll(ctx, `location.pathname === '/login' && !!document.getElementById('viewer-login')`, 10*time.Second); !ok {
		t.Fatalf("/games without a login did not go to the login page: %v", err)
	}
	try := func(pw string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.getElementById('password').value = '', true)`)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("password"), pw), chromedp.Click(chromedp.CSS("#viewer-login button"))); err != nil {
			t.Fatal(err)
		}
	}
	try("guess")
	if ok, _ := poll(ctx, `document.getElementById('login-note').textContent.includes('wrong password')`, 10*time.Second); !ok {
		note, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('login-note').textContent`))
		t.Fatalf("a wrong password: the page says %q", note)
	}
	later(2 * time.Second) // past the throttle's wait after one failure
	try("viewpw")
	if ok, _ := poll(ctx, `location.pathname + location.search === '/games?board=club' && document.querySelectorAll('#hub-games tbody tr').length === 1`, 10*time.Second); !ok {
		where, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + ' ' + document.body.innerText.slice(0, 300)`))
		t.Fatalf("after logging in: %s, want /games?board=club listing the game", where)
	}

}

// With --viewers-login, the page of all boards and a board's display
// stay live while their login lasts; once it has ended and their stream
// breaks (the hub restarts), each goes to the login page by itself (and
// back after it), rather than trying again for ever.
func TestBrowserLiveUntilTheLoginEnds(t *testing.T) {
	for _, page := range []string{"/", "/board/club-1"} {
		t.Run(page, func(t *testing.T) {
			h, srv, later := guardedHub(t)
			ctx := browsertest.Browser(t, 1024, 768, 60*time.Second)
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/login?next="+page),
				chromedp.SendKeys(chromedp.ID("password"), "viewpw"), chromedp.Click(chromedp.CSS("#viewer-login button"))); err != nil {
				t.Fatal(err)
			}
			if ok, _ := poll(ctx, `location.pathname === '`+page+`' && document.getElementById('conn').textContent === 'live'`, 10*time.Second); !ok {
				where, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + ' ' + document.getElementById('conn')?.textContent`))
				t.Fatalf("after logging in: %s, want %s live", where, page)
			}
			later(8 * 24 * time.Hour)
			h.srv.Config.Handler.(*web.Handler).Close() // ends the streams, as a restart of the hub does
			if ok, _ := poll(ctx, `location.pathname === '/login' && new URLSearchParams(location.search).get('next') === '`+page+`'`, 20*time.Second); !ok {
				where, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
				t.Errorf("after the login ended and the stream broke: at %s, want the login page (and back after)", where)
			}
		})
	}
}
