package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"boardd/app/catalog"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// uciPeer drives a uciSession as a program would: lines in, lines out.
type uciPeer struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func startUCI(t *testing.T) *uciPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	u, err := newUCI(outW, "teams", 5, 4)
	if err != nil {
		t.Fatal(err)
	}
	p := &uciPeer{t: t, in: inW, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		p.done <- u.serve(inR)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *uciPeer) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.in, l+"\n"); err != nil {
			p.t.Fatal(err)
		}
	}
}

// expect reads lines until one starts with prefix and returns it with
// the lines before it; a minute without it fails the test (a hang).
func (p *uciPeer) expect(prefix string) (string, []string) {
	p.t.Helper()
	var before []string
	timeout := time.After(time.Minute)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("output ended before %q; got %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-timeout:
			p.t.Fatalf("no %q within a minute; got %q", prefix, before)
		}
	}
}

// legalFor says whether the answer "bestmove X" is a legal move in g.
func legalFor(t *testing.T, g *rules.Game, answer string) {
	t.Helper()
	tok := strings.TrimPrefix(answer, "bestmove ")
	if _, err := pgn4.Resolve(g, tok); err != nil {
		t.Errorf("%q is not legal for %s: %v", answer, g.Turn(), err)
	}
}

// TestUCIPlaysAGame: the protocol as 4pchess speaks it, a position after
// moves, a search to a depth, a wrong line answered without losing the
// game, a search stopped, and the end.
func TestUCIPlaysAGame(t *testing.T) {
	v, err := catalog.Variant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	p := startUCI(t)
	p.send("uci")
	if _, before := p.expect("uciok"); !strings.Contains(strings.Join(before, "\n"), "id name boardd") {
		t.Errorf("uci answered %q; want the engine's id before uciok", before)
	}
	p.send("isready")
	p.expect("readyok")

	g, _ := rules.NewGame(v, "")
	for _, tok := range []string{"h2-h3", "b7-c7"} {
		m, err := pgn4.Resolve(g, tok)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	p.send("position startpos moves h2-h3 b7-c7", "go depth 3")
	ans, before := p.expect("bestmove")
	legalFor(t, g, ans)
	if len(before) == 0 || !strings.HasPrefix(before[len(before)-1], "info depth 3 ") {
		t.Errorf("lines before the answer %q; want info depth 3 last", before)
	}

	// Wrong lines are answered and change nothing: the same position.
	for _, tc := range []struct{ line, want string }{
		{"position startpos moves h2-h3 b7-c7 a1-a2", "info string position not taken: move 3 \"a1-a2\""},
		{"position fen R-0", "info string position not taken: FEN4"},
		{"position", "info string position not taken"},
		{"go movetime -5", "info string go not taken: movetime \"-5\""},
		{"go sideways 3", "info string go not taken: unknown limit \"sideways\""},
		{"setoption name Level value 9", "info string setoption not taken: level 9"},
		{"setoption name Colour value red", "info string setoption not taken: unknown option"},
		{"xyzzy", "info string unknown command \"xyzzy\""},
	} {
		p.send(tc.line)
		if got, _ := p.expect("info string"); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q answered %q; want %q…", tc.line, got, tc.want)
		}
	}
	p.send("go nodes 2000")
	ans, _ = p.expect("bestmove")
	legalFor(t, g, ans)

	// A long search ends on stop with a move of this position.
	p.send("go infinite", "stop")
	ans, _ = p.expect("bestmove")
	legalFor(t, g, ans)

	p.send("quit")
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("quit did not end the session")
	}
}

// TestUCINoMove: a position whose seat to move has no legal move is
// answered, not hung on.
func TestUCINoMove(t *testing.T) {
	// Red, to move, is checkmated: its king on h1 in the corner of its
	// own pawns, a Blue queen on h2 guarded by a Blue rook on h3.
	fen := "R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/14/14/7,yK,6/bK,13/7,gK,6/14/14/x,x,x,4,bR,3,x,x,x/x,x,x,3,rP,bQ,rP,2,x,x,x/x,x,x,4,rK,3,x,x,x"
	v, _ := catalog.Variant("teams", "")
	g, err := rules.NewGame(v, fen)
	if err != nil {
		t.Fatalf("the test's position: %v", err)
	}
	if len(g.LegalMoves()) != 0 {
		t.Fatalf("the test's position has %d legal moves for %s; want none", len(g.LegalMoves()), g.Turn())
	}
	p := startUCI(t)
	p.send("position fen "+fen, "go movetime 50")
	if ans, _ := p.expect("bestmove"); ans != "bestmove (none)" {
		t.Errorf("answer %q; want bestmove (none)", ans)
	}
}
