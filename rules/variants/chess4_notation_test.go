package variants

import (
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/chess4pgn"
	"boardd/rules/pgn4"
)

// c4Token returns the Chess4 notation's token for the turn of colour c in
// round n of text.
func c4Token(t *testing.T, text string, n int, c rules.Seat) string {
	t.Helper()
	pg, err := chess4pgn.Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for _, tu := range pg.Turns {
		if tu.Round == n && tu.Colour == c {
			return tu.Token
		}
	}
	t.Fatalf("no turn of %s in round %d:\n%s", chess4pgn.Colours[c], n, text)
	return ""
}

// Chess4's notation: "The '#' and '##' notations for check and checkmate
// are now followed by one or more of the letters "wsbg" to denote which
// color(s) has been checked or checkmated", "Qf3xb7#g##bw – Queen on F3
// captures on B7, checking Gold and checkmating Black and White". The
// "##" goes on the move that checkmates, although rule 1 puts the mated
// player out only later ("A player is only eliminated by checkmate if he
// is checkmated at the beginning of the checkmating player's next turn"):
// not on the move after which the elimination is recorded.
func TestChess4NotationMateMark(t *testing.T) {
	for _, name := range []string{"chess4", "chess4-m2"} {
		t.Run(name, func(t *testing.T) {
			v := variantNamed(t, name)
			// Silver mates Black; Gold and White move; Black is out as
			// Silver's turn begins (after White's move).
			g := crossGame(t, v, "B", "0,0,0,0", c4MatePieces+" gN:d12")
			playCross(t, g, "f13", "e14")
			playCross(t, g, "n7", "n6")
			rec := playCross(t, g, "h1", "i1")
			if !equalSeats(rec.Out, []rules.Seat{rules.Yellow}) {
				t.Fatalf("White's Kh1-i1: out %v, want Black", rec.Out)
			}
			out, err := chess4pgn.Export(g, chess4pgn.Info{})
			if err != nil {
				t.Fatal(err)
			}
			if tok := c4Token(t, out, 1, rules.Blue); !strings.HasSuffix(tok, "##b") {
				t.Errorf("Silver's mating move is %q, want it marked ##b\n%s", tok, out)
			}
			if tok := c4Token(t, out, 1, rules.Yellow); tok != "0" {
				t.Errorf("Black, mated and waiting, has %q, want 0", tok)
			}
			for _, c := range []rules.Seat{rules.Green} {
				if tok := c4Token(t, out, 1, c); strings.Contains(tok, "#") {
					t.Errorf("%s's move %q is marked", chess4pgn.Colours[c], tok)
				}
			}
			if tok := c4Token(t, out, 2, rules.Red); strings.Contains(tok, "#") {
				t.Errorf("White's move %q, after which Black is out, is marked", tok)
			}
			if !strings.Contains(out, `Black-Eliminated-By  "Silver"`) {
				t.Errorf("Black-Eliminated-By is not Silver:\n%s", out)
			}
			if _, _, err := chess4pgn.Read(out, v); err != nil {
				t.Errorf("%v\n%s", err, out)
			}

			// Gold lifts the mate before Silver's turn: Silver's move
			// still checkmated Black, and Black plays on.
			g = crossGame(t, v, "B", "0,0,0,0", c4MatePieces+" gN:d12")
			playCross(t, g, "f13", "e14")
			playCross(t, g, "d12", "e14")
			out, err = chess4pgn.Export(g, chess4pgn.Info{})
			if err != nil {
				t.Fatal(err)
			}
			if tok := c4Token(t, out, 1, rules.Blue); !strings.HasSuffix(tok, "##b") {
				t.Errorf("Silver's mating move, lifted later, is %q, want ##b", tok)
			}
			if tok := c4Token(t, out, 1, rules.Green); strings.Contains(tok, "##") {
				t.Errorf("Gold's rescue %q is marked as a mate", tok)
			}
		})
	}
}

// Rule 6.3: "if Gold moves his Queen to checkmate Black, and White
// captures Gold's Queen with his own Queen, then White has removed the
// checkmate (however momentarily) and reapplied it…so White would get
// credit": both moves checkmate Black, and both are marked.
func TestChess4NotationMateReestablished(t *testing.T) {
	v := variantNamed(t, "chess4")
	g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces)
	playCross(t, g, "e6", "e14")  // Gold mates Black
	playCross(t, g, "d13", "e14") // White takes the queen and mates again
	out, err := chess4pgn.Export(g, chess4pgn.Info{})
	if err != nil {
		t.Fatal(err)
	}
	if tok := c4Token(t, out, 1, rules.Green); !strings.HasSuffix(tok, "##b") {
		t.Errorf("Gold's mate %q, want ##b\n%s", tok, out)
	}
	if tok := c4Token(t, out, 2, rules.Red); !strings.HasSuffix(tok, "##b") {
		t.Errorf("White's mate %q, want ##b\n%s", tok, out)
	}
}

// A drawn Chess4 game: the text's Result "1/4-1/4-1/4-1/4" shares the
// point among the four players; a player eliminated before the draw has
// lost and shares nothing. The Chess4 notation and PGN4 write the same.
func TestChess4DrawResultBothNotations(t *testing.T) {
	v := variantNamed(t, "chess4")
	g := crossGame(t, v, "B", "0,0,0,0", c4MatePieces+" gN:d12")
	playCross(t, g, "f13", "e14") // Silver mates Black
	playCross(t, g, "n7", "n6")
	playCross(t, g, "h1", "i1") // Black is out
	if err := g.AgreeDraw([]rules.Seat{rules.Red, rules.Blue, rules.Green}); err != nil {
		t.Fatal(err)
	}
	const want = "1/3-1/3-0-1/3"
	c4, err := chess4pgn.Export(g, chess4pgn.Info{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c4, `Result               "`+want+`"`) {
		t.Errorf("Chess4 notation: want Result %s\n%s", want, c4)
	}
	pg, err := pgn4.FromGame(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := pg.Get("Result"); got != want {
		t.Errorf("PGN4: Result %q, want %s", got, want)
	}
	// Four still in: a quarter each, as the text writes it.
	g = crossGame(t, v, "B", "0,0,0,0", c4MatePieces+" gN:d12")
	if err := g.AgreeDraw([]rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green}); err != nil {
		t.Fatal(err)
	}
	if c4, _ = chess4pgn.Export(g, chess4pgn.Info{}); !strings.Contains(c4, `"1/4-1/4-1/4-1/4"`) {
		t.Errorf("four-way draw:\n%s", c4)
	}
}

// Method 2 in Chess4's notation: "The 'o-o' and 'o-o-o' castling notations
// have been extended to include the color of pieces used (in case a player
// is castling another eliminated player's pieces)". Gold, who plays
// Black's army on Black's turns, castles it: Black's line reads o-o-b, and
// the file replays.
func TestChess4NotationMethod2Castling(t *testing.T) {
	v := variantNamed(t, "chess4-m2")
	g := crossGame(t, v, "G", "0,0,0,0", c4MatePieces+" yR:k14")
	playLine(t, g, "e6-e14 h1-i1 a8-b8 n7-n6 i1-h1 b8-a8")
	if g.Turn() != rules.Yellow || chess4Of(g).Controller(rules.Yellow) != rules.Green {
		t.Fatalf("turn %v, Black's army played by %v", g.Turn(), chess4Of(g).Controller(rules.Yellow))
	}
	var castle rules.Move
	for _, m := range g.LegalMoves() {
		if c, _ := m.IsCastle(); c {
			castle = m
		}
	}
	if _, err := g.Play(castle); err != nil {
		t.Fatal(err)
	}
	out, err := chess4pgn.Export(g, chess4pgn.Info{})
	if err != nil {
		t.Fatal(err)
	}
	if tok, _, _ := strings.Cut(c4Token(t, out, 3, rules.Yellow), "#"); !strings.HasPrefix(tok, "o-o-") || !strings.HasSuffix(tok, "-b") {
		t.Errorf("Black's army castles as %q, want o-o-b or o-o-o-b\n%s", tok, out)
	}
	r, _, err := chess4pgn.Read(out, v)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if a, b := r.Position().FEN4(), g.Position().FEN4(); a != b {
		t.Errorf("replayed to %s, want %s", a, b)
	}
}

// "Qxb9### - Queen captures on b9 and checkmates all remaining players":
// under Chess4's rules too. White's rook goes to H7 (g7) between Silver's
// king on a7 and Gold's on n7, each walled in by its own pieces; Black is
// out already. Silver and Gold, mated at their turns, wait; nobody else
// moves before White's next turn begins, so both are out at once and
// White is the last player standing.
func TestChess4NotationMatesEveryone(t *testing.T) {
	v := variantNamed(t, "chess4")
	g := crossGame(t, v, "R", "0,0,1,0", "rK:g1 rR:g3 bK:a7 bP:b6 bP:b8 bR:a6 bR:a8 gK:n7 gP:m6 gP:m8 gR:n6 gR:n8 yK:h14")
	rec := playCross(t, g, "g3", "g7")
	if !equalSeats(rec.Out, []rules.Seat{rules.Blue, rules.Green}) {
		t.Fatalf("Rg3-g7 put %v out, want Silver and Gold", rec.Out)
	}
	res, over := g.Result()
	if !over || len(res.Winners) != 1 || res.Winners[0] != rules.Red {
		t.Fatalf("result %+v over=%v, want White the last player standing", res, over)
	}
	out, err := chess4pgn.Export(g, chess4pgn.Info{})
	if err != nil {
		t.Fatal(err)
	}
	if tok := c4Token(t, out, 1, rules.Red); tok != "Rh7###" {
		t.Errorf("White's move %q, want Rh7###\n%s", tok, out)
	}
	if !strings.Contains(out, `"1-0-0-0"`) {
		t.Errorf("want Result 1-0-0-0\n%s", out)
	}
}

// The same mate with Black still playing: Black moves before White's next
// turn, so Silver and Gold go out after Black's move; the marks stay on
// White's: "##sg", not "###", since Black is left.
func TestChess4NotationMatesTwoOfThree(t *testing.T) {
	v := variantNamed(t, "chess4")
	g := crossGame(t, v, "R", "0,0,0,0", "rK:g1 rR:g3 bK:a7 bP:b6 bP:b8 bR:a6 bR:a8 gK:n7 gP:m6 gP:m8 gR:n6 gR:n8 yK:h14")
	if rec := playCross(t, g, "g3", "g7"); len(rec.Out) != 0 {
		t.Fatalf("Rg3-g7 put %v out before White's next turn", rec.Out)
	}
	if rec := playCross(t, g, "h14", "i14"); !equalSeats(rec.Out, []rules.Seat{rules.Blue, rules.Green}) {
		t.Fatalf("after Black's move out %v, want Silver and Gold", rec.Out)
	}
	out, err := chess4pgn.Export(g, chess4pgn.Info{})
	if err != nil {
		t.Fatal(err)
	}
	if tok := c4Token(t, out, 1, rules.Red); tok != "Rh7##sg" {
		t.Errorf("White's move %q, want Rh7##sg\n%s", tok, out)
	}
	if tok := c4Token(t, out, 1, rules.Yellow); strings.Contains(tok, "#") {
		t.Errorf("Black's move %q is marked\n%s", tok, out)
	}
}
