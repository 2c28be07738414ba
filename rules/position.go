package rules

import (
	"boardd/rules/square"
)

// A Position: the padded 20×20 mailbox board, per-seat piece lists, kings,
// castling rights, en-passant entries, points and who is out, with
// Make/Unmake. Make applies the variant's data (promotion kinds, pawns
// that turn round) and asks a hook only for the variant's own en-passant
// rights (OnEnPassant); an army played by a partner is core state
// (armies.go).

// epEntry is one seat's en-passant entry: the square its pawn skipped
// (where a capturer lands) and the square the pawn stands on (whose pawn is
// removed). Cells are 0 when the seat has no entry.
type epEntry struct{ target, pawn int16 }

// Castling-right bits per seat.
const (
	castleShort uint8 = 1 << iota // kingside: the rook three squares away
	castleLong                    // queenside: the rook four squares away
)

// Position is a board position of one variant: the pieces, whose turn it
// is, castling rights, en-passant entries, eliminated seats, points and
// the half-move clock. It knows the rules of movement; the game layer
// (Game) adds checkmate, elimination, scoring and draws on top.
//
// A Position is not safe for concurrent use; Clone it to share.
type Position struct {
	v        *Variant
	board    [numCells]Piece
	turn     Seat
	out      [NumSeats]bool // eliminated: no more turns
	castle   [NumSeats]uint8
	ep       [NumSeats]epEntry
	king     [NumSeats]int16 // the king's cell, 0 when the seat has none
	heir     [NumSeats]uint8 // the essay's alternate rule: the partner (+1) who moves this kingless seat's army, or 0
	points   [NumSeats]int
	halfmove int

	// Piece lists: the cells of each seat's pieces (live or grey), so the
	// generator visits ~16 cells instead of 160. pidx is a cell's index
	// in its seat's list.
	plist  [NumSeats][maxPieces]int16
	pcount [NumSeats]uint8
	pidx   [numCells]uint8

	// ext is position state a hook keeps behind OnEnPassant (Chess4's
	// deferred en-passant rights, package rules/chess4); nil where none
	// does.
	ext PositionExt

	// Notation details kept for an exact FEN4 round trip.
	extras  []extra
	counted bool // corners written as counted empty squares, not x
}

// maxPieces bounds one seat's pieces: every square of a 16×16 board.
const maxPieces = 256

// rebuildLists recomputes the piece lists from the board.
func (p *Position) rebuildLists() {
	p.pcount = [NumSeats]uint8{}
	for _, c := range p.v.cells {
		if pc := p.board[c]; pc.IsPiece() {
			p.addPiece(pc.Seat(), int(c))
		}
	}
}

func (p *Position) addPiece(s Seat, c int) {
	i := p.pcount[s]
	p.plist[s][i] = int16(c)
	p.pidx[c] = i
	p.pcount[s]++
}

func (p *Position) removePiece(s Seat, c int) {
	i := p.pidx[c]
	last := p.pcount[s] - 1
	lc := p.plist[s][last]
	p.plist[s][i] = lc
	p.pidx[lc] = i
	p.pcount[s] = last
}

func (p *Position) movePiece(s Seat, from, to int) {
	i := p.pidx[from]
	p.plist[s][i] = int16(to)
	p.pidx[to] = i
}

// Variant returns the rules the position follows.
func (p *Position) Variant() *Variant { return p.v }

// Clone returns an independent copy.
func (p *Position) Clone() *Position {
	c := *p
	c.extras = append([]extra(nil), p.extras...)
	if p.ext != nil {
		c.ext = p.ext.CopyExt()
	}
	return &c
}

// Turn returns the seat to move.
func (p *Position) Turn() Seat { return p.turn }

// At returns the piece on s (NoPiece when empty or off the board).
func (p *Position) At(s square.Square) Piece {
	if !p.v.Geometry.Has(s) {
		return NoPiece
	}
	return p.board[cell(s)]
}

// Occupancy returns the set of occupied squares: what the reed switches
// under the board should read.
func (p *Position) Occupancy() square.Set {
	var o square.Set
	for _, c := range p.v.cells {
		if p.board[c] != NoPiece {
			o.Add(squareOf(int(c)))
		}
	}
	return o
}

// OccupancyAfter returns the occupied squares after m, a move generated for
// this position, without changing the position.
func (p *Position) OccupancyAfter(m Move) square.Set {
	u := p.Make(m)
	o := p.Occupancy()
	p.Unmake(m, u)
	return o
}

// WithTurn returns a copy of the position with seat s to move (to ask what
// s could do, for example to recognise a move made out of turn).
func (p *Position) WithTurn(s Seat) *Position {
	c := p.Clone()
	c.turn = s
	return c
}

// WithOut returns a copy of p with seat s out of the game as a mated seat
// leaves a singles game: its army grey, its castling and en-passant rights
// gone and, when s is to move, the turn passed to the next seat still in.
// It scores no points and hands no army over (Game does both when it takes
// a seat out); a search uses it to look past a mate.
func (p *Position) WithOut(s Seat) *Position {
	c := p.Clone()
	c.out[s] = true
	c.castle[s] = 0
	c.ep[s] = epEntry{}
	for _, cell := range c.v.cells {
		if pc := c.board[cell]; pc.IsPiece() && pc.Seat() == s {
			c.board[cell] = pc.WithDead()
		}
	}
	if c.turn == s {
		c.turn = c.nextSeat(s)
	}
	return c
}

// Eliminated reports whether seat s is out of the game (no more turns).
func (p *Position) Eliminated(s Seat) bool { return p.out[s] || p.heir[s] != 0 }

// Points returns seat s's score (FFA).
func (p *Position) Points(s Seat) int { return p.points[s] }

// HalfMoveClock returns the number of plies since the last capture or
// pawn move.
func (p *Position) HalfMoveClock() int { return p.halfmove }

// KingSquare returns seat s's king square, or square.None.
func (p *Position) KingSquare(s Seat) square.Square {
	if p.king[s] == 0 {
		return square.None
	}
	return squareOf(int(p.king[s]))
}

// CanCastle reports seat s's remaining castling rights.
func (p *Position) CanCastle(s Seat) (kingside, queenside bool) {
	return p.castle[s]&castleShort != 0, p.castle[s]&castleLong != 0
}

// EnPassant returns seat s's en-passant entry: the skipped square and the
// pushed pawn's square, or square.None twice.
func (p *Position) EnPassant(s Seat) (skipped, pawn square.Square) {
	e := p.ep[s]
	if e.target == 0 {
		return square.None, square.None
	}
	return squareOf(int(e.target)), squareOf(int(e.pawn))
}

// nextSeat returns the seat after s in turn order that is still playing,
// or s itself when nobody else is.
func (p *Position) nextSeat(s Seat) Seat {
	if p.out == [NumSeats]bool{} && p.heir == [NumSeats]uint8{} {
		return p.v.next[s] // everybody plays: the turn order's next seat
	}
	o := p.v.Order
	i := p.v.orderIdx[s]
	for k := 1; k <= len(o); k++ {
		n := o[(i+k)%len(o)]
		if !p.out[n] && p.heir[n] == 0 {
			return n
		}
	}
	return s
}

// Undo holds what Make changed, so that Unmake can restore it.
type Undo struct {
	captured Piece
	capCell  int16
	moved    Piece
	castle   [NumSeats]uint8
	ep       epEntry
	halfmove int
	turn     Seat
	kingCap  bool
}

// Make plays m, which must be a move generated for this position, and
// returns what Unmake needs to take it back. It does not score points or
// eliminate anyone: that is the game layer's job.
func (p *Position) Make(m Move) Undo {
	s := p.turn
	from, to := m.from(), m.to()
	pc := p.board[from]
	u := Undo{moved: pc, castle: p.castle, ep: p.ep[s], halfmove: p.halfmove, turn: s, capCell: int16(to)}
	p.ep[s] = epEntry{}
	switch m.flag() {
	case flagEnPassant:
		for e := Seat(0); e < NumSeats; e++ {
			if int(p.ep[e].target) == to && e != s {
				u.capCell = p.ep[e].pawn
				break
			}
		}
		if p.v.provides&(1<<OnEnPassant) != 0 {
			u.capCell = int16(p.v.hook(OnEnPassant).EnPassantVictim(p, to, s))
		}
	case flagHook:
		return p.v.hook(OnMakeMove).MakeMove(p, m, u)
	case flagCastleShort, flagCastleLong:
		dir := (to - from) / 2
		rf := from + 3*dir
		if m.flag() == flagCastleLong {
			rf = from + 4*dir
		}
		p.board[from+dir] = p.board[rf]
		p.board[rf] = NoPiece
		p.movePiece(s, rf, from+dir)
	}
	u.captured = p.board[u.capCell]
	if u.captured != NoPiece {
		p.removePiece(u.captured.Seat(), int(u.capCell))
	}
	p.board[u.capCell] = NoPiece
	p.movePiece(pc.Seat(), from, to) // pc.Seat() is s but for an inherited army's piece (the essay)
	if k := m.Promotion(); k != NoKind {
		np := MakePiece(pc.Seat(), k)
		if p.v.PromotedWorthOne {
			np = np.WithPromoted()
		}
		p.board[to] = np
	} else {
		p.board[to] = pc
		if p.v.pawnTurns && pc.Kind() == Pawn {
			p.board[to] = p.v.turnPawn(pc, s, to)
		}
	}
	p.board[from] = NoPiece

	if pc.Kind() == King {
		p.king[s] = int16(to)
		p.castle[s] = 0
	}
	if u.captured != NoPiece {
		if u.captured.Kind() == King && p.king[u.captured.Seat()] == u.capCell && !p.v.OrdinaryKings {
			p.king[u.captured.Seat()] = 0
			u.kingCap = true
		}
		p.halfmove = 0
	} else if pc.Kind() == Pawn {
		p.halfmove = 0
	} else {
		p.halfmove++
	}
	if cs := p.v.cornerSeat[from] | p.v.cornerSeat[to]; cs != 0 {
		p.dropCornerRights(from)
		p.dropCornerRights(to)
	}
	if m.flag() == flagDouble {
		p.ep[s] = epEntry{target: int16((from + to) / 2), pawn: int16(to)}
	}
	if p.v.provides&(1<<OnEnPassant) != 0 {
		p.v.hook(OnEnPassant).Made(p, m, s, pc, int(u.capCell))
	}
	p.turn = p.nextSeat(s)
	return u
}

// dropCornerRights clears the castling right tied to a rook corner when a
// piece leaves or lands on it.
func (p *Position) dropCornerRights(c int) {
	o := p.v.cornerSeat[c]
	if o == 0 {
		return
	}
	s := o - 1
	if p.castle[s] == 0 || p.king[s] == 0 {
		return
	}
	d := c - int(p.king[s])
	if d < 0 {
		d = -d
	}
	if d == 3 || d == 3*stride {
		p.castle[s] &^= castleShort
	} else if d == 4 || d == 4*stride {
		p.castle[s] &^= castleLong
	}
}

// Unmake takes back m, which must be the last move made, using its Undo.
func (p *Position) Unmake(m Move, u Undo) {
	if m.flag() == flagHook {
		p.v.hook(OnMakeMove).UnmakeMove(p, m, u)
		return
	}
	from, to := m.from(), m.to()
	s := u.turn
	p.turn = s
	p.board[from] = u.moved
	p.board[to] = NoPiece
	p.movePiece(u.moved.Seat(), to, from)
	p.board[u.capCell] = u.captured
	if u.captured != NoPiece {
		p.addPiece(u.captured.Seat(), int(u.capCell))
	}
	switch m.flag() {
	case flagCastleShort, flagCastleLong:
		dir := (to - from) / 2
		rf := from + 3*dir
		if m.flag() == flagCastleLong {
			rf = from + 4*dir
		}
		p.board[rf] = p.board[from+dir]
		p.board[from+dir] = NoPiece
		p.movePiece(s, from+dir, rf)
	}
	if u.moved.Kind() == King {
		p.king[s] = int16(from)
	}
	if u.kingCap {
		p.king[u.captured.Seat()] = u.capCell
	}
	p.castle = u.castle
	p.ep[s] = u.ep
	if p.v.provides&(1<<OnEnPassant) != 0 {
		p.v.hook(OnEnPassant).Unmade(p)
	}
	p.halfmove = u.halfmove
}
