package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardd/referee"
)

// sseEvent is one parsed Server-Sent Event; comments come as name ":".
type sseEvent struct {
	name, id, data string
}

// openEvents connects to /api/events and delivers its events until the
// stream ends (then the channel closes).
func openEvents(t *testing.T, ctx context.Context, url string, header map[string]string) (<-chan sseEvent, *http.Response) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		res.Body.Close()
		return nil, res
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("events Content-Type %q", ct)
	}
	ch := make(chan sseEvent, 1024)
	go func() {
		defer close(ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" || ev.data != "" {
					if ev.name == "" {
						ev.name = "message"
					}
					ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, ":"):
				ch <- sseEvent{name: ":", data: strings.TrimSpace(line[1:])}
			case strings.HasPrefix(line, "event: "):
				ev.name = line[len("event: "):]
			case strings.HasPrefix(line, "id: "):
				ev.id = line[len("id: "):]
			case strings.HasPrefix(line, "data: "):
				ev.data += line[len("data: "):]
			}
		}
	}()
	return ch, res
}

// next waits for the next event named one of names, skipping others.
func next(t *testing.T, ch <-chan sseEvent, names ...string) sseEvent {
	t.Helper()
	timeout := time.After(3 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended while waiting for %v", names)
			}
			for _, n := range names {
				if ev.name == n {
					return ev
				}
			}
		case <-timeout:
			t.Fatalf("no %v event within 3 s", names)
		}
	}
}

// nextMessages reads n message events and answers their Seqs, checking
// that each event's id is its Seq.
func nextMessages(t *testing.T, ch <-chan sseEvent, n int) []uint64 {
	t.Helper()
	var seqs []uint64
	for range n {
		ev := next(t, ch, "message")
		var m referee.Message
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
			t.Fatalf("message %q: %v", ev.data, err)
		}
		if ev.id != strconv.FormatUint(m.Seq, 10) {
			t.Errorf("message %d has SSE id %q", m.Seq, ev.id)
		}
		seqs = append(seqs, m.Seq)
	}
	return seqs
}

func seqRange(from, to uint64) []uint64 {
	var out []uint64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

func emitN(f *fakeBoard, n int) {
	for i := range n {
		f.Emit(referee.Message{Kind: referee.MsgClock, Text: fmt.Sprintf("tick %d", i)})
	}
}

// noWatchers waits until the server has let go of the board.
func noWatchers(t *testing.T, f *fakeBoard) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		subs, notify := f.Watchers()
		if subs == 0 && notify == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the stream ended the server still holds %d subscriptions and %d Changed channels", subs, notify)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEventsStart(t *testing.T) {
	t.Parallel() // each test has its own Server and board: nothing shared
	for _, tc := range []struct {
		name    string
		backlog int // Config.Backlog
		query   string
		header  map[string]string
		want    []uint64 // messages before the live ones (the fake has 1..5)
		live    []uint64 // of the live 6..8; nil: all
		oldest  uint64   // the fake keeps messages from this one
		gap     bool     // a gap event comes first
	}{
		{name: "from 2", query: "?from=2", want: seqRange(2, 5)},
		{name: "from 0 is everything", query: "?from=0", want: seqRange(1, 5)},
		{name: "from the future", query: "?from=7", live: []uint64{7, 8}},
		{name: "no from: the last few", backlog: 2, want: seqRange(4, 5)},
		{name: "no from, short history", backlog: 50, want: seqRange(1, 5)},
		{name: "no from, fewer kept", backlog: 8, oldest: 3, want: seqRange(3, 5)},               // all it keeps
		{name: "from, fewer kept", query: "?from=3", oldest: 4, gap: true, want: seqRange(4, 5)}, // the gap, then what is kept
		{name: "Last-Event-ID", header: map[string]string{"Last-Event-ID": "3"}, want: seqRange(4, 5)},
		{name: "Last-Event-ID after from", query: "?from=2", header: map[string]string{"Last-Event-ID": "4"}, want: seqRange(5, 5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, _, ts := newTestServer(t, Config{Backlog: tc.backlog})
			emitN(f, 4)
			f.keepFrom(tc.oldest)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			ch, res := openEvents(t, ctx, ts.URL+"/api/events"+tc.query, tc.header)
			if ch == nil {
				t.Fatalf("events: %d", res.StatusCode)
			}
			// The state and the lights come first, at once.
			if ev := next(t, ch, "state", "lights", "message"); ev.name != "state" {
				t.Fatalf("first event %q, want state", ev.name)
			}
			if ev := next(t, ch, "state", "lights", "message"); ev.name != "lights" {
				t.Fatalf("second event %q, want lights", ev.name)
			}
			if tc.gap {
				if ev := next(t, ch, "gap", "message"); ev.name != "gap" {
					t.Errorf("got %s %s, want a gap", ev.name, ev.data)
				}
			}
			got := nextMessages(t, ch, len(tc.want))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("backlog %v, want %v", got, tc.want)
			}
			// Then live ones, in order.
			live := tc.live
			if live == nil {
				live = seqRange(6, 8)
			}
			emitN(f, 3)
			if got := nextMessages(t, ch, len(live)); fmt.Sprint(got) != fmt.Sprint(live) {
				t.Errorf("live messages %v, want %v", got, live)
			}
			cancel()
			noWatchers(t, f)
		})
	}
}

func TestEventsBadFrom(t *testing.T) {
	t.Parallel() // each test has its own Server and board: nothing shared
	_, _, ts := newTestServer(t, Config{})
	_, res := openEvents(t, t.Context(), ts.URL+"/api/events?from=-1", nil)
	if res.StatusCode != 400 {
		t.Errorf("from=-1: %d, want 400", res.StatusCode)
	}
}

func TestEventsStateAfterChange(t *testing.T) {
	f, _, ts := newTestServer(t, Config{})
	ch, _ := openEvents(t, t.Context(), ts.URL+"/api/events", nil)
	var st referee.State
	json.Unmarshal([]byte(next(t, ch, "state").data), &st)
	if st.Pieces["h2"] != "rP" || st.Turn != "Red" {
		t.Fatalf("first state: h2=%q turn=%s", st.Pieces["h2"], st.Turn)
	}
	f.play("h2", "h4", "h2-h4")
	st = referee.State{}
	json.Unmarshal([]byte(next(t, ch, "state").data), &st)
	if st.Pieces["h4"] != "rP" || st.Pieces["h2"] != "" || st.Turn != "Blue" || len(st.Moves) != 1 || st.Seq != 2 {
		t.Errorf("state after h2-h4: h4=%q h2=%q turn=%s moves=%v seq=%d", st.Pieces["h4"], st.Pieces["h2"], st.Turn, st.Moves, st.Seq)
	}
	f.SetLights(map[string]string{"b7": "#ffffff"})
	var li referee.Lights
	json.Unmarshal([]byte(next(t, ch, "lights").data), &li)
	if li.Squares["b7"] != "#ffffff" || len(li.Squares) != 1 {
		t.Errorf("lights after the change: %v", li.Squares)
	}
}

func TestEventsCoalesce(t *testing.T) {
	f, _, ts := newTestServer(t, Config{})
	ch, _ := openEvents(t, t.Context(), ts.URL+"/api/events", nil)
	next(t, ch, "state")
	const n = 200
	start := time.Now()
	for i := range n {
		f.Update(func(st *referee.State) { st.Lifted = strconv.Itoa(i) })
	}
	burst := time.Since(start)
	// Read state events until the last edit shows.
	states := 0
	for {
		var st referee.State
		json.Unmarshal([]byte(next(t, ch, "state").data), &st)
		states++
		if st.Lifted == strconv.Itoa(n-1) {
			break
		}
	}
	if limit := 2 + int(burst/defaultTiming.coalesce); states > limit {
		t.Errorf("%d changes in %v gave %d state events, want at most %d (one per %v)", n, burst, states, limit, defaultTiming.coalesce)
	}
	// Nothing changed since: a signal alone sends no repeat.
	f.Signal()
	select {
	case ev := <-ch:
		if ev.name == "state" || ev.name == "lights" {
			t.Errorf("an unchanged state was sent again: %s", ev.name)
		}
	case <-time.After(3 * defaultTiming.coalesce):
	}
}

func TestEventsResubscribe(t *testing.T) {
	t.Parallel() // each test has its own Server and board: nothing shared
	f, _, ts := newTestServer(t, Config{})
	emitN(f, 2) // 1..3
	ch, _ := openEvents(t, t.Context(), ts.URL+"/api/events?from=1", nil)
	if got := nextMessages(t, ch, 3); fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("backlog %v", got)
	}
	// The board drops the subscriber as if it had fallen behind; messages
	// 4 and 5 reach only the kept list.
	f.DropSubscribers()
	emitN(f, 2)
	if got := nextMessages(t, ch, 2); fmt.Sprint(got) != "[4 5]" {
		t.Errorf("after the live channel closed: %v, want [4 5]", got)
	}
	emitN(f, 1)
	if got := nextMessages(t, ch, 1); fmt.Sprint(got) != "[6]" {
		t.Errorf("live after resubscribing: %v, want [6]", got)
	}
	if froms := f.SubscribeFroms(); fmt.Sprint(froms) != "[1 4]" {
		t.Errorf("Subscribe calls from %v, want [1 4] (the second from the last seen + 1)", froms)
	}
	if subs, _ := f.Watchers(); subs != 1 {
		t.Errorf("%d subscriptions open, want 1", subs)
	}
}

func TestEventsFallBehindForReal(t *testing.T) {
	t.Parallel() // each test has its own Server and board: nothing shared
	f, _, ts := newTestServer(t, Config{})
	f.SetBuffer(1) // the smallest buffer: bursts overflow it
	ch, _ := openEvents(t, t.Context(), ts.URL+"/api/events?from=1", nil)
	nextMessages(t, ch, 1)
	const n = 300
	emitN(f, n)
	if got := nextMessages(t, ch, n); fmt.Sprint(got) != fmt.Sprint(seqRange(2, n+1)) {
		t.Errorf("a burst of %d through a 1-message buffer: got %v", n, got)
	}
}

func TestEventsGap(t *testing.T) {
	t.Parallel() // each test has its own Server and board: nothing shared
	f, _, ts := newTestServer(t, Config{})
	emitN(f, 9)   // 1..10
	f.keepFrom(6) // 1..5 are no longer kept
	ch, _ := openEvents(t, t.Context(), ts.URL+"/api/events?from=3", nil)
	ev := next(t, ch, "gap", "message")
	var g gap
	if err := json.Unmarshal([]byte(ev.data), &g); ev.name != "gap" || err != nil || g.From != 3 || !strings.Contains(g.Error, "no longer kept") {
		t.Fatalf("first event %s %s, want a gap from 3", ev.name, ev.data)
	}
	// Issue 28: the messages still kept follow the gap (they were
	// skipped), then the live ones.
	if got := nextMessages(t, ch, 5); fmt.Sprint(got) != "[6 7 8 9 10]" {
		t.Errorf("after the gap: %v, want the kept [6 7 8 9 10]", got)
	}
	emitN(f, 1)
	if got := nextMessages(t, ch, 1); fmt.Sprint(got) != "[11]" {
		t.Errorf("after the gap: %v, want the live [11]", got)
	}
	// Falling behind past what is kept: another gap, what is kept, then
	// live again.
	f.fallBehind(4, 14) // 12..15 reach nobody live; 12 and 13 are forgotten
	if ev := next(t, ch, "gap", "message"); ev.name != "gap" || !strings.Contains(ev.data, `"from":12`) {
		t.Errorf("after falling behind too far: %s %s, want a gap from 12", ev.name, ev.data)
	}
	emitN(f, 1)
	if got := nextMessages(t, ch, 3); fmt.Sprint(got) != "[14 15 16]" {
		t.Errorf("after the second gap: %v, want [14 15 16]", got)
	}
}

func TestEventsHeartbeat(t *testing.T) {
	t.Parallel() // each test has its own Server and board: nothing shared
	_, _, ts := newTunedServer(t, Config{}, func(s *Server) { s.timing.heartbeat = 20 * time.Millisecond })
	ch, _ := openEvents(t, t.Context(), ts.URL+"/api/events", nil)
	if ev := next(t, ch, ":"); ev.data != "ping" {
		t.Errorf("heartbeat comment %q", ev.data)
	}
}

// Open event streams are capped: past MaxStreams a new one gets 503 with
// Retry-After, and a closed one makes room.
func TestEventsCapped(t *testing.T) {
	_, _, ts := newTestServer(t, Config{MaxStreams: 3})
	var cancels []context.CancelFunc
	for i := range 3 {
		ctx, cancel := context.WithCancel(t.Context())
		cancels = append(cancels, cancel)
		ch, res := openEvents(t, ctx, ts.URL+"/api/events", nil)
		if res.StatusCode != 200 {
			t.Fatalf("stream %d: %d", i+1, res.StatusCode)
		}
		next(t, ch, "state")
	}
	_, res := openEvents(t, t.Context(), ts.URL+"/api/events", nil)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a 4th stream with a cap of 3: %d (Retry-After %q), want 503 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	cancels[0]()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ctx, cancel := context.WithCancel(t.Context())
		ch, res := openEvents(t, ctx, ts.URL+"/api/events", nil)
		if res.StatusCode == 200 {
			next(t, ch, "state")
			cancel()
			break
		}
		cancel()
		if time.Now().After(deadline) {
			t.Fatalf("a closed stream did not make room: %d", res.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, c := range cancels[1:] {
		c()
	}
}

func TestEventsEnd(t *testing.T) {
	t.Run("client disconnects", func(t *testing.T) {
		f, _, ts := newTestServer(t, Config{})
		ctx, cancel := context.WithCancel(t.Context())
		ch, _ := openEvents(t, ctx, ts.URL+"/api/events", nil)
		next(t, ch, "state")
		if subs, notify := f.Watchers(); subs != 1 || notify != 1 {
			t.Fatalf("open stream holds %d subscriptions, %d Changed channels; want 1, 1", subs, notify)
		}
		cancel()
		noWatchers(t, f)
	})
	t.Run("server closes", func(t *testing.T) {
		f, s, ts := newTestServer(t, Config{})
		ch, _ := openEvents(t, t.Context(), ts.URL+"/api/events", nil)
		next(t, ch, "state")
		s.Close()
		deadline := time.After(3 * time.Second)
		for open := true; open; {
			select {
			case _, open = <-ch:
			case <-deadline:
				t.Fatal("the stream stayed open after Close")
			}
		}
		noWatchers(t, f)
		if _, res := openEvents(t, t.Context(), ts.URL+"/api/events", nil); res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a new stream after Close: %d, want 503", res.StatusCode)
		}
	})
}
