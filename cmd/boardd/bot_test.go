package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"boardd/internal/catalog"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// TestBestmove: the last line is "bestmove <move>" with a move that the
// position's legal moves resolve (the PGN4 form replay reads), for each
// kind of limit and for positions of several variants.
func TestBestmove(t *testing.T) {
	cases := []struct {
		name string
		args []string
		fen  string
	}{
		{"teams start, depth", []string{"--variant", "teams", "--depth", "3"}, ""},
		{"ffa start, nodes", []string{"--variant", "ffa", "--nodes", "5000"}, ""},
		{"teams, movetime", []string{"--variant", "teams", "--movetime", "50ms", "--level", "2"}, ""},
		{"stevenson, depth", []string{"--variant", "stevenson", "--depth", "2"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(append([]string{"bestmove"}, c.args...), &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			last := lines[len(lines)-1]
			mv, ok := strings.CutPrefix(last, "bestmove ")
			if !ok {
				t.Fatalf("last line %q, want bestmove <move>", last)
			}
			v, err := catalog.Variant(c.args[1], "")
			if err != nil {
				t.Fatal(err)
			}
			g, _ := rules.NewGame(v, c.fen)
			if _, err := pgn4.Resolve(g, mv); err != nil {
				t.Fatalf("bestmove %s: %v", mv, err)
			}
		})
	}
}

// TestBestmoveErrors: bad input is refused with what to do.
func TestBestmoveErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--variant", "nope"}, "nope"},
		{[]string{"--fen4", "garbage"}, "--fen4"},
		{[]string{"--level", "9"}, "--level 9: want 1 to 5"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(append([]string{"bestmove"}, c.args...), &out, &errb); code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want an error naming %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestMatch: one line per game, then the match line with every kind.
func TestMatch(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"match", "--variant", "teams", "--games", "3", "--seed", "2", "--seats", "bot:2,random,bot:2,greedy", "--movetime", "5ms"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 3 games and the match line:\n%s", len(lines), out.String())
	}
	for _, l := range lines[:3] {
		if !regexp.MustCompile(`^game \d+: \d+ turns, .+, winner \S+`).MatchString(l) {
			t.Errorf("game line %q", l)
		}
	}
	if !regexp.MustCompile(`^match 3 games: bot:2 wins \d+, random wins \d+, greedy wins \d+, draws \d+$`).MatchString(lines[3]) {
		t.Errorf("match line %q", lines[3])
	}
	if !strings.Contains(errb.String(), "bot:2:") || !strings.Contains(errb.String(), "nodes/s") {
		t.Errorf("no bot statistics on stderr: %q", errb.String())
	}
	if code := run([]string{"match", "--seats", "bot:2,random"}, &out, &errb); code != 2 {
		t.Errorf("three seats short: exit %d", code)
	}
}
