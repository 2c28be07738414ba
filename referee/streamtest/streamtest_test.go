package streamtest_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"boardd/referee"
	"boardd/referee/streamtest"
	"boardd/rules"
)

// kept is a board holding messages 1..last of which it keeps oldest..last,
// and a way to add one more.
type kept struct {
	board referee.Board
	emit  func()
}

// liveKept is a real referee.Live with messages 1..12 (a game_start and
// eleven tags) that keeps 6..12 in memory (Keep 8 trims to the newest 4
// when a ninth comes) and has no stream log.
func liveKept(t *testing.T) kept {
	const keep, last = 8, 12
	t.Helper()
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(v, "")
	l, err := referee.NewLive(referee.LiveConfig{Variant: "teams", Board: "t1", Keep: keep,
		Occupancy: g.Position().Occupancy(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	emit := func() {
		if r := l.Do(ctx, referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Round": "x"}}); !r.OK {
			t.Fatalf("tags: %s", r.Error)
		}
	}
	for range last - 1 {
		emit()
	}
	return kept{l, emit}
}

// fakeKept is the fake with the same history.
func fakeKept(t *testing.T) kept {
	f := streamtest.New(referee.State{Board: "t1"})
	emit := func() { f.Emit(referee.Message{Kind: referee.MsgTags}) }
	for range 12 {
		emit()
	}
	f.Forget(5)
	return kept{f, emit}
}

// TestContract holds the fake to referee.Live's Subscribe: what from 0
// means, the backlog, the typed error and its oldest, the live channel.
func TestContract(t *testing.T) {
	for _, impl := range []struct {
		name string
		make func(t *testing.T) kept
	}{{"Live", liveKept}, {"streamtest", fakeKept}} {
		for _, tc := range []struct {
			from      uint64
			backlog   string // Seqs of the backlog
			notKept   bool
			oldest    uint64
			firstLive uint64
		}{
			{from: 0, backlog: "[]", firstLive: 13},
			{from: 12, backlog: "[12]", firstLive: 13},
			{from: 6, backlog: "[6 7 8 9 10 11 12]", firstLive: 13},
			{from: 13, backlog: "[]", firstLive: 13},
			{from: 40, backlog: "[]", firstLive: 40},
			{from: 5, notKept: true, oldest: 6},
			{from: 1, notKept: true, oldest: 6},
		} {
			t.Run(fmt.Sprintf("%s/from %d", impl.name, tc.from), func(t *testing.T) {
				k := impl.make(t) // 1..12, 6..12 kept
				backlog, live, cancel, err := k.board.Subscribe(tc.from)
				var nk *referee.NotKeptError
				if tc.notKept {
					if !errors.As(err, &nk) || nk.From != tc.from || nk.Oldest != tc.oldest {
						t.Fatalf("Subscribe(%d): %v, want a NotKeptError from %d, oldest %d", tc.from, err, tc.from, tc.oldest)
					}
					return
				}
				if err != nil {
					t.Fatalf("Subscribe(%d): %v", tc.from, err)
				}
				defer cancel()
				var seqs []uint64
				for _, m := range backlog {
					seqs = append(seqs, m.Seq)
				}
				if got := fmt.Sprint(seqs); got != tc.backlog {
					t.Errorf("backlog %v, want %s", seqs, tc.backlog)
				}
				for range tc.firstLive - 12 {
					k.emit()
				}
				if m := <-live; m.Seq != tc.firstLive {
					t.Errorf("first live message %d, want %d", m.Seq, tc.firstLive)
				}
			})
		}
	}
}

func TestResume(t *testing.T) {
	for _, tc := range []struct {
		name    string
		from    uint64
		backlog string
		lost    string // the NotKeptError's text, "" for none
	}{
		{name: "kept", from: 7, backlog: "[7 8 9 10]"},
		{name: "from 1, forgotten, from the oldest", from: 1, backlog: "[4 5 6 7 8 9 10]", lost: "messages from 1 are no longer kept (the oldest is 4)"},
		{name: "forgotten, from the oldest", from: 2, backlog: "[4 5 6 7 8 9 10]", lost: "messages from 2 are no longer kept (the oldest is 4)"},
		{name: "only new ones", from: 0, backlog: "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := streamtest.New(referee.State{})
			for range 10 {
				f.Emit(referee.Message{Kind: referee.MsgClock})
			}
			f.Forget(3)
			s, err := referee.Resume(f, tc.from)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Cancel()
			seqs := []uint64{}
			for _, m := range s.Backlog {
				seqs = append(seqs, m.Seq)
			}
			if fmt.Sprint(seqs) != tc.backlog {
				t.Errorf("backlog %v, want %s", seqs, tc.backlog)
			}
			lost := ""
			if s.Lost != nil {
				lost = s.Lost.Error()
			}
			if lost != tc.lost {
				t.Errorf("lost %q, want %q", lost, tc.lost)
			}
			if m := f.Emit(referee.Message{Kind: referee.MsgClock}); (<-s.Live).Seq != m.Seq {
				t.Errorf("live does not carry the next message %d", m.Seq)
			}
		})
	}
}

// A board that fails for another reason: Resume returns its error.
type broken struct{ *streamtest.Board }

func (broken) Subscribe(uint64) ([]referee.Message, <-chan referee.Message, func(), error) {
	return nil, nil, nil, errors.New("stream log unreadable")
}

func TestResumeOtherErrors(t *testing.T) {
	if _, err := referee.Resume(broken{streamtest.New(referee.State{})}, 3); err == nil || err.Error() != "stream log unreadable" {
		t.Errorf("Resume on a broken board: %v", err)
	}
}

// memLog is a referee.StreamLog in memory.
type memLog struct {
	mu   sync.Mutex
	msgs []referee.Message
}

func (m *memLog) Append(msg referee.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

func (m *memLog) Since(from uint64) ([]referee.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, msg := range m.msgs {
		if msg.Seq >= from {
			return append([]referee.Message(nil), m.msgs[i:]...), nil
		}
	}
	return nil, nil
}

func (m *memLog) Last() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.msgs) == 0 {
		return 0
	}
	return m.msgs[len(m.msgs)-1].Seq
}

// liveGapped is a real referee.Live restarted after an unclean stop: its
// stream log holds 1..5 from before, numbering went on after 20 (the
// stream's reservation, SeqFloor here), and 21..24 came since (a
// game_start and three tags).
func liveGapped(t *testing.T) kept {
	t.Helper()
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(v, "")
	log := &memLog{}
	start := func(floor uint64) (*referee.Live, func()) {
		l, err := referee.NewLive(referee.LiveConfig{Variant: "teams", Board: "t1", Log: log, SeqFloor: floor,
			Occupancy: g.Position().Occupancy(), Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { l.Run(ctx); close(done) }()
		return l, func() { stop(); <-done }
	}
	tags := func(l *referee.Live) {
		if r := l.Do(context.Background(), referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Round": "x"}}); !r.OK {
			t.Fatalf("tags: %s", r.Error)
		}
	}
	l, stop := start(0)
	for range 4 {
		tags(l)
	}
	stop()
	l, stop = start(20)
	t.Cleanup(stop)
	for range 3 {
		tags(l)
	}
	return kept{l, func() { tags(l) }}
}

// fakeGapped is the fake with the same history.
func fakeGapped(t *testing.T) kept {
	f := streamtest.New(referee.State{Board: "t1"})
	emit := func() { f.Emit(referee.Message{Kind: referee.MsgTags}) }
	for range 5 {
		emit()
	}
	f.Skip(15)
	for range 4 {
		emit()
	}
	return kept{f, emit}
}

// TestContractAcrossAGap holds the fake to referee.Live after numbers
// were skipped (an unclean stop): a backlog runs across the gap, and from
// a skipped Seq starts at the first message after it with no loss
// reported (issue 28: the mirror logged an ERROR "lost to MQTT" after
// every kill -9, and a replay from a skipped Seq failed).
func TestContractAcrossAGap(t *testing.T) {
	for _, impl := range []struct {
		name string
		make func(t *testing.T) kept
	}{{"Live", liveGapped}, {"streamtest", fakeGapped}} {
		for _, tc := range []struct {
			from    uint64
			backlog string // Seqs of the backlog
			lost    string // Resume's loss, "" for none
		}{
			{from: 3, backlog: "[3 4 5 21 22 23 24]"},
			{from: 5, backlog: "[5 21 22 23 24]"},
			{from: 6, backlog: "[21 22 23 24]"},
			{from: 20, backlog: "[21 22 23 24]"},
			{from: 12, backlog: "[21 22 23 24]"},
			{from: 21, backlog: "[21 22 23 24]"},
			{from: 0, backlog: "[]"},
		} {
			t.Run(fmt.Sprintf("%s/from %d", impl.name, tc.from), func(t *testing.T) {
				k := impl.make(t)
				if tc.lost != "" {
					_, _, _, err := k.board.Subscribe(tc.from)
					var nk *referee.NotKeptError
					if !errors.As(err, &nk) || nk.From != tc.from || nk.Oldest != 21 {
						t.Errorf("Subscribe(%d): %v, want a NotKeptError from %d, oldest 21", tc.from, err, tc.from)
					}
				}
				s, err := referee.Resume(k.board, tc.from)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Cancel()
				seqs := []uint64{}
				for _, m := range s.Backlog {
					seqs = append(seqs, m.Seq)
				}
				if got := fmt.Sprint(seqs); got != tc.backlog {
					t.Errorf("backlog %v, want %s", seqs, tc.backlog)
				}
				lost := ""
				if s.Lost != nil {
					lost = s.Lost.Error()
				}
				if lost != tc.lost {
					t.Errorf("lost %q, want %q", lost, tc.lost)
				}
				k.emit()
				if m := <-s.Live; m.Seq != 25 {
					t.Errorf("first live message %d, want 25", m.Seq)
				}
			})
		}
	}
}
