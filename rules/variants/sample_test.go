package variants

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"boardd/rules"
	"boardd/rules/pgn4"
)

var writeSamples = flag.Bool("write-samples", false, "rewrite testdata/games/<variant>/random-*.pgn4 from seeded random playouts")

// sampleVariants are the seed variants whose sample games are random legal
// playouts (no recorded human games exist for them).
var sampleVariants = []string{"stevenson"}

// TestSampleGames checks that each variant's sample games are exactly what
// the seeded playout produces, and (with -write-samples) writes them.
// boardd replay plays them in CI (cmd/boardd tests).
func TestSampleGames(t *testing.T) {
	cat := catalog(t)
	for _, name := range sampleVariants {
		d, err := Find(cat, name)
		if err != nil {
			t.Fatal(err)
		}
		v, err := d.Variant("")
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(1); seed <= 2; seed++ {
			text := randomGame(t, v, seed)
			path := filepath.Join("..", "..", "testdata", "games", name, "random-"+strconv.FormatInt(seed, 10)+".pgn4")
			if *writeSamples {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./rules/variants -run SampleGames -write-samples)", err)
			}
			if string(got) != text {
				t.Errorf("%s differs from the seeded playout; the rules changed? rewrite with -write-samples after checking", path)
			}
		}
	}
}

// randomGame plays uniformly random legal moves from the start until the
// game ends (at most 3000 plies) and writes it as PGN4.
func randomGame(t *testing.T, v *rules.Variant, seed int64) string {
	t.Helper()
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	rng := newRand(seed)
	for ply := 0; ply < 3000; ply++ {
		if _, over := g.Result(); over {
			break
		}
		moves := g.LegalMoves()
		if _, err := g.Play(moves[rng.Intn(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	res, over := g.Result()
	tags := []pgn4.Tag{
		{Name: "Variant", Value: v.Name},
		{Name: "Event", Value: "boardd random legal playout, seed " + strconv.FormatInt(seed, 10)},
	}
	if over {
		tags = append(tags, pgn4.Tag{Name: "Termination", Value: res.Reason})
	}
	out, err := pgn4.FromGame(g, tags)
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}
