package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/pgn4"
)

// pgn2events turns a real game into a switch script that the simulated
// board plays back into the same moves, at every noise level.
func TestPGN2EventsRoundTrip(t *testing.T) {
	game := filepath.Join("..", "..", "testdata", "games", "teams", "4pchess-test-en-passant.pgn4")
	data, _ := os.ReadFile(game)
	pg, _, err := pgn4.ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := pgn4.Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range g.Records() {
		if r.Action != rules.ActMove {
			break
		}
		want = append(want, r.Text)
	}
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
		pgOut, _, err := pgn4.ParseString(out[strings.Index(out, "[Event"):])
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range pgOut.Rounds {
			for _, sl := range r.Slots {
				got = append(got, sl.Text)
			}
		}
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
