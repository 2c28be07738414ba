package chess4pgn

import (
	"testing"

	"boardd/rules"
)

// The text's "Example move notations" all read, with the parts the text
// says they have.
func TestSANExamples(t *testing.T) {
	cases := []struct {
		tok                    string
		kind                   rules.Kind
		letter                 byte
		number                 int
		capture, castle, long  bool
		by                     rules.Seat
		to, marks, description string
	}{
		{tok: "k7", kind: rules.Pawn, to: "K7", description: "Pawn moves are specified with just the destination square"},
		{tok: "gxk7", kind: rules.Pawn, letter: 'g', capture: true, to: "K7", description: "Pawn capture with disambiguating origination file"},
		{tok: "8xk7", kind: rules.Pawn, number: 8, capture: true, to: "K7", description: "Pawn capture with disambiguating origination rank"},
		{tok: "g8xk7", kind: rules.Pawn, letter: 'g', number: 8, capture: true, to: "K7", description: "Pawn capture with disambiguating origination rank and file"},
		{tok: "Nl11", kind: rules.Knight, to: "L11", description: "Knight move (the text's Nl13, two files over: see below)"},
		{tok: "o-o-w", castle: true, by: rules.Red, description: "King-side castle using White's pieces"},
		{tok: "o-o-o-s", castle: true, long: true, by: rules.Blue, description: "Queen-side castle using Silver's pieces"},
		{tok: "Nji12#g", kind: rules.Knight, letter: 'j', to: "I12", marks: "#g", description: "Knight (on file J) moves to I12, checking Gold"},
		{tok: "Qf3xb7#g##bw", kind: rules.Queen, letter: 'f', number: 3, capture: true, to: "B7", marks: "#g##bw", description: "Queen on F3 captures on B7, checking Gold and checkmating Black and White"},
		{tok: "Qxb9###", kind: rules.Queen, capture: true, to: "B9", marks: "###", description: "Queen captures on b9 and checkmates all remaining players"},
	}
	for _, c := range cases {
		s, err := parseSAN(c.tok)
		if err != nil {
			t.Errorf("%s (%s): %v", c.tok, c.description, err)
			continue
		}
		if s.castle != c.castle || s.long != c.long {
			t.Errorf("%s: castle %v long %v", c.tok, s.castle, s.long)
		}
		if c.castle {
			if s.castleBy != c.by {
				t.Errorf("%s: castling colour %v, want %v", c.tok, s.castleBy, c.by)
			}
			continue
		}
		if s.kind != c.kind || s.fromLetter != c.letter || s.fromNumber != c.number || s.capture != c.capture || upperName(s.to) != c.to || s.marks != c.marks {
			t.Errorf("%s (%s): read as %+v", c.tok, c.description, s)
		}
	}
	// The text's "Nl13 - Knight move" names L13 (boardd m3), which its own
	// assumption 4 puts off the board ("a 3×3 cell area in each corner
	// which is off the board"): refused as a square, not as a syntax.
	if _, err := parseSAN("Nl13"); err == nil || err.Error() != `square "l13" is in a cut-away corner, off the board` {
		t.Errorf("Nl13: %v", err)
	}
}
