package archive

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"boardd/internal/printable"
	"boardd/rules/pgn4"
)

// Store is a directory of finished games: one PGN4 file per game, named so
// a club can find it (date, event, round, board), and index.tsv listing
// them. Control characters in a tag (tabs and newlines included) are
// written as a visible \uXXXX in both (internal/printable).
type Store struct{ Dir string }

// Item is one index line. Players is the players column as written:
// "Red=Ann,Blue=Bob", a ',', '=' or '\\' in a name written with a
// backslash before it (PlayerNames reads it).
type Item struct {
	File, Date, Event, Round, Board, Variant, Players, Result string
}

// playerEscaper writes a name into the players column: its separators
// cannot be read as another player ("Di,Red=Mallory").
var playerEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// PlayerNames reads the players column: seat → name (as index.tsv shows
// it: a control character as \uXXXX).
func (it Item) PlayerNames() map[string]string {
	out := map[string]string{}
	var seat, cur strings.Builder
	inName := false
	end := func() {
		if inName {
			out[seat.String()] = cur.String()
		}
		seat.Reset()
		cur.Reset()
		inName = false
	}
	for i := 0; i < len(it.Players); i++ {
		c := it.Players[i]
		switch {
		case c == '\\' && i+1 < len(it.Players) && strings.IndexByte(`\\,=`, it.Players[i+1]) >= 0:
			// An escaped separator; any other backslash is the name's
			// (an index written before names were escaped).
			i++
			c = it.Players[i]
		case c == ',':
			end()
			continue
		case c == '=' && !inName:
			inName = true
			continue
		}
		if inName {
			cur.WriteByte(c)
		} else {
			seat.WriteByte(c)
		}
	}
	end()
	return out
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func slug(s, def string) string {
	s = strings.Trim(unsafeName.ReplaceAllString(s, "-"), "-")
	if s == "" {
		return def
	}
	return s
}

// Save writes a finished game: the file is written to a temporary name,
// synced and renamed, so a power cut leaves either the whole file or none;
// then the index gets its line. It returns the file's path.
func (s Store) Save(g *pgn4.Game, board string, when time.Time) (string, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", fmt.Errorf("archive: %w", err)
	}
	date := when.Format("2006-01-02")
	if g.Get("Date") == "" {
		g.Set("Date", date)
	}
	name := fmt.Sprintf("%s_%s_r%s_board-%s", date, slug(g.Get("Event"), "game"), slug(g.Get("Round"), "0"), slug(board, "1"))
	path := filepath.Join(s.Dir, name+".pgn4")
	for i := 2; fileExists(path); i++ {
		path = filepath.Join(s.Dir, fmt.Sprintf("%s_%d.pgn4", name, i))
	}
	if err := writeAtomic(path, []byte(g.String())); err != nil {
		return "", err
	}
	var players []string
	for _, seat := range []string{"Red", "Blue", "Yellow", "Green"} {
		if n := g.Get(seat); n != "" {
			players = append(players, seat+"="+playerEscaper.Replace(printable.Escape(n)))
		}
	}
	it := Item{File: filepath.Base(path), Date: date, Event: g.Get("Event"), Round: g.Get("Round"), Board: board,
		Variant: g.Get("Variant"), Players: strings.Join(players, ","), Result: g.Get("Result")}
	line := strings.Join([]string{it.File, it.Date, printable.Escape(it.Event), printable.Escape(it.Round), printable.Escape(it.Board), printable.Escape(it.Variant), it.Players, printable.Escape(it.Result)}, "\t") + "\n"
	if err := appendLine(filepath.Join(s.Dir, "index.tsv"), line); err != nil {
		os.Remove(path) // all or nothing: filing the game again makes no copy
		return "", fmt.Errorf("archive index: %w", err)
	}
	return path, nil
}

// appendLine appends line to the file and syncs it; a failed write is cut
// off again, so the file keeps only whole lines.
func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if _, err = f.WriteString(line); err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Truncate(info.Size())
	}
	return err
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// writeAtomic replaces path with data: a temporary file beside it,
// synced, renamed over it. On failure the temporary file is removed and
// path is as it was.
func writeAtomic(path string, data []byte) (err error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // make the rename itself durable
		d.Close()
	}
	return nil
}

// Filter selects index items; empty fields match everything. Player
// matches a part of any player's name; Date a prefix ("2026-11").
type Filter struct{ Event, Player, Date string }

// List returns the archived games matching f, oldest first. Lines the
// index cannot read are skipped and reported in the second result.
func (s Store) List(f Filter) ([]Item, []string, error) {
	file, err := os.Open(filepath.Join(s.Dir, "index.tsv"))
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("archive index: %w", err)
	}
	defer file.Close()
	var out []Item
	var bad []string
	sc := bufio.NewScanner(file)
	for n := 1; sc.Scan(); n++ {
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 8 {
			bad = append(bad, fmt.Sprintf("index.tsv line %d: %d fields, want 8", n, len(c)))
			continue
		}
		it := Item{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]}
		if (f.Event == "" || it.Event == f.Event) && (f.Date == "" || strings.HasPrefix(it.Date, f.Date)) &&
			(f.Player == "" || playsIn(it, f.Player)) {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out, bad, sc.Err()
}

// playsIn reports whether a player's name in it holds part (any case).
func playsIn(it Item, part string) bool {
	for _, name := range it.PlayerNames() {
		if strings.Contains(strings.ToLower(name), strings.ToLower(part)) {
			return true
		}
	}
	return false
}
