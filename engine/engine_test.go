package engine

import (
	"context"
	"testing"
	"time"

	"boardd/rules"
)

func newGame(t testing.TB, name, fen string) *rules.Game {
	t.Helper()
	v, err := rules.NewVariant(name, "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestThinkStart(t *testing.T) {
	for _, name := range []string{"teams", "ffa"} {
		g := newGame(t, name, "")
		e := New(Options{Level: 5, Depth: 4, NoTimeLimit: true, Seed: 1})
		r, err := e.Think(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Position().IsLegal(r.Move) {
			t.Fatalf("%s: illegal %v", name, r.Move)
		}
		t.Logf("%s: %s", name, r)
	}
}

func TestSmokeMatch(t *testing.T) {
	v, _ := rules.NewVariant("teams", "")
	var ps [4]Player
	for i, k := range []string{"bot:3", "random", "bot:3", "random"} {
		p, err := NewPlayer(k, 0, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	began := time.Now()
	o, err := PlayGame(context.Background(), v, "", ps)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d turns %s winner %q in %s", o.Turns, o.Result.Reason, o.Winner, time.Since(began))
}
