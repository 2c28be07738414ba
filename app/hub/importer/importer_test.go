package importer_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/importer"
	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

// games is the project's real games (testdata/games, chess.com PGN4).
const games = "../../../testdata/games"

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var backends = []struct {
	name string
	db   func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "hub.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.Start(t).NewDB(t) }},
}

// boardd hub import DIR: boardd collect's layout (DIR/<board>/<id>.pgn4)
// and a board's archive (files with Board and GameId tags) into the
// database as finished games with their tags, turns and results; bad
// files named, the rest imported; a second run stores nothing.
func TestImportDir(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			dir := t.TempDir()
			// boardd collect's layout: the board is the directory, the id the file.
			copyFile(t, filepath.Join(games, "teams/4pchess-26780486.pgn4"), filepath.Join(dir, "club-1", "g-teams.pgn4"))
			copyFile(t, filepath.Join(games, "ffa/hornet-collected_games-cc_game_0017.pgn4"), filepath.Join(dir, "club-1", "g-ffa.pgn4"))
			// A board's archive: its games/ directory, as the board files them.
			pg, _, err := pgn4.ParseString(mustRead(t, filepath.Join(games, "teams/4pchess-26780489.pgn4")))
			if err != nil {
				t.Fatal(err)
			}
			pg.Set("Board", "club-2")
			pg.Set("GameId", "20261128-120000")
			pg.Set("Event", "Club night")
			pg.Set("Round", "2")
			if _, err := (archive.Store{Dir: filepath.Join(dir, "club-2-state", "games")}).Save(pg, "club-2", time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)); err != nil {
				t.Fatal(err)
			}
			// Bad files: an illegal game, not PGN4, no board to name.
			copyFile(t, filepath.Join(games, "invalid/pgn4crate-LONG_TEAM.pgn4"), filepath.Join(dir, "club-1", "illegal.pgn4"))
			os.WriteFile(filepath.Join(dir, "club-1", "garbage.pgn4"), []byte("[Event \"x\"\n1. ???"), 0o644)
			copyFile(t, filepath.Join(games, "teams/4pchess-26780486.pgn4"), filepath.Join(dir, "loose.pgn4"))

			s, err := store.Open(context.Background(), be.db(t))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var out bytes.Buffer
			sum, err := importer.Dir(context.Background(), s, dir, &out)
			if err != nil {
				t.Fatal(err)
			}
			if want := (importer.Summary{Files: 6, Games: 5, Stored: 3, Failed: 3}); sum != want {
				t.Errorf("summary %+v, want %+v\n%s", sum, want, out.String())
			}
			for _, want := range []string{"illegal.pgn4: move ", "garbage.pgn4: ", "loose.pgn4: no Board tag", "imported from " + dir + ": 6 files, 5 games: 3 stored"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}

			ctx := context.Background()
			g, ok, err := s.Game(ctx, "club-1", "g-teams")
			if err != nil || !ok {
				t.Fatalf("club-1/g-teams: %v %v", ok, err)
			}
			if g.Status != "over" || g.Variant != "teams" || g.Tags["Red"] != "TeamTitan2" || g.Result == nil || g.Result.PGN4 != "0-1" ||
				g.Result.Reason != "resignation" || strings.Join(g.Result.Winners, ",") != "Blue,Green" {
				t.Errorf("club-1/g-teams: %+v result %+v", g, g.Result)
			}
			turns, err := s.Turns(ctx, "club-1", "g-teams")
			if err != nil || len(turns) == 0 || turns[0].Move != "h2-h3" || turns[0].Seat != "Red" || turns[0].Coord != "h2-h3" || turns[0].FEN4 == "" {
				t.Fatalf("turns %+v %v", turns[:min(2, len(turns))], err)
			}
			if last := turns[len(turns)-1]; last.Kind != "resign" || last.Seat != "Yellow" {
				t.Errorf("the last turn %+v, want Yellow's resignation", last)
			}
			ffa, _, _ := s.Game(ctx, "club-1", "g-ffa")
			if ffa.Result == nil || len(ffa.Result.Points) != 4 {
				t.Errorf("club-1/g-ffa: %+v", ffa.Result)
			}
			arch, ok, _ := s.Game(ctx, "club-2", "20261128-120000")
			if !ok || arch.Tags["Event"] != "Club night" || arch.Tags["Round"] != "2" {
				t.Errorf("the archived game: %v %+v", ok, arch)
			}

			// Again: nothing twice.
			out.Reset()
			sum, err = importer.Dir(context.Background(), s, dir, &out)
			if err != nil {
				t.Fatal(err)
			}
			if want := (importer.Summary{Files: 6, Games: 5, Known: 3, Failed: 3}); sum != want {
				t.Errorf("the second run: %+v, want %+v", sum, want)
			}
			if again, _ := s.Turns(ctx, "club-1", "g-teams"); len(again) != len(turns) {
				t.Errorf("turns after a second import: %d, want %d", len(again), len(turns))
			}
		})
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestImportDirMissing(t *testing.T) {
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := importer.Dir(context.Background(), s, "/nonexistent/games", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "/nonexistent/games") {
		t.Errorf("a missing directory: %v", err)
	}
}
