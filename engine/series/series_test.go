package series

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"boardd/app/catalog"
	"boardd/rules"
)

func teams(t *testing.T) *rules.Variant {
	t.Helper()
	v, err := catalog.Variant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Every game gets a line, and the last line's wins and draws add up to the
// games played; the same seed plays the same series.
func TestRun(t *testing.T) {
	c := Config{Variant: teams(t), Games: 2, Seed: 5, Kinds: []string{"random", "greedy", "random", "greedy"}}
	var out, errb bytes.Buffer
	if err := Run(context.Background(), c, &out, &errb); err != nil {
		t.Fatal(err)
	}
	last := regexp.MustCompile(`match 2 games: random wins (\d+), greedy wins (\d+)(.*), draws (\d+)\n$`).FindStringSubmatch(out.String())
	if last == nil {
		t.Fatalf("no summary line:\n%s", out.String())
	}
	sum := 0
	for _, s := range []string{last[1], last[2], last[4]} {
		n, _ := strconv.Atoi(s)
		sum += n
	}
	if sum != 2 || last[3] != "" {
		t.Errorf("wins and draws add up to %d of 2 games:\n%s", sum, out.String())
	}
	for i := 1; i <= 2; i++ {
		if !bytes.Contains(out.Bytes(), []byte(fmt.Sprintf("game %d: ", i))) {
			t.Errorf("no line for game %d:\n%s", i, out.String())
		}
	}
	var again bytes.Buffer
	if err := Run(context.Background(), c, &again, &errb); err != nil || again.String() != out.String() {
		t.Errorf("the same seed played another series (%v):\n%s\n%s", err, out.String(), again.String())
	}
}

func TestRunRefusesAKind(t *testing.T) {
	c := Config{Variant: teams(t), Games: 1, Kinds: []string{"random", "bot:9", "random", "random"}}
	var ke *KindError
	if err := Run(context.Background(), c, &bytes.Buffer{}, &bytes.Buffer{}); !errors.As(err, &ke) {
		t.Errorf("bot:9: %v, want a KindError", err)
	}
}

func TestMatchLine(t *testing.T) {
	for _, tc := range []struct {
		kinds []string
		wins  map[string]int
		draws int
		want  string
	}{
		{[]string{"bot", "random", "bot:3", "random"}, map[string]int{"bot:3": 2}, 1, "match 3 games: bot:3 wins 2, random wins 0, draws 1"},
		{[]string{"greedy", "random", "greedy", "random"}, map[string]int{"random": 1, "Red": 1}, 0, "match 2 games: greedy wins 0, random wins 1, Red wins 1, draws 0"},
	} {
		games := tc.draws
		for _, n := range tc.wins {
			games += n
		}
		if got := matchLine(games, tc.kinds, tc.wins, tc.draws); got != tc.want {
			t.Errorf("matchLine(%v) = %q, want %q", tc.kinds, got, tc.want)
		}
	}
}
