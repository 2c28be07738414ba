package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"boardd/referee"
)

// This file recovers the turns a game journal lost from the board's
// stream. A message reaches the stream only after the journal has it
// (referee.Live writes its sinks first), so a stream holding journaled
// messages of the game beyond the journal's last entry means the journal
// lost them: damaged in the middle, its last entry damaged, or cut short.
// Every message is checked before it is taken: the journal's kept entries
// must agree with the stream where both have a message, the rules must
// accept the turn, and the position after it must be the one the stream
// says the board had (its FEN4), so a message missing from the stream
// stops the recovery there. Nothing is invented.

// recovery is what the stream adds to a journal's entries.
type recovery struct {
	entries     []Entry // to append (Journal.Append numbers them)
	first, last uint64  // the stream Seqs recovered
	over        bool    // the stream has the game's game_over after them
	note        string  // what was recovered and what not ("": nothing to say)
}

// streamPath is the stream file Resume recovers from.
func (r *Recorder) streamPath() string {
	if r.Stream != "" {
		return r.Stream
	}
	return filepath.Join(r.Dir, "stream.jsonl")
}

// fromStream finds the turns of kept's game that the stream has after
// kept's last entry. later are the entries the journal still holds after
// its damage (each must agree with the stream's message of the same Msg).
func (r *Recorder) fromStream(kept, later []Entry) recovery {
	if len(kept) == 0 {
		return recovery{}
	}
	id, upto := kept[0].Game, kept[len(kept)-1].Msg
	if id == "" || upto == 0 {
		return recovery{} // a journal from before entries named their messages
	}
	msgs, err := gameMessages(r.streamPath(), id)
	if err != nil {
		return recovery{note: fmt.Sprintf("the stream could not be read to recover turns: %v", err)}
	}
	start := len(msgs)
	for i, m := range msgs {
		if m.Seq > upto {
			start = i
			break
		}
	}
	beyond := msgs[start:]
	// The journal and the stream must agree where both have a message.
	byMsg := map[uint64][]Entry{}
	for _, e := range kept[1:] {
		if e.Msg > 0 {
			byMsg[e.Msg] = append(byMsg[e.Msg], e)
		}
	}
	disagree := ""
	for _, m := range msgs[:start] {
		es, _ := JournalEntries(m)
		have, ok := byMsg[m.Seq]
		if !ok || len(es) == 0 {
			continue
		}
		if m.Seq == upto && len(have) < len(es) && sameEntries(have, es[:len(have)]) {
			// The journal kept the first half of a pair (a revised move's
			// takeback): the rest of the message comes from the stream.
			beyond = append([]referee.Message{m}, beyond...)
			continue
		}
		if !sameEntries(have, es) && disagree == "" {
			disagree = fmt.Sprintf("the stream has more of game %s, but its message %d (%s) disagrees with the journal: nothing recovered", id, m.Seq, m.Kind)
		}
	}
	if !journaled(beyond) {
		return recovery{}
	}
	if disagree != "" {
		return recovery{note: disagree}
	}
	g, err := Restore(kept, r.Lookup)
	if err != nil {
		return recovery{note: fmt.Sprintf("the stream has more of game %s, but the journal's kept entries do not replay (%v): nothing recovered", id, err)}
	}
	var rec recovery
	laterBy := map[uint64][]Entry{}
	for _, e := range later {
		if e.Msg > 0 {
			laterBy[e.Msg] = append(laterBy[e.Msg], e)
		}
	}
	var stopped string
	left := 0
	for i, m := range beyond {
		if m.Kind == referee.MsgGameOver {
			rec.over = true
			break
		}
		es, err := JournalEntries(m)
		if err == nil && len(es) == 0 {
			continue
		}
		if m.Seq == upto { // the rest of a pair
			es = es[len(byMsg[upto]):]
		}
		if err == nil {
			if have, ok := laterBy[m.Seq]; ok && !sameEntries(have, lastOf(es, len(have))) {
				err = fmt.Errorf("the journal's surviving entry for it says otherwise")
			}
		}
		for _, e := range es {
			if err != nil {
				break
			}
			if aerr := apply(g, e); aerr != nil {
				err = fmt.Errorf("the rules refuse it: %v", aerr)
			}
		}
		if err == nil && m.FEN4 != "" && g.Position().FEN4() != m.FEN4 {
			err = fmt.Errorf("the position after it is not the one the board had (a message before it is missing from the stream)")
		}
		if err != nil {
			stopped = fmt.Sprintf("message %d (%s %s) was not recovered: %v", m.Seq, m.Kind, firstOf(m.Coord, m.Note), err)
			left = countJournaled(beyond[i+1:])
			break
		}
		if rec.first == 0 {
			rec.first = m.Seq
		}
		rec.last = m.Seq
		rec.entries = append(rec.entries, es...)
	}
	turns := len(turnClocks(append(append([]Entry(nil), kept...), rec.entries...))) - len(turnClocks(kept))
	var parts []string
	if len(rec.entries) > 0 {
		parts = append(parts, fmt.Sprintf("recovered %d turns of game %s from the stream %s (messages %d to %d, each checked against the position the board had)",
			turns, id, r.streamPath(), rec.first, rec.last))
	}
	if stopped != "" {
		s := stopped
		if left > 0 {
			s += fmt.Sprintf(", nor the %d messages of the game after it", left)
		}
		parts = append(parts, s)
	}
	if rec.over {
		parts = append(parts, "the stream has the game's end: it is filed")
	}
	rec.note = strings.Join(parts, "; ")
	return rec
}

// journaled reports whether any of msgs makes journal entries or ends
// the game.
func journaled(msgs []referee.Message) bool {
	return countJournaled(msgs) > 0
}

func countJournaled(msgs []referee.Message) int {
	n := 0
	for _, m := range msgs {
		if es, err := JournalEntries(m); err != nil || len(es) > 0 || m.Kind == referee.MsgGameOver {
			n++
		}
	}
	return n
}

func lastOf(es []Entry, n int) []Entry {
	if n > len(es) {
		return nil
	}
	return es[len(es)-n:]
}

// sameEntries compares entries by content (not their journal numbers).
func sameEntries(a, b []Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Seq, y.Seq = 0, 0
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		if !bytes.Equal(bx, by) {
			return false
		}
	}
	return true
}

// gameMessages reads the stream file's messages of game id, in rising
// Seq order (damaged lines, other games' messages and a cut-off last line
// skipped). The file is only read: OpenStream repairs it later.
func gameMessages(path, id string) ([]referee.Message, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	key, _ := json.Marshal(id)
	key = append([]byte(`"game":`), key...)
	var out []referee.Message
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, key) {
			continue
		}
		var m referee.Message
		if json.Unmarshal(line, &m) != nil || m.Game != id || m.Seq == 0 || m.Kind == "" {
			continue
		}
		if len(out) > 0 && m.Seq <= out[len(out)-1].Seq {
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// laterEntries are the entries that still parse in a journal's bytes
// after its first damaged entry (data starts at the damaged entry).
func laterEntries(data []byte) []Entry {
	var out []Entry
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, line := range lines[min(1, len(lines)):] {
		var e Entry
		if len(line) == 0 || line[len(line)-1] != '\n' || json.Unmarshal(line, &e) != nil || !checkSum(&e, false) || !knownKind[e.Kind] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// disagreement finds the first journal entry that says otherwise than the
// stream's message of the same Msg, where the stream's version is borne
// out by the position the board had after it (its FEN4): the journal's
// entry was changed on the card in a way that still parses and replays
// (a different legal move). It returns the entry's index in entries and
// the index after its message's entries (0, 0: none found).
func (r *Recorder) disagreement(entries []Entry) (at, end int, what string) {
	if len(entries) < 2 || entries[0].Game == "" {
		return 0, 0, ""
	}
	msgs, err := gameMessages(r.streamPath(), entries[0].Game)
	if err != nil || len(msgs) == 0 {
		return 0, 0, ""
	}
	bySeq := make(map[uint64]referee.Message, len(msgs))
	for _, m := range msgs {
		bySeq[m.Seq] = m
	}
	for i := 1; i < len(entries); {
		s := entries[i].Msg
		j := i + 1
		for j < len(entries) && s != 0 && entries[j].Msg == s {
			j++
		}
		m, ok := bySeq[s]
		es, _ := JournalEntries(m)
		if s == 0 || !ok || len(es) == 0 || sameEntries(entries[i:j], es) || m.FEN4 == "" {
			i = j
			continue
		}
		g, err := Restore(entries[:i], r.Lookup)
		for _, e := range es {
			if err == nil {
				err = apply(g, e)
			}
		}
		if err != nil || g.Position().FEN4() != m.FEN4 {
			i = j // the stream's version is not borne out either
			continue
		}
		return i, j, fmt.Sprintf("entry %d (%s %s%s) says otherwise than the stream's message %d (%s %s), which the position the board had bears out",
			entries[i].Seq, entries[i].Kind, entries[i].Move, entries[i].Note, s, m.Kind, firstOf(m.Coord, m.Note))
	}
	return 0, 0, ""
}

// startFromStream rebuilds a journal's damaged start entry from the
// stream: the game is the one the stream's message of a surviving later
// entry belongs to (its journal entries must be that entry's, so the
// link is proven), and the start entry is made from that game's
// game_start message as Record makes it. ok is false when no surviving
// entry links to a game whose game_start the stream still has.
func (r *Recorder) startFromStream(later []Entry) (start Entry, what string, ok bool) {
	data, err := os.ReadFile(r.streamPath())
	if err != nil {
		return Entry{}, "", false
	}
	tried := map[uint64]bool{}
	for _, e := range later {
		if e.Msg == 0 || tried[e.Msg] {
			continue
		}
		tried[e.Msg] = true
		m, found := messageAt(data, e.Msg)
		if !found || m.Game == "" {
			continue
		}
		es, _ := JournalEntries(m)
		group := []Entry{}
		for _, x := range later {
			if x.Msg == e.Msg {
				group = append(group, x)
			}
		}
		if !sameEntries(group, lastOf(es, len(group))) {
			continue
		}
		msgs, err := gameMessages(r.streamPath(), m.Game)
		if err != nil || len(msgs) == 0 || msgs[0].Kind != referee.MsgGameStart {
			continue
		}
		gs := msgs[0]
		return Entry{Seq: 1, Kind: "start", Msg: gs.Seq, Game: gs.Game, Variant: gs.Variant, Start: gs.Start, Tags: gs.Tags, Clocks: gs.Clocks},
			fmt.Sprintf("entry 1 (the game's start) is damaged; it was rebuilt from the stream's game_start message %d of game %s (entry %d links to it)", gs.Seq, gs.Game, e.Seq), true
	}
	return Entry{}, "", false
}

// messageAt finds the stream message with Seq seq in stream data.
func messageAt(data []byte, seq uint64) (referee.Message, bool) {
	key := []byte(fmt.Sprintf(`"seq":%d,`, seq))
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("{"+string(key))) {
			continue
		}
		var m referee.Message
		if json.Unmarshal(line, &m) == nil && m.Seq == seq && m.Kind != "" {
			return m, true
		}
	}
	return referee.Message{}, false
}

// rebuild writes the journal of the game in progress from the stream when
// the journal is missing (deleted, or lost with its directory entry): the
// stream's last game_start, if that game has no game_over there and was
// not filed (journals/), becomes the start entry, and its turns are
// recovered as for a damaged journal (fromStream: each checked against
// the position the board had). It says what it did ("" when the stream
// has no game in progress: nothing to rebuild).
func (r *Recorder) rebuild() (string, error) {
	data, err := os.ReadFile(r.streamPath())
	if err != nil {
		return "", nil // no stream either: a new board
	}
	msgs, _ := parseStream(data)
	var gs referee.Message
	for _, m := range msgs {
		switch {
		case m.Kind == referee.MsgGameStart:
			gs = m
		case m.Kind == referee.MsgGameOver && m.Game == gs.Game:
			gs = referee.Message{}
		}
	}
	if gs.Game == "" || filepath.Base(gs.Game) != gs.Game {
		return "", nil
	}
	if filed, _ := filepath.Glob(filepath.Join(r.Dir, "journals", gs.Game+"*.journal")); len(filed) > 0 {
		return "", nil // filed, or set aside: not in progress
	}
	start := Entry{Seq: 1, Kind: "start", Msg: gs.Seq, Game: gs.Game, Variant: gs.Variant, Start: gs.Start, Tags: gs.Tags, Clocks: gs.Clocks}
	rec := r.fromStream([]Entry{start}, nil)
	var buf []byte
	for i, e := range append([]Entry{start}, rec.entries...) {
		e.Seq = uint64(i + 1)
		line, err := marshalEntry(e)
		if err != nil {
			return "", fmt.Errorf("journal %s: rebuilding it from the stream: %w", r.current(), err)
		}
		buf = append(append(buf, line...), '\n')
	}
	if err := writeAtomic(r.current(), buf); err != nil {
		return "", fmt.Errorf("journal %s is missing and rebuilding it from the stream failed: %w", r.current(), err)
	}
	what := fmt.Sprintf("journal %s was missing: game %s rebuilt from the stream %s (its game_start, message %d)", r.current(), gs.Game, r.streamPath(), gs.Seq)
	if rec.note != "" {
		what += "; " + rec.note
	}
	return what, nil
}
