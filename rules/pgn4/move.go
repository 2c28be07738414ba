package pgn4

import (
	"fmt"
	"strings"

	"boardd/rules/square"
)

// Kind says what a slot token records.
type Kind uint8

// Token kinds.
const (
	// Normal is a piece move ("h2-h3", "Qg1xQn8+", "h8-g8=D").
	Normal Kind = iota
	// CastleShort is "O-O" (kingside: the rook three squares away).
	CastleShort
	// CastleLong is "O-O-O".
	CastleLong
	// Resign is a lone "R": the seat resigned on its turn. "R#" (Mate
	// set) is a resignation after which the seat's walking king
	// (DeadKingWalking) stands checkmated at once.
	Resign
	// Timeout is a lone "T": the seat's clock ran out. "T#" (Mate set) is
	// the time-out form of "R#".
	Timeout
	// Stalemate is a lone "S": the seat had no legal move (chess.com
	// writes it in the slot of a seat the game has just removed).
	Stalemate
	// Eliminated is a lone "#": the seat was checkmated.
	Eliminated
)

var kindNames = [...]string{"move", "O-O", "O-O-O", "resign", "timeout", "stalemate", "eliminated"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Move is one parsed slot token. It records what the text says, nothing
// more: whether the move is legal, and which piece really stands on From,
// is for the rules engine.
type Move struct {
	// Kind says whether the token is a move, castling or a lone token.
	Kind Kind
	// Piece is the moving piece's letter (K, Q, R, B, N, or D for a
	// one-point queen); 'P' for a pawn move, which is written without one;
	// 'K' for castling; 0 for the lone tokens.
	Piece byte
	// From and To are the squares of a Normal move; square.None for
	// castling (the engine knows where the king and rook stand) and for
	// the lone tokens.
	From, To square.Square
	// Capture is set when the token has an 'x'; Captured is the captured
	// piece's letter when written (pawns are not), else 0.
	Capture  bool
	Captured byte
	// Swap is set when the token has a '~' in place of '-' or 'x': the
	// four-player chess essay's partner pawn swap ("e5~f6"), which
	// captures nothing. boardd's own notation; chess.com has no such move.
	Swap bool
	// Promotion is the letter after '=' (Q, R, B, N or D), else 0.
	Promotion byte
	// Checks counts the '+' marks: kings newly in check after the move.
	Checks int
	// Mate is set by a '#' mark: the move checkmated a king (or, as in
	// "Bg14xKk10#", captured one) and put its seat out.
	Mate bool
	// DoubleMate is set by "##": the move checkmated two kings at once
	// (Mate is set too). TheThirdOne/pgn4 writes and reads up to two '#';
	// none of the real games in testdata has one.
	DoubleMate bool
	// Then is 'R' or 'T' when the seat resigned or flagged in that turn
	// ("Ke12-e13T": under DeadKingWalking its walking king made the move
	// after it left), 'S' for the stalemate annotation ("Rh4xKh12#S"),
	// else 0.
	Then byte
}

// ParseMove reads one slot token, such as "h2-h3", "Qa11xRa9+#",
// "k13xQl14=D", "O-O-O", "Ke12-e13T" or a lone "R", "T", "S", "#", "R#"
// or "T#" (see the package documentation for the grammar). The token must
// be exactly one move: no spaces, round numbers or trailing text. The
// error names the token and says what was expected, e.g.
// "\"Qz1-h5\": \"z1\" is not a square (files a-p, ranks 1-16)".
func ParseMove(tok string) (Move, error) {
	m := Move{From: square.None, To: square.None}
	if tok == "" {
		return m, fmt.Errorf("empty move")
	}
	switch tok {
	case "R", "R#":
		m.Kind, m.Mate = Resign, tok == "R#"
		return m, nil
	case "T", "T#":
		m.Kind, m.Mate = Timeout, tok == "T#"
		return m, nil
	case "S":
		m.Kind = Stalemate
		return m, nil
	case "#":
		m.Kind, m.Mate = Eliminated, true
		return m, nil
	}
	// Split off the suffix marks: a final R, T or S, then '#' and '+'.
	// The final letter is a suffix only after a square, a mark, castling
	// or a promotion ("h8-g8=DR"): "h7-h8=R" promotes to a rook.
	core := tok
	if n := len(core); n > 1 && (core[n-1] == 'R' || core[n-1] == 'T' || core[n-1] == 'S') {
		prev := core[n-2]
		if (prev >= '0' && prev <= '9') || prev == '+' || prev == '#' || prev == 'O' || (n > 2 && core[n-3] == '=') {
			m.Then = core[n-1]
			core = core[:n-1]
		}
	}
	mates := 0
	for len(core) > 0 && core[len(core)-1] == '#' {
		mates++
		core = core[:len(core)-1]
	}
	for len(core) > 0 && core[len(core)-1] == '+' {
		m.Checks++
		core = core[:len(core)-1]
	}
	if len(core) > 0 && core[len(core)-1] == '#' {
		return m, fmt.Errorf("%q: the '+' marks come before '#'", tok)
	}
	if mates > 2 {
		return m, fmt.Errorf("%q: at most two '#' (two kings mated by one move)", tok)
	}
	m.Mate, m.DoubleMate = mates > 0, mates > 1
	if m.Checks > 3 {
		return m, fmt.Errorf("%q: at most three '+' (three kings in check)", tok)
	}
	if core == "" {
		return m, fmt.Errorf("%q: marks without a move; want a move like h2-h3+ or a lone R, T, S or #", tok)
	}
	switch core {
	case "O-O":
		m.Kind, m.Piece = CastleShort, 'K'
		return m, nil
	case "O-O-O":
		m.Kind, m.Piece = CastleLong, 'K'
		return m, nil
	}
	s := core
	m.Piece = 'P'
	if s != "" && strings.IndexByte("KQRBND", s[0]) >= 0 {
		m.Piece, s = s[0], s[1:]
	}
	from, rest, err := readSquare(s)
	if err != nil {
		return m, fmt.Errorf("%q: %v", tok, err)
	}
	m.From = from
	if rest == "" || (rest[0] != '-' && rest[0] != 'x' && rest[0] != '~') {
		return m, fmt.Errorf("%q: want '-' or 'x' after %s (or '~' for a partner pawn swap)", tok, from)
	}
	m.Capture, m.Swap = rest[0] == 'x', rest[0] == '~'
	rest = rest[1:]
	if m.Capture && rest != "" && strings.IndexByte("KQRBND", rest[0]) >= 0 {
		m.Captured, rest = rest[0], rest[1:]
	}
	to, rest, err := readSquare(rest)
	if err != nil {
		return m, fmt.Errorf("%q: %v", tok, err)
	}
	m.To = to
	if strings.HasPrefix(rest, "=") {
		// K: variants whose kings are ordinary pieces promote to them
		// (Stevenson).
		if len(rest) < 2 || strings.IndexByte("QRBNDK", rest[1]) < 0 {
			return m, fmt.Errorf("%q: promotion must name Q, R, B, N, D or K", tok)
		}
		m.Promotion, rest = rest[1], rest[2:]
	}
	if rest != "" {
		return m, fmt.Errorf("%q: unexpected %q after the move", tok, rest)
	}
	return m, nil
}

// readSquare reads a square name ("h2", "n14"; up to "p16" for 16×16
// boards) from the front of s.
func readSquare(s string) (square.Square, string, error) {
	if s == "" {
		return square.None, s, fmt.Errorf("a square is missing (files a-p, ranks 1-16)")
	}
	i := 1
	for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if s[0] < 'a' || s[0] > 'p' {
		return square.None, s, fmt.Errorf("%q is not a square (files a-p, ranks 1-16)", s[:i])
	}
	sq, err := square.Parse(s[:i])
	if err != nil || sq.Rank() >= 16 {
		return square.None, s, fmt.Errorf("%q is not a square (files a-p, ranks 1-16)", s[:i])
	}
	return sq, s[i:], nil
}

// String writes the move in chess.com's form; ParseMove(m.String())
// gives m back.
func (m Move) String() string {
	var b strings.Builder
	switch m.Kind {
	case Resign, Timeout:
		b.WriteByte("RT"[m.Kind-Resign])
		if m.Mate {
			b.WriteByte('#')
		}
		return b.String()
	case Stalemate:
		return "S"
	case Eliminated:
		return "#"
	case CastleShort:
		b.WriteString("O-O")
	case CastleLong:
		b.WriteString("O-O-O")
	default:
		if m.Piece != 'P' && m.Piece != 0 {
			b.WriteByte(m.Piece)
		}
		b.WriteString(m.From.String())
		if m.Swap {
			b.WriteByte('~')
		} else if m.Capture {
			b.WriteByte('x')
			if m.Captured != 0 {
				b.WriteByte(m.Captured)
			}
		} else {
			b.WriteByte('-')
		}
		b.WriteString(m.To.String())
		if m.Promotion != 0 {
			b.WriteByte('=')
			b.WriteByte(m.Promotion)
		}
	}
	for i := 0; i < m.Checks && i < 3; i++ {
		b.WriteByte('+')
	}
	if m.Mate || m.DoubleMate {
		b.WriteByte('#')
	}
	if m.DoubleMate {
		b.WriteByte('#')
	}
	if m.Then != 0 {
		b.WriteByte(m.Then)
	}
	return b.String()
}
