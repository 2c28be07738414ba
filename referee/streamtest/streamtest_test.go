package streamtest_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
		gap     referee.Gap
		backlog string
		lost    string // the NotKeptError's text, "" for none
	}{
		{name: "kept", from: 7, backlog: "[7 8 9 10]"},
		{name: "from 1, forgotten, from the next", from: 1, gap: referee.FromNext, backlog: "[]", lost: "messages from 1 are no longer kept (the oldest is 4)"},
		{name: "forgotten, from the oldest", from: 2, backlog: "[4 5 6 7 8 9 10]", lost: "messages from 2 are no longer kept (the oldest is 4)"},
		{name: "forgotten, from the next", from: 2, gap: referee.FromNext, backlog: "[]", lost: "messages from 2 are no longer kept (the oldest is 4)"},
		{name: "only new ones", from: 0, backlog: "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := streamtest.New(referee.State{})
			for range 10 {
				f.Emit(referee.Message{Kind: referee.MsgClock})
			}
			f.Forget(3)
			s, err := referee.Resume(f, tc.from, tc.gap)
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
	if _, err := referee.Resume(broken{streamtest.New(referee.State{})}, 3, referee.FromOldest); err == nil || err.Error() != "stream log unreadable" {
		t.Errorf("Resume on a broken board: %v", err)
	}
}
