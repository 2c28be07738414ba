package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/variants"
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

// An FFA win claimed at the board (claim_win: two left, a lead of more
// than 20 points) is journaled as a "claim" entry and restores as the
// same result; a claim the rules refuse does not restore.
func TestJournalRestoresAClaimedWin(t *testing.T) {
	const board = "-0-x,x,x,4,dyK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/1,bR,12/14/13,dgK/bK,13/14/14/3,rQ,10/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x"
	es, err := JournalEntries(referee.Message{Kind: referee.MsgWinClaimed, Seq: 7, Seat: "Red", Points: []int{30, 5, 0, 0}})
	if err != nil || len(es) != 1 || es[0].Kind != "claim" || es[0].Seat != "Red" || es[0].Msg != 7 {
		t.Fatalf("journal entries of win_claimed: %+v, %v", es, err)
	}
	for _, tc := range []struct {
		points string
		err    string
	}{
		{"30,5,0,0", ""},
		{"25,5,0,0", "a claim needs more than 20"},
	} {
		entries := []Entry{
			{Seq: 1, Kind: "start", Game: "g1", Variant: "ffa", Start: "R-0,0,1,1-0,0,0,0-0,0,0,0-" + tc.points + board},
			{Seq: 2, Kind: "move", Seat: "Red", Move: "d4-e4"},
			{Seq: 3, Kind: "move", Seat: "Blue", Move: "b10-c10"},
			{Seq: 4, Kind: "claim", Seat: "Red"},
		}
		g, err := Restore(entries, builtin)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("points %s: restored a refused claim: %v", tc.points, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if res, over := g.Result(); !over || res.Reason != rules.ReasonClaimWin || len(res.Winners) != 1 || res.Winners[0] != rules.Red || len(g.Records()) != 2 {
			t.Fatalf("restored %+v (over %v, %d records), want Red's claimed win after two moves", res, over, len(g.Records()))
		}
	}
}

// catalog finds the variants of configs/variants (blocking-double is one).
func catalog(t *testing.T) Lookup {
	t.Helper()
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	return func(name, start string) (*rules.Variant, error) {
		d, err := variants.Find(cat, name)
		if err != nil {
			return nil, err
		}
		return d.Variant(start)
	}
}

// Blocking double chess, Green (the essay's Red) to move: Kn7-n6 and
// Kn7-m6 move into the check of Blue's rook e6; Yellow can interpose
// Rk10-k6. And a stalemated Green king n4 that may claim the draw.
const (
	bdPrivilegeFEN = "G-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-x,x,x,4,yK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/10,yR,3/14/12,gP,1/bK,11,gP,gK/4,bR,9/14/14/x,x,x,rR,7,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x"
	bdStalemateFEN = "G-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-x,x,x,4,yK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,7,yR,x,x,x/14/12,bR,1/14/14/bK,13/14/4,bR,9/13,gK/x,x,x,rR,7,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x"
)

// Blocking double chess's announcements, replies and claimed stalemates
// are journaled as "note" entries and restore the same state: a move
// announced and accepted is still the announcer's only move, the
// partner must still relieve the check, a claimed stalemate still ended
// the game.
func TestJournalRestoresProtocolNotes(t *testing.T) {
	lookup := catalog(t)
	start := Entry{Seq: 1, Kind: "start", Game: "g1", Variant: "blocking-double", Start: bdPrivilegeFEN}
	note := func(seq uint64, text string) Entry { return Entry{Seq: seq, Kind: "note", Note: text} }
	entries := []Entry{start,
		note(2, "Green announces n7-n6"),
		note(3, "Yellow replies Another"),
		note(4, "Green announces n7-m6"),
		note(5, "Yellow replies I Accept"),
	}
	g, err := Restore(entries, lookup)
	if err != nil {
		t.Fatal(err)
	}
	m, by, accepted, ok := blockingOf(g).Announced()
	if !ok || by != rules.Green || !accepted || m.String() != "n7-m6" {
		t.Fatalf("restored announcement %v by %v accepted %v (%v), want n7-m6 by Green, accepted", m, by, accepted, ok)
	}
	if ms := g.LegalMoves(); len(ms) != 1 || ms[0] != m {
		t.Errorf("Green's moves %v, want only the accepted n7-m6", ms)
	}
	if got := strings.Join(noteTexts(g), "|"); got != "Green announces n7-n6|Yellow replies Another|Green announces n7-m6|Yellow replies I Accept" {
		t.Errorf("notes %s", got)
	}
	// The accepted move played, the partner must relieve.
	entries = append(entries, Entry{Seq: 6, Kind: "move", Seat: "Green", Move: "n7-m6"})
	if g, err = Restore(entries, lookup); err != nil {
		t.Fatal(err)
	}
	if s, ok := blockingOf(g).MustRelieve(); !ok || s != rules.Green {
		t.Errorf("MustRelieve %v %v after the accepted move", s, ok)
	}
	if ms := g.LegalMoves(); len(ms) != 1 || ms[0].String() != "k10-k6" {
		t.Errorf("Yellow's moves %v, want only the relief k10-k6", ms)
	}

	// A claimed stalemate.
	g, err = Restore([]Entry{{Seq: 1, Kind: "start", Variant: "blocking-double", Start: bdStalemateFEN}, note(2, "Green claims stalemate")}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if r := blockingOf(g).GameResults(); len(r) != 1 || r[0].Reason != "stalemate" || g.Status(rules.Green) != rules.Stalemated {
		t.Errorf("after the claim: results %v, Green %v", r, g.Status(rules.Green))
	}

	// A note the rules refuse, or no note at all, is an error that says so.
	for _, tc := range []struct{ text, want string }{
		{"Blue replies I Accept", "no move into check has been announced"},
		{"Green sings", "is no note of blocking-double"},
	} {
		if _, err := Restore([]Entry{start, note(2, tc.text)}, lookup); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("note %q: %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

func noteTexts(g *rules.Game) []string {
	var out []string
	for _, n := range g.Notes() {
		out = append(out, n.Text)
	}
	return out
}

// FFA's one-point queen ("Pawns promote to 1-point queens") survives the
// journal: a game set up from a FEN4 holding one ("rD") restores it as
// one, and capturing it scores 1, not 9.
func TestJournalRestoresAOnePointQueen(t *testing.T) {
	v, err := rules.NewFFA("")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(v, rules.Blue, "rK:h1 rD:h8 bR:a8 bK:a5 yK:g14 gK:n9")
	if err != nil {
		t.Fatal(err)
	}
	fen := p.FEN4()
	entries := []Entry{
		{Seq: 1, Kind: "start", Game: "g1", Variant: "ffa", Start: fen},
		{Seq: 2, Kind: "move", Seat: "Blue", Move: "a8-h8"},
	}
	g, err := Restore(entries, catalog(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Position().Points(rules.Blue); got != 1 {
		t.Errorf("Blue has %d points after taking the one-point queen, want 1 (start %s)", got, fen)
	}
}
