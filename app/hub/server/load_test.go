package server_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/referee"
)

// The load test (issue 31's measurement): a hub process, N real boards
// playing a real game into it over MQTT, M viewers following every board
// on GET /api/live. Off unless -hubload.boards is given:
//
//	go test ./app/hub/server -run HubLoad -v -hubload.boards 20 -hubload.viewers 200
var (
	loadBoards  = flag.Int("hubload.boards", 0, "TestHubLoad: simulated boards playing into a hub process (0: the test is skipped); the issue's run: 20")
	loadViewers = flag.Int("hubload.viewers", 50, "TestHubLoad: viewers following every board on GET /api/live")
	loadPace    = flag.Duration("hubload.pace", time.Second, "TestHubLoad: a board's time between two moves (a player's half minute, sped up)")
	loadMoves   = flag.Int("hubload.moves", 40, "TestHubLoad: the moves each board plays of a real Teams game")
)

// msgKey names a message: its board and seq.
type msgKey struct {
	board string
	seq   uint64
}

// loadFigures are what the viewers saw.
type loadFigures struct {
	mu        sync.Mutex
	delivered []time.Duration // every delivery of a move: from the board's message to a viewer having it
	perMsg    map[msgKey][]time.Duration
	moves     map[msgKey]bool // the messages that are moves
	dups      int             // a message a viewer had already
	skips     int             // a number jumped: the stream left one out
	reconnect int
}

// got notes a delivery. Only moves count toward the latency: a board's
// first message (its game's start) is made before its mirror connects,
// and waits for it.
func (f *loadFigures) got(k msgKey, move bool, d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if move {
		f.delivered = append(f.delivered, d)
		f.moves[k] = true
	}
	f.perMsg[k] = append(f.perMsg[k], d)
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// procTimes reads a process's CPU time (user + system) and its peak and
// current resident memory (KiB).
func procTimes(t *testing.T, pid int) (cpu time.Duration, peakKiB, rssKiB int) {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	ut, _ := strconv.ParseInt(fields[11], 10, 64) // utime: field 14 of stat
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	cpu = time.Duration(ut+st) * time.Second / 100 // USER_HZ
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(status), "\n") {
		kib := func(prefix string) (int, bool) {
			v, ok := strings.CutPrefix(l, prefix)
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n, ok
		}
		if n, ok := kib("VmHWM:"); ok {
			peakKiB = n
		}
		if n, ok := kib("VmRSS:"); ok {
			rssKiB = n
		}
	}
	return
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestHubLoad(t *testing.T) {
	if *loadBoards <= 0 {
		t.Skip("the load test: go test ./app/hub/server -run HubLoad -v -hubload.boards 20 -hubload.viewers 200")
	}
	moves, err := hubtest.GameMoves("../../../testdata/games/teams/4pchess-26780486.pgn4")
	if err != nil {
		t.Fatal(err)
	}
	moves = moves[:min(len(moves), *loadMoves)]
	loadBefore := loadAvg()
	mqttAddr, webAddr := freePort(t), freePort(t)
	join, _, pid := hubProcessWeb(t, t.TempDir(), mqttAddr, webAddr)
	pw := strings.TrimPrefix(strings.Split(join, "@")[0], "mqtt://board:")
	base := "http://" + webAddr

	// The viewers, all following before the first move.
	f := &loadFigures{perMsg: map[msgKey][]time.Duration{}, moves: map[msgKey]bool{}}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var viewers sync.WaitGroup
	var connected sync.WaitGroup
	for range *loadViewers {
		viewers.Add(1)
		connected.Add(1)
		go func() {
			defer viewers.Done()
			last, first := uint64(0), true
			for ctx.Err() == nil {
				id := ""
				if last > 0 {
					id = strconv.FormatUint(last, 10)
				}
				evs, err := hubtest.Events(ctx, base+"/api/live", id)
				if first {
					first = false
					connected.Done()
				}
				if err != nil {
					f.mu.Lock()
					f.reconnect++
					f.mu.Unlock()
					time.Sleep(200 * time.Millisecond)
					continue
				}
				for ev := range evs {
					if ev.Name != "message" {
						continue
					}
					now := time.Now()
					n, _ := strconv.ParseUint(ev.ID, 10, 64)
					var m struct {
						Board, Kind string
						Seq         uint64
						Time        time.Time
					}
					json.Unmarshal([]byte(ev.Data), &m)
					f.mu.Lock()
					switch {
					case n <= last:
						f.dups++
					case n != last+1:
						f.skips++
					}
					f.mu.Unlock()
					if n > last {
						last = n
						f.got(msgKey{m.Board, m.Seq}, m.Kind == "move", now.Sub(m.Time))
					}
				}
				if ctx.Err() == nil {
					f.mu.Lock()
					f.reconnect++
					f.mu.Unlock()
				}
			}
		}()
	}
	connected.Wait()
	cpu0, _, _ := procTimes(t, pid)
	start := time.Now()

	// The boards: each plays the game's moves at its pace, the boards'
	// moves spread over the pace.
	var boards sync.WaitGroup
	lives := make([]*hubtestBoard, *loadBoards)
	for i := range lives {
		name := fmt.Sprintf("load-%02d", i+1)
		lives[i] = &hubtestBoard{name: name, live: hubtest.Start(t, hubtest.Board{Broker: "tcp://" + mqttAddr, User: server.BoardUser, Password: pw, Name: name})}
	}
	for i, b := range lives {
		boards.Add(1)
		go func() {
			defer boards.Done()
			time.Sleep(time.Duration(i) * *loadPace / time.Duration(len(lives)))
			next := time.Now()
			for _, mv := range moves {
				pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				err := hubtest.PlayOne(pctx, b.live, mv)
				cancel()
				if err != nil {
					t.Errorf("%s: %v", b.name, err)
					return
				}
				next = next.Add(*loadPace)
				time.Sleep(time.Until(next))
			}
		}()
	}
	boards.Wait()
	played := time.Since(start)
	expected := map[msgKey]bool{}
	for _, b := range lives {
		for s := uint64(1); s <= b.live.State().Seq; s++ {
			expected[msgKey{b.name, s}] = true
		}
	}
	// Every viewer should have every message: wait for it (30 s at most).
	deadline := time.Now().Add(30 * time.Second)
	for {
		f.mu.Lock()
		done := 0
		for k := range expected {
			if len(f.perMsg[k]) >= *loadViewers {
				done++
			}
		}
		f.mu.Unlock()
		if done == len(expected) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	cpu1, peak, rss := procTimes(t, pid)
	wall := time.Since(start)
	stop()
	viewers.Wait()

	f.mu.Lock()
	defer f.mu.Unlock()
	lost := 0
	var everyViewer []time.Duration
	for k := range expected {
		got := f.perMsg[k]
		lost += *loadViewers - len(got)
		if len(got) == *loadViewers && f.moves[k] {
			everyViewer = append(everyViewer, slices.Max(got))
		}
	}
	summary := fmt.Sprintf("%d boards × %d viewers: %d messages (%d moves a board, one every %v; %v of play), %d deliveries of moves; "+
		"a viewer has a move after p50 %v, p99 %v; every viewer has it after p50 %v, p99 %v (max %v); lost %d, twice %d, skipped %d, reconnects %d; "+
		"hub process: CPU %.2f s in %.1f s (%.0f %% of one core), peak RSS %d MB, RSS at the end %d MB; load average before %s, after %s",
		*loadBoards, *loadViewers, len(expected), len(moves), *loadPace, played.Round(time.Second), len(f.delivered),
		percentile(f.delivered, .5).Round(time.Millisecond), percentile(f.delivered, .99).Round(time.Millisecond),
		percentile(everyViewer, .5).Round(time.Millisecond), percentile(everyViewer, .99).Round(time.Millisecond), slices.Max(append(everyViewer, 0)).Round(time.Millisecond),
		lost, f.dups, f.skips, f.reconnect,
		(cpu1 - cpu0).Seconds(), wall.Seconds(), 100*(cpu1-cpu0).Seconds()/wall.Seconds(), peak/1024, rss/1024, loadBefore, loadAvg())
	t.Log(summary)
	if lost > 0 || f.skips > 0 {
		t.Errorf("messages lost: %d (skipped numbers %d)", lost, f.skips)
	}
}

// hubtestBoard is one board of the load test.
type hubtestBoard struct {
	name string
	live *referee.Live
}
