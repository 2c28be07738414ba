package pgn4

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"boardd/rules/square"
)

func TestParseMove(t *testing.T) {
	tests := []struct {
		tok  string
		want Move
	}{
		{"h2-h3", Move{Piece: 'P', From: sq("h2"), To: sq("h3")}},
		{"Nj1-i3", Move{Piece: 'N', From: sq("j1"), To: sq("i3")}},
		{"Qg1xQn8+", Move{Piece: 'Q', From: sq("g1"), To: sq("n8"), Capture: true, Captured: 'Q', Checks: 1}},
		{"k11xl10", Move{Piece: 'P', From: sq("k11"), To: sq("l10"), Capture: true}},
		{"h8-g8=D", Move{Piece: 'P', From: sq("h8"), To: sq("g8"), Promotion: 'D'}},
		{"e8-d8=R", Move{Piece: 'P', From: sq("e8"), To: sq("d8"), Promotion: 'R'}},
		{"h5-g5=D+#", Move{Piece: 'P', From: sq("h5"), To: sq("g5"), Promotion: 'D', Checks: 1, Mate: true}},
		{"Qa11xRa9+#", Move{Piece: 'Q', From: sq("a11"), To: sq("a9"), Capture: true, Captured: 'R', Checks: 1, Mate: true}},
		{"Qe4-h7+++", Move{Piece: 'Q', From: sq("e4"), To: sq("h7"), Checks: 3}},
		{"Ke12-e13T", Move{Piece: 'K', From: sq("e12"), To: sq("e13"), Then: 'T'}},
		{"Kj13-i14R", Move{Piece: 'K', From: sq("j13"), To: sq("i14"), Then: 'R'}},
		{"Rh4xKh12#S", Move{Piece: 'R', From: sq("h4"), To: sq("h12"), Capture: true, Captured: 'K', Mate: true, Then: 'S'}},
		{"O-O", Move{Kind: CastleShort, From: none, To: none, Piece: 'K'}},
		{"O-O-O+", Move{Kind: CastleLong, From: none, To: none, Piece: 'K', Checks: 1}},
		{"O-O#", Move{Kind: CastleShort, From: none, To: none, Piece: 'K', Mate: true}},
		{"R", Move{Kind: Resign, From: none, To: none}},
		{"R#", Move{Kind: Resign, From: none, To: none, Mate: true}},
		{"T", Move{Kind: Timeout, From: none, To: none}},
		{"S", Move{Kind: Stalemate, From: none, To: none}},
		{"#", Move{Kind: Eliminated, From: none, To: none, Mate: true}},
		{"T#", Move{Kind: Timeout, From: none, To: none, Mate: true}},
		// Forms from the real files.
		{"Bg14xKk10#", Move{Piece: 'B', From: sq("g14"), To: sq("k10"), Capture: true, Captured: 'K', Mate: true}},
		{"Qd9xBa9+", Move{Piece: 'Q', From: sq("d9"), To: sq("a9"), Capture: true, Captured: 'B', Checks: 1}},
		{"Kf1xKg1", Move{Piece: 'K', From: sq("f1"), To: sq("g1"), Capture: true, Captured: 'K'}},
		{"Qi10-i1++#", Move{Piece: 'Q', From: sq("i10"), To: sq("i1"), Checks: 2, Mate: true}},
		{"Kd13xNe12T", Move{Piece: 'K', From: sq("d13"), To: sq("e12"), Capture: true, Captured: 'N', Then: 'T'}},
		{"h11-g11=Q", Move{Piece: 'P', From: sq("h11"), To: sq("g11"), Promotion: 'Q'}},
		{"j7-k7=N", Move{Piece: 'P', From: sq("j7"), To: sq("k7"), Promotion: 'N'}},
		{"g5-g4=B", Move{Piece: 'P', From: sq("g5"), To: sq("g4"), Promotion: 'B'}},
		{"k13xQl14=D", Move{Piece: 'P', From: sq("k13"), To: sq("l14"), Capture: true, Captured: 'Q', Promotion: 'D'}},
		{"a4-a14", Move{Piece: 'P', From: sq("a4"), To: sq("a14")}},
		// Forms other PGN4 writers use (TheThirdOne/pgn4): two mates at once.
		{"Qi8-h9+++##", Move{Piece: 'Q', From: sq("i8"), To: sq("h9"), Checks: 3, Mate: true, DoubleMate: true}},
		{"O-O##", Move{Kind: CastleShort, From: none, To: none, Piece: 'K', Mate: true, DoubleMate: true}},
		// A promotion followed by resignation or time-out (FromGame writes
		// the R or T straight after the move's own text).
		{"h8-g8=DR", Move{Piece: 'P', From: sq("h8"), To: sq("g8"), Promotion: 'D', Then: 'R'}},
		{"h8-g8=RT", Move{Piece: 'P', From: sq("h8"), To: sq("g8"), Promotion: 'R', Then: 'T'}},
		{"O-O-OR", Move{Kind: CastleLong, From: none, To: none, Piece: 'K', Then: 'R'}},
	}
	for _, tt := range tests {
		got, err := ParseMove(tt.tok)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", tt.tok, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseMove(%q) = %+v, want %+v", tt.tok, got, tt.want)
		}
		if s := got.String(); s != tt.tok {
			t.Errorf("String() = %q, want %q", s, tt.tok)
		}
	}
}

func TestParseMoveRejects(t *testing.T) {
	for _, tok := range []string{
		"", "Q", "h2-", "h2-h3=X", "Kz9-a1", "h2-h3x", "h2h3", "Qh2-h3++++", "h2-h3#+", "a0-a1", "Xa1-a2",
		"h2-h3junk", "h2-h3 ", " h2-h3", "h2-h3=", "h2-h3=DD", "Ph2-h3", "h2xPh3", "q1-a1", "a1-q1", "a17-a14", "a14-a17",
		"h2-h3###", "##", "+", "R##", "RR", "h2-h3RR", "O-O-O-O", "O-", "Qa01-a2", "Qa1-a2.", "1.", "..", "h2--h3", "h2-xh3",
	} {
		if m, err := ParseMove(tok); err == nil {
			t.Errorf("ParseMove(%q) accepted: %+v", tok, m)
		}
	}
}

// Errors say which token is wrong and why.
func TestParseMoveMessages(t *testing.T) {
	tests := []struct{ tok, want string }{
		{"Qz1-h5", `"Qz1-h5": "z1" is not a square (files a-p, ranks 1-16)`},
		{"Qa17-a14", `"a17" is not a square`},
		{"h2-", `"h2-": a square is missing`},
		{"h2-h3=X", "promotion must name Q, R, B, N, D or K"},
		{"h2-h3junk", `unexpected "junk" after the move`},
		{"Q", `"Q": a square is missing`},
		{"h2h3", "want '-' or 'x' after h2"},
		{"h2-h3#+", "the '+' marks come before '#'"},
		{"Qh2-h3++++", "at most three '+'"},
		{"h2-h3###", "at most two '#'"},
		{"+", "marks without a move"},
	}
	for _, tt := range tests {
		_, err := ParseMove(tt.tok)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMove(%q) error = %v, want it to contain %q", tt.tok, err, tt.want)
		}
	}
}

func sq(name string) squareT { return mustSquare(name) }

const none = square.None

func gameFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "games", dir, "*.pgn4"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no games in testdata/games/%s: %v", dir, err)
	}
	return files
}

func readGame(t *testing.T, path string) (*Game, []Warning, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, warns, err := ParseString(string(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return g, warns, string(data)
}

// Every real file parses, and writing it back gives the same text byte
// for byte: the files are in chess.com's canonical layout (tags one per
// line, a blank line, "N. a .. b .. c .. d" one round per line, a final
// newline), which is exactly what WriteTo writes. The one exception is
// teams/4pchess-26780489.pgn4: its two variations are skipped with a
// warning (and it has trailing spaces), so only parse(write(g)) == g is
// checked there. Other normalisations WriteTo makes on non-canonical
// input: whitespace collapses to one space, ';' comments and variations
// are dropped, "12.h2-h3" and "12..." become "12. ", a ".." with no move
// after it is dropped (with a warning), and brace comments are written trimmed as
// " {text}" after their slot.
func TestRealFilesParseAndRoundTrip(t *testing.T) {
	var all []string
	for _, d := range []string{"ffa", "teams", "invalid"} {
		all = append(all, gameFiles(t, d)...)
	}
	if len(all) != 46 {
		t.Errorf("%d files, want 46", len(all))
	}
	for _, f := range all {
		g, warns, text := readGame(t, f)
		out := g.String()
		again, _, err := ParseString(out)
		if err != nil {
			t.Fatalf("%s: re-parse: %v", f, err)
		}
		if !reflect.DeepEqual(g, again) {
			t.Errorf("%s: parse(write(g)) != g", f)
		}
		if len(warns) == 0 && out != text {
			t.Errorf("%s: written text differs from the file", f)
		}
		if len(warns) != 0 && !strings.HasSuffix(f, "4pchess-26780489.pgn4") {
			t.Errorf("%s: unexpected warnings %v", f, warns)
		}
		if strings.HasSuffix(f, "4pchess-26780489.pgn4") && len(warns) != 2 {
			t.Errorf("%s: %d warnings, want 2 skipped variations", f, len(warns))
		}
	}
}

func TestParseDetails(t *testing.T) {
	g, _, _ := readGame(t, "../../testdata/games/ffa/hornet-baselines-human_4pc_game_100527014.pgn4")
	if g.Get("Variant") != "FFA" || g.Get("StartFen4") != "4PC" || g.Get("Red") != "dalay045" {
		t.Errorf("tags: %v", g.Tags)
	}
	if g.Get("Date") != "Mon Apr 13 2026 21:09:32 GMT+0000 (Coordinated Universal Time)" {
		t.Errorf("Date = %q", g.Get("Date"))
	}
	if len(g.Rounds) != 55 {
		t.Fatalf("%d rounds, want 55", len(g.Rounds))
	}
	r15 := g.Rounds[14]
	if r15.Number != 15 || len(r15.Slots) != 3 || r15.Slots[0].Text != "Qa11xRa9+#" || !r15.Slots[0].Move.Mate {
		t.Errorf("round 15 = %+v", r15)
	}
	if last := g.Rounds[54]; len(last.Slots) != 1 || last.Slots[0].Move.Kind != Resign {
		t.Errorf("round 55 = %+v", last)
	}
}

func TestCommentsAndClocks(t *testing.T) {
	g, warns, err := ParseString(`[Variant "Teams"]

1. h2-h3 {[%clk 0:00:58.5]} .. b7-c7 { good } .. g13-g12 .. m8-l8 (1. d2-d3 .. b4-c4) ; a comment to the end of the line
2. R
`)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Rounds[0].Slots
	if !s[0].HasClock || s[0].Clock.Seconds() != 58.5 || s[1].Comments[0] != "good" || s[2].HasClock {
		t.Errorf("slots %+v", s)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].String(), "variation skipped") {
		t.Errorf("warnings %v", warns)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[Variant \"FFA\"\n\n1. h2-h3", "line 1"},
		{"[Variant FFA]", "quoted value"},
		{"1. h2-h3 b7-c7", "want '..'"},
		{"h2-h3", "round number"},
		{"1. h2-h3 .. Qz1-h5", `"z1" is not a square`},
		{"1. h2-h3 {open", "never closed"},
		{"1. h2-h3 (b7-c7", "never closed"},
		{"1. h2-h3 .. .. b7-c7", "where a move was expected"},
		{"1. a .. b .. c .. d .. e", "is not a square"},
		{"1. h2-h3 .. b7-c7 .. g13-g12 .. m8-l8 .. h3-h4", "already has four moves"},
		{"1.\n2. h2-h3", "round 1 has no move"},
	}
	for _, tt := range tests {
		_, _, err := ParseString(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseString(%q) error = %v, want it to mention %q", tt.in, err, tt.want)
		}
	}
}

// FuzzParse checks that no input makes Parse panic or hang, and that
// whatever parses survives a write and a second parse unchanged:
// Parse(Write(g)) == g, and writing again gives the same text.
func FuzzParse(f *testing.F) {
	for _, d := range []string{"ffa", "teams", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "games", d, "*.pgn4"))
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(data))
		}
	}
	for _, s := range []string{
		"1. h2-h3 {x} (y) .. R",
		"1.h2-h3 .. b7-c7 {[%clk 0:00:58.5]} .. R#\n2. T .. Kd13xNe12T\n*",
		"[A \"b\\\"c\"]\n\n1. O-O##\n[B \"d\"]\n1. #",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, _, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, g := range games {
			out := g.String()
			again, _, err := Parse(strings.NewReader(out))
			if err != nil {
				t.Fatalf("written game does not parse: %v\n%s", err, out)
			}
			if len(again) != 1 {
				t.Fatalf("written game reads as %d games:\n%s", len(again), out)
			}
			if !reflect.DeepEqual(g, again[0]) {
				t.Fatalf("Parse(Write(g)) != g:\n%#v\n%#v", g, again[0])
			}
			if again[0].String() != out {
				t.Fatalf("second write differs:\n%s\n---\n%s", out, again[0].String())
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../../testdata/games/ffa/hornet-human_games_4pco-cc_game_0221.pgn4")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, _, err := ParseString(string(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	data, err := os.ReadFile("../../testdata/games/ffa/hornet-human_games_4pco-cc_game_0221.pgn4")
	if err != nil {
		b.Fatal(err)
	}
	g, _, err := ParseString(string(data))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := g.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseMove(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseMove("Qa11xRa9+#"); err != nil {
			b.Fatal(err)
		}
	}
}
