package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
