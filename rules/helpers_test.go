package rules

import (
	"strings"
	"testing"

	"boardd/rules/square"
)

// fenOf builds an x-dialect FEN4 with no castling rights from a turn
// letter and "rK:h1 bK:a7 …" piece placements.
func fenOf(t testing.TB, turn string, pieces string) string {
	t.Helper()
	g := Cross14()
	at := map[square.Square]string{}
	for _, f := range strings.Fields(pieces) {
		pc, sqName, ok := strings.Cut(f, ":")
		if !ok {
			t.Fatalf("bad placement %q", f)
		}
		s, err := square.Parse(sqName)
		if err != nil {
			t.Fatal(err)
		}
		at[s] = pc
	}
	var rows []string
	for r := 13; r >= 0; r-- {
		var toks []string
		run := 0
		flush := func() {
			if run > 0 {
				toks = append(toks, itoa(run))
				run = 0
			}
		}
		for f := 0; f < 14; f++ {
			s := square.At(f, r)
			switch {
			case !g.Has(s):
				flush()
				toks = append(toks, "x")
			case at[s] != "":
				flush()
				toks = append(toks, at[s])
			default:
				run++
			}
		}
		flush()
		rows = append(rows, strings.Join(toks, ","))
	}
	return turn + "-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-" + strings.Join(rows, "/")
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

// newGameAt starts a game of v at the given placement.
func newGameAt(t testing.TB, v *Variant, turn, pieces string) *Game {
	t.Helper()
	g, err := NewGame(v, fenOf(t, turn, pieces))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// play makes a move given as "h2-h4" (or "h10-h11=N") and fails the test
// if it is illegal.
func play(t testing.TB, g *Game, mv string) Record {
	t.Helper()
	m := mustFind(t, g.pos, mv)
	rec, err := g.Play(m)
	if err != nil {
		t.Fatalf("%s: %v", mv, err)
	}
	return rec
}

func mustFind(t testing.TB, p *Position, mv string) Move {
	t.Helper()
	m, err := findText(p, mv)
	if err != nil {
		t.Fatalf("%s: %v", mv, err)
	}
	return m
}

// findText resolves "h2-h4", "h2xg3", "h10-h11=N" in p.
func findText(p *Position, mv string) (Move, error) {
	promo := NoKind
	if i := strings.IndexByte(mv, '='); i >= 0 {
		promo, _ = KindFromLetter(mv[i+1])
		mv = mv[:i]
	}
	a, b, ok := strings.Cut(strings.Replace(mv, "x", "-", 1), "-")
	if !ok {
		panic("bad move text " + mv)
	}
	from, err := square.Parse(a)
	if err != nil {
		return 0, err
	}
	to, err := square.Parse(b)
	if err != nil {
		return 0, err
	}
	return p.FindMove(from, to, promo)
}

func moveTexts(p *Position) map[string]bool {
	out := map[string]bool{}
	for _, m := range p.LegalMoves(nil) {
		out[p.MoveText(m)] = true
	}
	return out
}

func sqMust(name string) square.Square {
	s, err := square.Parse(name)
	if err != nil {
		panic(err)
	}
	return s
}
