package systest

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/app/catalog"
	"boardd/referee/handsim"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// boardd sim, driven by the moves of real Teams games (castling on every
// side, perpendicular en passant, every promotion piece), recognises each
// move from the simulated lifts and places alone and prints the same
// movetext as the original file.
func TestSimReplaysGames(t *testing.T) {
	for _, name := range []string{"4pchess-test-castling.pgn4", "4pchess-test-castling-other-sides.pgn4", "4pchess-test-en-passant.pgn4", "4pchess-test-promotions.pgn4"} {
		data, err := os.ReadFile("../../testdata/games/teams/" + name)
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := pgn4.ParseString(string(data))
		if err != nil {
			t.Fatal(err)
		}
		var script strings.Builder
		var want []string
		for _, r := range g.Rounds {
			for _, sl := range r.Slots {
				fmt.Fprintf(&script, "move %s\n", sl.Text)
				want = append(want, sl.Text)
			}
		}
		path := filepath.Join(t.TempDir(), "script.txt")
		os.WriteFile(path, []byte(script.String()), 0o644)
		code, out, errOut := runCmd("sim", "-q", "--script", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		pg := out[strings.Index(out, "[Event"):]
		got, _, err := pgn4.ParseString(pg)
		if err != nil {
			t.Fatalf("%s: output PGN4: %v\n%s", name, err, out)
		}
		var have []string
		for _, r := range got.Rounds {
			for _, sl := range r.Slots {
				have = append(have, sl.Text)
			}
		}
		if strings.Join(have, " ") != strings.Join(want, " ") {
			t.Errorf("%s:\nsim  %v\nfile %v\n%s", name, have, want, out)
		}
	}
}

// switchScript turns a game's moves into what hands and reed switches do:
// captures with the victim or the mover lifted first, castling king-first
// or rook-first, the e.p. victim lifted, contact bounce on placed pieces,
// and a pause after each move, sometimes too short for the board to be
// quiet before the next player moves. Resignations end the script (no switch
// shows them).
func switchScript(t *testing.T, g *rules.Game, seed int64) string {
	return noisyScript(t, g, seed, handsim.Heavy)
}

func noisyScript(t *testing.T, g *rules.Game, seed int64, noise handsim.Noise) string {
	t.Helper()
	s, err := handsim.Script(g, seed, noise)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// realGame replays testdata/games/<name> and returns the game and its
// moves' PGN4 tokens up to the first turn that is not a move.
func realGame(t *testing.T, name string) (*rules.Game, []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", name))
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := pgn4.ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := pgn4.ReplayWith(pg, "", catalog.Variant)
	if err != nil {
		t.Fatal(err)
	}
	return g, moveTexts(g)
}

// simMoves reads the moves of the PGN4 'boardd sim' prints at the end.
func simMoves(t *testing.T, out string) []string {
	t.Helper()
	i := strings.Index(out, "[Event")
	if i < 0 {
		t.Fatalf("no PGN4 in the output:\n%s", out)
	}
	pg, _, err := pgn4.ParseString(out[i:])
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, r := range pg.Rounds {
		for _, sl := range r.Slots {
			moves = append(moves, sl.Text)
		}
	}
	return moves
}

// The referee's acceptance test, first part: real games turned into noisy
// switch scripts (capture order, castling order and bounce drawn at random)
// and played through the simulated reed switches, their debounce, the
// referee and the rules reproduce exactly the games' moves, for several
// seeds. No phantom and no missed move.
func TestSwitchScriptsReproduceRealGames(t *testing.T) {
	games := []string{"teams/4pchess-26780486.pgn4", "teams/4pchess-test-castling.pgn4", "teams/4pchess-test-castling-other-sides.pgn4", "teams/4pchess-test-en-passant.pgn4"}
	for _, name := range games {
		g, want := realGame(t, name)
		for seed := int64(1); seed <= 10; seed++ {
			path := filepath.Join(t.TempDir(), "s.txt")
			os.WriteFile(path, []byte(switchScript(t, g, seed)), 0o644)
			code, out, errOut := runCmd("sim", "--switches", "-q", "--script", path)
			if code != 0 {
				t.Fatalf("%s seed %d: exit %d: %s", name, seed, code, errOut)
			}
			if strings.Contains(out, "!!") {
				t.Errorf("%s seed %d: the referee complained:\n%s", name, seed, out)
			}
			got := simMoves(t, out)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s seed %d: %d moves recognised, want %d\ngot  %v\nwant %v", name, seed, len(got), len(want), got, want)
			}
		}
	}
}

// randomPlayout plays random legal moves (default promotions only) for at
// most plies plies or until the game ends.
func randomPlayout(t *testing.T, v *rules.Variant, seed int64, plies int) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	for ply := 0; ply < plies; ply++ {
		if _, over := g.Result(); over {
			break
		}
		moves := g.LegalMoves()
		m := moves[rng.Intn(len(moves))]
		for _, x := range moves { // the switches cannot tell promotions apart: take the default
			if x.From() == m.From() && x.To() == m.To() {
				m = x
				break
			}
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}
