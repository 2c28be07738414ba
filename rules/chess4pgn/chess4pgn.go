// Package chess4pgn reads and writes Chess4's game notation, the
// "Chess4-specific PGN sub-format" of the Chess4 rules page
// (shared/seeds/chess4-rules.txt, "Game Notation"), over any rules.Game on
// the 14×14 cross.
//
// # Squares
//
// Chess4 names a square by a rank LETTER and a file NUMBER: ranks A..N run
// from the top of the board (boardd rank 14) to the bottom (boardd rank 1),
// files 1..14 are boardd's files a..n. White's pawns start on rank M
// (boardd rank 2), Silver's king on G1 (a8), Gold's king on H14 (n7).
// Moves write squares in lower case ("k7"), the from/to comments in upper
// case ("{ M7 > K7 }"); Square reads either.
//
// # Colours
//
// White, Silver, Black and Gold sit at boardd's Red (bottom), Blue (left),
// Yellow (top) and Green (right) seats and play in that order; a variant
// whose turn order is not Red, Blue, Yellow, Green cannot be written.
//
// # The file
//
//	[ White                "Blinky"                                               ]
//	[ Silver               "Pinky"                                                ]
//	…
//	[ Result               "*"                                                    ]
//	1. k7      { M7  > K7  } { White  }
//	   Nk3     { J1  > K3  } { Silver }
//	   d8      { B8  > D8  } { Black  }
//	   h11     { H13 > H11 } { Gold   }
//	2. Bk9     { N6  > K9  }
//
// Headers are "[ Key "Value" ]"; the standard ones are White, Silver,
// Black, Gold (player names), Date, Date-Started, Date-Ended,
// <Colour>-Eliminated-By and Result. boardd adds Variant (the rules'
// short name) and, when the game did not start from the variant's own
// array, FEN4. Unknown headers are kept and ignored.
//
// Each round is numbered and holds one line per colour in turn order.
// A move is SAN-like with Chess4 squares: piece letter (none for a pawn),
// origin disambiguation (the origin's letter, number or both, only where
// needed; a pawn capture always names the origin coordinate across the
// pawn's path — the number for White and Black, the letter for Silver and
// Gold — like the file in "exd5"), 'x' for a capture, the destination,
// "=Q" for a promotion, then the marks: '#' followed by the letters
// (w s b g) of the colours newly put in check, "##" followed by the
// letters of the colours the move checkmated (a king captured counts as
// mated; under Chess4's rule 1 the mating move, not the later one after
// which the player is out), or "###" when the move mates two or more players and leaves no opponent
// playing. Letters are listed in turn order starting after the mover.
// Castling is "o-o-<colour letter>" (the side of the rook three squares
// from the king) or "o-o-o-<colour letter>". "0" fills the turn of a
// colour that does not move in that round (it is out).
//
// Every move is followed by a from/to comment "{ M7 > K7 }" (for castling,
// the king's squares); the moves of the first round also carry the
// colour "{ White }". A resignation or time-out, which the text has no
// notation for, is written as a comment "{ Silver resigns }" or
// "{ Silver flags }" after the turn it followed. The Result header is
// "*" while the game is unfinished; at the end, one point shared by the
// winners, in White-Silver-Black-Gold order ("1-0-0-0",
// "1/2-0-1/2-0"), and for a draw "1/4-1/4-1/4-1/4", or under Chess4's
// rules a share for each player still in ("1/3-1/3-0-1/3").
//
// Reading (Parse, Replay) accepts moves with or without the comments; a
// from/to comment, when present, decides the move and the SAN must
// describe that same move. Check marks are read but not checked against
// the position.
package chess4pgn

import (
	"fmt"
	"strconv"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Colours are Chess4's colour names indexed by boardd seat: Red is White,
// Blue Silver, Yellow Black and Green Gold.
var Colours = [rules.NumSeats]string{"White", "Silver", "Black", "Gold"}

// colourLetters are the colours' letters in check marks and castling.
var colourLetters = [rules.NumSeats]byte{'w', 's', 'b', 'g'}

// order is the format's fixed turn order.
var order = [rules.NumSeats]rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green}

// ColourLetter returns a colour's letter: w, s, b or g.
func ColourLetter(s rules.Seat) byte { return colourLetters[s&3] }

// colourByName finds a colour by name, case-insensitively.
func colourByName(name string) (rules.Seat, bool) {
	for s, n := range Colours {
		if strings.EqualFold(n, name) {
			return rules.Seat(s), true
		}
	}
	return 0, false
}

// colourByLetter finds a colour by its letter, case-insensitively.
func colourByLetter(c byte) (rules.Seat, bool) {
	for s, l := range colourLetters {
		if l == c|0x20 {
			return rules.Seat(s), true
		}
	}
	return 0, false
}

// Square reads a Chess4 square name, a rank letter A..N and a file number
// 1..14 ("K7", "h13"; either case), as a boardd square. Squares in the
// cut-away corners are refused.
func Square(name string) (square.Square, error) {
	if len(name) < 2 || len(name) > 3 {
		return square.None, fmt.Errorf("square %q: want a rank letter A-N and a file number 1-14, like K7 or H13", name)
	}
	l := name[0] | 0x20
	if l < 'a' || l > 'n' {
		return square.None, fmt.Errorf("square %q: rank %q is not a letter A-N", name, name[:1])
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || name[1] < '1' || name[1] > '9' || n > 14 {
		return square.None, fmt.Errorf("square %q: file %q is not a number 1-14", name, name[1:])
	}
	q := square.At(n-1, 13-int(l-'a'))
	if !square.Cross().Has(q) {
		return square.None, fmt.Errorf("square %q is in a cut-away corner, off the board", name)
	}
	return q, nil
}

// Name returns the Chess4 name of a boardd square in lower case ("k7"
// for g4), or "?" for a square off the 14×14 grid.
func Name(q square.Square) string {
	if !q.Valid() || q.File() > 13 || q.Rank() > 13 {
		return "?"
	}
	return string(rune('a'+13-q.Rank())) + strconv.Itoa(q.File()+1)
}

// upperName is Name in upper case, as the from/to comments write it.
func upperName(q square.Square) string { return strings.ToUpper(Name(q)) }

// letterOf and numberOf are a square's Chess4 rank letter and file number.
func letterOf(q square.Square) byte { return byte('a' + 13 - q.Rank()) }
func numberOf(q square.Square) int  { return q.File() + 1 }

// checkOrder fails unless v plays in the format's order.
func checkOrder(v *rules.Variant) error {
	if len(v.Order) != len(order) {
		return fmt.Errorf("variant %s: Chess4 notation needs four colours playing White, Silver, Black, Gold (Red, Blue, Yellow, Green)", v.Name)
	}
	for i, s := range v.Order {
		if s != order[i] {
			return fmt.Errorf("variant %s: Chess4 notation needs the turn order Red, Blue, Yellow, Green (White, Silver, Black, Gold)", v.Name)
		}
	}
	return nil
}
