package pgn4

import (
	"fmt"

	"boardd/rules"
)

// Resolve returns the legal move of the seat to move in g that token
// names. Every way boardd reads a move as text comes here: a replayed
// game's tokens, a remote seat's or the bot's move, another engine's
// answer. See ResolveAmong for what a token may be.
func Resolve(g *rules.Game, token string) (rules.Move, error) {
	return ResolveAmong(g.Position(), g.LegalMoves(), token)
}

// ResolveAmong finds the move token names among legal, the moves of p the
// caller allows (the game's legal moves, which some variants widen, or a
// wider list such as p.PseudoLegal). The token is a PGN4 token
// ("Nj1xBi3+", "O-O", "e10-e11=N", "e5~f6") or the bare squares of a move,
// as engines write them ("j1-i3"; the king's squares castle, "h1-j1").
// Check and mate marks are ignored; a piece letter, when written, must
// name the piece on the from square; without a promotion letter a
// promotion is the variant's default (the first one legal offers). A
// token that names no move in legal is an error saying why ("the queen's
// path is blocked at f3").
func ResolveAmong(p *rules.Position, legal []rules.Move, token string) (rules.Move, error) {
	mv, err := ParseMove(token)
	if err != nil {
		return 0, err
	}
	return mv.resolve(p, legal, token)
}

// resolve finds the move mv, read from token, names among legal, the
// allowed moves of p.
func (mv Move) resolve(p *rules.Position, legal []rules.Move, token string) (rules.Move, error) {
	switch mv.Kind {
	case CastleShort, CastleLong:
		for _, m := range legal {
			if c, short := m.IsCastle(); c && short == (mv.Kind == CastleShort) {
				return m, nil
			}
		}
		side := "kingside (O-O)"
		if mv.Kind == CastleLong {
			side = "queenside (O-O-O)"
		}
		return 0, fmt.Errorf("%s cannot castle %s: the king or rook has moved, the way is not clear, or the king would pass an attacked square", p.Turn(), side)
	case Normal:
	default:
		return 0, fmt.Errorf("%q is not a move on the board", token)
	}
	// ParseMove gives a bare token the letter P: only a written letter
	// (a knight's N, a king's K) is checked against the board.
	if pc := p.At(mv.From); mv.Piece != 'P' && pc.IsPiece() && pc.Seat() == p.Turn() && !pc.Dead() && pc.Kind().Letter() != mv.Piece {
		return 0, fmt.Errorf("the move names a %c but %s holds %s's %s", mv.Piece, mv.From, pc.Seat(), pc.Kind())
	}
	promo := rules.NoKind
	if mv.Promotion != 0 {
		k, ok := rules.KindFromLetter(mv.Promotion)
		if !ok {
			return 0, fmt.Errorf("promotion to %q is not a piece", mv.Promotion)
		}
		promo = k
	}
	for _, m := range legal {
		if sw, _ := m.IsSwap(); sw != mv.Swap {
			continue // '~' names a partner pawn swap, '-' and 'x' anything else
		}
		if m.From() == mv.From && m.To() == mv.To && (m.Promotion() == promo || promo == rules.NoKind && m.Promotion() == firstPromotion(legal, m)) {
			return m, nil
		}
	}
	m, err := p.FindMove(mv.From, mv.To, promo)
	if err != nil {
		return 0, err
	}
	if err := p.Explain(m); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s is not a legal move for %s now", token, p.Turn())
}

// firstPromotion returns the first promotion legal offers for m's squares:
// the variant's default when a token names none.
func firstPromotion(legal []rules.Move, m rules.Move) rules.Kind {
	for _, x := range legal {
		if x.From() == m.From() && x.To() == m.To() {
			return x.Promotion()
		}
	}
	return rules.NoKind
}
