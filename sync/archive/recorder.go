package archive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	gosync "sync"
	"syscall"
	"time"

	"boardd/referee"
	"boardd/referee/gametags"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// Recorder records a live board's games from its message stream: the game
// in progress in a journal (Dir/current.journal, synced per message), each
// finished game as PGN4 in the store (Dir/games), and the finished game's
// journal kept beside as Dir/journals/<game id>.journal. Use Record as a
// sink of referee.Live, so every move is on disk before the board moves on.
type Recorder struct {
	Dir    string
	Board  string
	Lookup Lookup
	// Site goes into every game's headers (optional).
	Site string
	// Stream is the board's stream file (archive.Stream), only read by
	// Resume to recover turns the journal lost ("": Dir/stream.jsonl).
	Stream string

	mu   gosync.Mutex
	j    *Journal
	game string
	// Saved is called after a finished game was filed (optional).
	Saved func(gameID, path string)
}

// Resumed is a game in progress found in the journal on start.
type Resumed struct {
	Game   *rules.Game
	ID     string
	Tags   map[string]string
	Clocks []int64
	// Warning says what a repair of the journal dropped ("" if nothing).
	Warning string
}

func (r *Recorder) current() string { return filepath.Join(r.Dir, "current.journal") }

// Store is the archive of finished games.
func (r *Recorder) Store() Store { return Store{Dir: filepath.Join(r.Dir, "games")} }

// Resume opens the journal of a game in progress, if there is one. A
// journal whose game already ended (the power went between the last move
// and filing it) is filed now and nil returned. A journal damaged in the
// middle, or with an entry the rules refuse, keeps the game up to the
// damage: the file is moved to journals/damaged-*.journal, the entries
// before the damage become the journal, and Resumed.Warning says which
// entry was damaged and where the file went; with no room for that (a
// full disk) the journal is left as it was and the error wraps the cause.
// Then, damaged or not, the turns of the game the stream has after the
// journal's last entry are recovered from it (each checked: see
// recover.go) and appended to the journal; Resumed.Warning says what was
// recovered and what could not be. A damaged start entry is rebuilt from
// the stream's game_start when a surviving entry links the journal to its
// game. Only a journal with nothing to keep is moved aside and reported as
// an error (the board starts afresh).
func (r *Recorder) Resume() (*Resumed, error) {
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	path := r.current()
	leftovers, _ := filepath.Glob(filepath.Join(r.Store().Dir, "*.tmp")) // writes that were cut off
	for _, f := range append(leftovers, path+".tmp") {
		os.Remove(f)
	}
	rebuilt := ""
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		// No journal: a game the stream has in progress is rebuilt from
		// it rather than silently replaced by a new one.
		if rebuilt, err = r.rebuild(); err != nil || rebuilt == "" {
			return nil, err
		}
	}
	var later []Entry // entries that survive after the damage
	j, entries, warn, err := Open(path)
	var dmg *DamagedError
	if errors.As(err, &dmg) {
		if data, rerr := os.ReadFile(path); rerr == nil && dmg.Offset < len(data) {
			later = laterEntries(data[dmg.Offset:])
		}
	}
	what := ""
	if dmg != nil && len(dmg.Kept) == 0 {
		// The start entry itself: rebuilt from the stream when a surviving
		// entry links the journal to its game there.
		if start, why, ok := r.startFromStream(later); ok {
			dmg.Kept, what = []Entry{start}, why
		}
	}
	if dmg != nil && len(dmg.Kept) > 0 {
		if what == "" {
			what = fmt.Sprintf("entry %d (byte %d) is damaged", dmg.Entry, dmg.Offset)
		}
		if warn, err = r.salvage(dmg.Kept, what); err != nil {
			return nil, err // left as it was (no room to repair it)
		}
		j, entries, _, err = Open(path)
	}
	if err != nil {
		return nil, r.aside(err)
	}
	g, err := Restore(entries, r.Lookup)
	var bad *ReplayError
	if errors.As(err, &bad) {
		j.Close()
		later = entries[bad.Index+1:]
		if warn, err = r.salvage(entries[:bad.Index], bad.Error()); err != nil {
			return nil, err // left as it was (no room to repair it)
		}
		if j, entries, _, err = Open(path); err == nil {
			g, err = Restore(entries, r.Lookup)
		} else {
			j = nil
		}
	}
	if err != nil {
		if j != nil {
			j.Close()
		}
		return nil, r.aside(err)
	}
	if at, end, what := r.disagreement(entries); at > 0 {
		j.Close()
		later = entries[end:]
		if warn, err = r.salvage(entries[:at], what); err != nil {
			return nil, err // left as it was (no room to repair it)
		}
		if j, entries, _, err = Open(path); err == nil {
			g, err = Restore(entries, r.Lookup)
		}
		if err != nil {
			if j != nil {
				j.Close()
			}
			return nil, r.aside(err)
		}
	}
	rec := r.fromStream(entries, later)
	if len(rec.entries) > 0 {
		if aerr := j.Append(rec.entries...); aerr != nil {
			if errors.Is(aerr, syscall.ENOSPC) || errors.Is(aerr, syscall.EDQUOT) {
				j.Close()
				return nil, fmt.Errorf("journal %s: writing the turns recovered from the stream: %w; the journal keeps the turns before them", path, aerr)
			}
			rec.note += "; but they could not be written to the journal (" + aerr.Error() + "): the game goes on without them"
			rec.over = false
		} else {
			entries = append(entries, rec.entries...)
			if g, err = Restore(entries, r.Lookup); err != nil { // checked turn by turn already
				j.Close()
				return nil, r.aside(err)
			}
		}
	}
	if rec.note != "" {
		if warn == "" {
			warn = "journal " + path
		}
		warn += "; " + rec.note
	}
	if rebuilt != "" {
		warn = strings.TrimSuffix(rebuilt+"; "+warn, "; ")
	}
	id := entries[0].Game
	if id == "" {
		id = time.Now().UTC().Format("20060102-150405")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.j, r.game = j, id
	if _, over := g.Result(); over || rec.over {
		if _, err := r.finish(); err != nil {
			return nil, err
		}
		return nil, nil
	}
	tags, tagNote := gameTags(entries)
	if tagNote != "" {
		if warn == "" {
			warn = "journal " + path
		}
		warn += "; the game's tags: " + tagNote
	}
	return &Resumed{Game: g, ID: id, Tags: tags, Clocks: Clocks(entries), Warning: warn}, nil
}

// gameTags are a journal's game details (Tags) as the board takes them
// now (gametags): the tags fixed at a game's start keep the start
// entry's values whatever a later tags entry of an older version said,
// and what the board would refuse now is left out (gametags.Repair).
// note says what was mended ("" if nothing).
func gameTags(entries []Entry) (map[string]string, string) {
	tags := Tags(entries)
	var notes []string
	if len(entries) > 0 {
		start := entries[0].Tags
		for _, k := range []string{gametags.TimeControl, gametags.Bots} {
			if tags[k] == start[k] {
				continue
			}
			notes = append(notes, fmt.Sprintf("%s %q, set during the game, was undone (it is fixed when the game starts): the game keeps %q", k, clipText(tags[k]), start[k]))
			if start[k] == "" {
				delete(tags, k)
			} else {
				tags[k] = start[k]
			}
		}
	}
	kept, dropped := gametags.Repair(tags)
	if dropped != "" {
		notes = append(notes, dropped)
	}
	return kept, strings.Join(notes, "; ")
}

// clipText shortens a value read back for a message.
func clipText(s string) string {
	if len(s) > 40 {
		return strings.ToValidUTF8(s[:40], "") + "…"
	}
	return s
}

// salvage moves a damaged journal to journals/ and makes the complete
// entries before the damage the journal of the game in progress. The
// warning says what happened. When it cannot (a full disk), the journal
// is left as it was and the error (wrapping the cause) says so.
func (r *Recorder) salvage(kept []Entry, what string) (string, error) {
	dst, err := r.damagedName()
	if err == nil {
		err = os.Rename(r.current(), dst)
	}
	if err != nil {
		return "", fmt.Errorf("journal %s: %s, and moving it aside failed: %w; it was left as it was", r.current(), what, err)
	}
	var buf []byte
	for _, e := range kept {
		line, _ := marshalEntry(e)
		buf = append(append(buf, line...), '\n')
	}
	if err := writeAtomic(r.current(), buf); err != nil {
		os.Rename(dst, r.current())
		return "", fmt.Errorf("journal %s: %s, and writing the entries before it failed: %w; it was left as it was", r.current(), what, err)
	}
	return fmt.Sprintf("journal %s: %s; the game goes on from the %d entries before it (%d turns), the damaged file was moved to %s",
		r.current(), what, len(kept), len(turnClocks(kept)), dst), nil
}

func (r *Recorder) damagedName() (string, error) {
	dir := filepath.Join(r.Dir, "journals")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := "damaged-" + time.Now().UTC().Format("20060102-150405")
	dst := filepath.Join(dir, name+".journal")
	for i := 2; fileExists(dst); i++ {
		dst = filepath.Join(dir, fmt.Sprintf("%s_%d.journal", name, i))
	}
	return dst, nil
}

// aside moves a journal that cannot be used out of the way.
func (r *Recorder) aside(cause error) error {
	dst, err := r.damagedName()
	if err == nil {
		err = os.Rename(r.current(), dst)
	}
	if err != nil {
		return fmt.Errorf("%v (and moving it aside failed: %v)", cause, err)
	}
	return fmt.Errorf("%v: the journal was moved to %s and the board starts a new game", cause, dst)
}

// HighSeq is the highest stream Seq the state directory's journals name:
// the game in progress and the most recently written finished ones,
// damaged parts included. A board numbers its messages on above it even
// when its stream file was lost.
func HighSeq(dir string) uint64 {
	files := []string{filepath.Join(dir, "current.journal")}
	old, _ := filepath.Glob(filepath.Join(dir, "journals", "*.journal"))
	sort.Slice(old, func(a, b int) bool { return modTime(old[a]).After(modTime(old[b])) })
	files = append(files, old[:min(len(old), 4)]...)
	var hi uint64
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			hi = max(hi, HighMsg(data))
		}
	}
	return hi
}

func modTime(path string) time.Time {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}

// Record writes one message of the board's stream. It is safe to call
// from one goroutine at a time (the board's).
func (r *Recorder) Record(m referee.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch m.Kind {
	case referee.MsgGameStart:
		if r.j != nil { // the game before was never finished
			if err := r.finishOrDrop(); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(r.Dir, 0o755); err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		if _, err := os.Stat(r.current()); err == nil {
			if err := r.moveCurrent(m.Game + "-stale"); err != nil {
				return err
			}
		}
		j, err := Create(r.current(), Entry{Msg: m.Seq, Game: m.Game, Variant: m.Variant, Start: m.Start, Tags: m.Tags, Clocks: m.Clocks})
		if err != nil {
			return err
		}
		r.j, r.game = j, m.Game
		return nil
	}
	if r.j == nil || m.Game != r.game {
		return nil // nothing to record (messages between games)
	}
	if m.Kind == referee.MsgGameOver {
		_, err := r.finish()
		return err
	}
	es, err := JournalEntries(m)
	if err != nil || len(es) == 0 {
		return err
	}
	return r.j.Append(es...)
}

// JournalEntries are the journal entries that record message m of a game
// in progress, to be appended in one write: none for a message a replay
// does not need, a takeback and the move for a changed promotion or a
// revised move (never a takeback without its move). game_start and
// game_over open and close a journal (Recorder.Record) and have none.
func JournalEntries(m referee.Message) ([]Entry, error) {
	e := Entry{Kind: m.Kind, Msg: m.Seq, Clocks: m.Clocks}
	switch m.Kind {
	case referee.MsgMove:
		e.Seat, e.Move = m.Seat, m.Coord
	case referee.MsgResign, referee.MsgTimeout:
		e.Seat = m.Seat
	case referee.MsgWinClaimed:
		e.Kind, e.Seat = "claim", m.Seat
	case referee.MsgPromotionChanged, referee.MsgMoveRevised:
		return []Entry{{Kind: "takeback", Msg: m.Seq}, {Kind: "move", Msg: m.Seq, Seat: m.Seat, Move: m.Coord, Clocks: m.Clocks}}, nil
	case referee.MsgTakeback, referee.MsgClock:
	case referee.MsgTags:
		e = Entry{Kind: "tags", Msg: m.Seq, Tags: m.Tags}
	case referee.MsgDrawAgreed:
		e.Kind, e.Seats = "draw", m.Seats
	case referee.MsgAnnounce, referee.MsgReply, referee.MsgStalemateClaimed, referee.MsgArmyKept:
		if m.Note == "" {
			return nil, fmt.Errorf("archive: %s message %d carries no note to journal", m.Kind, m.Seq)
		}
		e.Kind, e.Note = "note", m.Note
	default:
		return nil, nil
	}
	return []Entry{e}, nil
}

// finishOrDrop files the journal's game, or drops the journal when no
// turn was played (a new game chosen before the first move is no game to
// keep). Callers hold r.mu.
func (r *Recorder) finishOrDrop() error {
	if r.j.Seq() <= 1 || r.turnless() {
		if err := r.j.Close(); err != nil {
			return err
		}
		r.j = nil
		return os.Remove(r.current())
	}
	_, err := r.finish()
	return err
}

// turnless reports whether the current journal holds no turn.
func (r *Recorder) turnless() bool {
	data, err := os.ReadFile(r.current())
	if err != nil {
		return false
	}
	entries, _, _, err := parse(r.current(), data)
	if err != nil {
		return false
	}
	return len(turnClocks(entries)) == 0
}

// finish files the journal's game in the store and moves the journal to
// journals/. Until the game is filed the journal stays open, so a failed
// finish (a full disk) can be tried again. Callers hold r.mu.
func (r *Recorder) finish() (string, error) {
	_, g, err := r.pgn(r.current(), r.game)
	if err != nil {
		return "", err
	}
	path, err := r.Store().Save(g, r.Board, time.Now())
	if err != nil {
		return "", err
	}
	r.j.Close()
	r.j = nil
	if err := r.moveCurrent(r.game); err != nil {
		return "", err
	}
	if r.Saved != nil {
		r.Saved(r.game, path)
	}
	return path, nil
}

func (r *Recorder) moveCurrent(name string) error {
	dst := filepath.Join(r.Dir, "journals", name+".journal")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	for i := 2; fileExists(dst); i++ {
		dst = filepath.Join(r.Dir, "journals", fmt.Sprintf("%s_%d.journal", name, i))
	}
	if err := os.Rename(r.current(), dst); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return syncDir(filepath.Dir(dst))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// pgn rebuilds a journal's game as PGN4 with its headers.
func (r *Recorder) pgn(path, id string) (string, *pgn4.Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, fmt.Errorf("archive: %w", err)
	}
	entries, _, _, err := parse(path, data)
	if err != nil {
		return "", nil, err
	}
	pg, err := GamePGN4(entries, r.Lookup, r.Site, r.Board, id)
	if err != nil {
		return "", nil, err
	}
	return pg.String(), pg, nil
}

// GamePGN4 writes a game's journal entries (a start entry first) as
// PGN4, as the board archives it: the game's tags (Site defaulting to
// site), the board, the game's id, the termination, the clocks after
// each turn as comments, and the result.
func GamePGN4(entries []Entry, lookup Lookup, site, board, id string) (*pgn4.Game, error) {
	g, err := Restore(entries, lookup)
	if err != nil {
		return nil, err
	}
	tags, _ := gameTags(entries) // Resume said what it mended
	var out []pgn4.Tag
	add := func(k, v string) {
		if v != "" {
			out = append(out, pgn4.Tag{Name: k, Value: v})
		}
	}
	add("Event", tags["Event"])
	add("Site", firstOf(tags["Site"], site))
	add("Round", tags["Round"])
	for _, s := range []string{"Red", "Blue", "Yellow", "Green"} {
		add(s, tags[s])
	}
	add("Board", board)
	add("GameId", id)
	if res, over := g.Result(); over {
		add("Termination", res.Reason)
	} else {
		add("Termination", "unfinished")
	}
	rest := make([]string, 0, len(tags))
	for k := range tags {
		switch k {
		case "Event", "Site", "Round", "Red", "Blue", "Yellow", "Green":
		default:
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		add(k, tags[k])
	}
	clocks := turnClocks(entries)
	if len(clocks) != len(g.Records()) {
		clocks = nil // a journal from before clocks were recorded
	}
	pg, err := pgn4.FromGameWith(g, out, func(i int, rec rules.Record) string {
		if clocks == nil || len(clocks[i]) != rules.NumSeats {
			return ""
		}
		ms := clocks[i][rec.Seat]
		return fmt.Sprintf("[%%clk %d:%02d:%02d]", ms/3600000, ms/60000%60, ms/1000%60)
	})
	if err != nil {
		return nil, err
	}
	if pg.Get("Result") == "" {
		res, over := g.Result()
		switch {
		case !over:
			pg.Set("Result", "*")
		default:
			pg.Set("Result", res.Tag(g.Variant().Mode, [rules.NumSeats]string{tags["Red"], tags["Blue"], tags["Yellow"], tags["Green"]}))
		}
	}
	return pg, nil
}

// turnClocks lists the clocks after each turn of a journal's game, in the
// game's order (a takeback drops the turn it undid).
func turnClocks(entries []Entry) [][]int64 {
	var out [][]int64
	for _, e := range entries {
		switch e.Kind {
		case "move", "resign", "timeout":
			out = append(out, e.Clocks)
		case "takeback":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		}
	}
	return out
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// GamePGN4 returns a game's PGN4 by its id: the game in progress or a
// finished one whose journal is kept.
func (r *Recorder) GamePGN4(id string) (string, error) {
	if id == "" || filepath.Base(id) != id {
		return "", fmt.Errorf("archive: bad game id %q", id)
	}
	r.mu.Lock()
	cur := r.j != nil && r.game == id
	r.mu.Unlock()
	path := filepath.Join(r.Dir, "journals", id+".journal")
	if cur {
		path = r.current()
	}
	text, _, err := r.pgn(path, id)
	return text, err
}

// Close closes the journal of the game in progress (it is resumed on the
// next start).
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.j == nil {
		return nil
	}
	err := r.j.Close()
	r.j = nil
	return err
}
