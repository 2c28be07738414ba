package chess4pgn

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/rules"
	"boardd/rules/square"
	"boardd/rules/variants"
)

// wikiExample is the text's own example game (shared/seeds/chess4-rules.txt,
// "Game Notation"), copied verbatim from "[ White" to "{ EOF }".
func wikiExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/wiki-example.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The text's four rounds play on Chess4's array; each "{ A > B }" comment
// agrees with its SAN (Replay refuses a comment that names another move),
// and playing the SAN alone, with every comment stripped, gives the same
// moves.
func TestWikiExample(t *testing.T) {
	v := chess4Variant(t)
	text := wikiExample(t)
	g, pg, err := Read(text, v)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Records()); n != 16 || len(pg.Turns) != 16 {
		t.Fatalf("%d turns played, %d parsed; the example has 4 rounds of 4", n, len(pg.Turns))
	}
	if got := pg.Names(); got != [4]string{"Blinky", "Pinky", "Inky", "Clyde"} {
		t.Errorf("names %v", got)
	}
	if pg.Get("Result") != "1/4-1/4-1/4-1/4" || pg.Get("Date-Started") != "2013.09.18" {
		t.Errorf("headers %v", pg.Headers)
	}
	for i, tu := range pg.Turns {
		if tu.From.Valid() == false || tu.Colour != rules.Seat(i%4) {
			t.Errorf("turn %d: %+v", i, tu)
		}
		if rec := g.Records()[i]; rec.Move.From() != tu.From || rec.Move.To() != tu.To {
			t.Errorf("turn %d %s: played %s, comment says %s > %s", i, tu.Token, rec.Move, tu.From, tu.To)
		}
	}
	// The last move, "Qxk9 { K10 > K9 }": Gold's queen took White's bishop
	// on K9 (i4).
	if pc := g.Position().At(mustSquare(t, "K9")); pc.Kind() != rules.Queen || pc.Seat() != rules.Green {
		t.Errorf("K9 holds %v, want Gold's queen", pc)
	}

	stripped := regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(text, "")
	g2, _, err := Read(stripped, v)
	if err != nil {
		t.Fatalf("SAN only: %v", err)
	}
	for i, r := range g2.Records() {
		if r.Move != g.Records()[i].Move {
			t.Errorf("turn %d: the SAN plays %s, the comment %s", i, r.Move, g.Records()[i].Move)
		}
	}
}

// Exporting the replayed example writes the text's move lines byte for
// byte, "{ White }" colour comments on the first round included.
func TestWikiExampleExport(t *testing.T) {
	v := chess4Variant(t)
	text := wikiExample(t)
	g, pg, err := Read(text, v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Export(g, Info{Names: pg.Names(), Date: "2013.09.18"})
	if err != nil {
		t.Fatal(err)
	}
	moveLines := func(s string) []string {
		var l []string
		for _, line := range strings.Split(s, "\n") {
			if regexp.MustCompile(`^(\d+\.| {3})\s*\S+\s+\{ [A-N]`).MatchString(line) {
				l = append(l, line)
			}
		}
		return l
	}
	want, got := moveLines(text), moveLines(out)
	if len(want) != 16 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("export:\n%s\nwant the lines\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The headers are the text's, in its order and its 79-column layout.
	for _, h := range []string{"White", "Silver", "Black", "Gold", "Date", "Date-Started", "Date-Ended", "White-Eliminated-By", "Silver-Eliminated-By", "Black-Eliminated-By", "Gold-Eliminated-By"} {
		var line string
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "[ "+h+" ") {
				line = l
			}
		}
		if !strings.Contains(out, line+"\n") {
			t.Errorf("header line %q missing from\n%s", line, out)
		}
	}
	if !strings.Contains(out, `[ Result               "*"`) {
		t.Errorf("an unfinished game's Result should be \"*\":\n%s", out)
	}
}

func mustSquare(t *testing.T, name string) square.Square {
	t.Helper()
	q, err := Square(name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// Detect tells the text's example from a chess.com PGN4 game.
func TestDetect(t *testing.T) {
	if !Detect(wikiExample(t)) || !Detect("1. k7 { M7 > K7 }") {
		t.Error("the Chess4 example not detected")
	}
	files, _ := filepath.Glob("../../testdata/games/*/*.pgn4")
	if len(files) < 40 {
		t.Fatalf("%d PGN4 files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if Detect(string(data)) {
			t.Errorf("%s: a PGN4 game taken for Chess4 notation", f)
		}
	}
}

var writeExample = flag.Bool("write-example", false, "rewrite testdata/games/chess4/wiki-example.chess4")

// testdata/games/chess4/wiki-example.chess4 (which cmd/boardd's tests
// replay) is the text's example replayed on chess.com FFA's rules from
// Chess4's array and exported: its Variant header says ffa and its FEN4
// header holds the array, so it replays before a chess4 variant exists.
func TestCmdExampleFile(t *testing.T) {
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	d, err := variants.Find(cat, "chess4")
	if err != nil {
		t.Fatal(err)
	}
	c4, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := Parse(wikiExample(t))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Replay(pg, c4)
	if err != nil {
		t.Fatal(err)
	}
	text, err := Export(g, Info{Names: pg.Names(), Date: pg.Get("Date")})
	if err != nil {
		t.Fatal(err)
	}
	path := "../../testdata/games/chess4/wiki-example.chess4"
	if *writeExample {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != text {
		t.Errorf("%s differs from the export (%v); rewrite with -write-example after checking", path, err)
	}
}
