package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/pgn4"
)

func builtin(name, start string) (*rules.Variant, error) { return rules.NewVariant(name, start) }

// journalOf replays a real game and journals every turn.
func journalOf(t *testing.T, dir, game string) (string, *rules.Game) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", game))
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := pgn4.ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := pgn4.Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	v := strings.ToLower(pg.Get("Variant"))
	start := map[string]string{"4PC": "modern", "4PCo": "classic", "": "modern"}[pg.Get("StartFen4")]
	path := filepath.Join(dir, "game.journal")
	j, err := Create(path, Entry{Variant: v, Start: start, Tags: map[string]string{"Event": "test"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range g.Records() {
		if err := j.Append(MoveEntry(r)); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	return path, g
}

func TestJournalRoundTrip(t *testing.T) {
	path, g := journalOf(t, t.TempDir(), "ffa/hornet-baselines-human_4pc_game_100527014.pgn4")
	j, entries, warn, err := Open(path)
	if err != nil || warn != "" {
		t.Fatalf("open: %v %q", err, warn)
	}
	defer j.Close()
	if len(entries) != len(g.Records())+1 || j.Seq() != uint64(len(entries)) {
		t.Fatalf("%d entries for %d turns", len(entries), len(g.Records()))
	}
	back, err := Restore(entries, builtin)
	if err != nil {
		t.Fatal(err)
	}
	if back.Position().FEN4() != g.Position().FEN4() {
		t.Errorf("restored position differs")
	}
	if r1, _ := back.Result(); r1.Reason != "last player standing" {
		t.Errorf("restored result %+v", r1)
	}
	// Appending goes on numbering.
	if err := j.Append(Entry{Kind: "takeback"}); err != nil || j.Seq() != uint64(len(entries)+1) {
		t.Errorf("append after open: %v seq %d", err, j.Seq())
	}
}

// "A corrupted or truncated journal (power lost mid-write) is repaired on
// start: every complete event kept, the partial tail dropped with a
// warning. Test it by truncating journals at every byte offset of a real
// game."
func TestJournalTruncatedAtEveryOffset(t *testing.T) {
	dir := t.TempDir()
	path, _ := journalOf(t, dir, "teams/4pchess-26780486.pgn4")
	full, _ := os.ReadFile(path)
	// Entry boundaries: the offsets just after each newline.
	var ends []int
	for i, c := range full {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	fenAfter := map[int]string{} // complete entries -> position
	cut := filepath.Join(dir, "cut.journal")
	for off := 0; off <= len(full); off++ {
		os.WriteFile(cut, full[:off], 0o644)
		j, entries, warn, err := Open(cut)
		if err != nil {
			t.Fatalf("offset %d: %v", off, err)
		}
		j.Close()
		complete := 0
		for _, e := range ends {
			if e <= off {
				complete++
			}
		}
		if len(entries) != complete {
			t.Fatalf("offset %d: kept %d entries, want %d", off, len(entries), complete)
		}
		atBoundary := off == 0 || (complete > 0 && ends[complete-1] == off)
		if atBoundary != (warn == "") {
			t.Fatalf("offset %d: warning %q, boundary %v", off, warn, atBoundary)
		}
		if info, _ := os.Stat(cut); complete > 0 && info.Size() != int64(ends[complete-1]) {
			t.Fatalf("offset %d: file not repaired to %d bytes (is %d)", off, ends[complete-1], info.Size())
		}
		if complete == 0 {
			continue
		}
		if _, seen := fenAfter[complete]; !seen {
			g, err := Restore(entries, builtin)
			if err != nil {
				t.Fatalf("offset %d: restore: %v", off, err)
			}
			if n := len(g.Records()); n != complete-1 {
				t.Fatalf("offset %d: restored %d turns, want %d", off, n, complete-1)
			}
			fenAfter[complete] = g.Position().FEN4()
		}
	}
	if len(fenAfter) != len(ends) {
		t.Errorf("checked %d prefixes, want %d", len(fenAfter), len(ends))
	}
}

func TestJournalDamageInTheMiddle(t *testing.T) {
	dir := t.TempDir()
	path, _ := journalOf(t, dir, "teams/4pchess-test-castling.pgn4")
	data, _ := os.ReadFile(path)
	i := strings.Index(string(data), `"move"`)
	data[i+2] = '#' // a flipped byte inside an early entry, more entries after it
	os.WriteFile(path, data, 0o644)
	if _, _, _, err := Open(path); err == nil || !strings.Contains(err.Error(), "damaged and more follows") {
		t.Errorf("open of a damaged journal: %v", err)
	}
	if _, err := Create(path, Entry{Variant: "teams"}); err == nil {
		t.Error("Create overwrote an existing journal")
	}
}

// A draw agreed at the board is journaled as a "draw" entry and restores
// as the same result; a variant without the rule refuses the entry.
func TestJournalRestoresAnAgreedDraw(t *testing.T) {
	withDraws := func(name, start string) (*rules.Variant, error) {
		v, err := rules.NewVariant(name, start)
		if err != nil {
			return nil, err
		}
		v.Options.DrawByAgreement = true
		return v, v.Compile()
	}
	entries := []Entry{
		{Seq: 1, Kind: "start", Game: "g1", Variant: "teams"},
		{Seq: 2, Kind: "move", Seat: "Red", Move: "h2-h4"},
		{Seq: 3, Kind: "draw", Seats: []string{"Blue", "Green", "Red", "Yellow"}},
	}
	g, err := Restore(entries, withDraws)
	if err != nil {
		t.Fatal(err)
	}
	if res, over := g.Result(); !over || res.Reason != rules.ReasonAgreement || len(g.Records()) != 1 {
		t.Fatalf("restored %+v (over %v, %d records), want a draw by agreement after one move", res, over, len(g.Records()))
	}
	if _, err := Restore(entries, builtin); err == nil || !strings.Contains(err.Error(), "no draw by agreement") {
		t.Fatalf("restoring a draw in a variant without it: %v", err)
	}
}
