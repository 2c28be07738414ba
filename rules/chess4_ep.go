package rules

import "hash"

// Chess4's en passant (rule 7), behind Variant.ChainEnPassant (the Chess4
// hook provides OnEnPassant; the rights are position state, Position.epx). The usual
// entries (Position.ep: one per seat that just double-stepped, cleared
// when that seat moves again) already give rule 7.1 ("En passant is also
// valid for perpendicular pawns … you must always capture 'behind' the
// captured pawn") and rule 7.2.1 ("Other opponents' moves may occur
// between the move of the passing pawn and en passant, as long as the en
// passant is performed at the earliest opportunity"). What they cannot
// say is rules 7.2.2 and 7.2.3:
//
//	"In the case of double en passant … White may play en passant on both
//	as long as he plays both moves on his next two turns. … The other
//	passing pawn may not capture on this subsequent turn, but it may move;
//	if it does, White may still capture (White's pawn's destination square
//	remains unchanged)."
//
// So when a seat takes en passant, its other rights of that turn become
// deferred rights (Position.epx) for its next turn; a deferred right
// follows its pawn when the pawn moves (the destination square stays),
// dies with the pawn, and lapses unless its holder takes en passant on
// every turn until it is used. A pawn that a deferred right names may not
// capture.

// chainEP updates the deferred rights after seat s's move m (the moving
// piece pc, the captured piece's cell capCell) has been made.
func (p *Position) chainEP(m Move, s Seat, pc Piece, capCell int) {
	p.epxHist = append(p.epxHist, p.epx)
	from, to := m.from(), m.to()
	for y := range p.epx {
		for x := range p.epx[y] {
			e := &p.epx[y][x]
			switch {
			case e.target == 0:
			case int(e.pawn) == capCell && capCell != from:
				*e = epEntry{} // the passed pawn was captured
			case int(e.pawn) == from:
				if pc.Kind() == Pawn && m.Promotion() == NoKind {
					e.pawn = int16(to) // it moved; the destination stays
				} else {
					*e = epEntry{}
				}
			}
		}
	}
	if m.flag() != flagEnPassant {
		p.epx[s] = [NumSeats]epEntry{} // not used at the first opportunity: lapsed
		return
	}
	for x := Seat(0); x < NumSeats; x++ {
		en := p.ep[x]
		if x == s || en.target == 0 || int(en.target) == to || p.epx[s][x].target != 0 {
			continue
		}
		if vic := p.board[en.pawn]; vic == MakePiece(x, Pawn) && p.v.capTab[s][vic] {
			p.epx[s][x] = en
		}
	}
}

// unchainEP restores the deferred rights Unmake's move changed.
func (p *Position) unchainEP() {
	if n := len(p.epxHist); n > 0 {
		p.epx = p.epxHist[n-1]
		p.epxHist = p.epxHist[:n-1]
	}
}

// deferredEP reports whether seat s holds a deferred right to take en
// passant onto the empty cell t.
func (p *Position) deferredEP(t int, s Seat) bool {
	for x := Seat(0); x < NumSeats; x++ {
		en := p.epx[s][x]
		if int(en.target) != t {
			continue
		}
		if vic := p.board[en.pawn]; vic == MakePiece(x, Pawn) && p.v.capTab[s][vic] {
			return true
		}
	}
	return false
}

// passedPawn reports whether seat s's pawn on cell c is named by another
// seat's deferred right: it "may not capture on this subsequent turn, but
// it may move".
func (p *Position) passedPawn(c int, s Seat) bool {
	for y := range p.epx {
		if e := p.epx[y][s]; e.target != 0 && int(e.pawn) == c {
			return true
		}
	}
	return false
}

// pawnPushes appends a pawn's forward moves only (one step, and two from
// its double-step squares).
func (p *Position) pawnPushes(moves []Move, c int, s Seat) []Move {
	v := p.v
	fwdDir := int(v.Seats[s].Forward)
	fwd := dirDelta[fwdDir]
	walls := v.Geometry.hasWalls
	blocked := &v.Geometry.blocked
	t := c + fwd
	if p.board[t] != NoPiece || (walls && blocked[c]&(1<<fwdDir) != 0) {
		return moves
	}
	moves = p.addPawnMove(moves, c, t, s)
	if v.DoubleStep && v.dblCell[s][c] && p.board[t+fwd] == NoPiece && !(walls && blocked[t]&(1<<fwdDir) != 0) {
		moves = append(moves, newMove(c, t+fwd, NoKind, flagDouble))
	}
	return moves
}

// hashDeferredEP adds the deferred rights to a position hash (repetition).
func (p *Position) hashDeferredEP(h hash.Hash64) {
	var buf [NumSeats * NumSeats * 4]byte
	i := 0
	for y := range p.epx {
		for x := range p.epx[y] {
			e := p.epx[y][x]
			buf[i], buf[i+1], buf[i+2], buf[i+3] = byte(e.target), byte(e.target>>8), byte(e.pawn), byte(e.pawn>>8)
			i += 4
		}
	}
	h.Write(buf[:])
}

// EnPassantOpen reports whether seat s holds a deferred right.
func (h *Chess4Hook) EnPassantOpen(p *Position, s Seat) bool {
	return p.epx[s] != [NumSeats]epEntry{}
}

// EnPassantTo reports whether seat s holds a deferred right onto t.
func (h *Chess4Hook) EnPassantTo(p *Position, t int, s Seat) bool { return p.deferredEP(t, s) }

// EnPassantVictim returns the pawn an en-passant capture onto t takes,
// deferred rights included (epVictim).
func (h *Chess4Hook) EnPassantVictim(p *Position, t int, s Seat) int { return p.epVictim(t, s) }

// Made updates the deferred rights (chainEP).
func (h *Chess4Hook) Made(p *Position, m Move, s Seat, pc Piece, capCell int) {
	p.chainEP(m, s, pc, capCell)
}

// Unmade restores them (unchainEP).
func (h *Chess4Hook) Unmade(p *Position) { p.unchainEP() }

// HashInto adds the deferred rights to a repetition hash.
func (h *Chess4Hook) HashInto(p *Position, hs hash.Hash64) { p.hashDeferredEP(hs) }
