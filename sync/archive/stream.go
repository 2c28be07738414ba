package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	gosync "sync"

	"boardd/referee"
)

// Stream is the board's message stream on disk (JSON lines, synced per
// message), so MQTT and other consumers can resume from any sequence
// number across restarts and outages. It implements referee.StreamLog.
// On open, a cut-off last line and damaged lines are dropped (the good
// messages after a damaged line are kept) and a file grown past 2×keep
// messages is cut back to the newest keep. A failed Append is cut off
// again, so the file keeps only whole lines.
//
// Seq numbers are reserved ReserveBlock at a time in path+".seq" (one
// small synced write per block) before a message of a new block is
// written, and Close marks the reservation file as closed cleanly (with
// the last Seq). A stream opened after any other end (a crash, kill -9,
// the power lost before the OS wrote the file's tail) numbers on after
// the reservation, not after the last message on disk: a message that
// went out to subscribers but never reached the disk keeps its Seq to
// itself. That skips at most ReserveBlock-1 numbers per unclean stop;
// consumers see the gap as messages no longer kept (referee.Resume).
type Stream struct {
	mu       gosync.Mutex
	path     string
	f        *os.File
	last     uint64
	size     int64  // the length of the whole lines
	reserved uint64 // the highest Seq reserved in path+".seq"
	appended bool   // a message was appended since OpenStream
	closed   bool
}

// cleanMark follows the reservation in path+".seq" after a clean Close:
// "<reserved> clean <last Seq>".
const cleanMark = " clean "

// ReserveBlock is how many Seq numbers one reservation covers.
const ReserveBlock = 100

// DefaultKeep is how many messages OpenStream keeps when it compacts.
const DefaultKeep = 20000

// OpenStream opens (or creates) the stream file at path, keeping at least
// keep messages (0: DefaultKeep). warn says what a repair dropped.
func OpenStream(path string, keep int) (s *Stream, warn string, err error) {
	if keep <= 0 {
		keep = DefaultKeep
	}
	os.Remove(path + ".tmp") // rewrites that were cut off
	os.Remove(path + ".seq.tmp")
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, "", fmt.Errorf("stream: %w", err)
	}
	msgs, dropped := parseStream(data)
	last := max(lastSeq(msgs), damagedHigh(data, lastSeq(msgs)))
	rsv := readReserved(path + ".seq")
	reserved := rsv.reserved
	var jumped string
	switch {
	case rsv.damaged != "":
		// Unreadable: it may have reserved a block past the last message
		// (sent to subscribers, never written). Skip one, never reuse.
		jumped = fmt.Sprintf("stream %s: its reservation file %s.seq %s: repaired; numbering goes on after %d (%d numbers after the last kept message %d skipped, never reused)",
			path, path, rsv.damaged, last+ReserveBlock, ReserveBlock, last)
		last += ReserveBlock
		reserved = last
	case rsv.clean && rsv.last > last:
		// Closed cleanly, and messages were lost since (emptied, cut short,
		// replaced while the board was off).
		dropped = strings.TrimPrefix(dropped+", ", ", ") + fmt.Sprintf("messages up to %d (the last at its clean close, in %s.seq)", rsv.last, path)
		last = rsv.last
	case rsv.clean:
		// The first message after a clean close writes a fresh reservation
		// (without the mark) before it reaches the file.
		reserved = last
	case reserved > last:
		// Not closed cleanly: messages up to the reservation may have gone
		// out to subscribers without reaching the disk.
		jumped = fmt.Sprintf("stream %s: not closed cleanly; numbering goes on after %d, the end of the reservation in %s.seq (%d numbers after the last kept message %d skipped, never reused)",
			path, reserved, path, reserved-last, last)
		last = reserved
	}
	if dropped != "" {
		warn = fmt.Sprintf("stream %s: dropped %s; kept %d messages, numbering goes on after %d", path, dropped, len(msgs), last)
	}
	if jumped != "" {
		warn = strings.TrimPrefix(warn+"; ", "; ") + jumped
	}
	size := int64(len(data))
	if len(msgs) > 2*keep || dropped != "" {
		if len(msgs) > 2*keep {
			msgs = msgs[len(msgs)-keep:]
		}
		var buf bytes.Buffer
		for _, m := range msgs {
			line, _ := json.Marshal(m)
			buf.Write(line)
			buf.WriteByte('\n')
		}
		if err := writeAtomic(path, buf.Bytes()); err == nil {
			size = int64(buf.Len())
		} else {
			// No room to rewrite it (a full disk): keep the file, cut off a
			// partial last line only; every read skips the damaged lines.
			size = int64(bytes.LastIndexByte(data, '\n') + 1)
			if size < int64(len(data)) {
				if terr := os.Truncate(path, size); terr != nil {
					return nil, "", fmt.Errorf("stream %s: %v; cutting off its partial last line: %w", path, err, terr)
				}
			}
			warn = strings.TrimPrefix(warn+"; ", "; ") + "not rewritten: " + err.Error()
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, "", fmt.Errorf("stream: %w", err)
	}
	return &Stream{path: path, f: f, last: last, size: size, reserved: reserved}, warn, nil
}

// reservation is what a reservation file says.
type reservation struct {
	reserved uint64 // the highest Seq reserved (0: missing or damaged)
	clean    bool   // the stream was closed cleanly
	last     uint64 // the last Seq at the clean close
	damaged  string // what is wrong with a damaged file ("": missing or good)
}

// readReserved reads a reservation file: "<reserved>" while the stream is
// open, "<reserved> clean <last>" after a clean Close. A missing file
// reserves nothing and is not clean; a damaged one (not those forms, or
// a number above referee.MaxSeq) says what is wrong in damaged.
func readReserved(path string) reservation {
	data, err := os.ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			return reservation{damaged: "cannot be read (" + err.Error() + ")"}
		}
		return reservation{}
	}
	text := strings.TrimSpace(string(data))
	bad := reservation{damaged: fmt.Sprintf(`holds %q, not a reservation (a number up to %d, after a clean close followed by "clean" and the last number)`,
		clipText(text), uint64(referee.MaxSeq))}
	head, tail, clean := strings.Cut(text, cleanMark)
	n, err := strconv.ParseUint(head, 10, 64)
	if err != nil || n > referee.MaxSeq {
		return bad
	}
	r := reservation{reserved: n}
	if clean {
		// A damaged mark: the reservation stands, as after a crash.
		if last, err := strconv.ParseUint(tail, 10, 64); err == nil && last <= n {
			r.clean, r.last = true, last
		}
	}
	return r
}

// damagedHigh is the highest Seq the damaged lines after the last good
// message (good) may have used: one each, for every whole line that is
// not a message. A cut-off last line was never synced, so never
// published, and counts for nothing.
func damagedHigh(data []byte, good uint64) uint64 {
	after := uint64(0)
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 || line[len(line)-1] != '\n' {
			break
		}
		var m referee.Message
		if json.Unmarshal(line, &m) == nil && m.Seq > 0 && m.Seq <= referee.MaxSeq && m.Kind != "" {
			after = 0
		} else {
			after++
		}
	}
	return good + after
}

func lastSeq(msgs []referee.Message) uint64 {
	if len(msgs) == 0 {
		return 0
	}
	return msgs[len(msgs)-1].Seq
}

// parseStream reads the complete, well-formed messages with rising Seq:
// a damaged line, a cut-off last line or a message that does not rise is
// skipped, and the good messages after it are kept. dropped says what was
// skipped ("" if nothing).
func parseStream(data []byte) (out []referee.Message, dropped string) {
	var bad []string
	r := bufio.NewReader(bytes.NewReader(data))
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			break
		}
		var m referee.Message
		switch {
		case err != nil:
			bad = append(bad, fmt.Sprintf("a cut-off last line (%d bytes)", len(line)))
		case json.Unmarshal(line, &m) != nil || m.Seq == 0 || m.Seq > referee.MaxSeq || m.Kind == "":
			bad = append(bad, fmt.Sprintf("damaged line %d", n))
		case m.Seq <= lastSeq(out):
			bad = append(bad, fmt.Sprintf("line %d (seq %d after %d)", n, m.Seq, lastSeq(out)))
		default:
			out = append(out, m)
		}
	}
	if len(bad) > 3 {
		bad = append(bad[:3], fmt.Sprintf("%d more", len(bad)-3))
	}
	return out, strings.Join(bad, ", ")
}

// Append implements referee.StreamLog. A failed write is cut off again:
// the file is as it was, and m can be appended once the disk has room.
func (s *Stream) Append(m referee.Message) error {
	line, err := json.Marshal(m)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("stream %s: message %d after Close", s.path, m.Seq)
	}
	if m.Seq <= s.last {
		return fmt.Errorf("stream %s: message %d after %d", s.path, m.Seq, s.last)
	}
	if m.Seq > s.reserved {
		r := m.Seq + ReserveBlock - 1
		if err := writeAtomic(s.path+".seq", []byte(strconv.FormatUint(r, 10)+"\n")); err != nil {
			return fmt.Errorf("stream %s: reserving numbers: %w", s.path, err)
		}
		s.reserved = r
	}
	_, err = s.f.Write(line)
	if err == nil {
		err = s.f.Sync()
	}
	if err != nil {
		s.f.Truncate(s.size)
		return fmt.Errorf("stream %s: %w", s.path, err)
	}
	s.last = m.Seq
	s.size += int64(len(line))
	s.appended = true
	return nil
}

// Since implements referee.StreamLog.
func (s *Stream) Since(from uint64) ([]referee.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := os.ReadFile(s.path)
	if err != nil {
		return nil, fmt.Errorf("stream: %w", err)
	}
	msgs, _ := parseStream(data)
	for i, m := range msgs {
		if m.Seq >= from {
			return msgs[i:], nil
		}
	}
	return nil, nil
}

// Last implements referee.StreamLog.
func (s *Stream) Last() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Close closes the file and, when messages were appended since the open,
// marks the reservation file as closed cleanly, so the next OpenStream
// numbers on right after the last message. If the
// mark cannot be written, the next open skips to the reservation's end
// (safe, with a gap); the error says so.
func (s *Stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.f.Close()
	if err != nil {
		return fmt.Errorf("stream %s: %w", s.path, err)
	}
	if !s.appended {
		// Nothing numbered since the open: the reservation file says what
		// it said then (a failed start leaves the state as it found it).
		return nil
	}
	mark := strconv.FormatUint(max(s.reserved, s.last), 10) + cleanMark + strconv.FormatUint(s.last, 10) + "\n"
	if err := writeAtomic(s.path+".seq", []byte(mark)); err != nil {
		return fmt.Errorf("stream %s: marking a clean close (the next start skips to the reservation's end): %w", s.path, err)
	}
	return nil
}
