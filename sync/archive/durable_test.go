package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// failingFile is a journal file on a disk that fails: the next write puts
// part bytes of its data on the real file, then fails with ENOSPC; sync
// or truncate can be made to fail too.
type failingFile struct {
	*os.File
	failWrite    bool
	part         int
	failSync     bool
	failTruncate int // how many truncates fail
}

func (f *failingFile) Write(b []byte) (int, error) {
	if !f.failWrite {
		return f.File.Write(b)
	}
	f.failWrite = false
	n, _ := f.File.Write(b[:min(f.part, len(b))])
	return n, fmt.Errorf("write %s: %w", f.Name(), syscall.ENOSPC)
}

func (f *failingFile) Sync() error {
	if f.failSync {
		f.failSync = false
		return fmt.Errorf("sync %s: %w", f.Name(), syscall.EIO)
	}
	return f.File.Sync()
}

func (f *failingFile) Truncate(n int64) error {
	if f.failTruncate > 0 {
		f.failTruncate--
		return fmt.Errorf("truncate %s: %w", f.Name(), syscall.EIO)
	}
	return f.File.Truncate(n)
}

// A failed append leaves the journal as it was (no half line, no Seq
// used up): the entry is appended again once the disk has room, and the
// journal reads back whole, whatever part of the write reached the disk.
func TestJournalFailedAppendLeavesTheFileAsItWas(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail failingFile
	}{
		{name: "nothing written", fail: failingFile{failWrite: true}},
		{name: "half a line written", fail: failingFile{failWrite: true, part: 9}},
		{name: "written, sync fails", fail: failingFile{failSync: true}},
		{name: "half a line, cutting it off fails once", fail: failingFile{failWrite: true, part: 9, failTruncate: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "current.journal")
			j, err := Create(path, Entry{Game: "g", Variant: "teams"})
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Append(Entry{Kind: "move", Seat: "Red", Move: "h2-h4", Msg: 2}); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(path)
			ff := tc.fail
			ff.File = j.f.(*os.File)
			j.f = &ff
			err = j.Append(Entry{Kind: "move", Seat: "Blue", Move: "b7-c7", Msg: 3})
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("append on a failing disk: %v, want an error naming %s", err, path)
			}
			if after, _ := os.ReadFile(path); tc.fail.failTruncate == 0 && !bytes.Equal(after, before) {
				t.Fatalf("after the failed append the file is\n%s\nwant it as it was:\n%s", after, before)
			}
			if j.Seq() != 2 {
				t.Errorf("Seq %d after a failed append, want 2", j.Seq())
			}
			for _, e := range []Entry{{Kind: "move", Seat: "Blue", Move: "b7-c7", Msg: 3}, {Kind: "move", Seat: "Yellow", Move: "g13-g11", Msg: 4}} {
				if err := j.Append(e); err != nil {
					t.Fatalf("append once the disk has room: %v", err)
				}
			}
			j.Close()
			_, entries, warn, err := Open(path)
			if err != nil || warn != "" || len(entries) != 4 {
				t.Fatalf("reopened: %d entries, warning %q, error %v; want 4 whole entries", len(entries), warn, err)
			}
			for i, e := range entries {
				if e.Seq != uint64(i+1) {
					t.Errorf("entry %d numbered %d", i+1, e.Seq)
				}
			}
			if g, err := Restore(entries, builtin); err != nil || len(g.Records()) != 3 {
				t.Errorf("restore: %v", err)
			}
		})
	}
}

// A journal damaged before its end never costs the game: every complete
// turn before the damage is restored, the warning names the damaged entry
// and where the damaged file went (its bytes kept as they were), and the
// game goes on from there.
func TestRecorderKeepsTheGameBeforeTheDamage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(lines []string, k int) // k: the 0-based line to damage
		// wantEntry is the entry the warning names (k+1).
	}{
		{name: "a flipped byte", damage: func(l []string, k int) { l[k] = strings.Replace(l[k], `"move"`, `"m#ve"`, 1) }},
		{name: "a torn write with more after it", damage: func(l []string, k int) { l[k] = l[k][:12] + l[k+1] }},
		{name: "an illegal move", damage: func(l []string, k int) { l[k] = strings.Replace(l[k], `"move":"`, `"move":"a1-`, 1) }},
		{name: "a number out of order", damage: func(l []string, k int) { l[k] = strings.Replace(l[k], fmt.Sprintf(`"seq":%d,`, k+1), `"seq":99,`, 1) }},
		{name: "zero bytes", damage: func(l []string, k int) { l[k] = strings.Repeat("\x00", len(l[k])) }},
	} {
		for _, k := range []int{1, 5, 20} {
			t.Run(fmt.Sprintf("%s at entry %d", tc.name, k+1), func(t *testing.T) {
				dir := t.TempDir()
				path, g := journalOf(t, dir, "teams/4pchess-26780486.pgn4")
				data, _ := os.ReadFile(path)
				lines := strings.SplitAfter(string(data), "\n")
				tc.damage(lines, k)
				damaged := strings.Join(lines, "")
				rec := &Recorder{Dir: dir, Lookup: builtin}
				if err := os.Rename(path, rec.current()); err != nil {
					t.Fatal(err)
				}
				os.WriteFile(rec.current(), []byte(damaged), 0o644)
				res, err := rec.Resume()
				if err != nil || res == nil {
					t.Fatalf("resume: %v", err)
				}
				if n := len(res.Game.Records()); n != k-1 {
					t.Errorf("restored %d turns, want the %d before the damage", n, k-1)
				}
				for i, r := range res.Game.Records() {
					if r.Move != g.Records()[i].Move {
						t.Fatalf("turn %d: %s, played %s", i+1, r.Text, g.Records()[i].Text)
					}
				}
				moved, _ := filepath.Glob(filepath.Join(dir, "journals", "damaged-*.journal"))
				if len(moved) != 1 {
					t.Fatalf("damaged files kept: %v, want one", moved)
				}
				if kept, _ := os.ReadFile(moved[0]); string(kept) != damaged {
					t.Errorf("the damaged file was not kept as it was")
				}
				if !strings.Contains(res.Warning, fmt.Sprintf("entry %d ", k+1)) || !strings.Contains(res.Warning, moved[0]) {
					t.Errorf("warning %q does not name entry %d and %s", res.Warning, k+1, moved[0])
				}
				// The game goes on from there.
				next := g.Records()[k-1]
				if err := rec.Record(referee.Message{Seq: 500, Kind: referee.MsgMove, Game: res.ID, Seat: next.Seat.String(), Coord: next.Move.String()}); err != nil {
					t.Fatal(err)
				}
				rec.Close()
				res, err = (&Recorder{Dir: dir, Lookup: builtin}).Resume()
				if err != nil || res == nil || len(res.Game.Records()) != k {
					t.Fatalf("resume after playing on: %v", err)
				}
			})
		}
	}
}

// The stream keeps every good message, those after a damaged line too,
// and a restarted board numbers on above the highest.
func TestStreamKeepsGoodMessagesAfterDamage(t *testing.T) {
	line := func(seq uint64) string {
		b, _ := jsonLine(referee.Message{Seq: seq, Kind: referee.MsgMove, Text: "x"})
		return b
	}
	for _, tc := range []struct {
		name     string
		data     string
		wantSeqs string
		wantLast uint64 // numbering goes on after it
	}{
		{name: "garbage in the middle", data: line(1) + line(2) + "garbage\n" + line(3) + line(4), wantSeqs: "[1 2 3 4]", wantLast: 4},
		{name: "a torn line with more after it", data: line(1) + line(2)[:10] + line(3) + line(4), wantSeqs: "[1 4]", wantLast: 4},
		{name: "a message out of order", data: line(1) + line(5) + line(3) + line(6), wantSeqs: "[1 5 6]", wantLast: 6},
		{name: "zero bytes", data: line(1) + strings.Repeat("\x00", 40) + "\n" + line(2), wantSeqs: "[1 2]", wantLast: 2},
		{name: "a cut-off last line", data: line(1) + line(2) + line(3)[:7], wantSeqs: "[1 2]", wantLast: 2},
		{name: "random bytes only", data: "\x8f\x01{]]\n\xff", wantSeqs: "[]", wantLast: 1},
		{name: "an empty JSON object", data: line(1) + "{}\n" + line(2), wantSeqs: "[1 2]", wantLast: 2},
		{name: "the last two lines damaged", data: line(1) + line(2) + "garbage\n" + strings.Repeat("\x00", 30) + "\n", wantSeqs: "[1 2]", wantLast: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stream.jsonl")
			os.WriteFile(path, []byte(tc.data), 0o644)
			s, warn, err := OpenStream(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if warn == "" || !strings.Contains(warn, path) {
				t.Errorf("no warning naming %s for a damaged stream (%q)", path, warn)
			}
			msgs, _ := s.Since(1)
			var seqs []uint64
			for _, m := range msgs {
				seqs = append(seqs, m.Seq)
			}
			if got := fmt.Sprint(seqs); got != tc.wantSeqs {
				t.Errorf("kept %s, want %s", got, tc.wantSeqs)
			}
			if s.Last() != tc.wantLast {
				t.Errorf("numbering goes on after %d, want %d: a damaged whole line after the last good message may have held one", s.Last(), tc.wantLast)
			}
			if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a temporary file is left: %v", err)
			}
		})
	}
}

func jsonLine(m referee.Message) (string, error) {
	line, err := json.Marshal(m)
	return string(line) + "\n", err
}

// HighSeq finds the highest stream Seq the journals name, in the game in
// progress, in damaged parts and in finished games' journals.
func TestHighSeq(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "journals"), 0o755)
	if got := HighSeq(dir); got != 0 {
		t.Errorf("empty directory: %d", got)
	}
	os.WriteFile(filepath.Join(dir, "journals", "g1.journal"), []byte(`{"seq":1,"kind":"start","msg":40}`+"\n"+`{"seq":2,"kind":"move","msg":77}`+"\n"), 0o644)
	if got := HighSeq(dir); got != 77 {
		t.Errorf("a finished game's journal: %d, want 77", got)
	}
	os.WriteFile(filepath.Join(dir, "current.journal"), []byte(`{"seq":1,"kind":"start","msg":78}`+"\n"+`{"seq":2,"k{"seq":3,"kind":"move","msg":81}`+"\n"), 0o644)
	if got := HighSeq(dir); got != 81 {
		t.Errorf("the game in progress, damaged: %d, want 81", got)
	}
}

// mountTmpfs mounts a tmpfs of size bytes on a new directory; the test is
// skipped (saying why) where mounting is not permitted.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("needs a real full disk: mounting a %d-byte tmpfs was not permitted (run as root): %v %s", size, err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill takes all the space of the file system at dir; free gives it back.
func fill(t *testing.T, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	for n := 512; n > 0; n /= 2 { // the last bytes
		for {
			if _, err := f.Write(buf[:n]); err != nil {
				break
			}
		}
	}
	f.Close()
	return func() { os.Remove(path) }
}

// The case on a real full disk: a real game played on a live board
// whose state directory is a 200 KB tmpfs, filled up at random moments.
// No move is acknowledged before it is on disk, the board pauses while
// the disk is full and carries on by itself once there is room, and after
// a restart every acknowledged move is there, with no Seq reused.
func TestFullDiskLosesNoAcknowledgedMove(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game on a tmpfs")
	}
	dir := mountTmpfs(t, 200<<10)
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", "teams", "4pchess-26780486.pgn4"))
	if err != nil {
		t.Fatal(err)
	}
	pg, _, _ := pgn4.ParseString(string(data))
	want, _, err := pgn4.Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := rules.NewVariant("teams", "")
	g, _ := rules.NewGame(v, "")
	b := openBoard(t, dir, g.Position().Occupancy())
	rnd := rand.New(rand.NewSource(13))
	var acked []string
	var seqs []uint64
	pauses := 0
	var free func()
	for i, r := range want.Records() {
		if r.Action != rules.ActMove || i == 50 {
			break
		}
		if free == nil && rnd.Intn(3) == 0 {
			free = fill(t, dir) // full until the board pauses: a file's last page may still take a line or two
		}
		for _, e := range hands(g.Position(), r.Move) {
			b.live.Touches() <- e
		}
		g.Play(r.Move)
		deadline := time.Now().Add(5 * time.Second)
		for done, paused := false, false; !done; {
			if time.Now().After(deadline) {
				t.Fatalf("turn %d (%s) never acknowledged", i+1, r.Text)
			}
			select {
			case m := <-b.msgs:
				seqs = append(seqs, m.Seq)
				if m.Kind == referee.MsgMove {
					acked = append(acked, m.Coord)
					done = true
				}
			case <-time.After(5 * time.Millisecond):
				st := b.live.State()
				if st.Status != "paused" || paused {
					continue
				}
				paused = true
				if free == nil {
					t.Fatalf("turn %d: paused with no filler: the tmpfs is too small for the test (%s)", i+1, st.Message)
				}
				pauses++
				if len(st.Moves) != len(acked) || !strings.HasPrefix(st.Message, "storage full") {
					t.Fatalf("paused: %d moves shown (%d acknowledged), message %q", len(st.Moves), len(acked), st.Message)
				}
				time.Sleep(time.Duration(rnd.Intn(30)) * time.Millisecond)
				free()
				free = nil
			}
		}
	}
	if free != nil {
		free()
	}
	b.stop()
	b.rec.Close()
	b.stream.Close()
	if pauses == 0 {
		t.Fatal("the disk never filled up")
	}
	rec := &Recorder{Dir: dir, Lookup: builtin}
	res, err := rec.Resume()
	if err != nil || res == nil || res.Warning != "" {
		t.Fatalf("resume: %v %+v", err, res)
	}
	if n := len(res.Game.Records()); n != len(acked) {
		t.Errorf("%d moves acknowledged, %d in the journal after a restart", len(acked), n)
	}
	for i, r := range res.Game.Records() {
		if i < len(acked) && r.Move.String() != acked[i] {
			t.Fatalf("journal turn %d: %s, acknowledged %s", i+1, r.Move, acked[i])
		}
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Fatalf("published seq %d after %d", seqs[i], seqs[i-1])
		}
	}
	s, warn, err := OpenStream(filepath.Join(dir, "stream.jsonl"), 0)
	if err != nil || warn != "" || s.Last() != seqs[len(seqs)-1] {
		t.Fatalf("stream after the game: last %d (published up to %d), %q %v", s.Last(), seqs[len(seqs)-1], warn, err)
	}
	s.Close()
	t.Logf("%d moves acknowledged, %d pauses on a full disk, 0 lost", len(acked), pauses)
}

// A stream that lost messages (emptied, cut short, replaced, deleted)
// numbers on after the reservation, never below a Seq it used; a clean
// restart goes on from the last message, with no gap.
func TestStreamNumbersOnAfterLosingMessages(t *testing.T) {
	const written = 250
	for _, tc := range []struct {
		name    string
		damage  func(path string)
		atLeast uint64 // the next Seq is above this
		exactly bool   // and no more: no gap
	}{
		{name: "intact", damage: func(string) {}, atLeast: written, exactly: true},
		{name: "the reservation lost, the stream intact", damage: func(p string) { os.Remove(p + ".seq") }, atLeast: written, exactly: true},
		{name: "emptied", damage: func(p string) { os.WriteFile(p, nil, 0o644) }, atLeast: written},
		{name: "deleted", damage: func(p string) { os.Remove(p) }, atLeast: written},
		{name: "cut in half", damage: func(p string) { d, _ := os.ReadFile(p); os.WriteFile(p, d[:len(d)/2], 0o644) }, atLeast: written},
		{name: "random bytes", damage: func(p string) { os.WriteFile(p, []byte("\x8f\x01{]]\nseq\xff\n"), 0o644) }, atLeast: written},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stream.jsonl")
			s, _, err := OpenStream(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			for i := uint64(1); i <= written; i++ {
				if err := s.Append(referee.Message{Seq: i, Kind: referee.MsgIllegal, Text: "not journaled"}); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			tc.damage(path)
			s, _, err = OpenStream(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Last() < tc.atLeast || tc.exactly && s.Last() != tc.atLeast {
				t.Errorf("numbering goes on after %d; %d were used (gap allowed: %v)", s.Last(), tc.atLeast, !tc.exactly)
			}
			if err := s.Append(referee.Message{Seq: s.Last() + 1, Kind: referee.MsgIllegal}); err != nil {
				t.Errorf("append after reopening: %v", err)
			}
		})
	}
}

// A damaged stream opened on a full disk cannot be rewritten: it is kept
// as it is (its partial last line cut off, which takes no space) and the
// board starts; the damaged lines are skipped on every read.
func TestStreamOpensOnAFullDisk(t *testing.T) {
	dir := mountTmpfs(t, 64<<10)
	path := filepath.Join(dir, "stream.jsonl")
	line := func(seq uint64) string { l, _ := jsonLine(referee.Message{Seq: seq, Kind: referee.MsgMove}); return l }
	os.WriteFile(path, []byte(line(1)+"garbage\n"+line(2)+line(3)[:9]), 0o644)
	free := fill(t, dir)
	defer free()
	s, warn, err := OpenStream(path, 0)
	if err != nil {
		t.Fatalf("open on a full disk: %v", err)
	}
	defer s.Close()
	if !strings.Contains(warn, "not rewritten") || s.Last() != 2 {
		t.Errorf("warning %q, last %d; want not rewritten, last 2", warn, s.Last())
	}
	free()
	if err := s.Append(referee.Message{Seq: 3, Kind: referee.MsgMove}); err != nil {
		t.Fatal(err)
	}
	msgs, _ := s.Since(1)
	if len(msgs) != 3 || msgs[2].Seq != 3 {
		t.Errorf("after the disk has room: %d messages, want 1, 2 and 3", len(msgs))
	}
}

// A journal damaged in the middle found on a full disk cannot be repaired:
// it is left exactly as it was (no new game over it), the error says so,
// and once there is room the repair keeps the game before the damage.
func TestDamagedJournalOnAFullDisk(t *testing.T) {
	dir := mountTmpfs(t, 256<<10)
	path, g := journalOf(t, dir, "teams/4pchess-26780486.pgn4")
	rec := &Recorder{Dir: dir, Lookup: builtin}
	os.Rename(path, rec.current())
	data, _ := os.ReadFile(rec.current())
	lines := strings.SplitAfter(string(data), "\n")
	lines[10] = "damaged\n"
	damaged := strings.Join(lines, "")
	os.WriteFile(rec.current(), []byte(damaged), 0o644)
	free := fill(t, dir)
	_, err := rec.Resume()
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "entry 11") || !strings.Contains(err.Error(), "left as it was") {
		t.Errorf("resume on a full disk: %v; want ENOSPC, naming entry 11, the journal left as it was", err)
	}
	if now, _ := os.ReadFile(rec.current()); string(now) != damaged {
		t.Errorf("the journal changed on a full disk")
	}
	if moved, _ := filepath.Glob(filepath.Join(dir, "journals", "*")); len(moved) != 0 {
		t.Errorf("files in journals/ after a failed repair: %v", moved)
	}
	free()
	res, err := (&Recorder{Dir: dir, Lookup: builtin}).Resume()
	if err != nil || res == nil || len(res.Game.Records()) != 9 || res.Game.Records()[8].Move != g.Records()[8].Move {
		t.Fatalf("resume once there is room: %v", err)
	}
}
