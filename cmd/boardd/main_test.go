package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardd/internal/printable"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		args []string
		last string
	}{
		{[]string{"perft", "--depth", "3"}, "nodes 7800"},
		{[]string{"perft", "--depth", "3", "--start", "classic"}, "nodes 7960"},
		{[]string{"perft", "--variant", "ffa", "--depth", "2", "--no-bulk"}, "nodes 395"},
		{[]string{"perft", "--depth", "2", "--fen4", "R-0,0,0,0-1,1,0,1-1,1,0,0-0,0,0,0-4-3,yR,yN,1,yR,7/3,yP,yK,3,yP,bB,yP,3/5,yP,yP,yP,6/bR,1,bP,1,yP,6,gB,gP,gR/bN,1,bP,4,yN,3,gP,2/1,bP,10,gP,1/bQ,bP,1,rQ,6,gP,1,gN,gK/bK,bP,8,gP,2,gQ/rB,8,rP,gP,2,gB/bN,2,bP,2,rP,rP,gN,1,gP,2,gR/bR,bP,rN,rP,8,gP,1/10,rP,3/5,rP,2,rP,5/3,rR,3,rK,rB,rN,rR,3"}, "nodes 1490"}, // reference row p04-castle-now,
	}
	for _, tt := range tests {
		code, out, errOut := runCmd(tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		if got := lastLine(out); got != tt.last {
			t.Errorf("%v: last line %q, want %q", tt.args, got, tt.last)
		}
	}
}

func TestPerftDivide(t *testing.T) {
	code, out, _ := runCmd("perft", "--depth", "2", "--divide")
	if code != 0 {
		t.Fatal(code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 21 || lines[20] != "nodes 395" {
		t.Fatalf("got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	if !strings.Contains(out, "\nd2-d4 19\n") && !strings.HasPrefix(out, "d2-d4 19\n") {
		t.Errorf("no 'd2-d4 19' line (Red's d2-d4 blocks Blue's b4-d4):\n%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"nosuch"}, 2, "unknown command"},
		{[]string{"perft"}, 2, "--depth N is required"},
		{[]string{"perft", "--depth", "1", "--variant", "chaturaji"}, 2, "unknown variant"},
		{[]string{"perft", "--depth", "1", "--fen4", "R-0"}, 1, "FEN4"},
	}
	for _, tt := range tests {
		code, _, errOut := runCmd(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, errOut, tt.code, tt.msg)
		}
	}
	if code, out, _ := runCmd("help"); code != 0 || !strings.Contains(out, "perft") {
		t.Errorf("help: %d %q", code, out)
	}
}

func TestReplayCommand(t *testing.T) {
	code, out, errOut := runCmd("replay", "../../testdata/games/teams/4pchess-test-castling.pgn4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	last := lastLine(out)
	// Eight full rounds, everyone castled (no rights left); Red's O-O-O put
	// the king on f1 and the rook on g1.
	if !strings.HasPrefix(last, "R-0,0,0,0-0,0,0,0-0,0,0,0-") || !strings.HasSuffix(last, "/x,x,x,2,rK,rR,3,rR,x,x,x") {
		t.Errorf("last line is not the expected final FEN4: %q", last)
	}
	code, _, errOut = runCmd("replay", "../../testdata/games/invalid/hornet-human_games-cc_game_0186.pgn4")
	if code != 1 || !strings.Contains(errOut, "move 110 (Green) Km11-n11") || !strings.Contains(errOut, "no piece on m11") {
		t.Errorf("invalid game: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCmd("replay"); code != 2 || !strings.Contains(errOut, "one PGN4 file") {
		t.Errorf("no file: exit %d %q", code, errOut)
	}
	if code, _, _ := runCmd("replay", "/nonexistent.pgn4"); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestVariantsCommand(t *testing.T) {
	code, out, errOut := runCmd("variants")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		`(?m)^teams +chess\.com Teams`, `(?m)^ffa +chess\.com Free-for-All`, `starts: modern, classic`,
		`(?m)^verney +Capt\. Verney`, `(?m)^chess4 +Chess4 \(Method 1\)`, `(?m)^chess4-m2 +Chess4 \(Method 2\)`,
		`(?m)^blocking-double +`, `(?m)^essay-partners-swap +`, `(?m)^essay-partners-alternate +`, `(?m)^stevenson +`,
		`rules: verney-four-handed-chess-1881\.txt; fits this board`,
		`(?m)^russian-fortress +(.*\n)[^\n]*does not fit this board: needs a 16×16 board .*play it with boardd sim`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
}

// The seed variants' sample games replay under their own rules to the
// end they were generated with.
func TestReplaySeedVariantSamples(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/games/*/random-*.pgn4")
	if len(files) < 6 {
		t.Fatalf("%d sample games, want two per seed variant", len(files))
	}
	for _, f := range files {
		code, out, errOut := runCmd("replay", f)
		if code != 0 || !strings.Contains(out, "game over: ") {
			t.Errorf("%s: exit %d\n%s%s", f, code, out, errOut)
		}
	}
}

func TestSimTouchByTouch(t *testing.T) {
	script := `# a capture with the victim lifted first, then an illegal move put right
move h2-h4
move b7-c7
move g13-g12
move m8-l8
move Qg1-j4
move b9-c9
lift i12
# not a move: put it back
place i12
wait
lift i13
place i12
lift j4
wait
-i12
+j4
+i13
wait
`
	path := filepath.Join(t.TempDir(), "s.txt")
	os.WriteFile(path, []byte(script), 0o644)
	code, out, errOut := runCmd("sim", "-q", "--script", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Red: Qg1-j4", "Blue: b9-c9", "!! no legal move explains the board", "board matches the game again", "1. h2-h4 .. b7-c7 .. g13-g12 .. m8-l8\n2. Qg1-j4 .. b9-c9\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := runCmd("sim", "--script", "/nonexistent"); code != 1 || !strings.Contains(errOut, "nonexistent") {
		t.Errorf("missing script: %d %q", code, errOut)
	}
}

// "kill -9 during a simulated game and restart loses no move": every turn
// is in the journal before the next; a restart resumes from it, and a
// journal cut off mid-write loses only the unfinished entry.
func TestSimJournalResume(t *testing.T) {
	dir := t.TempDir()
	j := filepath.Join(dir, "game.journal")
	s1 := filepath.Join(dir, "1.txt")
	os.WriteFile(s1, []byte("move h2-h4\nmove b7-c7\nmove g13-g12\n"), 0o644)
	if code, _, errOut := runCmd("sim", "-q", "--journal", j, "--script", s1); code != 0 {
		t.Fatalf("first run: %s", errOut)
	}
	// Power lost in the middle of writing a fourth entry.
	f, _ := os.OpenFile(j, os.O_APPEND|os.O_WRONLY, 0o644)
	f.WriteString(`{"seq":5,"kind":"move","se`)
	f.Close()
	s2 := filepath.Join(dir, "2.txt")
	os.WriteFile(s2, []byte("move m8-l8\nmove Qg1-j4\n"), 0o644)
	code, out, errOut := runCmd("sim", "-q", "--journal", j, "--script", s2)
	if code != 0 {
		t.Fatalf("second run: %s", errOut)
	}
	if !strings.Contains(errOut, "dropped an incomplete last entry") || !strings.Contains(out, "resumed teams: 3 turns") {
		t.Errorf("no repair warning or resume message:\n%s\n%s", out, errOut)
	}
	if !strings.Contains(out, "1. h2-h4 .. b7-c7 .. g13-g12 .. m8-l8\n2. Qg1-j4\n") {
		t.Errorf("the resumed game lost moves:\n%s", out)
	}
}

func TestGamesArchive(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "s.txt")
	os.WriteFile(s, []byte("move h2-h4\nmove b7-c7\n"), 0o644)
	for _, ev := range []string{"Club night", "League"} {
		if code, _, errOut := runCmd("sim", "-q", "--script", s, "--archive", dir, "--event", ev, "--round", "2"); code != 0 {
			t.Fatalf("sim: %s", errOut)
		}
	}
	code, out, _ := runCmd("games", "list", "--dir", dir, "--event", "League")
	if code != 0 || !strings.Contains(out, "_League_r2_board-1.pgn4") || !strings.HasSuffix(out, "1 games in "+dir+"\n") {
		t.Errorf("games list: %d\n%s", code, out)
	}
	code, out, _ = runCmd("games", "export", "--dir", dir)
	if code != 0 || strings.Count(out, "[Event ") != 2 || strings.Count(out, "1. h2-h4 .. b7-c7") != 2 {
		t.Errorf("games export:\n%s", out)
	}
	if code, _, errOut := runCmd("sim", "-q", "--script", s, "--archive", dir, "--event", "\x1b[2J"); code != 2 || !strings.Contains(errOut, "--event contains the control character U+001B") {
		t.Errorf("sim --event with an escape code: %d %s", code, errOut)
	}
	if code, _, errOut := runCmd("games", "dance"); code != 2 || !strings.Contains(errOut, "want list, show or export") {
		t.Errorf("unknown subcommand: %d %s", code, errOut)
	}
}

// An archive written by an older boardd or by hand may hold raw control
// characters: games list and show never send them to the terminal.
func TestGamesListEscapesControls(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.tsv"), []byte("g.pgn4\t2026-11-22\t\x1b[31mRED\t1\t1\tTeams\tRed=Ann\x00Evil\t1-0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "g.pgn4"), []byte("[Round \"\x1b]0;pwned\x07\"]\n\n1. h2-h3\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"games", "list", "--dir", dir}, `\u001B[31mRED`},
		{[]string{"games", "show", "--dir", dir, "g.pgn4"}, `[Round "\u001B]0;pwned\u0007"]` + "\n\n1. h2-h3\n"},
	} {
		code, out, errOut := runCmd(tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: %d %q %s, want %q in it", tc.args, code, out, errOut, tc.want)
		}
		if strings.ContainsFunc(strings.ReplaceAll(out, "\n", ""), printable.Bad) {
			t.Errorf("%v printed a control character: %q", tc.args, out)
		}
	}
}
