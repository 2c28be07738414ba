package mqtt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"boardd/referee"
)

// persistEvery bounds how long an acknowledged position stays unwritten
// while messages keep coming; when the queue runs empty it is written at
// once.
const persistEvery = time.Second

// stateFile is the content of Config.StateFile.
type stateFile struct {
	Board string `json:"board"`
	Acked uint64 `json:"acked"`
}

// startSeq returns the last acknowledged Seq to resume after: the state
// file's, or the board's current Seq when there is none (the retained
// state covers the past).
func (m *Mirror) startSeq() uint64 {
	latest := m.src.State().Seq
	if m.cfg.StateFile == "" {
		return latest
	}
	removeLeftovers(m.cfg.StateFile)
	acked, err := loadState(m.cfg.StateFile, m.cfg.Board)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		m.log.Info("mqtt: no state file yet; publishing from the board's next message", "file", m.cfg.StateFile, "seq", latest+1)
		return latest
	case err != nil:
		m.log.Warn("mqtt: state file unreadable; publishing from the board's next message", "error", err, "seq", latest+1)
		return latest
	case acked > latest:
		m.log.Warn("mqtt: the state file is ahead of the board (was the board's stream reset?); publishing from the board's next message",
			"file", m.cfg.StateFile, "acked", acked, "seq", latest+1)
		return latest
	}
	if acked < latest {
		m.log.Info("mqtt: resuming the event stream", "from", acked+1, "latest", latest)
	}
	return acked
}

// AckedSeq is the last Seq the state file at path says the broker
// acknowledged for board (0 if there is none, or it is unreadable or
// another board's): one of the records a restarted board numbers its
// messages above, so no Seq a display has seen comes round again.
func AckedSeq(path, board string) uint64 {
	acked, err := loadState(path, board)
	if err != nil {
		return 0
	}
	return acked
}

// removeLeftovers removes the temporary files saveState leaves when the
// daemon is killed between writing one and renaming it.
func removeLeftovers(path string) {
	old, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".*"))
	for _, f := range old {
		os.Remove(f)
	}
}

func loadState(path, board string) (uint64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var s stateFile
	if err := json.Unmarshal(data, &s); err != nil {
		return 0, fmt.Errorf("state file %s: %v (delete it to start from the board's current state)", path, err)
	}
	if s.Board != board {
		return 0, fmt.Errorf("state file %s belongs to board %q, not %q", path, s.Board, board)
	}
	if s.Acked > referee.MaxSeq {
		return 0, fmt.Errorf("state file %s: acked %d is above the highest Seq a board uses (%d): damaged, ignored", path, s.Acked, uint64(referee.MaxSeq))
	}
	return s.Acked, nil
}

// saveState writes the state file atomically: a temporary file in the same
// directory, synced, then renamed over the old one.
func saveState(path, board string, acked uint64) error {
	data, _ := json.Marshal(stateFile{Board: board, Acked: acked})
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("state file %s: %w", path, err)
	}
	return nil
}

// persist writes the acknowledged position if it moved. Pump goroutine only.
func (m *Mirror) persist() {
	a := m.acked.Load()
	if m.cfg.StateFile == "" || a == m.persisted {
		return
	}
	if err := saveState(m.cfg.StateFile, m.cfg.Board, a); err != nil {
		m.log.Warn("mqtt: cannot keep the published position; a restart will resend some events", "error", err)
	}
	m.persisted, m.persistedAt = a, time.Now()
}

// pump publishes the board's messages in order, one at a time, each
// acknowledged before the next. It runs until the Mirror stops.
func (m *Mirror) pump() {
	defer m.wg.Done()
	defer m.persist()
	next := m.acked.Load() + 1
	for m.ctx.Err() == nil {
		backlog, live, cancel, err := m.subscribe(next)
		if err != nil {
			m.log.Error("mqtt: cannot read the board's messages; retrying", "from", next, "error", err)
			m.sleep(time.Second)
			continue
		}
		next = max(next, m.acked.Load()+1) // subscribe may have skipped what the board lost
		next = m.forward(backlog, live, next)
		cancel()
	}
}

// subscribe subscribes to the board from next. When the board no longer
// keeps next, it starts at the oldest message it keeps: the messages in
// between are lost to MQTT, and the log says so.
func (m *Mirror) subscribe(next uint64) ([]referee.Message, <-chan referee.Message, func(), error) {
	s, err := referee.Resume(m.src, next)
	if err != nil {
		return nil, nil, nil, err
	}
	if s.Lost != nil {
		m.log.Error("mqtt: the board no longer keeps messages the broker never acknowledged; they are lost to MQTT",
			"first", next, "last", s.Lost.Oldest-1, "error", s.Lost)
		m.acked.Store(s.Lost.Oldest - 1)
	}
	return s.Backlog, s.Live, s.Cancel, nil
}

// forward publishes the backlog, then live messages, until live closes
// (the Mirror fell too far behind: resubscribe) or the Mirror stops. It
// returns the next Seq to publish.
func (m *Mirror) forward(backlog []referee.Message, live <-chan referee.Message, next uint64) uint64 {
	for _, msg := range backlog {
		if !m.deliver(msg, &next) {
			return next
		}
	}
	for {
		var msg referee.Message
		var ok bool
		select {
		case msg, ok = <-live:
		default:
			m.persist() // the queue is empty: keep the position now
			select {
			case msg, ok = <-live:
			case <-m.ctx.Done():
				return next
			}
		}
		if !ok {
			return next
		}
		if !m.deliver(msg, &next) {
			return next
		}
	}
}

// deliver publishes one message (and, after a game_over, the game) until
// the broker acknowledges it. It returns false when the Mirror stops.
func (m *Mirror) deliver(msg referee.Message, next *uint64) bool {
	if msg.Seq < *next {
		return true // sent already
	}
	if msg.Seq > *next {
		// Numbers the board skipped (after an unclean stop its stream
		// numbers on after its reservation): never used, nothing lost.
		m.log.Info("mqtt: the board's stream skips numbers", "from", *next, "to", msg.Seq-1)
	}
	payload := m.encode(msg)
	if payload != nil && !m.publishReliably(m.t.events, false, payload) {
		return false
	}
	if msg.Kind == referee.MsgGameOver {
		if !m.publishGame(msg.Game) {
			return false
		}
	}
	m.acked.Store(msg.Seq)
	m.published.Add(1)
	*next = msg.Seq + 1
	if time.Since(m.persistedAt) >= persistEvery {
		m.persist()
	}
	return true
}

// encode is msg's payload on events: a message over
// referee.MaxMessageBytes (written by an older version, before tags were
// bounded) goes out shortened with a warning, never one the broker
// refuses again and again. nil: msg cannot be encoded (skipped).
func (m *Mirror) encode(msg referee.Message) []byte {
	if b, cut := msg.Bounded(); cut != "" {
		m.log.Warn("mqtt: "+cut+" (published without them; the archive keeps the game)", "seq", msg.Seq)
		msg = b
	}
	payload, err := json.Marshal(msg)
	if err != nil { // cannot happen with Message's field types
		m.log.Error("mqtt: cannot encode a message; skipped", "seq", msg.Seq, "error", err)
		return nil
	}
	return payload
}

// publishReliably publishes until the broker acknowledges, waiting for the
// connection as long as it takes. It returns false when the Mirror stops.
func (m *Mirror) publishReliably(topic string, retain bool, payload []byte) bool {
	pause := 50 * time.Millisecond
	for {
		if !m.waitConnected() {
			return false
		}
		m.pubMu.Lock()
		err := m.send(m.ctx, topic, retain, payload)
		m.pubMu.Unlock()
		if err == nil {
			return true
		}
		if m.ctx.Err() != nil {
			return false
		}
		m.log.Debug("mqtt: publish failed; sending again", "topic", topic, "error", err)
		if !m.sleep(pause) {
			return false
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// waitConnected waits until the broker connection is up. It returns false
// when the Mirror stops.
func (m *Mirror) waitConnected() bool {
	for !m.isOpen() {
		t := time.NewTimer(500 * time.Millisecond)
		select {
		case <-m.wake:
		case <-t.C:
		case <-m.ctx.Done():
			t.Stop()
			return false
		}
		t.Stop()
	}
	return m.ctx.Err() == nil
}

// PublishGame publishes a finished game's PGN4 text, retained, on
// games/<id>, and waits until the broker acknowledges it (and for the
// connection, as long as it takes). It reports false when the Mirror
// stops. A board sends its archive to a club hub this way.
func (m *Mirror) PublishGame(id, pgn string) bool {
	if err := CheckID("game", id); err != nil {
		m.log.Error("mqtt: archived game not published", "error", err)
		return true
	}
	return m.publishReliably(m.t.games+id, true, []byte(pgn))
}

// publishGame publishes a finished game's PGN4, retained, on games/<id>.
// The archive may still be writing it: a failing GamePGN4 is asked again
// a few times. It returns false when the Mirror stops.
func (m *Mirror) publishGame(game string) bool {
	if m.cfg.GamePGN4 == nil {
		return true
	}
	if err := CheckID("game", game); err != nil {
		m.log.Error("mqtt: finished game not published", "error", err)
		return true
	}
	var pgn string
	var err error
	pause := 100 * time.Millisecond
	for try := 0; try < 6; try++ {
		if pgn, err = m.cfg.GamePGN4(game); err == nil {
			break
		}
		if !m.sleep(pause) {
			return false
		}
		pause *= 2
	}
	if err != nil {
		m.log.Error("mqtt: finished game not published: no PGN4", "game", game, "error", err)
		return true
	}
	return m.publishReliably(m.t.games+game, true, []byte(pgn))
}
