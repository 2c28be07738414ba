package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boardd/app/hub/hubtest"
	"boardd/internal/browsertest"
	"boardd/referee"
	"boardd/referee/clock"
)

// tileInfo is what the page of all boards shows of one board, and where.
type tileInfo struct {
	Seq      uint64
	Status   string
	Last     []string // the squares lit as the last move
	LastText string
	Small    bool
	Clocks   int // clocks shown (on the seat cards, or beside a small board)
	Tile     rect
	Board    rect
	// Cut names the texts of the tile that do not fit (clipped or cut
	// short with an ellipsis).
	Cut []string
}

type rect struct{ Left, Top, Right, Bottom float64 }

func (r rect) inside(o rect) bool {
	return r.Left >= o.Left-1 && r.Top >= o.Top-1 && r.Right <= o.Right+1 && r.Bottom <= o.Bottom+1
}

const readTiles = `JSON.stringify(Object.fromEntries([...document.querySelectorAll('.tile')].map((a) => {
  const r = (e) => { const b = e.getBoundingClientRect(); return {Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom}; };
  const cut = [...a.querySelectorAll('.tile-name, .tile-turn, .tile-last, .tile-event, .tile-team, .seats .nm')].filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map((e) => e.className + ': ' + e.textContent);
  const info = a.querySelector('.tile-info');
  if (info.scrollHeight > info.clientHeight + 1) cut.push('the details do not fit the tile: ' + info.scrollHeight + ' px in ' + info.clientHeight);
  return [a.dataset.board, {Seq: +a.dataset.seq, Status: a.dataset.status, Last: [...a.querySelectorAll('.sq.last')].map((e) => e.dataset.square).sort(),
    LastText: a.querySelector('.tile-last').textContent, Small: a.classList.contains('small'),
    Clocks: [...a.querySelectorAll('.card .clock, .seats .ck')].filter((e) => e.offsetParent && /\d:\d\d/.test(e.textContent)).length, Tile: r(a), Board: r(a.querySelector('.board')), Cut: cut}];
})))`

// The page of all boards with 12 boards playing, at a phone's, a
// laptop's and a TV's size: every board's tile shows its last move lit
// and written, whose turn, its status; nothing is clipped; the TV shows
// the 12 as a 4×3 grid without scrolling, the phone as a list. A click
// opens the board's full display; the finished game opens in the viewer
// from /games and downloads as PGN4.
func TestBrowserPageOfAllBoards(t *testing.T) {
	browsertest.Chromium(t)
	h, out := startHub(t, t.TempDir(), "127.0.0.1:0")
	join := joinLine.FindStringSubmatch(out)
	if join == nil {
		t.Fatalf("no join line in %q", out)
	}
	u := hubURL(t, join[1])
	const n = 12
	lives := map[string]*referee.Live{}
	lastMove := map[string]string{} // the last move each board played
	var names []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("table-%02d", i)
		names = append(names, name)
		l := hubtest.Start(t, hubtest.Board{Broker: u.broker, User: u.user, Password: u.password, Name: name,
			Clock: &clock.Control{Base: 10 * time.Minute, Increment: 5 * time.Second}})
		lives[name] = l
		hubtest.Play(t, l, hubtest.TeamsMoves[:1+i%9]...)
		lastMove[name] = hubtest.TeamsMoves[i%9]
	}
	finished := names[n-1]
	if r := lives[finished].Do(t.Context(), referee.Command{Name: referee.CmdResign, Seat: "Blue"}); !r.OK {
		t.Fatal(r.Error)
	}
	base := "http://" + h.WebAddr
	shots := browsertest.Artefacts(t)

	for _, size := range []struct {
		name          string
		width, height int
		grid          bool // every tile in the window, no scrolling
	}{
		{"phone", 390, 844, false},
		{"laptop", 1366, 768, true},
		{"tv", 1920, 1080, true},
	} {
		t.Run(size.name, func(t *testing.T) {
			ctx := browsertest.Browser(t, size.width, size.height, 60*time.Second)
			emulate := chromedp.EmulateViewport(int64(size.width), int64(size.height))
			if size.name == "phone" {
				emulate = chromedp.EmulateViewport(int64(size.width), int64(size.height), chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			if err := chromedp.Do(ctx, emulate, chromedp.Navigate(base+"/")); err != nil {
				t.Fatal(err)
			}
			var tiles map[string]tileInfo
			deadline := time.Now().Add(20 * time.Second)
			for {
				raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](readTiles))
				if err != nil {
					t.Fatal(err)
				}
				tiles = map[string]tileInfo{}
				if err := json.Unmarshal([]byte(raw), &tiles); err != nil {
					t.Fatal(err)
				}
				done := len(tiles) == n
				for name, l := range lives {
					done = done && tiles[name].Seq == l.State().Seq
				}
				if done {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the page shows %d boards, not all up to date: %+v", len(tiles), tiles)
				}
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond) // a resize settles
			raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](readTiles))
			if err != nil {
				t.Fatal(err)
			}
			json.Unmarshal([]byte(raw), &tiles)
			var win struct{ W, H, SW, SH float64 }
			winRaw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({W: innerWidth, H: innerHeight, SW: document.documentElement.scrollWidth, SH: document.documentElement.scrollHeight})`))
			if err != nil {
				t.Fatal(err)
			}
			json.Unmarshal([]byte(winRaw), &win)
			screen := rect{0, 0, win.W, win.H}
			lefts, tops := map[float64]bool{}, map[float64]bool{}
			for name, l := range lives {
				ti, st := tiles[name], l.State()
				want := slices.Sorted(slices.Values(st.LastMove))
				if !slices.Equal(ti.Last, want) {
					t.Errorf("%s: last move lit on %v, want %v", name, ti.Last, want)
				}
				if !strings.Contains(ti.LastText, lastMove[name]) {
					t.Errorf("%s: last move written %q, want %s", name, ti.LastText, lastMove[name])
				}
				wantStatus := "playing"
				if name == finished {
					wantStatus = "finished"
				}
				if ti.Status != wantStatus {
					t.Errorf("%s: status %s, want %s", name, ti.Status, wantStatus)
				}
				if !ti.Board.inside(ti.Tile) {
					t.Errorf("%s: the board %+v sticks out of its tile %+v", name, ti.Board, ti.Tile)
				}
				if ti.Tile.Left < -1 || ti.Tile.Right > win.W+1 {
					t.Errorf("%s: tile %+v is cut off at the window's sides (%v wide)", name, ti.Tile, win.W)
				}
				if size.grid && !ti.Tile.inside(screen) {
					t.Errorf("%s: tile %+v is not in the window %+v", name, ti.Tile, screen)
				}
				if ti.Clocks != 4 {
					t.Errorf("%s: %d clocks shown, want 4", name, ti.Clocks)
				}
				if len(ti.Cut) > 0 {
					t.Errorf("%s: texts cut short: %v", name, ti.Cut)
				}
				lefts[ti.Tile.Left], tops[ti.Tile.Top] = true, true
			}
			if win.SW > win.W+1 {
				t.Errorf("the page scrolls sideways: %v wide in a %v window", win.SW, win.W)
			}
			if size.grid && win.SH > win.H+1 {
				t.Errorf("the page scrolls: %v high in a %v window", win.SH, win.H)
			}
			switch size.name {
			case "tv":
				if len(lefts) != 4 || len(tops) != 3 {
					t.Errorf("the TV shows %d columns and %d rows, want 4×3", len(lefts), len(tops))
				}
				if tiles[names[0]].Small {
					t.Errorf("the TV's boards are too small for their seat cards")
				}
			case "phone":
				if len(lefts) != 1 {
					t.Errorf("the phone shows %d columns, want a list", len(lefts))
				}
			}
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(shots, "hub-"+size.name+".png")
			if err := os.WriteFile(path, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s", path)

			if size.name == "phone" {
				// The games on a phone (every board's, the games under way too):
				// every game a block, nothing sideways.
				if err := chromedp.Do(ctx, chromedp.Navigate(base+"/games")); err != nil {
					t.Fatal(err)
				}
				if _, err := poll(ctx, `document.querySelectorAll('#hub-games tbody tr').length === 12`, 10*time.Second); err != nil {
					t.Fatalf("the games page: %v", err)
				}
				if w, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`)); w > float64(size.width)+1 {
					t.Errorf("the games page scrolls sideways on a phone: %v wide", w)
				}
				shot, _ = chromedp.Run(ctx, chromedp.FullScreenshot(100))
				os.WriteFile(filepath.Join(shots, "hub-games-phone.png"), shot, 0o644)
			}
			if size.name != "tv" {
				return
			}
			// A click: the board's full display, live.
			pick := names[2]
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.tile[data-board="`+pick+`"] .board`))); err != nil {
				t.Fatal(err)
			}
			st := lives[pick].State()
			if _, err := poll(ctx, fmt.Sprintf(`location.pathname === '/board/%s' && document.getElementById('board').dataset.seq === '%d' && document.querySelectorAll('#moves td.mv').length > 0`, pick, st.Seq), 10*time.Second); err != nil {
				t.Fatalf("the board's display after a click: %v", err)
			}
			lit, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#board .sq.last')].map((e) => e.dataset.square).sort()`))
			if want := slices.Sorted(slices.Values(st.LastMove)); !slices.Equal(lit, want) {
				t.Errorf("the full display lights %v as the last move, want %v", lit, want)
			}
			hubtest.Play(t, lives[pick], hubtest.TeamsMoves[len(st.Moves)])
			if _, err := poll(ctx, fmt.Sprintf(`document.getElementById('board').dataset.seq === '%d'`, lives[pick].State().Seq), 10*time.Second); err != nil {
				t.Errorf("the full display does not follow the board's next move: %v", err)
			}
			shot, _ = chromedp.Run(ctx, chromedp.FullScreenshot(100))
			os.WriteFile(filepath.Join(shots, "hub-board.png"), shot, 0o644)
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("home"))); err != nil {
				t.Fatal(err)
			}
			if _, err := poll(ctx, `location.pathname === '/' && document.querySelectorAll('.tile').length === 12`, 10*time.Second); err != nil {
				t.Errorf("back to every board: %v", err)
			}

			// Looking back: the finished game in the list, in the viewer.
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/games?board="+finished)); err != nil {
				t.Fatal(err)
			}
			if _, err := poll(ctx, `document.querySelectorAll('#hub-games tbody tr').length === 1`, 10*time.Second); err != nil {
				t.Fatalf("the games page: %v", err)
			}
			shot, _ = chromedp.Run(ctx, chromedp.FullScreenshot(100))
			os.WriteFile(filepath.Join(shots, "hub-games.png"), shot, 0o644)
			if hgt, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('#hub-games tbody tr').getBoundingClientRect().height`)); hgt > 80 {
				t.Errorf("a game's row in the list is %v px high", hgt)
			}
			href, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#hub-games a[download]').href`))
			resp, err := http.Get(href)
			if err != nil {
				t.Fatal(err)
			}
			pgn, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			fin := lives[finished].State()
			if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") || !strings.Contains(string(pgn), `[Board "`+finished+`"]`) ||
				!strings.Contains(string(pgn), fin.Moves[len(fin.Moves)-2].Move) {
				t.Errorf("PGN4 download %s: %d %q\n%s", href, resp.StatusCode, resp.Header.Get("Content-Disposition"), pgn)
			}
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#hub-games a.view`))); err != nil {
				t.Fatal(err)
			}
			turns := len(fin.Moves)
			if _, err := poll(ctx, fmt.Sprintf(`!document.getElementById('viewer-box').hidden && document.getElementById('view-pos').textContent === 'move 0 of %d'`, turns), 10*time.Second); err != nil {
				text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('view-pos').textContent + ' / ' + document.getElementById('games-empty').textContent`))
				t.Fatalf("the viewer: %v (%s)", err, text)
			}
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("view-next")), chromedp.Click(chromedp.ID("view-next"))); err != nil {
				t.Fatal(err)
			}
			if _, err := poll(ctx, fmt.Sprintf(`document.getElementById('view-pos').textContent === 'move 2 of %d' && document.querySelectorAll('#board .sq.last').length === 2`, turns), 5*time.Second); err != nil {
				t.Errorf("stepping through the game: %v", err)
			}
			shot, _ = chromedp.Run(ctx, chromedp.FullScreenshot(100))
			os.WriteFile(filepath.Join(shots, "hub-viewer.png"), shot, 0o644)
		})
	}
}

// poll waits until the JavaScript expression is true, at most d; an
// error while a page loads is one more try.
func poll(ctx context.Context, expr string, d time.Duration) (bool, error) {
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return true, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("not within %v: %s", d, expr)
			}
			return false, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
