package mqtt

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/referee"
)

// Every message of a run of 200 reaches a subscriber once, in order, with
// no gap, on both brokers, including when the Mirror's subscription to the
// board overflows and has to be renewed.
func TestEventsInOrder(t *testing.T) {
	for _, bk := range brokers() {
		t.Run(bk.name, func(t *testing.T) {
			b := bk.new(t)
			board := newFakeBoard("b1")
			board.SetBuffer(4) // the Mirror falls behind and resubscribes
			c := newConsumer(t, b.url(), "b1", consumerOpts{})
			m := startMirror(t, b.url(), board, "b1")
			for i := 0; i < 10; i++ {
				board.moves(20)
				time.Sleep(time.Millisecond)
			}
			c.waitSeq(200)
			time.Sleep(50 * time.Millisecond) // a duplicate would arrive by now
			raw, _, _ := c.snapshot()
			if !slices.Equal(raw, seqRange(1, 200)) {
				t.Fatalf("events arrived as %v, want 1…200 once each in order", raw)
			}
			s := waitStats(t, m, "all acknowledged", func(s Stats) bool { return s.Queue == 0 })
			if s.Acked != 200 || s.Latest != 200 || s.Published != 200 || !s.Connected || s.Reconnects != 0 {
				t.Errorf("stats %+v, want 200 acknowledged and published, connected, no reconnect", s)
			}
			if calls := board.SubscribeFroms(); len(calls) < 2 || calls[0] != 1 {
				t.Errorf("Subscribe calls %v: want from 1 and at least one resubscription after overflow", calls)
			}
		})
	}
}

// A subscriber that connects late finds the status, the state and the
// lights retained; the state follows changes that are not messages; after
// Close the status is "offline".
func TestRetainedForLateSubscriber(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	m := startMirror(t, b.url(), board, "b1")
	board.moves(10)
	waitStats(t, m, "10 acknowledged", func(s Stats) bool { return s.Acked == 10 })

	late := newConsumer(t, b.url(), "b1", consumerOpts{user: readerUser, next: 11})
	late.waitUntil("state of seq 10", func() bool { return late.state.Seq == 10 && late.status == StatusOnline })
	if late.state.Board != "b1" || late.state.Status != "playing" || late.state.Pieces["h1"] != "rK" {
		t.Errorf("retained state %+v", late.state)
	}

	board.setStatus("correction") // no message, but the state changed
	late.waitUntil("state in correction", func() bool { return late.state.Status == "correction" })

	board.setLight("h3", "#00ff00")
	late.waitUntil("h3 lit", func() bool { return late.lights.Squares["h3"] == "#00ff00" })

	m.Close()
	after := newConsumer(t, b.url(), "b1", consumerOpts{user: readerUser, next: 11})
	after.waitUntil("status offline", func() bool { return after.status == StatusOffline })
}

// State changes are coalesced: a burst of 50 changes costs a few
// publications, not 50, and the last one carries the final state.
func TestStateCoalesced(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	c := newConsumer(t, b.url(), "b1", consumerOpts{})
	startMirror(t, b.url(), board, "b1")
	c.waitUntil("first state", func() bool { return c.states >= 1 })
	c.mu.Lock()
	before := c.states
	c.mu.Unlock()
	for i := 0; i < 50; i++ {
		board.setLight("h3", "#0000"+string("0123456789abcdef"[i%16])+"0")
		board.moves(1)
	}
	c.waitUntil("state at 50", func() bool { return c.state.Seq == 50 })
	time.Sleep(300 * time.Millisecond)
	c.mu.Lock()
	n := c.states - before
	c.mu.Unlock()
	if n > 10 {
		t.Errorf("%d state publications for a burst of 50 changes; want them coalesced", n)
	}
}

// The broker goes away in the middle of the stream and a new one starts on
// the same address. First deterministically (the Mirror comes back only
// after the subscriber is in place): the subscriber sees every message once,
// in order, without asking for a replay, and the Mirror's will said
// "offline" meanwhile. Then with the broker killed while messages flow: a
// subscriber that asks for replays when Seq jumps ends with every message
// in order. Both times the retained state is republished on the new broker.
func TestBrokerRestart(t *testing.T) {
	for _, bk := range brokers() {
		t.Run(bk.name, func(t *testing.T) {
			b := bk.new(t)
			upstream := strings.TrimPrefix(b.url(), "tcp://")
			g := newGate(t, upstream)
			board := newFakeBoard("b1")
			c := newConsumer(t, b.url(), "b1", consumerOpts{replay: true})
			m := startMirror(t, g.url(), board, "b1")

			board.moves(100)
			c.waitSeq(100)
			g.set(false) // the Mirror loses its connection; its will fires
			c.waitUntil("will: offline", func() bool { return c.status == StatusOffline })
			c.mu.Lock()
			subscriptions := c.connects
			c.mu.Unlock()
			b.stop()
			board.moves(100) // queued while no broker is there
			b.start()
			// Wait for the subscriber's new subscription (not a signal left
			// over from its first one) before the Mirror may come back.
			c.waitUntil("the subscriber back on the new broker", func() bool { return c.connects > subscriptions })
			g.set(true)
			c.waitSeq(200)
			c.waitUntil("status online", func() bool { return c.status == StatusOnline })
			raw, got, replays := c.snapshot()
			if replays != 0 || !slices.Equal(got, seqRange(1, 200)) {
				t.Fatalf("after a gated restart: replays %d, accepted %v", replays, got)
			}
			// At most the message in flight when the connection was cut comes
			// twice, right after itself.
			if dedup := slices.Compact(raw); !slices.Equal(dedup, seqRange(1, 200)) || len(raw)-len(dedup) > 1 {
				t.Fatalf("after a gated restart events arrived as %v", raw)
			}
			late := newConsumer(t, b.url(), "b1", consumerOpts{user: readerUser, next: 201})
			late.waitUntil("retained state of 200 on the new broker", func() bool { return late.state.Seq == 200 })

			// Killed while messages flow.
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 200; i++ {
					board.moves(1)
					time.Sleep(time.Millisecond)
				}
			}()
			c.waitSeq(230)
			b.stop()
			time.Sleep(200 * time.Millisecond)
			b.start()
			wg.Wait()
			c.waitSeq(400)
			_, got, replays = c.snapshot()
			if !slices.Equal(got, seqRange(1, 400)) {
				t.Fatalf("after a restart mid-stream: accepted %v", got)
			}
			s := waitStats(t, m, "queue empty", func(s Stats) bool { return s.Queue == 0 && s.Acked == 400 })
			if s.Reconnects < 2 {
				t.Errorf("stats %+v: want at least 2 reconnects", s)
			}
			t.Logf("mid-stream restart: %d replay requests, stats %+v", replays, s)
			late2 := newConsumer(t, b.url(), "b1", consumerOpts{user: readerUser, next: 401})
			late2.waitUntil("retained state of 400", func() bool { return late2.state.Seq == 400 })
		})
	}
}

// Two boards on one broker: each board's subscribers see only that board,
// and a command to one board never reaches the other.
func TestBoardsIsolated(t *testing.T) {
	b := newEmbedded(t)
	one, two := newFakeBoard("b1"), newFakeBoard("b2")
	c2 := newConsumer(t, b.url(), "b2", consumerOpts{filter: DefaultPrefix + "/b2/#"})
	startMirror(t, b.url(), one, "b1")
	startMirror(t, b.url(), two, "b2")
	c1 := newConsumer(t, b.url(), "b1", consumerOpts{})
	one.moves(30)
	two.moves(3)
	c1.waitSeq(30)
	c2.waitSeq(3)
	c1.command("resign", `{"seat":"Red","id":"r1"}`)
	c1.waitUntil("reply", func() bool { return len(c1.replies) == 1 })
	time.Sleep(100 * time.Millisecond)
	c2.mu.Lock()
	defer c2.mu.Unlock()
	if len(c2.raw) != 3 || c2.state.Board != "b2" || len(c2.other) != 0 || len(c2.replies) != 0 {
		t.Errorf("board b2's subscriber saw %v events, state of %q, other topics %v, replies %v",
			c2.raw, c2.state.Board, c2.other, c2.replies)
	}
	if len(two.Commands()) != 0 || len(one.Commands()) != 1 {
		t.Errorf("commands: b1 %v, b2 %v", one.Commands(), two.Commands())
	}
}

// A Mirror with wrong credentials never gets in, and says nothing.
func TestUnauthorisedMirror(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	c := newConsumer(t, b.url(), "b1", consumerOpts{})
	for _, cred := range [][2]string{{"", ""}, {"board", "wrong"}} {
		m := startMirror(t, b.url(), board, "b1", func(c *Config) { c.Username, c.Password = cred[0], cred[1] })
		board.moves(5)
		time.Sleep(300 * time.Millisecond)
		if s := m.Stats(); s.Connected || s.Connects != 0 || s.Published != 0 {
			t.Errorf("user %q: %+v, want never connected", cred[0], s)
		}
		m.Close()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.raw) != 0 || c.status != "" {
		t.Errorf("events %v, status %q from an unauthorised mirror", c.raw, c.status)
	}
}

// A read-only user cannot command the board: the command never reaches
// Do. A writer's command afterwards does.
func TestReadOnlyCannotCommand(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	startMirror(t, b.url(), board, "b1")
	w := newConsumer(t, b.url(), "b1", consumerOpts{})
	w.waitUntil("online", func() bool { return w.status == StatusOnline })
	r := newConsumer(t, b.url(), "b1", consumerOpts{user: readerUser})
	for _, qos := range []byte{0, 1} {
		r.c.Publish(Topic("", "b1", "cmd/resign"), qos, false, `{"seat":"Red"}`).WaitTimeout(time.Second)
	}
	time.Sleep(200 * time.Millisecond)
	w.command("resign", `{"seat":"Blue","id":"w"}`)
	w.waitUntil("the writer's reply", func() bool { return len(w.replies) == 1 })
	got := board.Commands()
	if len(got) != 1 || got[0].Seat != "Blue" {
		t.Fatalf("Do got %+v, want only the writer's resign of Blue", got)
	}
}

// Commands: good ones reach Do and are answered OK with their id; bad ones
// are answered with an error that says what was wrong, and Do never sees
// them.
func TestCommands(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	board.SetReply(func(c referee.Command) referee.Reply {
		if c.Seat == "Purple" {
			return referee.Reply{Error: "resign: no seat Purple"}
		}
		if c.Name == referee.CmdPromote {
			return referee.Reply{} // a refusal without a reason
		}
		return referee.Reply{OK: true, Seq: 7}
	})
	startMirror(t, b.url(), board, "b1")
	c := newConsumer(t, b.url(), "b1", consumerOpts{})
	c.waitUntil("online", func() bool { return c.status == StatusOnline })
	for i, tc := range []struct {
		name, payload string
		ok            bool
		reachesDo     bool
		id, err       string
	}{
		{"resign", `{"seat":"Red","id":"a1"}`, true, true, "a1", ""},
		{"clock", `{"action":"start"}`, true, true, "", ""},
		{"takeback_confirm", ``, true, true, "", ""},
		{"resign", `{"seat":"Purple","id":"a2"}`, false, true, "a2", "no seat Purple"},
		{"promote", `{"piece":"Q"}`, false, true, "", "gave no reason"},
		{"resign", `{"seat":`, false, false, "", "must be a JSON object"},
		{"resign", `{"seat":5,"id":"a3"}`, false, false, "a3", "resign:"},
		{"resign", `{}`, false, false, "", `needs "seat"`},
		{"resign", `{"seat":"Red","piece":"Q"}`, false, false, "", `unknown field "piece"`},
		{"fly", `{}`, false, false, "", `unknown command "fly"`},
		{"new_game", `{"variant":"teams"} trailing`, false, false, "", ""},
		{"tags", "\xff\xfe", false, false, "", "not UTF-8"},
		{"tags", `{"tags":{"Red":"` + strings.Repeat("x", 20000) + `"}}`, false, false, "", "over the limit"},
		{"replay", `{"from":"one"}`, false, false, "", "replay:"},
		{"tags", `{"tags":{"Red":"Ann\u202Ennaw"}}`, false, false, "", "tags: tag Red contains the bidi override, embedding or isolate U+202E"},
		{"tags", `{"tags":{"Event":"\u2066club\u2069"}}`, false, false, "", "U+2066"},
		{"resign", `{"seat":"Red\u200B"}`, false, false, "", "resign: seat contains the invisible character U+200B"},
		{"state", `{"id":"s1"}`, true, false, "s1", ""},
	} {
		before := len(board.Commands())
		c.command(tc.name, tc.payload)
		c.waitUntil("reply", func() bool { return len(c.replies) == i+1 })
		c.mu.Lock()
		r := c.replies[i]
		c.mu.Unlock()
		if r.OK != tc.ok || r.ID != tc.id || !strings.Contains(r.Error, tc.err) || (!r.OK && r.Error == "") {
			t.Errorf("%s %.40q: reply %+v, want ok %v, id %q, error containing %q", tc.name, tc.payload, r, tc.ok, tc.id, tc.err)
		}
		if reached := len(board.Commands()) > before; reached != tc.reachesDo {
			t.Errorf("%s %.40q: reached Do %v, want %v", tc.name, tc.payload, reached, tc.reachesDo)
		}
	}
	if got := board.Commands()[0]; got.Name != "resign" || got.Seat != "Red" || got.ID != "a1" {
		t.Errorf("Do got %+v", got)
	}

	// A retained command reaches the Mirror once live (the broker clears the
	// retain flag for established subscriptions) but is not carried out
	// again when a subscription renews and the broker hands it out as
	// retained.
	before := len(board.Commands())
	c.c.Publish(Topic("", "b1", "cmd/resign"), 1, true, `{"seat":"Green"}`).WaitTimeout(time.Second)
	c.waitUntil("the live command's reply", func() bool { return len(c.replies) == 19 })
	m2 := startMirror(t, b.url(), board, "b1", func(c *Config) { c.ClientID = "second" })
	waitStats(t, m2, "connected", func(s Stats) bool { return s.Connected })
	c.waitUntil("the retained command's refusal", func() bool {
		for _, r := range c.replies {
			if strings.Contains(r.Error, "retained command ignored") {
				return true
			}
		}
		return false
	})
	green := 0
	for _, cmd := range board.Commands()[before:] {
		if cmd.Seat == "Green" {
			green++
		}
	}
	if green != 1 {
		t.Errorf("the retained resign of Green reached Do %d times, want once (live)", green)
	}
}

// cmd/replay resends the kept messages from N, in order, after which live
// events continue; replay from a forgotten Seq is an error.
func TestReplay(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	c := newConsumer(t, b.url(), "b1", consumerOpts{})
	startMirror(t, b.url(), board, "b1")
	board.moves(20)
	c.waitSeq(20)
	c.command("replay", `{"from":15,"id":"r"}`)
	c.waitUntil("reply", func() bool { return len(c.replies) == 1 })
	board.moves(1)
	c.waitSeq(21)
	raw, _, _ := c.snapshot()
	want := append(seqRange(1, 20), seqRange(15, 21)...)
	if !slices.Equal(raw, want) {
		t.Errorf("events %v, want 1…20 then 15…21", raw)
	}
	if r := c.replies[0]; !r.OK || r.ID != "r" || r.Seq != 20 {
		t.Errorf("reply %+v, want ok with seq 20 (how far the block went)", r)
	}

	board.Forget(10)
	c.command("replay", `{"from":3}`)
	c.waitUntil("second reply", func() bool { return len(c.replies) == 2 })
	if r := c.replies[1]; r.OK || !strings.Contains(r.Error, "no longer kept") {
		t.Errorf("replay of forgotten messages: %+v", r)
	}
	c.command("state", ``)
	c.waitUntil("state reply", func() bool { return len(c.replies) == 3 && c.replies[2].OK })

	// From 0 is everything still kept (11…21), as the web display's
	// ?from=0 is.
	c.command("replay", `{"from":0}`)
	c.waitUntil("replay from 0", func() bool { return len(c.replies) == 4 })
	c.waitUntil("11…21 again", func() bool { return len(c.raw) >= 20+7+11 })
	raw, _, _ = c.snapshot()
	if r := c.replies[3]; !r.OK || !slices.Equal(raw[27:], seqRange(11, 21)) {
		t.Errorf("replay from 0: %+v, events %v, want 11…21", r, raw[27:])
	}
}

// The state file makes a new Mirror resume after the last acknowledged
// message, across a restart of the daemon, with nothing sent twice.
func TestStateFileResume(t *testing.T) {
	b := newEmbedded(t)
	file := filepath.Join(t.TempDir(), "mqtt.state")
	board := newFakeBoard("b1")
	board.moves(5) // before the first start: covered by the retained state
	c := newConsumer(t, b.url(), "b1", consumerOpts{next: 6})
	m := startMirror(t, b.url(), board, "b1", func(c *Config) { c.StateFile = file })
	board.moves(25)
	c.waitSeq(30)
	waitStats(t, m, "30 acknowledged", func(s Stats) bool { return s.Acked == 30 })
	m.Close()
	data, err := os.ReadFile(file)
	if err != nil || strings.TrimSpace(string(data)) != `{"board":"b1","acked":30}` {
		t.Fatalf("state file %q, %v", data, err)
	}
	board.moves(10) // while the daemon is down
	m2 := startMirror(t, b.url(), board, "b1", func(c *Config) { c.StateFile = file })
	c.waitSeq(40)
	time.Sleep(50 * time.Millisecond)
	raw, _, _ := c.snapshot()
	if !slices.Equal(raw, seqRange(6, 40)) {
		t.Errorf("events %v, want 6…40 once each", raw)
	}
	waitStats(t, m2, "40 acknowledged", func(s Stats) bool { return s.Acked == 40 })
	m2.Close()

	// A state file of another board, or one ahead of the board, is not
	// trusted: the Mirror starts at the board's next message.
	for _, content := range []string{`{"board":"b9","acked":3}`, `{"board":"b1","acked":999}`, `garbage`} {
		os.WriteFile(file, []byte(content), 0o644)
		m3 := startMirror(t, b.url(), board, "b1", func(c *Config) { c.StateFile = file })
		if s := m3.Stats(); s.Acked != 40 {
			t.Errorf("state file %s: starts after %d, want 40", content, s.Acked)
		}
		m3.Close()
	}
}

// When the board no longer keeps the messages after the acknowledged one,
// the Mirror starts at the oldest it keeps instead of stalling.
func TestResumeAfterForgottenMessages(t *testing.T) {
	b := newEmbedded(t)
	file := filepath.Join(t.TempDir(), "mqtt.state")
	os.WriteFile(file, []byte(`{"board":"b1","acked":5}`), 0o644)
	board := newFakeBoard("b1")
	board.moves(50)
	board.Forget(20)
	c := newConsumer(t, b.url(), "b1", consumerOpts{next: 21})
	m := startMirror(t, b.url(), board, "b1", func(c *Config) { c.StateFile = file })
	c.waitSeq(50)
	raw, _, _ := c.snapshot()
	if !slices.Equal(raw, seqRange(21, 50)) {
		t.Errorf("events %v, want 21…50", raw)
	}
	waitStats(t, m, "50 acknowledged", func(s Stats) bool { return s.Acked == 50 })
}

// A finished game is published retained on games/<id>, even when the
// archive needs a moment to have its PGN4.
func TestGamePublished(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	var mu sync.Mutex
	asked := 0
	pgn := func(id string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		asked++
		if asked < 3 {
			return "", errors.New("not written yet")
		}
		return `[Event "Club night"]` + "\n\n1. h2-h3 .. 1-0\n", nil
	}
	m := startMirror(t, b.url(), board, "b1", func(c *Config) { c.GamePGN4 = pgn })
	board.moves(3)
	board.emit(referee.MsgGameOver, "Red wins")
	waitStats(t, m, "4 acknowledged", func(s Stats) bool { return s.Acked == 4 })
	late := newConsumer(t, b.url(), "b1", consumerOpts{user: readerUser, next: 5})
	late.waitUntil("the retained game", func() bool { return len(late.games) > 0 })
	if g := late.games["b1-g1"]; len(late.games) != 1 || g != "[Event \"Club night\"]\n\n1. h2-h3 .. 1-0\n" {
		t.Errorf("games %q", late.games)
	}
}

// MQTT over WebSocket, through the embedded broker's handler.
func TestMirrorOverWebsocket(t *testing.T) {
	url, _ := websocketBroker(t)
	board := newFakeBoard("b1")
	c := newConsumer(t, url, "b1", consumerOpts{})
	startMirror(t, url, board, "b1")
	board.moves(50)
	c.waitSeq(50)
	raw, _, _ := c.snapshot()
	if !slices.Equal(raw, seqRange(1, 50)) {
		t.Errorf("events %v", raw)
	}
}

func TestStartErrors(t *testing.T) {
	board := newFakeBoard("b1")
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("hello"), 0o644)
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no source", func(c *Config) { c.Source = nil }, "Source is nil"},
		{"board with slash", func(c *Config) { c.Board = "a/b" }, `must not contain '/'`},
		{"board with wildcard", func(c *Config) { c.Board = "a+" }, `must not contain '+'`},
		{"empty board", func(c *Config) { c.Board = "" }, "empty"},
		{"board ..", func(c *Config) { c.Board = ".." }, `is not a name`},
		{"bad prefix", func(c *Config) { c.Prefix = "club/#" }, "mqtt prefix"},
		{"bad scheme", func(c *Config) { c.Broker = "http://localhost:1883" }, `unknown scheme "http"`},
		{"no host", func(c *Config) { c.Broker = "localhost" }, "scheme://host:port"},
		{"missing CA", func(c *Config) { c.Broker = "ssl://127.0.0.1:8883"; c.TLS.CAFile = filepath.Join(dir, "nope.pem") }, "nope.pem"},
		{"CA not PEM", func(c *Config) { c.Broker = "ssl://127.0.0.1:8883"; c.TLS.CAFile = notPEM }, "ca.pem holds no PEM"},
		{"cert without key", func(c *Config) { c.Broker = "ssl://127.0.0.1:8883"; c.TLS.CertFile = notPEM }, "needs its key file"},
		{"TLS on tcp", func(c *Config) { c.TLS.CAFile = notPEM }, "not ssl://"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Broker: "tcp://127.0.0.1:1", Board: "b1", Source: board}
			tc.edit(&cfg)
			m, err := Start(t.Context(), cfg)
			if err == nil {
				m.Close()
				t.Fatal("started")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

// Start does not wait for the broker, and Close does not wait for it
// either.
func TestCloseWithoutBroker(t *testing.T) {
	board := newFakeBoard("b1")
	start := time.Now()
	m := startMirror(t, "tcp://127.0.0.1:1", board, "b1")
	board.moves(3)
	time.Sleep(100 * time.Millisecond)
	if s := m.Stats(); s.Connected || s.Queue != 3 {
		t.Errorf("stats %+v, want disconnected with 3 queued", s)
	}
	m.Close()
	m.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("start and close took %v", d)
	}
}

// Close stops everything the Mirror started: its goroutines and paho's.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	time.Sleep(50 * time.Millisecond)
	before := runtime.NumGoroutine()
	for _, url := range []string{b.url(), "tcp://127.0.0.1:1"} {
		m := startMirror(t, url, board, "b1")
		board.moves(20)
		if url == b.url() {
			waitStats(t, m, "20 acknowledged", func(s Stats) bool { return s.Queue == 0 })
		}
		m.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after Close, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// CheckNATS names the characters a NATS cluster cannot carry in a topic
// level; CheckID allows them (mosquitto and the embedded broker carry
// them, and boards were named so before the league).
func TestCheckNATS(t *testing.T) {
	for _, tc := range []struct {
		id  string
		bad string
	}{{"club-1", ""}, {"club_1", ""}, {"Brett-ü", ""}, {"club.1", "'.'"}, {"club 1", "' '"}, {"*", "'*'"}, {"club>", "'>'"}, {"club@home", "'@'"}} {
		err := CheckNATS("board", tc.id)
		if (err == nil) != (tc.bad == "") || err != nil && !strings.Contains(err.Error(), tc.bad) {
			t.Errorf("CheckNATS(%q) = %v, want %s", tc.id, err, map[bool]string{true: "nil", false: "an error naming " + tc.bad}[tc.bad == ""])
		}
		if tc.id != "club 1" && CheckID("board", tc.id) != nil {
			t.Errorf("CheckID(%q) = %v, want nil", tc.id, CheckID("board", tc.id))
		}
	}
}
