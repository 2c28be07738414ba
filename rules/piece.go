package rules

import "fmt"

// Seat is one of the four players. Seats are numbered in chess.com's FEN4
// order: Red, Blue, Yellow, Green.
type Seat uint8

// The four seats.
const (
	Red Seat = iota
	Blue
	Yellow
	Green
	NoSeat Seat = 255
)

// NumSeats is the number of seats at the board.
const NumSeats = 4

var seatNames = [NumSeats]string{"Red", "Blue", "Yellow", "Green"}
var seatLetters = [NumSeats]byte{'r', 'b', 'y', 'g'}

// String returns the seat's name ("Red").
func (s Seat) String() string {
	if s < NumSeats {
		return seatNames[s]
	}
	return fmt.Sprintf("Seat(%d)", uint8(s))
}

// Letter returns the seat's lower-case FEN4 letter (r, b, y, g).
func (s Seat) Letter() byte { return seatLetters[s&3] }

// Kind is a type of piece.
type Kind uint8

// Piece kinds. NoKind marks an empty square.
const (
	NoKind Kind = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

var kindLetters = [...]byte{'?', 'P', 'N', 'B', 'R', 'Q', 'K'}

// Letter returns the kind's upper-case letter (P, N, B, R, Q, K).
func (k Kind) Letter() byte {
	if int(k) < len(kindLetters) {
		return kindLetters[k]
	}
	return '?'
}

// String returns the kind's letter.
func (k Kind) String() string { return string(k.Letter()) }

// KindFromLetter returns the kind for an upper-case piece letter; 'D' (the
// FFA one-point queen) reads as a queen.
func KindFromLetter(c byte) (Kind, bool) {
	switch c {
	case 'P':
		return Pawn, true
	case 'N':
		return Knight, true
	case 'B':
		return Bishop, true
	case 'R':
		return Rook, true
	case 'Q', 'D':
		return Queen, true
	case 'K':
		return King, true
	}
	return NoKind, false
}

// Piece is a piece on a square, packed into a byte: the kind in bits 0–2,
// the seat in bits 3–4, a dead flag (an eliminated army's inert piece) in
// bit 5 and a promoted flag in bit 6. The zero Piece is an empty square;
// Wall marks a cell off the board.
type Piece uint8

// Piece bit layout.
const (
	NoPiece      Piece = 0
	kindMask     Piece = 7
	seatShift          = 3
	deadFlag     Piece = 1 << 5
	promotedFlag Piece = 1 << 6
	// Wall is the content of a cell that is not a playable square.
	Wall Piece = 1 << 7
)

// MakePiece returns a live, unpromoted piece of kind k for seat s.
func MakePiece(s Seat, k Kind) Piece { return Piece(s)<<seatShift | Piece(k) }

// Kind returns the piece's kind.
func (p Piece) Kind() Kind { return Kind(p & kindMask) }

// Seat returns the seat that owns (or owned) the piece.
func (p Piece) Seat() Seat { return Seat(p>>seatShift) & 3 }

// Dead reports whether the piece is inert (grey): it belonged to an
// eliminated army, blocks, gives no check and is worth nothing.
func (p Piece) Dead() bool { return p&deadFlag != 0 }

// Promoted reports whether the piece was a pawn that promoted.
func (p Piece) Promoted() bool { return p&promotedFlag != 0 }

// WithDead returns the piece with its dead flag set.
func (p Piece) WithDead() Piece { return p | deadFlag }

// WithPromoted returns the piece with its promoted flag set.
func (p Piece) WithPromoted() Piece { return p | promotedFlag }

// IsPiece reports whether p is a piece (not empty, not a wall).
func (p Piece) IsPiece() bool { return p != NoPiece && p&Wall == 0 }

// String returns the FEN4 token: "rK", "dgP" for a dead piece, "vrP" for a
// reversed pawn (Verney), "rD" for FFA's one-point queen, "" for empty.
func (p Piece) String() string { return string(p.appendToken(nil)) }

// appendToken appends p's FEN4 token to b (nothing for an empty square).
func (p Piece) appendToken(b []byte) []byte {
	if !p.IsPiece() {
		return b
	}
	if p.Dead() {
		b = append(b, 'd')
	}
	if p.Reversed() {
		b = append(b, 'v') // Verney: a pawn moving back towards its own side
	}
	return append(b, p.Seat().Letter(), p.Letter())
}

// Letter returns the piece's letter: its kind's, or 'D' for a one-point
// (promoted) queen, as chess.com's PGN4 writes FFA's promotion ("=D").
func (p Piece) Letter() byte {
	if p.Kind() == Queen && p&promotedFlag != 0 {
		return 'D'
	}
	return p.Kind().Letter()
}

// reversedFlag marks a pawn that has turned round on one of its seat's
// Reverse squares and now moves back towards its own side (Verney). It
// shares its bit with promotedFlag: a pawn is never a promoted piece, so
// the bit is free on pawns.
const reversedFlag = promotedFlag

// Reversed reports whether p is a pawn moving back towards its own side
// (Verney's pawn reversal).
func (p Piece) Reversed() bool { return p&(kindMask|reversedFlag) == Piece(Pawn)|reversedFlag }

// WithReversed returns the pawn p marked as reversed.
func (p Piece) WithReversed() Piece { return p | reversedFlag }
