// Package archive records games so that nothing is lost when the power
// goes: every turn is appended to a journal file and synced to disk before
// the board moves on, a journal cut off mid-write is repaired on start
// (every complete entry kept, the partial tail dropped), and a game in
// progress is restored from its journal move by move through the rules
// engine.
//
// A journal is a text file of JSON lines, one entry each:
//
//	{"seq":1,"kind":"start","variant":"teams","start":"modern","tags":{"Event":"Club night"}}
//	{"seq":2,"kind":"move","seat":"Red","move":"h2-h4"}
//	{"seq":3,"kind":"resign","seat":"Blue"}
//	{"seq":4,"kind":"note","note":"Green announces n7-n6"}
//
// Each entry carries a CRC-32 of its line ("sum"), so bytes changed on
// the card are found even where the line still parses. An entry is
// complete when its line ends with a newline, parses and its sum fits. A
// failed write is cut back off at once (Append truncates the file to the
// last good entry), so a full disk never leaves half a line behind. Msg is
// the board's stream Seq of the message that made the entry: the journal
// is one of the durable records a restarted board takes its next Seq from.
package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/square"
)

// Entry is one journal line.
type Entry struct {
	Seq  uint64 `json:"seq"`
	Kind string `json:"kind"` // start, move, resign, timeout, draw, claim, takeback, tags, clock, note
	// Msg is the stream Seq of the board message the entry records (0 in
	// journals written before it was kept).
	Msg uint64 `json:"msg,omitempty"`
	// start
	Game    string            `json:"game,omitempty"` // the game's id
	Variant string            `json:"variant,omitempty"`
	Start   string            `json:"start,omitempty"` // a start array's name or a FEN4
	Tags    map[string]string `json:"tags,omitempty"`  // start, tags (changes; "" removes)
	// move, resign, timeout, claim (FFA: the seat that claimed the win)
	Seat string `json:"seat,omitempty"`
	Move string `json:"move,omitempty"` // "h2-h4", "h10-h11=N", castling as the king's squares
	// draw: the seats that agreed it.
	Seats []string `json:"seats,omitempty"`
	// note: something the rules record between turns, as they write it
	// (rules.Game.Notes: "Green announces n7-n6", "Yellow replies I
	// Accept", "Green claims stalemate", "Blue keeps Yellow's army"),
	// carried out again by rules.Game.ApplyNote.
	Note string `json:"note,omitempty"`
	// Clocks are the remaining milliseconds per seat after the entry.
	Clocks []int64 `json:"clocks,omitempty"`
	// Sum is the CRC-32 (IEEE, 8 hex digits) of the entry's line written
	// without it: an entry whose bytes changed on the card (a flipped bit
	// that still parses) is found damaged. Entries written before it was
	// kept have none; once a journal's start entry has one, every entry
	// must.
	Sum string `json:"sum,omitempty"`
}

// marshalEntry is e's journal line (without the newline), with its Sum.
func marshalEntry(e Entry) ([]byte, error) {
	e.Sum = ""
	line, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	e.Sum = fmt.Sprintf("%08x", crc32.ChecksumIEEE(line))
	return json.Marshal(e)
}

// checkSum reports whether e, as parsed, carries the right Sum (or none
// where none is due), and clears it.
func checkSum(e *Entry, due bool) bool {
	sum := e.Sum
	e.Sum = ""
	if sum == "" {
		return !due
	}
	line, err := json.Marshal(e)
	return err == nil && fmt.Sprintf("%08x", crc32.ChecksumIEEE(line)) == sum
}

// journalFile is what a Journal needs of its file (tests inject failures).
type journalFile interface {
	Write([]byte) (int, error)
	Sync() error
	Truncate(int64) error
	Close() error
}

// Journal is an open journal file, appended to by one goroutine.
type Journal struct {
	f    journalFile
	path string
	seq  uint64
	size int64 // the length of the complete entries
	torn bool  // a failed write could not be cut off yet
}

// Create starts a new journal at path (which must not exist) with its
// start entry. If the start entry cannot be written, no file is left.
func Create(path string, start Entry) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{f: f, path: path}
	start.Kind = "start"
	if err := j.Append(start); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return j, nil
}

// Append writes the entries (numbered next) in one write and syncs them
// to disk before returning. When the write or the sync fails, the file is
// cut back to the entries before them and the error returned: the journal
// is as it was, and the entries can be appended again once the disk has
// room.
func (j *Journal) Append(es ...Entry) error {
	var buf []byte
	for i, e := range es {
		e.Seq = j.seq + uint64(i) + 1
		line, err := marshalEntry(e)
		if err != nil {
			return fmt.Errorf("journal %s: %w", j.path, err)
		}
		buf = append(append(buf, line...), '\n')
	}
	if j.torn {
		if err := j.f.Truncate(j.size); err != nil {
			return fmt.Errorf("journal %s: cutting off an earlier failed write: %w", j.path, err)
		}
		j.torn = false
	}
	_, err := j.f.Write(buf)
	if err == nil {
		if err = j.f.Sync(); err != nil {
			err = fmt.Errorf("sync: %w", err)
		}
	}
	if err != nil {
		if terr := j.f.Truncate(j.size); terr != nil {
			j.torn = true
		}
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	j.seq += uint64(len(es))
	j.size += int64(len(buf))
	return nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }

// Seq returns the last entry's number.
func (j *Journal) Seq() uint64 { return j.seq }

// DamagedError is a journal with an unreadable entry that more data
// follows: not a cut-off write but a damaged file. Kept are the complete
// entries before the damage, Good the length of the bytes that hold them.
type DamagedError struct {
	Path   string
	Entry  int // the number of the first unreadable entry
	Offset int // its byte offset
	Kept   []Entry
	Good   int
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("journal %s: entry %d (byte %d) is damaged and more follows: not a cut-off write", e.Path, e.Entry, e.Offset)
}

// Open reads the journal at path, repairs it if its last entry was cut off
// (truncating the file to the complete entries; the warning says what was
// dropped) and reopens it for appending. A journal damaged before its end
// is left as it is and reported as a *DamagedError (Recorder.Resume keeps
// the entries before the damage).
func Open(path string) (*Journal, []Entry, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("journal: %w", err)
	}
	entries, good, warn, err := parse(path, data)
	if err != nil {
		return nil, nil, "", err
	}
	if good < len(data) {
		if err := os.Truncate(path, int64(good)); err != nil {
			return nil, nil, "", fmt.Errorf("journal %s: repair: %w", path, err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, "", fmt.Errorf("journal: %w", err)
	}
	j := &Journal{f: f, path: path, size: int64(good)}
	if n := len(entries); n > 0 {
		j.seq = entries[n-1].Seq
	}
	return j, entries, warn, nil
}

var msgField = regexp.MustCompile(`"msg":([0-9]{1,19})[,}]`)

// HighMsg is the highest stream Seq named anywhere in journal data, in
// damaged parts too (0 if none): a restarted board numbers on above it.
// A number above referee.MaxSeq is damage, not a Seq, and is passed over.
func HighMsg(data []byte) uint64 {
	var hi uint64
	for _, m := range msgField.FindAllSubmatch(data, -1) {
		if n, err := strconv.ParseUint(string(m[1]), 10, 64); err == nil && n > hi && n <= referee.MaxSeq {
			hi = n
		}
	}
	return hi
}

var knownKind = map[string]bool{"start": true, "move": true, "resign": true, "timeout": true, "draw": true, "claim": true, "takeback": true, "tags": true, "clock": true, "note": true}

// parse reads complete entries; good is the length of the prefix that
// holds them. A bad line followed by more data is corruption, not a torn
// write, and is an error.
func parse(path string, data []byte) ([]Entry, int, string, error) {
	var out []Entry
	good := 0
	summed := false // the start entry has a Sum: every entry must
	r := bufio.NewReader(bytes.NewReader(data))
	for {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			return out, good, "", nil
		}
		complete := err == nil
		var e Entry
		perr := json.Unmarshal(bytes.TrimSpace(line), &e)
		if perr == nil && len(out) == 0 {
			summed = e.Sum != ""
		}
		if perr == nil && !checkSum(&e, summed) {
			perr = errors.New("checksum")
		}
		if !complete || perr != nil || !knownKind[e.Kind] || e.Seq != uint64(len(out)+1) {
			rest := len(data) - good
			if good+len(line) < len(data) {
				return nil, 0, "", &DamagedError{Path: path, Entry: len(out) + 1, Offset: good, Kept: out, Good: good}
			}
			return out, good, fmt.Sprintf("journal %s: dropped an incomplete last entry (%d bytes), kept %d entries", path, rest, len(out)), nil
		}
		if len(out) == 0 && e.Kind != "start" {
			return nil, 0, "", fmt.Errorf("journal %s: the first entry is %q, want start", path, e.Kind)
		}
		out = append(out, e)
		good += len(line)
	}
}

// Lookup builds a variant by name and start array ("" for its default).
type Lookup func(name, start string) (*rules.Variant, error)

// Restore replays a journal's entries into a game.
func Restore(entries []Entry, lookup Lookup) (*rules.Game, error) {
	if len(entries) == 0 || entries[0].Kind != "start" {
		return nil, errors.New("journal has no start entry")
	}
	st := entries[0]
	array, fen := st.Start, ""
	if strings.Contains(st.Start, "-") {
		array, fen = "", st.Start
	}
	v, err := lookup(st.Variant, array)
	if err != nil {
		return nil, err
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return nil, err
	}
	for i, e := range entries[1:] {
		if err := apply(g, e); err != nil {
			return g, &ReplayError{Index: i + 1, Entry: e, Err: err}
		}
	}
	return g, nil
}

// ReplayError is a journal entry the rules refuse; Index is its place in
// the entries given to Restore.
type ReplayError struct {
	Index int
	Entry Entry
	Err   error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("journal entry %d (%s %s%s): %v", e.Entry.Seq, e.Entry.Kind, e.Entry.Move, e.Entry.Note, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

func apply(g *rules.Game, e Entry) error {
	seat, ok := seatByName(e.Seat)
	switch e.Kind {
	case "move":
		if !ok || seat != g.Turn() {
			return fmt.Errorf("it is %s's turn, the entry is %s's", g.Turn(), e.Seat)
		}
		m, err := findMove(g, e.Move)
		if err != nil {
			return err
		}
		_, err = g.Play(m)
		return err
	case "resign", "timeout":
		if !ok {
			return fmt.Errorf("unknown seat %q", e.Seat)
		}
		var err error
		if e.Kind == "resign" {
			_, err = g.Resign(seat)
		} else {
			_, err = g.Timeout(seat)
		}
		return err
	case "draw":
		var agreed []rules.Seat
		for _, name := range e.Seats {
			s, ok := seatByName(name)
			if !ok {
				return fmt.Errorf("unknown seat %q", name)
			}
			agreed = append(agreed, s)
		}
		return g.AgreeDraw(agreed)
	case "claim":
		if !ok {
			return fmt.Errorf("unknown seat %q", e.Seat)
		}
		return g.ClaimWin(seat)
	case "takeback":
		return g.Takeback()
	case "note":
		ok, err := g.ApplyNote(e.Note)
		if err == nil && !ok {
			err = fmt.Errorf("%q is no note of %s", e.Note, g.Variant().Name)
		}
		return err
	case "tags", "clock":
		return nil // not moves: see Tags and Clocks
	}
	return fmt.Errorf("unknown entry kind %q", e.Kind)
}

func seatByName(s string) (rules.Seat, bool) {
	for x := rules.Seat(0); x < rules.NumSeats; x++ {
		if x.String() == s {
			return x, true
		}
	}
	return 0, false
}

// Tags are the journal's game details: the start entry's tags with every
// later change applied.
func Tags(entries []Entry) map[string]string {
	t := map[string]string{}
	for _, e := range entries {
		if e.Kind != "start" && e.Kind != "tags" {
			continue
		}
		for k, v := range e.Tags {
			if v == "" {
				delete(t, k)
			} else {
				t[k] = v
			}
		}
	}
	return t
}

// Clocks are the remaining times after the journal's last entry that
// recorded them (nil if none did).
func Clocks(entries []Entry) []int64 {
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Clocks != nil {
			return entries[i].Clocks
		}
	}
	return nil
}

// MoveEntry is the journal entry for a played turn.
func MoveEntry(rec rules.Record) Entry {
	switch rec.Action {
	case rules.ActResign:
		return Entry{Kind: "resign", Seat: rec.Seat.String()}
	case rules.ActTimeout:
		return Entry{Kind: "timeout", Seat: rec.Seat.String()}
	}
	return Entry{Kind: "move", Seat: rec.Seat.String(), Move: rec.Move.String()}
}

// findMove resolves "h2-h4" or "h10-h11=N" among the game's moves.
func findMove(g *rules.Game, text string) (rules.Move, error) {
	promo := rules.NoKind
	if i := strings.IndexByte(text, '='); i >= 0 && i+1 < len(text) {
		promo, _ = rules.KindFromLetter(text[i+1])
		text = text[:i]
	}
	a, b, ok := strings.Cut(text, "-")
	from, err1 := square.Parse(a)
	to, err2 := square.Parse(b)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("move %q is not from-to squares", text)
	}
	for _, m := range g.LegalMoves() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	return 0, fmt.Errorf("move %s is not legal here", text)
}
