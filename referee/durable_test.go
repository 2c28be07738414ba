package referee

import (
	"fmt"
	"log/slog"
	"strings"
	gosync "sync"
	"syscall"
	"testing"
	"time"

	"boardd/referee/clock"
)

// flakyDisk stands for a file on a disk that fills up: while full, every
// write fails with ENOSPC and keeps nothing.
type flakyDisk struct {
	mu   gosync.Mutex
	full bool
	err  error // the error while full (default ENOSPC)
	got  []Message
}

func (d *flakyDisk) setFull(full bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.full = full
}

func (d *flakyDisk) write(m Message) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.full {
		if d.err != nil {
			return d.err
		}
		return fmt.Errorf("journal: write current.journal: %w", syscall.ENOSPC)
	}
	d.got = append(d.got, m)
	return nil
}

func (d *flakyDisk) seqs() []uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []uint64
	for _, m := range d.got {
		out = append(out, m.Seq)
	}
	return out
}

// flakyLog is a StreamLog on a flakyDisk.
type flakyLog struct {
	memLog
	disk *flakyDisk
}

func (l *flakyLog) Append(m Message) error {
	if err := l.disk.write(m); err != nil {
		return err
	}
	return l.memLog.Append(m)
}

// waitState polls the board's state until ok says yes.
func waitState(t *testing.T, l *Live, what string, ok func(State) bool) State {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := l.State()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 5 s: status %q, message %q, %d moves", what, st.Status, st.Message, len(st.Moves))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A move is acknowledged only once every writer has it on disk. While a
// writer fails (the journal sink or the stream log; a full disk or another
// error) the board pauses: the move is not published, the state says
// paused and why, the LEDs fill with the storage colour, commands and
// further moves wait; once a write succeeds the board carries on by
// itself, publishing the moves in order with no Seq skipped or reused.
func TestLivePausesWhileStorageFails(t *testing.T) {
	for _, tc := range []struct {
		name    string
		failLog bool  // the stream log fails (else the journal sink)
		err     error // nil: ENOSPC
		want    string
	}{
		{name: "journal full", want: "storage full: the game is paused, nothing is lost"},
		{name: "stream full", failLog: true, want: "storage full: the game is paused, nothing is lost"},
		{name: "journal read-only", err: fmt.Errorf("journal: %w", syscall.EROFS), want: "storage failing: the game is paused, nothing is lost"},
		{name: "journal quota", err: fmt.Errorf("journal: %w", syscall.EDQUOT), want: "storage full: the game is paused, nothing is lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			disk := &flakyDisk{err: tc.err}
			cfg := LiveConfig{RetryEvery: 20 * time.Millisecond}
			log := &flakyLog{disk: &flakyDisk{}}
			if tc.failLog {
				log.disk = disk
			} else {
				cfg.Sinks = []func(Message) error{disk.write}
			}
			cfg.Log = log
			b := startLive(t, cfg)
			b.hand("-h2 +h4")
			if m := b.next(); m.Kind != MsgMove || m.Seq != 2 {
				t.Fatalf("first move: %+v", m)
			}
			disk.setFull(true)
			if r := b.do("tags", `{"tags":{"Round":"1"}}`); r.OK || !strings.Contains(r.Error, tc.want) {
				t.Errorf("a command that cannot be written: %+v, want not acknowledged, with %q", r, tc.want)
			}
			disk.setFull(false)
			if m := b.next(); m.Kind != MsgTags || m.Seq != 3 {
				t.Fatalf("the command once written: %+v", m)
			}
			disk.setFull(true)
			b.hand("-b7 +c7") // Blue's move, made while the disk is full
			st := waitState(t, b.Live, "pause", func(st State) bool { return st.Status == "paused" })
			if st.Message != tc.want || len(st.Moves) != 1 || st.Seq != 3 {
				t.Errorf("paused state: message %q, %d moves, seq %d; want %q, the 1 acknowledged move, seq 3", st.Message, len(st.Moves), st.Seq, tc.want)
			}
			if lt := b.Lights(); len(lt.Squares) != 160 || lt.Squares["h4"] != "#a000a0" || lt.Squares["c7"] != "#a000a0" {
				t.Errorf("paused lights: %d squares lit, h4 %s c7 %s; want all 160 #a000a0", len(lt.Squares), lt.Squares["h4"], lt.Squares["c7"])
			}
			if r := b.do("tags", `{"tags":{"Round":"2"}}`); r.OK || !strings.Contains(r.Error, tc.want) {
				t.Errorf("a command while paused: %+v, want refused with %q", r, tc.want)
			}
			b.hand("-g13 +g11") // Yellow moves while paused: judged once the board goes on
			select {
			case m := <-b.msgs:
				t.Fatalf("published while paused: %+v", m)
			case <-time.After(100 * time.Millisecond):
			}
			disk.setFull(false)
			for i, want := range []string{"b7-c7", "g13-g11"} {
				m := b.next()
				if m.Kind != MsgMove || m.Coord != want || m.Seq != uint64(4+i) {
					t.Fatalf("after the pause: %s %s seq %d, want move %s seq %d", m.Kind, m.Coord, m.Seq, want, 4+i)
				}
			}
			st = waitState(t, b.Live, "the game going on", func(st State) bool { return st.Status == "playing" && len(st.Moves) == 3 })
			if st.Message != "" || st.Seq != 5 {
				t.Errorf("after the pause: message %q, seq %d", st.Message, st.Seq)
			}
			if r := b.do("tags", `{"tags":{"Round":"2"}}`); !r.OK {
				t.Errorf("a command after the pause: %+v", r)
			}
			if got := fmt.Sprint(disk.seqs()); got != "[1 2 3 4 5 6]" {
				t.Errorf("written: %s, want every message once, in order: [1 2 3 4 5 6]", got)
			}
			// The journal sink wrote a message the log then refused: it is
			// not written twice.
			if got := fmt.Sprint(log.disk.seqs()); got != "[1 2 3 4 5 6]" {
				t.Errorf("stream log: %s, want [1 2 3 4 5 6]", got)
			}
		})
	}
}

// Numbering goes on above every durable record: the stream log and the
// floor the caller found in the journal and the MQTT acknowledged state.
func TestLiveNumbersAboveEveryDurableRecord(t *testing.T) {
	for _, tc := range []struct {
		name    string
		logged  uint64 // the stream log's last Seq (0: empty)
		floor   uint64
		wantSeq uint64 // the new game's game_start
	}{
		{name: "empty log, journal says 78", floor: 78, wantSeq: 79},
		{name: "log ahead", logged: 90, floor: 78, wantSeq: 91},
		{name: "log behind", logged: 43, floor: 78, wantSeq: 79},
		{name: "nothing anywhere", wantSeq: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &memLog{}
			if tc.logged > 0 {
				log.msgs = []Message{{Seq: tc.logged, Kind: MsgMove}}
			}
			l, err := NewLive(LiveConfig{Variant: "teams", Log: log, SeqFloor: tc.floor, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			if st := l.State(); st.Seq != tc.wantSeq {
				t.Errorf("game_start numbered %d, want %d", st.Seq, tc.wantSeq)
			}
			if last := log.Last(); last != tc.wantSeq {
				t.Errorf("log's last %d, want %d", last, tc.wantSeq)
			}
		})
	}
}

// Nobody's clock runs while the board is paused: the seat to move is
// charged for the time before and after the pause, not for the pause.
func TestLivePauseStopsTheClocks(t *testing.T) {
	var mu gosync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clk := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	disk := &flakyDisk{}
	ctl := clock.Control{Base: 10 * time.Minute}
	b := startLive(t, LiveConfig{Clock: &ctl, Now: clk, RetryEvery: time.Millisecond, Sinks: []func(Message) error{disk.write}})
	b.hand("-h2 +h4")
	b.next()
	advance(10 * time.Second) // Blue thinks 10 s
	disk.setFull(true)
	b.hand("-b7 +c7")
	waitState(t, b.Live, "pause", func(st State) bool { return st.Status == "paused" })
	advance(5 * time.Minute) // the disk stays full for 5 minutes
	disk.setFull(false)
	for b.next().Kind != MsgMove {
	}
	advance(3 * time.Second) // Yellow thinks 3 s after the pause
	b.hand("-g13 +g11")
	m := b.next()
	if m.Kind != MsgMove || len(m.Clocks) != 4 || m.Clocks[1] != 590000 || m.Clocks[2] != 597000 {
		t.Errorf("Yellow's move after a 5-minute pause: %s, clocks %v; want Blue 590000 and Yellow 597000 ms", m.Kind, m.Clocks)
	}
}
