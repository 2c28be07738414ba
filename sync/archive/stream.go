package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	gosync "sync"

	"boardd/referee"
)

// Stream is the board's message stream on disk (JSON lines, synced per
// message), so MQTT and other consumers can resume from any sequence
// number across restarts and outages. It implements referee.StreamLog.
// On open, a cut-off last line is dropped and a file grown past
// 2×keep messages is cut back to the newest keep.
type Stream struct {
	mu   gosync.Mutex
	path string
	f    *os.File
	last uint64
}

// DefaultKeep is how many messages OpenStream keeps when it compacts.
const DefaultKeep = 20000

// OpenStream opens (or creates) the stream file at path, keeping at least
// keep messages (0: DefaultKeep). warn says what a repair dropped.
func OpenStream(path string, keep int) (s *Stream, warn string, err error) {
	if keep <= 0 {
		keep = DefaultKeep
	}
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, "", fmt.Errorf("stream: %w", err)
	}
	msgs, good := parseStream(data)
	if good < len(data) {
		warn = fmt.Sprintf("stream %s: dropped %d bytes after message %d (a cut-off write)", path, len(data)-good, lastSeq(msgs))
	}
	if len(msgs) > 2*keep || good < len(data) {
		if len(msgs) > 2*keep {
			msgs = msgs[len(msgs)-keep:]
		}
		var buf bytes.Buffer
		for _, m := range msgs {
			line, _ := json.Marshal(m)
			buf.Write(line)
			buf.WriteByte('\n')
		}
		if err := writeAtomic(path, buf.Bytes()); err != nil {
			return nil, "", err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, "", fmt.Errorf("stream: %w", err)
	}
	return &Stream{path: path, f: f, last: lastSeq(msgs)}, warn, nil
}

func lastSeq(msgs []referee.Message) uint64 {
	if len(msgs) == 0 {
		return 0
	}
	return msgs[len(msgs)-1].Seq
}

// parseStream reads the complete, well-formed, rising messages; good is
// the length of the prefix that holds them.
func parseStream(data []byte) ([]referee.Message, int) {
	var out []referee.Message
	good := 0
	r := bufio.NewReader(bytes.NewReader(data))
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF || err != nil {
			return out, good
		}
		var m referee.Message
		if json.Unmarshal(line, &m) != nil || m.Seq <= lastSeq(out) {
			return out, good
		}
		out = append(out, m)
		good += len(line)
	}
}

// Append implements referee.StreamLog.
func (s *Stream) Append(m referee.Message) error {
	line, err := json.Marshal(m)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.Seq <= s.last {
		return fmt.Errorf("stream %s: message %d after %d", s.path, m.Seq, s.last)
	}
	if _, err := s.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("stream %s: %w", s.path, err)
	}
	s.last = m.Seq
	return s.f.Sync()
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

// Close closes the file.
func (s *Stream) Close() error { return s.f.Close() }
