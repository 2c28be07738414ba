// Package browsertest starts the headless chromium the browser tests drive
// (sync/web, the club hub): found on the PATH or in $BOARDD_CHROMIUM,
// skipped without one, failed under CI=true where it must be installed.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium finds the browser for a browser test, as sync/web's tests do:
// $BOARDD_CHROMIUM, else chromium or Chrome on the PATH; without one the
// test is skipped, or fails under CI=true.
func Chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("BOARDD_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if name == "" {
			continue
		}
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found: CI must install it (Debian: apt-get install chromium), or set BOARDD_CHROMIUM to a Chrome binary")
	}
	t.Skip("chromium not found (Debian: apt-get install chromium, or set BOARDD_CHROMIUM): skipping the browser test")
	return ""
}

// Browser starts a headless chromium with a window of the given size,
// for at most limit.
func Browser(t *testing.T, width, height int, limit time.Duration) context.Context {
	t.Helper()
	path := Chromium(t)
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(width, height))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		bcancel()
		acancel()
		cancel()
	})
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return bctx
}

// Artefacts is where a test writes its screenshots: $BOARDD_ARTEFACTS,
// else a temporary directory.
func Artefacts(t *testing.T) string {
	if dir := os.Getenv("BOARDD_ARTEFACTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}
