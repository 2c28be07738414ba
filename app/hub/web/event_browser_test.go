package web_test

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// go test ./app/hub/web -run EventPagesBrowser -event-screenshot /tmp/event.png
var eventScreenshot = flag.String("event-screenshot", "", "TestEventPagesBrowser writes the event's page, logged in, to this PNG file")

// eventChromium finds the browser, or skips the test (fails it under CI=true).
func eventChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("BOARDD_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found: CI must install it (apt-get install chromium), or set BOARDD_CHROMIUM")
	}
	t.Skip("chromium not found (apt-get install chromium, or set BOARDD_CHROMIUM): skipping the browser test")
	return ""
}

// The director in a real browser: logs in on the page, creates an event,
// pastes eight players, pairs round 1 and sees its two tables, without
// a script error; then a viewer (another browser, no login) sees the
// round and no director's controls.
func TestEventPagesBrowser(t *testing.T) {
	path := eventChromium(t)
	srv, _, _ := hubWeb(t, false)
	run := func(width, height int) (context.Context, func() []string) {
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox,
			chromedp.DisableGPU, chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(width, height))
		actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
		bctx, bcancel := chromedp.NewContext(actx)
		t.Cleanup(func() { bcancel(); acancel(); cancel() })
		if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
			t.Fatalf("starting %s: %v", path, err)
		}
		var mu sync.Mutex
		var errs []string
		go func() {
			for ev, err := range chromedp.Events(bctx, runtime.ExceptionThrown) {
				if err != nil {
					return
				}
				mu.Lock()
				errs = append(errs, ev.ExceptionDetails.Text)
				mu.Unlock()
			}
		}()
		go func() {
			for ev, err := range chromedp.Events(bctx, runtime.ConsoleAPICalled) {
				if err != nil {
					return
				}
				if ev.Type == runtime.ConsoleAPICalledTypeError {
					mu.Lock()
					errs = append(errs, "console.error")
					mu.Unlock()
				}
			}
		}()
		return bctx, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(errs) }
	}
	ctx, errs := run(1200, 900)
	wait := func(ctx context.Context, what, js string) {
		t.Helper()
		// a page that navigates (a new event opens its page) ends a
		// poll: poll again until the deadline
		deadline := time.Now().Add(15 * time.Second)
		for {
			_, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(time.Until(deadline))))
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				msg, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("message")))
				t.Fatalf("%s: %v (page says %q)", what, err, msg)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/events"),
		chromedp.WaitVisible(chromedp.ID("password")),
		chromedp.SendKeys(chromedp.ID("password"), "pw"),
		chromedp.Click(chromedp.CSS("#login button")))
	if err != nil {
		t.Fatal(err)
	}
	wait(ctx, "logged in with the new event's form", `!document.getElementById("who").hidden && document.querySelector("form.director input[name=name]") !== null`)
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`form.director input[name=name]`), "Club night"),
		chromedp.SendKeys(chromedp.CSS(`form.director input[name=boards]`), "b1, b2"),
		chromedp.Click(chromedp.CSS(`form.director button`)))
	if err != nil {
		t.Fatal(err)
	}
	wait(ctx, "the event's page with the players' form", `location.pathname === "/events/1" && document.querySelector("textarea") !== null`)
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("textarea"), "Ann\nBob\nCy\nDi\nEve\nFay\nGus\nHal"),
		chromedp.Click(chromedp.CSS("form.director button")))
	if err != nil {
		t.Fatal(err)
	}
	wait(ctx, "eight players listed", `document.querySelectorAll("ol li").length === 8`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll("button")].find(b => b.textContent === "Pair round 1").click() === undefined`)); err != nil {
		t.Fatal(err)
	}
	wait(ctx, "round 1's two tables", `[...document.querySelectorAll("h2")].some(h => h.textContent.startsWith("Round 1")) && document.querySelectorAll("td span.Red").length === 2`)
	if *eventScreenshot != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(*eventScreenshot, png, 0o644)
	}
	if e := errs(); len(e) > 0 {
		t.Errorf("script errors: %v", e)
	}

	// A viewer on a phone: the round, no director's controls.
	vctx, verrs := run(400, 800)
	if err := chromedp.Do(vctx, chromedp.Navigate(srv.URL+"/events/1")); err != nil {
		t.Fatal(err)
	}
	wait(vctx, "the viewer's page with round 1", `document.querySelectorAll("td span.Red").length === 2`)
	if controls, err := chromedp.Run(vctx, chromedp.Evaluate[int](`document.querySelectorAll(".director").length`)); err != nil || controls != 0 {
		t.Errorf("the viewer's page: %v, %d director's controls", err, controls)
	}
	if e := verrs(); len(e) > 0 {
		t.Errorf("script errors for the viewer: %v", e)
	}
}
