package hubtest

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/referee"
)

// The load tests' measuring (issue 31's hub and issue 32's league):
// viewers following hubs' GET /api/live, boards playing a real game at a
// pace, what the viewers saw, each process's CPU and memory.

// MsgKey names a message: its board and seq.
type MsgKey struct {
	Board string
	Seq   uint64
}

// Figures are what a load test's viewers saw.
type Figures struct {
	viewers   int
	mu        sync.Mutex
	delivered []time.Duration // every delivery of a move: from the board's message to a viewer having it
	perMsg    map[MsgKey][]time.Duration
	moves     map[MsgKey]bool // the messages that are moves
	dups      int             // a message a viewer had already
	skips     int             // a number jumped: the stream left one out
	reconnect int
	wait      sync.WaitGroup
}

// got notes a delivery. Only moves count toward the latency: a board's
// first message (its game's start) is made before its mirror connects,
// and waits for it.
func (f *Figures) got(k MsgKey, move bool, d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if move {
		f.delivered = append(f.delivered, d)
		f.moves[k] = true
	}
	f.perMsg[k] = append(f.perMsg[k], d)
}

// Follow starts n viewers, the i-th following urls[i%len(urls)] (a
// hub's /api/live), each reconnecting with Last-Event-ID when its stream
// ends, until ctx ends; it returns when every viewer has tried its first
// connection. Done waits for them after ctx ends.
func Follow(ctx context.Context, urls []string, n int) *Figures {
	f := &Figures{viewers: n, perMsg: map[MsgKey][]time.Duration{}, moves: map[MsgKey]bool{}}
	var connected sync.WaitGroup
	for i := range n {
		f.wait.Add(1)
		connected.Add(1)
		go func() {
			defer f.wait.Done()
			f.view(ctx, urls[i%len(urls)], connected.Done)
		}()
	}
	connected.Wait()
	return f
}

// Done waits for the viewers to end (after Follow's ctx ended).
func (f *Figures) Done() { f.wait.Wait() }

// view is one viewer of url; connected is called after its first try.
func (f *Figures) view(ctx context.Context, url string, connected func()) {
	last, first := uint64(0), true
	for ctx.Err() == nil {
		id := ""
		if last > 0 {
			id = strconv.FormatUint(last, 10)
		}
		evs, err := Events(ctx, url, id)
		if first {
			first = false
			connected()
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
				f.got(MsgKey{m.Board, m.Seq}, m.Kind == "move", now.Sub(m.Time))
			}
		}
		if ctx.Err() == nil {
			f.mu.Lock()
			f.reconnect++
			f.mu.Unlock()
		}
	}
}

// LoadBoard is a board of a load test: its name and the running board.
type LoadBoard struct {
	Name string
	Live *referee.Live
}

// PlayAll has every board play moves, one every pace, the boards' moves
// spread over the pace, and returns the first board's error.
func PlayAll(ctx context.Context, boards []LoadBoard, moves []string, pace time.Duration) error {
	var wg sync.WaitGroup
	errs := make([]error, len(boards))
	for i, b := range boards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * pace / time.Duration(len(boards)))
			next := time.Now()
			for _, mv := range moves {
				pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				err := Move(pctx, b.Live, mv)
				cancel()
				if err != nil {
					errs[i] = fmt.Errorf("%s: %v", b.Name, err)
					return
				}
				next = next.Add(pace)
				time.Sleep(time.Until(next))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// expected is every message the boards made.
func expected(boards []LoadBoard) map[MsgKey]bool {
	out := map[MsgKey]bool{}
	for _, b := range boards {
		for s := uint64(1); s <= b.Live.State().Seq; s++ {
			out[MsgKey{b.Name, s}] = true
		}
	}
	return out
}

// Wait waits until every viewer has every message of the boards, limit
// at most.
func (f *Figures) Wait(boards []LoadBoard, limit time.Duration) {
	want := expected(boards)
	deadline := time.Now().Add(limit)
	for {
		f.mu.Lock()
		done := 0
		for k := range want {
			if len(f.perMsg[k]) >= f.viewers {
				done++
			}
		}
		f.mu.Unlock()
		if done == len(want) || time.Now().After(deadline) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Result is a load test's outcome.
type Result struct {
	Messages, Deliveries         int
	ViewerP50, ViewerP99         time.Duration // a viewer has a move
	EveryP50, EveryP99, EveryMax time.Duration // every viewer has it
	Lost, Twice, Skipped         int
	Reconnects                   int
}

// Result sums up what the viewers saw of the boards' messages.
func (f *Figures) Result(boards []LoadBoard) Result {
	want := expected(boards)
	f.mu.Lock()
	defer f.mu.Unlock()
	r := Result{Messages: len(want), Deliveries: len(f.delivered), Twice: f.dups, Skipped: f.skips, Reconnects: f.reconnect}
	var everyViewer []time.Duration
	for k := range want {
		got := f.perMsg[k]
		r.Lost += f.viewers - len(got)
		if len(got) == f.viewers && f.moves[k] {
			everyViewer = append(everyViewer, slices.Max(got))
		}
	}
	r.ViewerP50, r.ViewerP99 = percentile(f.delivered, .5), percentile(f.delivered, .99)
	r.EveryP50, r.EveryP99 = percentile(everyViewer, .5), percentile(everyViewer, .99)
	r.EveryMax = slices.Max(append(everyViewer, 0))
	return r
}

func (r Result) String() string {
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	return fmt.Sprintf("%d messages, %d deliveries of moves; a viewer has a move after p50 %v, p99 %v; every viewer has it after p50 %v, p99 %v (max %v); lost %d, twice %d, skipped %d, reconnects %d",
		r.Messages, r.Deliveries, ms(r.ViewerP50), ms(r.ViewerP99), ms(r.EveryP50), ms(r.EveryP99), ms(r.EveryMax), r.Lost, r.Twice, r.Skipped, r.Reconnects)
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// Usage is a process's (or a group's, summed) CPU time (user + system)
// and resident memory in KiB: its peak (VmHWM) and now (VmRSS).
type Usage struct {
	CPU             time.Duration
	PeakKiB, RSSKiB int
}

// ProcUsage reads the processes' usage from /proc, summed. Memory
// shared between processes (PostgreSQL's shared buffers) counts in each.
func ProcUsage(pids ...int) (Usage, error) {
	var u Usage
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return u, err
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		ut, _ := strconv.ParseInt(fields[11], 10, 64) // utime: field 14 of stat
		st, _ := strconv.ParseInt(fields[12], 10, 64)
		u.CPU += time.Duration(ut+st) * time.Second / 100 // USER_HZ
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return u, err
		}
		for _, l := range strings.Split(string(status), "\n") {
			kib := func(prefix string) (int, bool) {
				v, ok := strings.CutPrefix(l, prefix)
				n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
				return n, ok
			}
			if n, ok := kib("VmHWM:"); ok {
				u.PeakKiB += n
			}
			if n, ok := kib("VmRSS:"); ok {
				u.RSSKiB += n
			}
		}
	}
	return u, nil
}

// WithChildren is pid and its children (a PostgreSQL postmaster and its
// backends), as they run now.
func WithChildren(pid int) []int {
	out := []int{pid}
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// LoadAvg is the machine's load average over 1, 5 and 15 minutes.
func LoadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// LoadFlags are a load test's settings, as command-line flags.
type LoadFlags struct {
	// Boards is how many boards play (0: the test is skipped).
	Boards *int
	// Viewers is how many viewers follow every board.
	Viewers *int
	// Pace is a board's time between two moves.
	Pace *time.Duration
	// Moves is how many moves each board plays of a real Teams game.
	Moves *int
}

// NewLoadFlags registers the flags PREFIX.boards, .viewers, .pace and
// .moves for the test named test (its flags' help says so).
func NewLoadFlags(prefix, test string) LoadFlags {
	return LoadFlags{
		Boards:  flag.Int(prefix+".boards", 0, test+": simulated boards playing (0: the test is skipped)"),
		Viewers: flag.Int(prefix+".viewers", 50, test+": viewers following every board on GET /api/live"),
		Pace:    flag.Duration(prefix+".pace", time.Second, test+": a board's time between two moves (a player's half minute, sped up)"),
		Moves:   flag.Int(prefix+".moves", 40, test+": the moves each board plays of a real Teams game"),
	}
}

// Game skips t unless the boards' flag is given (run: the command that
// runs the test, for the skip's message), and returns the moves each
// board plays: the first *Moves of chess.com game 26780486
// (testdata/games/teams/, read from a package three levels below the
// repository's root, as app/hub/server).
func (l LoadFlags) Game(t *testing.T, run string) []string {
	t.Helper()
	if *l.Boards <= 0 {
		t.Skip("a load test, off unless asked for: " + run)
	}
	moves, err := GameMoves("../../../testdata/games/teams/4pchess-26780486.pgn4")
	if err != nil {
		t.Fatal(err)
	}
	return moves[:min(len(moves), *l.Moves)]
}
