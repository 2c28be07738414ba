package botseat

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boardd/engine"
	"boardd/rules"
	"boardd/sensors"
)

var scanLatency = flag.Duration("scanlatency", 0, "measure the switch scanner's change-to-event latency for this long, with and without the bot searching (e.g. 60s)")

// flipSource is a switch source whose switches a test flips: Read
// copies the current frame, as a driver's read of the chain would.
type flipSource struct {
	bits int
	mu   sync.Mutex
	f    sensors.Frame
}

func (s *flipSource) Bits() int { return s.bits }

func (s *flipSource) Read(f *sensors.Frame) error {
	s.mu.Lock()
	*f = s.f
	s.mu.Unlock()
	return nil
}

// latencies runs the scanner at its default 200 Hz and 4-scan debounce
// on a standard board for d, flipping a random switch every 30-60 ms,
// and returns, for each flip, the time from the flip to the scanner's
// event for it (the debounce alone takes 15-20 ms); lost counts flips
// that never got their event.
func latencies(t *testing.T, d time.Duration) (lat []time.Duration, lost int) {
	t.Helper()
	m := sensors.StandardMap()
	src := &flipSource{bits: m.Bits()}
	type flip struct {
		at  time.Time
		sq  int
		got atomic.Int64 // the event's arrival, ns since at; 0: none yet
	}
	var mu sync.Mutex
	pending := map[int]*flip{} // bit → its flip waiting for the event
	var flips []*flip
	sc, err := sensors.NewScanner(src, m, sensors.Config{OnEvent: func(e sensors.Event) {
		now := time.Now()
		mu.Lock()
		defer mu.Unlock()
		if f := pending[m.Bit(e.Square)]; f != nil {
			f.got.Store(int64(now.Sub(f.at)) + 1)
			delete(pending, m.Bit(e.Square))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sc.Run(ctx) }()
	for sc.Scans() == 0 { // the first scan takes the board as it is, without events
		time.Sleep(time.Millisecond)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		b := rng.IntN(m.Bits())
		mu.Lock()
		if pending[b] != nil { // still debouncing the last flip of it
			mu.Unlock()
			continue
		}
		src.mu.Lock()
		src.f.Set(b, !src.f.Bit(b))
		f := &flip{at: time.Now(), sq: b}
		src.mu.Unlock()
		pending[b] = f
		flips = append(flips, f)
		mu.Unlock()
		time.Sleep(30*time.Millisecond + time.Duration(rng.IntN(30))*time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the last flips' debounce
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, f := range flips {
		if g := f.got.Load(); g > 0 {
			lat = append(lat, time.Duration(g-1))
		} else {
			lost++
		}
	}
	return lat, lost
}

// TestScanLatencyWhileTheBotThinks measures what issue 33 asks: the
// board must not slow down while its bot searches. The scanner runs as
// the daemon runs it (its own goroutine, 200 Hz, 4-scan debounce), once
// alone and once while the bot searches without pause on its own thread
// at the default niceness (bot.nice 10), as a bot seat does; every flip
// of a switch must give its event in both, and the latencies are
// reported (go test ./sync/botseat -run ScanLatency -v -args
// -scanlatency=60s; figures in docs/performance.md).
func TestScanLatencyWhileTheBotThinks(t *testing.T) {
	if *scanLatency <= 0 {
		t.Skip("a measurement: -args -scanlatency=60s")
	}
	report := func(name string, lat []time.Duration, lost int) {
		if lost > 0 || len(lat) == 0 {
			t.Errorf("%s: %d of %d flips got no event", name, lost, len(lat)+lost)
			return
		}
		slices.Sort(lat)
		q := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
		t.Logf("%-28s %5d flips, change to event: min %5.1f ms, p50 %5.1f ms, p99 %5.1f ms, max %5.1f ms (GOMAXPROCS %d)",
			name, len(lat), ms(lat[0]), ms(q(0.5)), ms(q(0.99)), ms(lat[len(lat)-1]), runtime.GOMAXPROCS(0))
	}
	lat, lost := latencies(t, *scanLatency/2)
	report("alone", lat, lost)

	// The bot: level 5, one search after another on an opened position, on a thread of its own at niceness 10 (think, as a bot
	// seat's search runs).
	g, err := rules.NewGame(mustVariant(t, "teams"), "")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 24 { // six moves a seat, chosen at random: an opened position
		legal := g.LegalMoves()
		if _, err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	var searches atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		lowerPriority(10) // locks the goroutine to its thread
		e := engine.New(engine.Options{Level: 5, MoveTime: 5 * time.Second, HashMB: 64})
		for ctx.Err() == nil {
			if _, err := e.Think(ctx, g.Clone()); err != nil && ctx.Err() == nil {
				t.Errorf("the bot's search: %v", err)
				return
			}
			searches.Add(1)
		}
	})
	lat, lost = latencies(t, *scanLatency/2)
	stop()
	wg.Wait()
	report(fmt.Sprintf("while the bot searches (%d searches)", searches.Load()), lat, lost)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mustVariant(t *testing.T, name string) *rules.Variant {
	t.Helper()
	v, err := rules.NewVariant(name, "")
	if err != nil {
		t.Fatal(err)
	}
	return v
}
