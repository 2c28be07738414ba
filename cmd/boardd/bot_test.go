package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"boardd/app/catalog"
	"boardd/engine"
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

// TestBestmoveClock: bestmove plays on a clock given as durations or as
// UCI's milliseconds, answers an only move at once (no node searched)
// however long the clock, and refuses wrong clock flags naming the flag
// and what to give.
func TestBestmoveClock(t *testing.T) {
	const only = "Y-0,0,0,0-0,0,1,0-0,1,1,0-0,0,0,0-1-{'enPassant':('','','i12:i11','')}-x,x,x,yR,2,yK,gQ,gB,yN,yR,x,x,x/x,x,x,1,yP,yP,1,yP,2,yP,x,x,x/x,x,x,1,bN,1,yP,4,x,x,x/bR,bP,1,yP,4,yP,yP,2,gP,gR/1,bP,6,gP,4,gN/bB,7,yN,2,gP,2/1,bP,9,gK,2/bK,bP,4,yB,5,gP,1/bB,bP,4,bN,5,gP,gB/bR,3,bP,2,rP,3,gP,1,gN/2,yQ,5,rP,1,rP,rN,1,gR/x,x,x,bP,rP,2,rP,1,rP,1,x,x,x/x,x,x,rP,1,rP,rK,4,x,x,x/x,x,x,rR,1,rB,rQ,1,rB,1,rR,x,x,x"
	ok := []struct {
		name string
		args []string
		info string // in the info line
	}{
		{"durations, a node limit", []string{"--time", "45s", "--inc", "1s", "--nodes", "3000"}, "info depth"},
		{"UCI milliseconds", []string{"--time", "45000", "--inc", "1000", "--nodes", "3000"}, "info depth"},
		{"a delay and a hand", []string{"--time", "1m", "--delay", "15s", "--hand", "2s", "--movestogo", "20", "--nodes", "3000"}, "info depth"},
		{"a few milliseconds left: the first iteration", []string{"--time", "5ms", "--level", "5"}, "info depth 1 "},
		{"an only move, ten minutes left", []string{"--time", "10m", "--inc", "10s", "--fen4", only}, "info depth 0 score 0 nodes 0 "},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(append([]string{"bestmove"}, c.args...), &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], c.info) || !strings.HasPrefix(lines[1], "bestmove ") {
				t.Fatalf("output %q: want an info line starting %q and bestmove <move>", out.String(), c.info)
			}
		})
	}
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"--time", "abc"}, `invalid value "abc" for flag -time: want a time such as 45s, 1m30s or 1500ms, or a whole number of milliseconds (45000)`},
		{[]string{"--time", "-5s"}, `invalid value "-5s" for flag -time: a time on the clock is never negative`},
		{[]string{"--time", "45s", "--inc", "-1"}, `invalid value "-1" for flag -inc: a time on the clock is never negative`},
		{[]string{"--time", "45s", "--delay", "1x"}, `invalid value "1x" for flag -delay: want a time`},
		{[]string{"--time", "45s", "--hand", "-2s"}, `invalid value "-2s" for flag -hand: a time on the clock is never negative`},
		{[]string{"--inc", "1s"}, "--inc needs --time, the seat's time left"},
		{[]string{"--delay", "15s"}, "--delay needs --time"},
		{[]string{"--movestogo", "20"}, "--movestogo needs --time"},
		{[]string{"--time", "0"}, "--time 0s: the seat has no time left"},
		{[]string{"--time", "10s", "--movetime", "1s"}, "--time and --movetime: give one"},
		{[]string{"--time", "10s", "--movestogo", "-3"}, "--movestogo -3: want the seat's moves to go, 1 or more"},
		{[]string{"--time", "1m", "--inc", "1s", "--delay", "15s"}, "--inc and --delay: a time control has one or the other"},
	}
	for _, c := range bad {
		var out, errb bytes.Buffer
		if code := run(append([]string{"bestmove"}, c.args...), &out, &errb); code == 0 || !strings.Contains(errb.String(), c.want) || out.Len() > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want an error naming %q", c.args, code, out.String(), errb.String(), c.want)
		}
	}
}

// TestBestmoveClockFlags: the clock flags become the engine's clock.
func TestBestmoveClockFlags(t *testing.T) {
	at := func(d time.Duration) clockFlag { return clockFlag{d: d, set: true} }
	c, err := bestmoveClock(at(45*time.Second), at(time.Second), clockFlag{}, at(2*time.Second), 30, 0)
	want := engine.Clock{Left: 45 * time.Second, Increment: time.Second, Hand: 2 * time.Second, MovesToGo: 30}
	if err != nil || c == nil || *c != want {
		t.Errorf("got %+v, %v; want %+v", c, err, want)
	}
	if c, err := bestmoveClock(clockFlag{}, clockFlag{}, clockFlag{}, clockFlag{}, 0, time.Second); c != nil || err != nil {
		t.Errorf("no --time: %+v, %v; want no clock", c, err)
	}
}
