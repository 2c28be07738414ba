package web

import (
	"context"
	"flag"
	"net/http"
	"runtime"
	"testing"
	"time"
)

var streamCap = flag.Int("stream-cap", 0, "with -stream-flood: MaxStreams and MaxStreamsPerAddress (0: the defaults; a large number: as if uncapped)")

var streamFlood = flag.Int("stream-flood", 0, "measure: open this many event streams at once (for example 800) and report the server's heap growth; the figure goes in docs/performance.md")

// TestStreamFlood is a measurement, not a check: it opens -stream-flood
// event streams against a server with the default cap (or -stream-cap)
// and reports how
// many were answered 503 and how much the Go heap grew.
func TestStreamFlood(t *testing.T) {
	if *streamFlood == 0 {
		t.Skip("a measurement: run with -stream-flood=800")
	}
	_, s, ts := newTestServer(t, Config{MaxStreams: *streamCap, MaxStreamsPerAddress: *streamCap})
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	before := heap()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: *streamFlood}}
	refused, open := 0, 0
	for range *streamFlood {
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events", nil)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode == http.StatusServiceUnavailable {
			refused++
			res.Body.Close()
		} else {
			open++ // left open until the end
		}
	}
	time.Sleep(200 * time.Millisecond)
	after := heap()
	t.Logf("%d streams asked: %d open (Stats %d), %d refused with 503; heap in use %.1f MB → %.1f MB (client and server share this process)",
		*streamFlood, open, s.Stats().Streams, refused, float64(before)/1e6, float64(after)/1e6)
}
