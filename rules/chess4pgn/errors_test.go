package chess4pgn

import (
	"errors"
	"strings"
	"testing"

	"boardd/rules"
)

// Errors name the round, the colour and the token, and say what is wrong.
func TestReplayErrors(t *testing.T) {
	v := chess4Variant(t)
	cases := []struct{ text, want string }{
		// A Silver pawn stands on E2 and may step to E3 or E4, not E5.
		{"1. k7 e5", "round 1, Silver: e5: no Silver pawn can reach e5"},
		{"1. k7 Nk4", "round 1, Silver: Nk4: no Silver knight can reach k4"},
		{"1. k7 Nfk3", "round 1, Silver: Nfk3: no Silver knight on rank F can reach k3"},
		{"1. k7 Nxk3", "round 1, Silver: Nxk3: no Silver knight can capture on k3"},
		{"1. k7 Zk3", "round 1, Silver: Zk3: not a move"},
		{"1. k7 Nk3#q", "round 1, Silver: Nk3#q: not a move"},
		{"1. k7 Nk3##", "round 1, Silver: Nk3##: marks \"##\""},
		{"1. k7 Nk3=Q", "round 1, Silver: Nk3=Q: only a pawn promotes"},
		{"1. k7 o-o-s", "round 1, Silver: o-o-s: Silver cannot castle on the king's side (o-o) now"},
		// "{ M7 > K7 }" decides; the SAN must describe the same move.
		{"1. k7 { M7 > L7 }", "round 1, White: k7: the comment { M7 > L7 } is l7, not k7"},
		{"1. k7 { M7 > J7 }", "round 1, White: k7: { M7 > J7 }: "},
		{"1. k7 { Silver }", "round 1, White: k7: the comment { Silver } names another colour"},
		// "0 - Placeholder for a turn not taken due to player elimination"
		{"1. 0", "round 1, White: 0: White is still playing and it is White's turn"},
	}
	for _, c := range cases {
		_, _, err := Read(c.text, v)
		var re *ReplayError
		if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want a ReplayError containing %q", c.text, err, c.want)
		}
	}

	// A colour that is out must have a 0 for its turn.
	text := "1. k7 { Silver resigns } Nk3"
	if _, _, err := Read(text, v); err == nil || !strings.Contains(err.Error(), "round 1, Silver: Nk3: Silver is out (resigned): write 0 for its turn") {
		t.Errorf("%q: %v", text, err)
	}
	if _, _, err := Read("1. k7 { Silver resigns } 0 d8 h11 2. Bk9 0 Nc6", v); err != nil {
		t.Errorf("0 for a resigned colour: %v", err)
	}
	// Two knights that can reach the same square: White's knights on N5
	// (e1) and, instead of N10 (j1), on K8 (h4); both reach L6 (f3).
	fen := strings.Replace(chess4Start, "rR,rN,rB,rK,rQ,rB,rN,rR", "rR,rN,rB,rK,rQ,rB,1,rR", 1)
	i := strings.LastIndex(fen, "bR,bP,10,gP,gR") // rank 4 (K)
	fen = fen[:i] + "bR,bP,5,rN,4,gP,gR" + fen[i+len("bR,bP,10,gP,gR"):]
	text = "[ FEN4 \"" + fen + "\" ]\n1. Nl6"
	if _, _, err := Read(text, v); err == nil || !strings.Contains(err.Error(), "round 1, White: Nl6: ambiguous: knights on N5 and K8 can reach l6") {
		t.Errorf("ambiguous knights: %v", err)
	}
	for _, ok := range []string{"1. Nkl6", "1. N8l6", "1. Nk8l6", "1. Nl6 { K8 > L6 }"} {
		g, _, err := Read("[ FEN4 \""+fen+"\" ]\n"+ok, v)
		if err != nil || g.Records()[0].Move.From() != mustSquare(t, "K8") {
			t.Errorf("%s: %v", ok, err)
		}
	}
	// Export writes the letter, as the text's "Nji12" does.
	g2, _, err := Read("[ FEN4 \""+fen+"\" ]\n1. Nl6 { K8 > L6 }", v)
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := Export(g2, Info{}); !strings.Contains(out, "1. Nkl6    { K8  > L6  } { White  }") {
		t.Errorf("export:\n%s", out)
	}
	// The game is over: nothing more may be played.
	if _, _, err := Read("1. k7 { Silver resigns } { Black resigns } { Gold resigns } 0 0 0 2. k8", v); err == nil || !strings.Contains(err.Error(), "round 2, White: k8: the game is already over") {
		t.Errorf("after the end: %v", err)
	}
	_ = rules.Red
}

// Syntax errors give the line.
func TestParseErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"1. k7 { M7 > K7", "line 1: comment '{' is never closed"},
		{"1. k7\n[ White \"x\" ]", "line 2: header after the first round"},
		{"[ White \"x ]", "line 1: header White: the value's quote is never closed"},
		{"[ White x ]", "line 1: header White: want a quoted value"},
		{"1. k7\n3. k8", "line 2: round \"3.\": expected round 2"},
		{"k7", "line 1: \"k7\" before the first round number"},
		{"1. a b c d e", "round 1: \"e\" is a fifth move"},
		{"1. k7 { A1 > K7 }", "line 1: round 1, White: { A1 > K7 }: square \"A1\" is in a cut-away corner"},
	}
	for _, c := range cases {
		_, err := Parse(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	// What the text allows: the deviations comment, { EOF }, result tokens,
	// lower-case squares in comments.
	g, err := Parse("[ Result \"*\" ]\n1. k7 { m7 > k7 } { white } Nk3 *\n{ EOF }")
	if err != nil || len(g.Turns) != 2 || g.Turns[0].ColourNote != rules.Red || g.Turns[0].From != mustSquare(t, "M7") {
		t.Errorf("%v %+v", err, g)
	}
}
