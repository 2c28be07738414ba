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
// An entry is complete when its line ends with a newline and parses.
package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Entry is one journal line.
type Entry struct {
	Seq  uint64 `json:"seq"`
	Kind string `json:"kind"` // start, move, resign, timeout, draw, takeback, tags, clock, note
	// start
	Game    string            `json:"game,omitempty"` // the game's id
	Variant string            `json:"variant,omitempty"`
	Start   string            `json:"start,omitempty"` // a start array's name or a FEN4
	Tags    map[string]string `json:"tags,omitempty"`  // start, tags (changes; "" removes)
	// move, resign, timeout
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
}

// Journal is an open journal file, appended to by one goroutine.
type Journal struct {
	f    *os.File
	path string
	seq  uint64
}

// Create starts a new journal at path (which must not exist) with its
// start entry.
func Create(path string, start Entry) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{f: f, path: path}
	start.Kind = "start"
	if err := j.Append(start); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// Append writes e (numbered next) and syncs it to disk before returning.
func (j *Journal) Append(e Entry) error {
	j.seq++
	e.Seq = j.seq
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	line = append(line, '\n')
	if _, err := j.f.Write(line); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: sync: %w", j.path, err)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }

// Seq returns the last entry's number.
func (j *Journal) Seq() uint64 { return j.seq }

// Open reads the journal at path, repairs it if its last entry was cut off
// (truncating the file to the complete entries; the warning says what was
// dropped) and reopens it for appending.
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
	j := &Journal{f: f, path: path}
	if n := len(entries); n > 0 {
		j.seq = entries[n-1].Seq
	}
	return j, entries, warn, nil
}

var knownKind = map[string]bool{"start": true, "move": true, "resign": true, "timeout": true, "draw": true, "takeback": true, "tags": true, "clock": true, "note": true}

// parse reads complete entries; good is the length of the prefix that
// holds them. A bad line followed by more data is corruption, not a torn
// write, and is an error.
func parse(path string, data []byte) ([]Entry, int, string, error) {
	var out []Entry
	good := 0
	r := bufio.NewReader(bytes.NewReader(data))
	for {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			return out, good, "", nil
		}
		complete := err == nil
		var e Entry
		perr := json.Unmarshal(bytes.TrimSpace(line), &e)
		if !complete || perr != nil || !knownKind[e.Kind] || e.Seq != uint64(len(out)+1) {
			rest := len(data) - good
			if good+len(line) < len(data) {
				return nil, 0, "", fmt.Errorf("journal %s: entry %d (byte %d) is damaged and more follows: not a cut-off write; move the file aside to start afresh", path, len(out)+1, good)
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
	for _, e := range entries[1:] {
		if err := apply(g, e); err != nil {
			return g, fmt.Errorf("journal entry %d (%s %s%s): %v", e.Seq, e.Kind, e.Move, e.Note, err)
		}
	}
	return g, nil
}

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
