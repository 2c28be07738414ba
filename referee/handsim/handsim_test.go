package handsim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/app/catalog"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
)

// game replays a real game from the repository's testdata/games.
func game(t *testing.T, name string) *rules.Game {
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
	return g
}

// Every chunk leaves the switches as the rules leave the board after its
// move (captures, en passant, castling and pieces the rules took off
// included), at every noise level; the same seed gives the same script.
func TestChunksFollowTheGame(t *testing.T) {
	for _, name := range []string{"teams/4pchess-test-en-passant.pgn4", "teams/4pchess-test-castling-other-sides.pgn4", "teams/4pchess-26780486.pgn4"} {
		g := game(t, name)
		// The occupancy after each move, as the rules see it.
		replay, err := rules.NewGame(g.Variant(), g.StartFEN4())
		if err != nil {
			t.Fatal(err)
		}
		notes := map[int][]string{}
		for _, n := range g.Notes() {
			notes[n.After] = append(notes[n.After], n.Text)
		}
		var want []square.Set
		for i, r := range g.Records() {
			if r.Action != rules.ActMove {
				break
			}
			for _, text := range notes[i] {
				if _, err := replay.ApplyNote(text); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := replay.Play(r.Move); err != nil {
				t.Fatal(err)
			}
			want = append(want, replay.Position().Occupancy())
		}
		for _, noise := range []Noise{None, Light, Heavy} {
			for _, seed := range []int64{1, 2, 3} {
				chunks, err := Chunks(g, seed, noise)
				if err != nil {
					t.Fatalf("%s %v seed %d: %v", name, noise, seed, err)
				}
				if len(chunks) != len(want) {
					t.Fatalf("%s %v seed %d: %d chunks for %d moves", name, noise, seed, len(chunks), len(want))
				}
				script, err := Script(g, seed, noise)
				if err != nil || script != strings.Join(chunks, "") {
					t.Fatalf("%s %v seed %d: Script is not the chunks joined (%v)", name, noise, seed, err)
				}
				if again, _ := Script(g, seed, noise); again != script {
					t.Errorf("%s %v seed %d: the same seed gave another script", name, noise, seed)
				}
				occ := g.Position().Occupancy()
				if start, err := rules.NewGame(g.Variant(), g.StartFEN4()); err == nil {
					occ = start.Position().Occupancy()
				}
				for i, c := range chunks {
					for _, line := range strings.Split(strings.TrimSpace(c), "\n") {
						f := strings.Fields(line)
						switch f[0] {
						case "lift", "place":
							q, err := square.Parse(f[1])
							if err != nil {
								t.Fatalf("%s chunk %d: %q: %v", name, i, line, err)
							}
							if f[0] == "lift" {
								occ.Remove(q)
							} else {
								occ.Add(q)
							}
						case "bounce":
							if noise == None {
								t.Errorf("%s chunk %d: bounce at noise none: %q", name, i, line)
							}
						case "wait":
						default:
							t.Fatalf("%s chunk %d: not a switch line: %q", name, i, line)
						}
					}
					if occ != want[i] {
						t.Fatalf("%s %v seed %d: after chunk %d the switches show %v, the rules %v", name, noise, seed, i, occ.Squares(), want[i].Squares())
					}
				}
			}
		}
	}
}

func TestParseNoise(t *testing.T) {
	for _, n := range []Noise{None, Light, Heavy} {
		if got, err := ParseNoise(n.String()); err != nil || got != n {
			t.Errorf("ParseNoise(%q) = %v, %v", n.String(), got, err)
		}
	}
	if _, err := ParseNoise("loud"); err == nil || !strings.Contains(err.Error(), "want none, light or heavy") {
		t.Errorf("ParseNoise(loud): %v", err)
	}
}
