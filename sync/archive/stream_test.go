package archive

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/referee"
)

// crash ends a stream as a crash or a power cut does: the file is closed
// without Close's clean mark.
func crash(s *Stream) { s.f.Close() }

// A stream cut short at a line boundary after an unclean stop (the power
// went before the OS wrote the file's tail) never numbers a message with
// a Seq that went out before: every cut of the last reservation's lines,
// after each way the board can have run before, is reopened and the next
// Seq checked against every Seq handed out.
func TestStreamCutShortNeverReusesASeq(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, path string) uint64 // the last Seq handed out
	}{
		{"one session, three blocks", func(t *testing.T, path string) uint64 {
			s := openT(t, path)
			appendN(t, s, 1, 250)
			crash(s)
			return 250
		}},
		{"a clean session, then a crash early in the next", func(t *testing.T, path string) uint64 {
			s := openT(t, path)
			appendN(t, s, 1, 120)
			s.Close()
			s = openT(t, path)
			appendN(t, s, 121, 130)
			crash(s)
			return 130
		}},
		{"a crash, then a second crash after the gap", func(t *testing.T, path string) uint64 {
			s := openT(t, path)
			appendN(t, s, 1, 40)
			crash(s)
			s = openT(t, path)
			appendN(t, s, s.Last()+1, s.Last()+30)
			last := s.Last()
			crash(s)
			return last
		}},
		{"the numbering raised by another record (SeqFloor)", func(t *testing.T, path string) uint64 {
			s := openT(t, path)
			appendN(t, s, 1, 10)
			s.Close()
			s = openT(t, path)
			appendN(t, s, 500, 520)
			crash(s)
			return 520
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "stream.jsonl")
			handed := tc.run(t, path)
			data, _ := os.ReadFile(path)
			seqFile, _ := os.ReadFile(path + ".seq")
			lines := bytes.SplitAfter(data, []byte("\n"))
			lines = lines[:len(lines)-1] // the empty string after the last newline
			// Every cut from the start of the block that holds the last
			// message (and one block before it) to the whole file.
			from := max(0, len(lines)-ReserveBlock-1)
			for keep := from; keep <= len(lines); keep++ {
				cut := filepath.Join(dir, fmt.Sprintf("cut%d.jsonl", keep))
				os.WriteFile(cut, bytes.Join(lines[:keep], nil), 0o644)
				os.WriteFile(cut+".seq", seqFile, 0o644)
				s, warn, err := OpenStream(cut, 0)
				if err != nil {
					t.Fatalf("cut after %d lines: %v", keep, err)
				}
				if s.Last() < handed {
					t.Errorf("cut after %d lines: numbering goes on after %d, but %d went out before", keep, s.Last(), handed)
				}
				if !strings.Contains(warn, "not closed cleanly") {
					t.Errorf("cut after %d lines: warning %q does not say the stop was unclean", keep, warn)
				}
				if err := s.Append(referee.Message{Seq: s.Last() + 1, Kind: referee.MsgIllegal}); err != nil {
					t.Errorf("cut after %d lines: append: %v", keep, err)
				}
				s.Close()
			}
		})
	}
}

// Only an unclean stop leaves a gap: after Close the numbering goes on
// right after the last message, however often the board restarts.
func TestStreamCleanRestartsLeaveNoGap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stream.jsonl")
	next := uint64(1)
	for restart := range 5 {
		s := openT(t, path)
		if s.Last() != next-1 {
			t.Fatalf("restart %d: numbering goes on after %d, want %d", restart, s.Last(), next-1)
		}
		appendN(t, s, next, next+36)
		next += 37
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	msgs, _ := openT(t, path).Since(1)
	for i, m := range msgs {
		if m.Seq != uint64(i+1) {
			t.Fatalf("message %d has Seq %d", i+1, m.Seq)
		}
	}
}

// What the reservation file says decides where numbering goes on.
func TestStreamReservationFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		seqFile  string // "" leaves none
		messages uint64 // messages 1..n in the stream
		last     uint64
		warn     string
	}{
		{name: "no reservation file (an old stream)", messages: 30, last: 30},
		{name: "open, messages up to the reservation's middle", seqFile: "100\n", messages: 30, last: 100, warn: "not closed cleanly"},
		{name: "open, the reservation used up", seqFile: "100\n", messages: 100, last: 100},
		{name: "closed cleanly", seqFile: "100 clean 30\n", messages: 30, last: 30},
		{name: "closed cleanly, then cut short while off", seqFile: "100 clean 30\n", messages: 20, last: 30, warn: "messages up to 30"},
		{name: "closed cleanly, then emptied", seqFile: "100 clean 30\n", messages: 0, last: 30, warn: "messages up to 30"},
		{name: "a damaged mark counts as unclean", seqFile: "100 clean x\n", messages: 30, last: 100, warn: "not closed cleanly"},
		{name: "a mark above the reservation counts as unclean", seqFile: "100 clean 300\n", messages: 30, last: 100, warn: "not closed cleanly"},
		// Issue 28: garbage was ignored without a word (and numbering went
		// on after the last message, reusing what the lost reservation
		// may have sent); a number past referee.MaxSeq ran numbering over.
		{name: "a damaged reservation file", seqFile: "\x00\x00", messages: 30, last: 130, warn: `stream.jsonl.seq holds "\x00\x00", not a reservation`},
		{name: "garbage in the reservation file", seqFile: "garbage\n", messages: 30, last: 130, warn: `holds "garbage", not a reservation`},
		{name: "the largest number after a kill -9", seqFile: "18446744073709551615\n", messages: 30, last: 130, warn: `holds "18446744073709551615"`},
		{name: "the largest number after a clean close", seqFile: "18446744073709551615 clean 30\n", messages: 30, last: 130, warn: "repaired; numbering goes on after 130"},
		{name: "past MaxSeq", seqFile: "9007199254740992\n", messages: 30, last: 130, warn: "not a reservation"},
		{name: "MaxSeq itself is a number", seqFile: "9007199254740991\n", messages: 30, last: 9007199254740991, warn: "not closed cleanly"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "stream.jsonl")
			var buf bytes.Buffer
			for i := uint64(1); i <= tc.messages; i++ {
				l, _ := jsonLine(referee.Message{Seq: i, Kind: referee.MsgIllegal})
				buf.WriteString(l)
			}
			os.WriteFile(path, buf.Bytes(), 0o644)
			if tc.seqFile != "" {
				os.WriteFile(path+".seq", []byte(tc.seqFile), 0o644)
			}
			s, warn, err := OpenStream(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Last() != tc.last {
				t.Errorf("numbering goes on after %d, want %d", s.Last(), tc.last)
			}
			if tc.warn == "" && warn != "" || !strings.Contains(warn, tc.warn) {
				t.Errorf("warning %q, want one with %q", warn, tc.warn)
			}
		})
	}
}

func openT(t *testing.T, path string) *Stream {
	t.Helper()
	s, _, err := OpenStream(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func appendN(t *testing.T, s *Stream, from, to uint64) {
	t.Helper()
	for i := from; i <= to; i++ {
		if err := s.Append(referee.Message{Seq: i, Kind: referee.MsgDrawOffer, Text: "sent, not journaled"}); err != nil {
			t.Fatal(err)
		}
	}
}
