package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// boardd replay reads Chess4's notation, by --notation chess4 or by the
// file's content: testdata/games/chess4/wiki-example.chess4 is the Chess4
// rules page's example game (see the README there).
func TestReplayChess4(t *testing.T) {
	const file = "../../testdata/games/chess4/wiki-example.chess4"
	for _, args := range [][]string{{file}, {"--notation", "chess4", file}} {
		code, out, errOut := runCmd(append([]string{"replay"}, args...)...)
		if code != 0 || !strings.Contains(out, "16 turns replayed") {
			t.Errorf("replay %v: %d\n%s%s", args, code, out, errOut)
		}
		// Gold's queen ends on K9 (i4) after "Qxk9 { K10 > K9 }".
		if !strings.Contains(lastLine(out), "/bR,bP,bN,3,rP,1,gQ,3,gP,gR/") {
			t.Errorf("final position %s", lastLine(out))
		}
	}
	// Read as PGN4 it is not a game.
	if code, _, _ := runCmd("replay", "--notation", "pgn4", file); code == 0 {
		t.Error("--notation pgn4 replayed a Chess4 file")
	}
	if code, _, errOut := runCmd("replay", "--notation", "chess5", file); code != 2 || !strings.Contains(errOut, "want pgn4 or chess4") {
		t.Errorf("unknown notation: %d %s", code, errOut)
	}
	// A wrong move is named by round, colour and token.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.chess4")
	os.WriteFile(bad, []byte(strings.Replace(string(data), "e4      { E2  > E4  }", "e5", 1)), 0o644)
	if code, _, errOut := runCmd("replay", bad); code != 1 || !strings.Contains(errOut, "round 3, Silver: e5: no Silver pawn can reach e5") {
		t.Errorf("bad move: %d %s", code, errOut)
	}
}

// boardd games export --notation chess4 writes the archive's games in
// Chess4's notation.
func TestGamesExportChess4(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "s.txt")
	os.WriteFile(s, []byte("move h2-h4\nmove b7-c7\n"), 0o644)
	if code, _, errOut := runCmd("sim", "-q", "--script", s, "--archive", dir, "--event", "League"); code != 0 {
		t.Fatalf("sim: %s", errOut)
	}
	code, out, errOut := runCmd("games", "export", "--dir", dir, "--notation", "chess4")
	if code != 0 || !strings.Contains(out, "1. k8      { M8  > K8  } { White  }\n   h3      { H2  > H3  } { Silver }\n") {
		t.Fatalf("games export --notation chess4: %d\n%s%s", code, out, errOut)
	}
	// … and replay reads what it wrote.
	f := filepath.Join(dir, "out.chess4")
	os.WriteFile(f, []byte(out), 0o644)
	if code, out, errOut := runCmd("replay", f); code != 0 || !strings.Contains(out, "2 turns replayed") {
		t.Errorf("replay of the export: %d %s%s", code, out, errOut)
	}
	if code, _, errOut := runCmd("games", "export", "--dir", dir, "--notation", "fen"); code != 2 || !strings.Contains(errOut, "want pgn4 or chess4") {
		t.Errorf("unknown notation: %d %s", code, errOut)
	}
}
