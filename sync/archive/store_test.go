package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/internal/printable"
	"boardd/rules/pgn4"
)

func TestStoreSaveAndList(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	day := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	mk := func(event, round, red string) *pgn4.Game {
		g, _, err := pgn4.ParseString("[Variant \"Teams\"]\n[Event \"" + event + "\"]\n[Round \"" + round + "\"]\n[Red \"" + red + "\"]\n[Result \"1-0\"]\n\n1. h2-h3\n")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	p1, err := s.Save(mk("Club night", "3", "Ann"), "2", day)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p1) != "2026-11-22_Club-night_r3_board-2.pgn4" {
		t.Errorf("file name %s", filepath.Base(p1))
	}
	p2, _ := s.Save(mk("Club night", "3", "Bob"), "2", day) // same event, round and board
	if !strings.HasSuffix(p2, "_2.pgn4") {
		t.Errorf("second file %s does not get a number", p2)
	}
	s.Save(mk("League", "1", "Ann"), "1", day.AddDate(0, 1, 0))
	data, _ := os.ReadFile(p1)
	if !strings.Contains(string(data), "[Date \"2026-11-22\"]") || !strings.Contains(string(data), "1. h2-h3") {
		t.Errorf("saved game:\n%s", data)
	}
	tests := []struct {
		f    Filter
		want int
	}{{Filter{}, 3}, {Filter{Event: "Club night"}, 2}, {Filter{Player: "ann"}, 2}, {Filter{Date: "2026-12"}, 1}, {Filter{Player: "zed"}, 0}}
	for _, tt := range tests {
		items, bad, err := s.List(tt.f)
		if err != nil || len(bad) != 0 || len(items) != tt.want {
			t.Errorf("List(%+v) = %d items (%v %v), want %d", tt.f, len(items), bad, err, tt.want)
		}
	}
	if entries, _ := os.ReadDir(s.Dir); len(entries) != 4 {
		t.Errorf("%d files in the archive (a .tmp left behind?)", len(entries))
	}
}

// Control characters in tags never reach the game file or index.tsv raw:
// they would cut an index line in two or run on a terminal.
func TestStoreEscapesControls(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	g, _, err := pgn4.ParseString("[Variant \"Teams\"]\n\n1. h2-h3\n")
	if err != nil {
		t.Fatal(err)
	}
	g.Set("Red", "Ann\x00Evil")
	g.Set("Round", "\x1b[31mRED")
	g.Set("Event", "tab\there\nand\u2028there")
	g.Set("Blue", "C1\u009b2J")
	path, err := s.Save(g, "b\x07", time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(s.Dir, "index.tsv"))
	game, _ := os.ReadFile(path)
	for name, data := range map[string]string{"index.tsv": string(index), filepath.Base(path): string(game)} {
		for i, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
			if strings.ContainsFunc(strings.ReplaceAll(line, "\t", ""), printable.Bad) {
				t.Errorf("%s line %d holds a control character: %q", name, i+1, line)
			}
		}
	}
	if got := strings.Count(string(index), "\t"); got != 7 {
		t.Errorf("index.tsv line has %d tabs, want 7: %q", got, index)
	}
	items, bad, err := s.List(Filter{})
	if err != nil || len(bad) != 0 || len(items) != 1 {
		t.Fatalf("List: %v %v %v", items, bad, err)
	}
	want := Item{File: filepath.Base(path), Date: "2026-11-22", Event: `tab\u0009here\u000Aand\u2028there`, Round: `\u001B[31mRED`, Board: `b\u0007`,
		Variant: "Teams", Players: `Red=Ann\\u0000Evil,Blue=C1\\u009B2J`}
	if items[0] != want {
		t.Errorf("index item\n%+v\nwant\n%+v", items[0], want)
	}
	if got := fmt.Sprint(items[0].PlayerNames()); got != `map[Blue:C1\u009B2J Red:Ann\u0000Evil]` {
		t.Errorf("players %s", got)
	}
	if !strings.Contains(string(game), `[Red "Ann\u0000Evil"]`) || !strings.Contains(string(game), `[Round "\u001B[31mRED"]`) {
		t.Errorf("game file:\n%s", game)
	}
}

// Issue 28: a name like "Di,Red=Mallory,Blue=Eve" forged players in
// index.tsv and /api/games. Its separators are escaped: it is one name.
func TestStorePlayerNamesCannotForgePlayers(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	names := map[string]string{"Red": "Ann", "Green": "Di,Red=Mallory,Blue=Eve", "Blue": `Bob\`, "Yellow": `=Cy\,`}
	g, _, err := pgn4.ParseString("[Variant \"Teams\"]\n\n1. h2-h3\n")
	if err != nil {
		t.Fatal(err)
	}
	for seat, n := range names {
		g.Set(seat, n)
	}
	if _, err := s.Save(g, "1", time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	items, bad, err := s.List(Filter{})
	if err != nil || len(bad) != 0 || len(items) != 1 {
		t.Fatalf("List: %v %v %v", items, bad, err)
	}
	if got, want := fmt.Sprint(items[0].PlayerNames()), fmt.Sprint(names); got != want {
		t.Errorf("players %s, want %s (index: %s)", got, want, items[0].Players)
	}
	for _, tc := range []struct {
		player string
		want   int
	}{{"mallory", 1}, {"Eve", 1}, {"Red=", 1}, {"Zed", 0}} {
		if items, _, _ := s.List(Filter{Player: tc.player}); len(items) != tc.want {
			t.Errorf("Filter{Player: %q}: %d games, want %d", tc.player, len(items), tc.want)
		}
	}
	// An index written before names were escaped reads as it did.
	old := Item{Players: `Red=Ann\u0007,Blue=Bob`}
	if got := fmt.Sprint(old.PlayerNames()); got != `map[Blue:Bob Red:Ann\u0007]` {
		t.Errorf("old index line: %s", got)
	}
}
