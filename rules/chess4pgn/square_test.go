package chess4pgn

import (
	"testing"

	"boardd/rules/square"
)

// "Chess4 names squares with a rank letter and a file number": rank A is
// the top (boardd 14), N the bottom (boardd 1); files 1..14 are a..n. The
// cases are the text's own examples, each checked against the piece or
// move it names on boardd's board.
func TestSquare(t *testing.T) {
	cases := []struct{ chess4, boardd, why string }{
		{"M7", "g2", "1. k7 { M7 > K7 }: White's pawn on rank M (\"White Rank M\")"},
		{"K7", "g4", "…its double step"},
		{"J1", "a5", "Nk3 { J1 > K3 }: Silver's knight"},
		{"K3", "c4", "…where it lands"},
		{"B8", "h13", "d8 { B8 > D8 }: Black's pawn on rank B"},
		{"D8", "h11", "…its double step"},
		{"H13", "m7", "h11 { H13 > H11 }: Gold's pawn on file 13"},
		{"H11", "k7", "…its double step"},
		{"N6", "f1", "Bk9 { N6 > K9 }: White's bishop"},
		{"E1", "a10", "Nd3 { E1 > D3 }: Silver's other knight"},
		{"A5", "e14", "Nc6 { A5 > C6 }: Black's knight"},
		{"E14", "n10", "Nf12 { E14 > F12 }: Gold's knight"},
		{"E2", "b10", "e4 { E2 > E4 }: a Silver pawn on file 2"},
		{"G14", "n8", "Qxk10 { G14 > K10 }: Gold's queen (\"Gold … G14\")"},
		{"K10", "j4", "…capturing White's pawn from M10 (j2)"},
		{"N7", "g1", "White K N7"},
		{"N8", "h1", "White Q N8"},
		{"G1", "a8", "Silver K G1"},
		{"H1", "a7", "Silver Q H1"},
		{"A7", "g14", "Black K A7"},
		{"A8", "h14", "Black Q A8"},
		{"H14", "n7", "Gold K H14"},
		{"A4", "d14", "\"Black's King-side Rook is in square A4 because A1-A3 are off the board\""},
		{"k7", "g4", "lower case, as moves write it"},
		{"h13", "m7", "lower case"},
	}
	for _, c := range cases {
		q, err := Square(c.chess4)
		if err != nil {
			t.Errorf("%s (%s): %v", c.chess4, c.why, err)
			continue
		}
		if q.String() != c.boardd {
			t.Errorf("Square(%s) = %s, want %s (%s)", c.chess4, q, c.boardd, c.why)
		}
		want, _ := square.Parse(c.boardd)
		if got := Name(want); got != toLower(c.chess4) {
			t.Errorf("Name(%s) = %s, want %s", c.boardd, got, toLower(c.chess4))
		}
	}
	// "A1-A3 are off the board" and other names that are not squares.
	for _, bad := range []string{"A1", "A3", "c14", "N12", "O5", "K15", "K0", "K", "K07", "7K", "", "K+1", "KK"} {
		if q, err := Square(bad); err == nil {
			t.Errorf("Square(%q) = %s, want an error", bad, q)
		}
	}
	// Every square of the cross converts both ways.
	for _, q := range square.Cross().Squares() {
		back, err := Square(Name(q))
		if err != nil || back != q {
			t.Errorf("%s -> %s -> %s %v", q, Name(q), back, err)
		}
	}
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
