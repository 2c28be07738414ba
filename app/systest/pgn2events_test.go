package systest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pgn2events turns a real game into a switch script that the simulated
// board plays back into the same moves, at every noise level.
func TestPGN2EventsRoundTrip(t *testing.T) {
	game := filepath.Join("..", "..", "testdata", "games", "teams", "4pchess-test-en-passant.pgn4")
	_, want := realGame(t, "teams/4pchess-test-en-passant.pgn4")
	if len(want) < 8 {
		t.Fatalf("the test game has %d moves", len(want))
	}
	for _, noise := range []string{"none", "light", "heavy"} {
		code, script, errs := runCmd("pgn2events", "--noise", noise, "--seed", "3", game)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", noise, code, errs)
		}
		if !strings.HasPrefix(script, "# ") || !strings.Contains(script, "\nlift ") {
			t.Fatalf("%s: not a switch script:\n%.300s", noise, script)
		}
		if code, again, _ := runCmd("pgn2events", "--noise", noise, "--seed", "3", game); code != 0 || again != script {
			t.Errorf("%s: the same seed gave another script", noise)
		}
		path := filepath.Join(t.TempDir(), "game.switches")
		os.WriteFile(path, []byte(script), 0o644)
		code, out, errs := runCmd("sim", "--switches", "-q", "--script", path)
		if code != 0 || strings.Contains(out, "!!") {
			t.Fatalf("%s: exit %d, %s\n%s", noise, code, errs, out)
		}
		got := simMoves(t, out)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: the board made\n%v\nof the game's\n%v", noise, got, want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pgn2events", "--noise", "loud", game}, "want none, light or heavy"},
		{[]string{"pgn2events"}, "want one PGN4 file"},
		{[]string{"pgn2events", "/nonexistent.pgn4"}, "no such file"},
	} {
		if code, _, errs := runCmd(tc.args...); code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tc.args, code, errs, tc.want)
		}
	}
}
