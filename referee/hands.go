package referee

import (
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
)

// Hands is how a human makes move m of position p on the board: the
// pieces the move takes off (a captured piece, en-passant pawns, Chess4's
// chained en passant included) lifted first, the piece moved, the rook for
// castling, the partner's pawn set down for a swap (the essay). What comes
// off is read from the occupancy the rules leave after m, so the hands
// cannot disagree with the rules. The simulators and tests play moves
// with it.
func Hands(p *rules.Position, m rules.Move) []Touch {
	var out []Touch
	castle, _ := m.IsCastle()
	rf, rt := square.None, square.None
	if castle {
		rf, rt = m.RookSquares()
	}
	for _, q := range p.Occupancy().AndNot(p.OccupancyAfter(m)).Squares() {
		if q != m.From() && q != rf {
			out = append(out, Touch{Square: q, Lift: true}) // taken off in passing
		}
	}
	if p.At(m.To()).IsPiece() {
		out = append(out, Touch{Square: m.To(), Lift: true})
	}
	out = append(out, Touch{Square: m.From(), Lift: true}, Touch{Square: m.To()})
	if castle {
		out = append(out, Touch{Square: rf, Lift: true}, Touch{Square: rt})
	}
	if sw, ep := m.IsSwap(); sw && !ep {
		out = append(out, Touch{Square: m.From()}) // the partner's pawn takes the mover's square
	}
	return out
}

// GameHands resolves a move typed as a PGN4 token ("h2-h4", "O-O") among
// the game's legal moves (rules.Game.LegalMoves: whatever the rules allow,
// a forced move into check or a chained en passant included) and returns
// how a human makes it on the board (Hands). An illegal move's error says
// why.
func GameHands(g *rules.Game, text string) ([]Touch, error) {
	p := g.Position()
	m, err := pgn4.Resolve(g, text)
	if err != nil {
		return nil, err
	}
	return Hands(p, m), nil
}
