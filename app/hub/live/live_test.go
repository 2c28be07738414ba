package live_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/live"
	"boardd/referee"
	"boardd/referee/clock"
	"boardd/rules/square"
	"boardd/sensors"
)

// tenPlusFive is a time control: ten minutes each, five seconds a move.
var tenPlusFive = &clock.Control{Base: 10 * time.Minute, Increment: 5 * time.Second}

// messages plays moves on a real board with clocks and returns its
// stream so far.
func messages(t *testing.T, name string, moves ...string) (*referee.Live, []referee.Message) {
	t.Helper()
	l := hubtest.RunWith(t, name, func(c *referee.LiveConfig) { c.Clock = tenPlusFive })
	hubtest.Play(t, l, moves...)
	sub, err := referee.Resume(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Cancel()
	return l, sub.Backlog
}

func feed(t *testing.T, h *live.Hub, ms []referee.Message) {
	t.Helper()
	for _, m := range ms {
		body, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		h.Stored(h.Last()+1, m, body)
	}
}

// The view the hub rebuilds from a board's stored messages shows what
// the board's own display shows: pieces, whose turn, the last move lit,
// the move list, checks, players, points and the seats' status.
func TestViewFollowsTheBoard(t *testing.T) {
	for _, n := range []int{0, 1, 4, 7, len(hubtest.TeamsMoves)} {
		t.Run(fmt.Sprint(n, " moves"), func(t *testing.T) {
			l, ms := messages(t, "club-1", hubtest.TeamsMoves[:n]...)
			h := live.New(live.Config{})
			feed(t, h, ms)
			v, ok := h.View("club-1")
			if !ok {
				t.Fatal("no view of club-1")
			}
			want, got := l.State(), v.State
			if got.Seq != want.Seq || got.Game != want.Game || got.Variant != want.Variant || got.Turn != want.Turn || got.FEN4 != want.FEN4 {
				t.Errorf("seq/game/variant/turn/fen4: got %d %s %s %s %s\nwant %d %s %s %s %s", got.Seq, got.Game, got.Variant, got.Turn, got.FEN4,
					want.Seq, want.Game, want.Variant, want.Turn, want.FEN4)
			}
			for _, c := range []struct {
				what      string
				got, want any
			}{
				{"pieces", got.Pieces, want.Pieces},
				{"squares", got.Squares, want.Squares},
				{"last move", got.LastMove, want.LastMove},
				{"moves", got.Moves, want.Moves},
				{"checks", got.Checks, want.Checks},
				{"tags", got.Tags, want.Tags},
			} {
				if !reflect.DeepEqual(c.got, c.want) && !(isEmpty(c.got) && isEmpty(c.want)) {
					t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
				}
			}
			for i, s := range want.Seats {
				g := got.Seats[i]
				if g.Seat != s.Seat || g.Player != s.Player || g.Points != s.Points || g.Status != s.Status || g.Running != s.Running {
					t.Errorf("seat %d: got %+v, want %+v", i, g, s)
				}
				// A stopped clock shows what the board's shows; the
				// running one counts down from the last message's.
				if !s.Running && g.ClockMS != s.ClockMS || s.Running && (g.ClockMS <= 0 || g.ClockMS > tenPlusFive.Base.Milliseconds()+5000*int64(n)) {
					t.Errorf("seat %d's clock: %d ms (running %v), the board's %d ms", i, g.ClockMS, g.Running, s.ClockMS)
				}
			}
			if v.Moves != n || (n > 0 && v.LastMove != hubtest.TeamsMoves[n-1]) {
				t.Errorf("moves %d, last %q; want %d and the last played", v.Moves, v.LastMove, n)
			}
			if v.Status != live.StatusPlaying {
				t.Errorf("status %q, want playing", v.Status)
			}
		})
	}
}

func isEmpty(v any) bool {
	r := reflect.ValueOf(v)
	return !r.IsValid() || (r.Kind() == reflect.Slice || r.Kind() == reflect.Map) && r.Len() == 0
}

// A resignation and the end of the game show on the view as
// on the board; a board whose connection is gone is offline whatever its
// game.
func TestViewTakebackResignOffline(t *testing.T) {
	l, _ := messages(t, "b", hubtest.TeamsMoves[:3]...)
	h := live.New(live.Config{})
	sub, err := referee.Resume(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Cancel()
	feed(t, h, sub.Backlog)
	last := sub.Backlog[len(sub.Backlog)-1].Seq
	do := func(c referee.Command) {
		t.Helper()
		if r := l.Do(t.Context(), c); !r.OK {
			t.Fatalf("%s: %s", c.Name, r.Error)
		}
	}
	do(referee.Command{Name: referee.CmdResign, Seat: "Green"}) // Teams: Blue and Green lose
	deadline := time.After(5 * time.Second)
	for l.State().Status != "over" {
		select {
		case m := <-sub.Live:
			feed(t, h, []referee.Message{m})
			last = m.Seq
		case <-deadline:
			t.Fatal("the game did not end")
		}
	}
	for l.State().Seq > last {
		feed(t, h, []referee.Message{<-sub.Live})
		last++
	}
	v, _ := h.View("b")
	want := l.State()
	if v.Status != live.StatusFinished || v.State.Status != "over" || !reflect.DeepEqual(v.State.Result, want.Result) {
		t.Errorf("after the resignation: %s %s %+v, want finished, over, %+v", v.Status, v.State.Status, v.State.Result, want.Result)
	}
	for i, s := range want.Seats {
		if v.State.Seats[i].Status != s.Status {
			t.Errorf("seat %s: %q, want %q", s.Seat, v.State.Seats[i].Status, s.Status)
		}
	}
	h.Status("b", "offline")
	if v, _ := h.View("b"); v.Status != live.StatusOffline {
		t.Errorf("offline board: %s", v.Status)
	}
}

func msg(board string, seq uint64) referee.Message {
	return referee.Message{Board: board, Seq: seq, Kind: referee.MsgClock, Text: "clocks paused"}
}

// Every stored message gets the next number; a subscriber coming back
// with the last it had gets every later one still kept, in order, and
// one asking for what is no longer kept (or from a future) gets Reset.
func TestResume(t *testing.T) {
	h := live.New(live.Config{Keep: 5})
	for i := uint64(1); i <= 8; i++ {
		feed(t, h, []referee.Message{msg([]string{"a", "b"}[i%2], i)})
	}
	if h.Last() != 8 {
		t.Fatalf("last %d, want 8", h.Last())
	}
	for _, c := range []struct {
		after uint64
		want  []uint64
		reset bool
	}{
		{8, nil, false},
		{7, []uint64{8}, false},
		{3, []uint64{4, 5, 6, 7, 8}, false},
		{2, nil, true},
		{0, nil, true},
		{9, nil, true},
	} {
		s := h.Subscribe(t.Context(), "", c.after, true)
		var got []uint64
		for _, it := range s.Backlog {
			got = append(got, it.N)
		}
		if !reflect.DeepEqual(got, c.want) || s.Reset != c.reset {
			t.Errorf("after %d: backlog %v reset %v, want %v %v", c.after, got, s.Reset, c.want, c.reset)
		}
		s.Cancel()
	}
	// Live: in order, one board's only when asked.
	all, onlyA := h.Subscribe(t.Context(), "", 0, false), h.Subscribe(t.Context(), "a", 0, false)
	feed(t, h, []referee.Message{msg("a", 9), msg("b", 9), msg("a", 10)})
	for _, c := range []struct {
		s    *live.Sub
		want []uint64
	}{{all, []uint64{9, 10, 11}}, {onlyA, []uint64{9, 11}}} {
		var got []uint64
		items, ok := c.s.Take()
		if !ok {
			t.Fatal("the subscription ended")
		}
		for _, it := range items {
			got = append(got, it.N)
			if len(it.Message) == 0 || len(it.Tile) == 0 || len(it.State) == 0 {
				t.Errorf("item %d without its message or views", it.N)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("live: %v, want %v", got, c.want)
		}
		c.s.Cancel()
	}
}

// A subscriber that does not keep up is dropped (Take says so, and what
// waited for it is let go) rather than holding up the ingest; it resumes
// from its last N without a gap.
func TestSlowSubscriberDropped(t *testing.T) {
	h := live.New(live.Config{Buffer: 2})
	s := h.Subscribe(t.Context(), "", 0, false)
	feed(t, h, []referee.Message{msg("a", 1)})
	items, ok := s.Take()
	if !ok || len(items) != 1 {
		t.Fatalf("took %v (open %v), want message 1", items, ok)
	}
	got := []uint64{items[0].N}
	feed(t, h, []referee.Message{msg("a", 2), msg("a", 3), msg("a", 4)}) // never blocks
	if items, ok := s.Take(); ok || len(items) != 0 || h.Subscribers() != 0 || h.Waiting() != 0 {
		t.Fatalf("dropped subscriber took %v (open %v), %d subscribers and %d bytes waiting left", items, ok, h.Subscribers(), h.Waiting())
	}
	select {
	case <-s.Ready():
	default:
		t.Error("a dropped subscription is not ready: its reader would not know")
	}
	again := h.Subscribe(t.Context(), "", got[len(got)-1], true)
	defer again.Cancel()
	got = nil
	for _, it := range again.Backlog {
		got = append(got, it.N)
	}
	if !reflect.DeepEqual(got, []uint64{2, 3, 4}) || again.Reset {
		t.Errorf("resumed with %v (reset %v), want 2 3 4", got, again.Reset)
	}
}

// The tile's status follows the board's messages and its connection:
// no game yet, playing, a guided set-up (until the board matches the
// game again or a move is made), finished, and whatever the game,
// offline, paused or sensor fault while the board says so.
func TestTileStatus(t *testing.T) {
	m := func(seq uint64, kind string) referee.Message {
		return referee.Message{Board: "b", Seq: seq, Game: "g1", Kind: kind, Variant: "teams"}
	}
	for _, c := range []struct {
		name  string
		kinds []string
		conn  string
		want  string
	}{
		{"no game", nil, "online", live.StatusIdle},
		{"playing", []string{referee.MsgGameStart}, "online", live.StatusPlaying},
		{"set-up", []string{referee.MsgGameStart, referee.MsgSetup}, "online", live.StatusSetup},
		{"set up", []string{referee.MsgGameStart, referee.MsgSetup, referee.MsgCorrected}, "online", live.StatusPlaying},
		{"over", []string{referee.MsgGameStart, referee.MsgGameOver}, "online", live.StatusFinished},
		{"offline", []string{referee.MsgGameStart}, "offline", live.StatusOffline},
		{"paused", []string{referee.MsgGameStart, referee.MsgSetup}, "paused", live.StatusPaused},
		{"sensor fault", nil, "sensor_fault", live.StatusFault},
		{"back online", []string{referee.MsgGameStart, referee.MsgGameOver}, "online", live.StatusFinished},
	} {
		h := live.New(live.Config{})
		h.Status("b", c.conn)
		for i, k := range c.kinds {
			feed(t, h, []referee.Message{m(uint64(i+1), k)})
		}
		if v, _ := h.View("b"); v.Status != c.want {
			t.Errorf("%s: %q, want %q", c.name, v.Status, c.want)
		}
	}
}

// A move taken back on the board (put back by hand, the takeback
// confirmed) leaves the view as the board: the move gone from the list,
// the one before it lit, the piece back.
func TestViewTakeback(t *testing.T) {
	l := hubtest.RunWith(t, "b", func(c *referee.LiveConfig) { c.Clock, c.Takeback = tenPlusFive, referee.TakebackAsk })
	hubtest.Play(t, l, hubtest.TeamsMoves[:5]...)
	// Qg1-i3 (Red's fifth turn) put back: lift i3, place g1.
	var evs []sensors.Event
	for _, s := range []struct {
		sq   string
		lift bool
	}{{"i3", true}, {"g1", false}} {
		q, err := square.Parse(s.sq)
		if err != nil {
			t.Fatal(err)
		}
		k := sensors.Place
		if s.lift {
			k = sensors.Lift
		}
		evs = append(evs, sensors.Event{Kind: k, Square: q})
	}
	if err := l.Feed(t.Context(), evs, true); err != nil {
		t.Fatal(err)
	}
	if st := l.State(); st.Status != "takeback_asked" {
		t.Fatalf("the board's status %q after the queen went back, want takeback_asked", st.Status)
	}
	if r := l.Do(t.Context(), referee.Command{Name: referee.CmdTakebackConfirm}); !r.OK {
		t.Fatal(r.Error)
	}
	sub, err := referee.Resume(l, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Cancel()
	h := live.New(live.Config{})
	feed(t, h, sub.Backlog)
	v, _ := h.View("b")
	want := l.State()
	if len(want.Moves) != 4 || !reflect.DeepEqual(v.State.Moves, want.Moves) || !reflect.DeepEqual(v.State.LastMove, want.LastMove) ||
		!reflect.DeepEqual(v.State.Pieces, want.Pieces) || v.State.Turn != want.Turn || v.State.Status != want.Status {
		t.Errorf("after the takeback: moves %v last %v turn %s status %s\nthe board: moves %v last %v turn %s status %s",
			v.State.Moves, v.State.LastMove, v.State.Turn, v.State.Status, want.Moves, want.LastMove, want.Turn, want.Status)
	}
	if v.Moves != 4 || v.LastMove != hubtest.TeamsMoves[3] {
		t.Errorf("tile: %d moves, last %q; want 4 and %s", v.Moves, v.LastMove, hubtest.TeamsMoves[3])
	}
}

// Subscribers that never take what waits for them (viewers whose
// connections stalled) hold no more than the budget between them: past
// it the slowest are dropped, and what waited for them is let go. A
// subscriber that keeps up gets every item, once, in order.
func TestBudgetDropsTheSlowest(t *testing.T) {
	const budget = 64 << 10
	h := live.New(live.Config{Budget: budget})
	ctx := t.Context()
	var stalled []*live.Sub
	for range 20 {
		stalled = append(stalled, h.Subscribe(ctx, "", 0, false))
	}
	reader := h.Subscribe(ctx, "", 0, false)
	var got []uint64
	peak := 0
	for i := range 500 {
		if i%50 == 0 { // later stalled viewers: the earlier ones are the slowest
			stalled = append(stalled, h.Subscribe(ctx, "", h.Last(), true))
		}
		feed(t, h, []referee.Message{msg(string("abcd"[i%4]), uint64(i/4+1))})
		peak = max(peak, h.Waiting())
		items, ok := reader.Take()
		if !ok {
			t.Fatalf("the reader that keeps up was dropped after %d items", len(got))
		}
		for _, it := range items {
			got = append(got, it.N)
		}
	}
	if peak > budget {
		t.Errorf("%d bytes waited at the peak, over the budget of %d", peak, budget)
	}
	if peak < budget/2 {
		t.Errorf("%d bytes waited at the peak: the stalled subscribers did not fill the budget of %d", peak, budget)
	}
	want := make([]uint64, 500)
	for i := range want {
		want[i] = uint64(i + 1)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the reader had %v, want 1 to 500 once each", got)
	}
	// Every stalled subscriber but the last few was dropped, oldest first;
	// each resumes from what it had without a gap.
	dropped, kept := 0, -1
	for i, s := range stalled {
		if _, ok := s.Take(); ok {
			kept = max(kept, i)
			continue
		}
		dropped++
		if kept >= 0 && i > 21 { // the first 21 subscribed together
			t.Errorf("stalled subscriber %d dropped while %d, older, was kept", i, kept)
		}
	}
	if dropped < len(stalled)-2 {
		t.Errorf("%d of %d stalled subscribers dropped", dropped, len(stalled))
	}
	again := h.Subscribe(ctx, "", 0, true)
	if got := backlog(t, again); again.Reset || !reflect.DeepEqual(got, want) {
		t.Errorf("a dropped subscriber resuming from 0: %v (reset %v), want 1 to 500", got, again.Reset)
	}
}

// backlog is every message of s's backlog, by number.
func backlog(t *testing.T, s *live.Sub) []uint64 {
	t.Helper()
	var out []uint64
	for items := s.Backlog; len(items) > 0; {
		for _, it := range items {
			out = append(out, it.N)
		}
		var err error
		if items, err = s.MoreBacklog(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
