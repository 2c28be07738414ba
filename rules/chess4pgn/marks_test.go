package chess4pgn

import (
	"strconv"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/square"
)

// fen builds a FEN4 (x dialect, no castling) from a turn letter, the
// eliminated field and "rK:g1 bK:a7 …" placements on boardd squares.
func fen(t *testing.T, turn, out, pieces string) string {
	t.Helper()
	at := map[square.Square]string{}
	for _, f := range strings.Fields(pieces) {
		pc, name, _ := strings.Cut(f, ":")
		q, err := square.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		at[q] = pc
	}
	cross := square.Cross()
	var rows []string
	for r := 13; r >= 0; r-- {
		var toks []string
		run := 0
		for f := 0; f < 14; f++ {
			q := square.At(f, r)
			pc, ok := at[q]
			if !cross.Has(q) || ok {
				if run > 0 {
					toks = append(toks, strconv.Itoa(run))
					run = 0
				}
				if !cross.Has(q) {
					pc = "x"
				}
				toks = append(toks, pc)
				continue
			}
			run++
		}
		if run > 0 {
			toks = append(toks, strconv.Itoa(run))
		}
		rows = append(rows, strings.Join(toks, ","))
	}
	return turn + "-" + out + "-0,0,0,0-0,0,0,0-0,0,0,0-0-" + strings.Join(rows, "/")
}

// "The '#' and '##' notations for check and checkmate are now followed by
// one or more of the letters "wsbg" to denote which color(s) has been
// checked or checkmated"; "Qxb9### - Queen captures on b9 and checkmates
// all remaining players". White's rook goes to L7 (g3-g7) along rank H
// (boardd 7) between Silver's king on H1 (a7) and Gold's on H14 (n7),
// each walled in by its own pawns and rooks: both are mated at once.
func TestMarks(t *testing.T) {
	v := chess4Variant(t)
	board := "rK:g1 rR:g3 bK:a7 bP:b6 bP:b8 bR:a6 bR:a8 gK:n7 gP:m6 gP:m8 gR:n6 gR:n8 yK:h14"
	cases := []struct {
		out, pieces, want string
	}{
		// Black still plays: two mates, letters in turn order after White.
		{"0,0,0,0", board, "1. Rh7##sg { L7  > H7  } { White  }"},
		// Black is out already: the rook mates every remaining player.
		{"0,0,1,0", board, "1. Rh7###  { L7  > H7  } { White  }"},
		// Without Gold's m8 pawn Gold's king escapes to M8: check only.
		{"0,0,0,0", strings.Replace(board, " gP:m8", "", 1), "1. Rh7#g##s { L7  > H7  } { White  }"},
		// Along rank L (boardd 3) to L8 (h3) the rook checks Black's king
		// on A8 (h14) down file 8.
		{"0,0,0,0", board, "1. Rl8#b   { L7  > L8  } { White  }"},
	}
	for _, c := range cases {
		f := fen(t, "R", c.out, c.pieces)
		pg := &Game{Headers: []Header{{"FEN4", f}}}
		move := strings.Fields(c.want)[1][:3] // the SAN without marks
		pg.Turns = []Turn{{Round: 1, Token: move, From: square.None, To: square.None, ColourNote: rules.NoSeat}}
		g, err := Replay(pg, v)
		if err != nil {
			t.Fatalf("%s: %v", move, err)
		}
		out, err := Export(g, Info{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("want %q in\n%s", c.want, out)
		}
		// …and the marked text reads back.
		if _, _, err := Read(out, v); err != nil {
			t.Errorf("%v\n%s", err, out)
		}
	}
}
