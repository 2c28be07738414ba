package chess4pgn

import (
	"os"
	"testing"
)

// FuzzParse: Parse never panics; what it accepts writes out (Game.String)
// and parses back to the same turns and headers; replaying it on the
// Chess4 array never panics either.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("testdata/wiki-example.txt"); err == nil {
		f.Add(string(data))
	}
	for _, s := range []string{
		"1. k7 { M7 > K7 } { White } Nk3 d8 h11 2. 0 o-o-o-s Qf3xb7#g##bw Qxb9###",
		"[ White \"a\\\"b\" ]\n1. g8xk7 8xk7 Nji12#g 0 *",
		"1. k10=Q { Silver resigns } o-o-w 1/4-1/4-1/4-1/4",
		"{ lead } ; line comment\n1. k7 {",
	} {
		f.Add(s)
	}
	v := chess4Variant(f)
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Parse(text)
		if err != nil {
			return
		}
		Replay(g, v)
		out := g.String()
		g2, err := Parse(out)
		if err != nil {
			t.Fatalf("written text does not parse: %v\n%q\n%q", err, text, out)
		}
		if len(g2.Turns) != len(g.Turns) || len(g2.Headers) != len(g.Headers) {
			t.Fatalf("%d turns %d headers, read back %d %d\n%q\n%q", len(g.Turns), len(g.Headers), len(g2.Turns), len(g2.Headers), text, out)
		}
		for i, tu := range g.Turns {
			u := g2.Turns[i]
			if u.Token != tu.Token || u.Round != tu.Round || u.Colour != tu.Colour || u.From != tu.From || u.To != tu.To {
				t.Fatalf("turn %d: %+v read back as %+v\n%q\n%q", i, tu, u, text, out)
			}
		}
		for i, h := range g.Headers {
			if g2.Headers[i] != h {
				t.Fatalf("header %d: %q read back as %q\n%q", i, h, g2.Headers[i], out)
			}
		}
	})
}
