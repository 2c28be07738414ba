package termsim

import (
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
	"boardd/sensors/sim"
)

// notALine is the answer to a typed line that is neither a command nor a
// move on this board; commands lists the commands of the front end.
func notALine(line string, board square.Set, commands string) error {
	return fmt.Errorf("%q: want a move such as h2-h4, Nj1-i3 or O-O (%s), or %s", line, sim.Span(board), commands)
}

// offBoard names a square of a typed move that is not on this board.
func offBoard(tok pgn4.Move, board square.Set) error {
	for _, q := range []square.Square{tok.From, tok.To} {
		if q != square.None && !board.Has(q) {
			return fmt.Errorf("%s is not a square of this board (%s)", q, sim.Span(board))
		}
	}
	return nil
}

// checkTyped compares what a typed move says it takes with what the
// board holds, in g: the rules resolve "Kf13-f12" to the king's capture
// when f12 holds a piece (a dead army's pawn, say) and the board then
// echoes "Kf13xf12". A capture written onto an empty square, or naming a
// piece the square does not hold, is refused; a move written with '-'
// that takes a piece is played, and note says what it takes.
func checkTyped(g *rules.Game, text string) (note string, err error) {
	tok, perr := pgn4.ParseMove(text)
	if perr != nil || tok.Kind != pgn4.Normal || tok.Swap {
		return "", nil // castling, or not a move: the rules answer it
	}
	m, rerr := pgn4.Resolve(g, text)
	if rerr != nil {
		return "", nil // the rules say why
	}
	p := g.Position()
	victim := p.At(m.To())
	takes := victim.IsPiece() || m.IsEnPassant()
	played := p.MoveText(m)
	switch {
	case tok.Capture && !takes:
		return "", fmt.Errorf("%s: %s is empty, there is nothing to take: type %s", text, m.To(), played)
	case tok.Capture && tok.Captured != 0 && victim.IsPiece() && tok.Captured != victim.Kind().Letter() && tok.Captured != victim.Letter(): // 'D' or 'Q' for a promoted queen
		return "", fmt.Errorf("%s: %s holds %s, not a %s: type %s", text, m.To(), pieceName(victim), kindName(tok.Captured), played)
	case !tok.Capture && takes:
		what := "a pawn en passant"
		if victim.IsPiece() {
			what = pieceName(victim) + " on " + m.To().String()
		}
		return fmt.Sprintf("%s takes %s: played as %s", text, what, played), nil
	}
	return "", nil
}

// pieceName is "Blue's pawn", "Green's dead queen".
func pieceName(pc rules.Piece) string {
	dead := ""
	if pc.Dead() {
		dead = "dead "
	}
	return fmt.Sprintf("%s's %s%s", pc.Seat(), dead, kindName(pc.Kind().Letter()))
}

func kindName(letter byte) string {
	if n, ok := map[byte]string{'P': "pawn", 'N': "knight", 'B': "bishop", 'R': "rook", 'Q': "queen", 'K': "king", 'D': "one-point queen"}[letter]; ok {
		return n
	}
	return strings.ToLower(string(letter))
}
