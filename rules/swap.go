package rules

// Swaps: a move form a hook may generate (the four-player chess essay's
// partner pawn swap), known to the whole stack as castling is. A pawn
// moves as if to capture a piece, which instead takes the square the pawn
// left (the exchanging form), or, in the en-passant form, the pawn moves
// onto the empty square a double step skipped and nothing else moves.
// Nothing is captured; move text writes '~' where a capture writes 'x'
// ("e5~f6"). A swap carries the hook flag and one of the two labels
// below (hookMove): Make hands the exchanging form to the hook that
// provides OnMakeMove, whose MakeMove plays it with MakeSwap; Make plays
// the en-passant form itself as an ordinary move onto the empty square.

// The labels of the two swap forms (hookMove).
const (
	// swapExchange: the two pieces exchange squares (MakeSwap).
	swapExchange uint8 = 1 + iota
	// swapPass: the en-passant form; the passed pawn stays where it is.
	swapPass
)

// NewSwap returns the swap of the pawn on cell from onto cell to,
// promoting to promo (NoKind for none): the exchanging form, or with
// enPassant the form onto the empty square a double step skipped.
func NewSwap(from, to int, promo Kind, enPassant bool) Move {
	if enPassant {
		return hookMove(from, to, promo, false, swapPass)
	}
	return hookMove(from, to, promo, true, swapExchange)
}

// IsSwap reports whether m is a swap (a pawn "captures" a piece, which
// takes its square instead; the essay's partner pawn swap), and whether it
// is the en-passant form, where the passed pawn stays put.
func (m Move) IsSwap() (swap, enPassant bool) {
	l := m.hookLabel()
	return l == swapExchange || l == swapPass, l == swapPass
}

// MakeSwap plays an exchanging swap for a hook's MakeMove (Make has
// filled u): the mover's pawn goes to the other piece's square, promoting
// there if the move says so, and the other piece to the mover's square.
// Nothing is captured; the half-move clock restarts.
func (p *Position) MakeSwap(m Move, u Undo) Undo {
	from, to := m.from(), m.to()
	mine, theirs := p.board[from], p.board[to]
	o, e := mine.Seat(), theirs.Seat()
	i, j := p.pidx[from], p.pidx[to]
	p.plist[o][i], p.pidx[to] = int16(to), i
	p.plist[e][j], p.pidx[from] = int16(from), j
	p.board[from] = theirs
	if k := m.Promotion(); k != NoKind {
		mine = MakePiece(o, k)
		if p.v.PromotedWorthOne {
			mine = mine.WithPromoted()
		}
	}
	p.board[to] = mine
	p.halfmove = 0
	if p.v.cornerSeat[from]|p.v.cornerSeat[to] != 0 {
		p.dropCornerRights(from)
		p.dropCornerRights(to)
	}
	p.turn = p.nextSeat(u.turn)
	return u
}

// UnmakeSwap takes back MakeSwap.
func (p *Position) UnmakeSwap(m Move, u Undo) {
	from, to := m.from(), m.to()
	theirs := p.board[from]
	o, e := u.moved.Seat(), theirs.Seat()
	i, j := p.pidx[to], p.pidx[from]
	p.plist[o][i], p.pidx[from] = int16(from), i
	p.plist[e][j], p.pidx[to] = int16(to), j
	p.board[from], p.board[to] = u.moved, theirs
	p.turn = u.turn
	p.castle = u.castle
	p.ep[u.turn] = u.ep
	p.halfmove = u.halfmove
}
