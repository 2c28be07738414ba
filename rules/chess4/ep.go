package chess4

import (
	"hash"

	"boardd/rules"
)

// Chess4's en passant (rule 7), behind Options.ChainEnPassant (the hook
// provides OnEnPassant; the rights are position state the hook keeps,
// deferredEP in the position's extension slot, Position.Ext). The usual
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
// deferred rights (deferredEP) for its next turn; a deferred right
// follows its pawn when the pawn moves (the destination square stays),
// dies with the pawn, and lapses unless its holder takes en passant on
// every turn until it is used. A pawn that a deferred right names may not
// capture.

// epEntry is one en-passant right: the square the pawn skipped (target)
// and the pawn's own square, as cells; target 0 for none.
type epEntry struct{ target, pawn int }

// deferredEP is Chess4's position state (Position.Ext): epx[y][x] is y's
// right to take x's pawn en passant on y's next turn; hist saves them for
// Unmake.
type deferredEP struct {
	epx  [rules.NumSeats][rules.NumSeats]epEntry
	hist [][rules.NumSeats][rules.NumSeats]epEntry
}

// CopyExt copies the rights, not the Unmake history.
func (x *deferredEP) CopyExt() rules.PositionExt { return &deferredEP{epx: x.epx} }

// noDeferred is the rights of a position that never had any.
var noDeferred [rules.NumSeats][rules.NumSeats]epEntry

// deferred returns the position's deferred rights (read only).
func deferred(p *rules.Position) *[rules.NumSeats][rules.NumSeats]epEntry {
	if x, ok := p.Ext().(*deferredEP); ok {
		return &x.epx
	}
	return &noDeferred
}

// plainEP returns seat x's plain en-passant entry in p.
func plainEP(p *rules.Position, x rules.Seat) epEntry {
	t, pawn := p.EnPassantCells(x)
	return epEntry{target: t, pawn: pawn}
}

// chainEP updates the deferred rights after seat s's move m (the moving
// piece pc, the captured piece's cell capCell) has been made.
func chainEP(p *rules.Position, m rules.Move, s rules.Seat, pc rules.Piece, capCell int) {
	st, ok := p.Ext().(*deferredEP)
	if !ok {
		st = &deferredEP{}
		p.SetExt(st)
	}
	st.hist = append(st.hist, st.epx)
	epx := &st.epx
	from, to := m.FromCell(), m.ToCell()
	for y := range epx {
		for x := range epx[y] {
			e := &epx[y][x]
			switch {
			case e.target == 0:
			case e.pawn == capCell && capCell != from:
				*e = epEntry{} // the passed pawn was captured
			case e.pawn == from:
				if pc.Kind() == rules.Pawn && m.Promotion() == rules.NoKind {
					e.pawn = to // it moved; the destination stays
				} else {
					*e = epEntry{}
				}
			}
		}
	}
	if !m.IsEnPassant() {
		epx[s] = [rules.NumSeats]epEntry{} // not used at the first opportunity: lapsed
		return
	}
	v := p.Variant()
	for x := rules.Seat(0); x < rules.NumSeats; x++ {
		en := plainEP(p, x)
		if x == s || en.target == 0 || en.target == to || epx[s][x].target != 0 {
			continue
		}
		if vic := p.OnCell(en.pawn); vic == rules.MakePiece(x, rules.Pawn) && v.Captures(s, vic) {
			epx[s][x] = en
		}
	}
}

// unchainEP restores the deferred rights Unmake's move changed.
func unchainEP(p *rules.Position) {
	if st, ok := p.Ext().(*deferredEP); ok {
		if n := len(st.hist); n > 0 {
			st.epx = st.hist[n-1]
			st.hist = st.hist[:n-1]
		}
	}
}

// deferredTo reports whether seat s holds a deferred right to take en
// passant onto the empty cell t.
func deferredTo(p *rules.Position, t int, s rules.Seat) bool {
	v := p.Variant()
	for x := rules.Seat(0); x < rules.NumSeats; x++ {
		en := deferred(p)[s][x]
		if en.target != t {
			continue
		}
		if vic := p.OnCell(en.pawn); vic == rules.MakePiece(x, rules.Pawn) && v.Captures(s, vic) {
			return true
		}
	}
	return false
}

// passedPawn reports whether seat s's pawn on cell c is named by another
// seat's deferred right: it "may not capture on this subsequent turn, but
// it may move".
func passedPawn(p *rules.Position, c int, s rules.Seat) bool {
	epx := deferred(p)
	for y := range epx {
		if e := epx[y][s]; e.target != 0 && e.pawn == c {
			return true
		}
	}
	return false
}

// epVictim returns the cell of the pawn that seat s's en-passant capture
// onto cell t removes, deferred rights included.
func epVictim(p *rules.Position, t int, s rules.Seat) int {
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		if en := plainEP(p, e); en.target == t && e != s {
			return en.pawn
		}
	}
	if h, ok := rules.HookOf[*Chess4Hook](p.Variant()); ok && h.o.ChainEnPassant {
		for e := rules.Seat(0); e < rules.NumSeats; e++ {
			if en := deferred(p)[s][e]; en.target == t {
				return en.pawn
			}
		}
	}
	return t
}

// hashDeferred adds the deferred rights to a position hash (repetition).
func hashDeferred(p *rules.Position, h hash.Hash64) {
	var buf [rules.NumSeats * rules.NumSeats * 4]byte
	i := 0
	epx := deferred(p)
	for y := range epx {
		for x := range epx[y] {
			e := epx[y][x]
			buf[i], buf[i+1], buf[i+2], buf[i+3] = byte(e.target), byte(e.target>>8), byte(e.pawn), byte(e.pawn>>8)
			i += 4
		}
	}
	h.Write(buf[:])
}

// EnPassantOpen reports whether seat s holds a deferred right.
func (h *Chess4Hook) EnPassantOpen(p *rules.Position, s rules.Seat) bool {
	return deferred(p)[s] != [rules.NumSeats]epEntry{}
}

// EnPassantTo reports whether seat s holds a deferred right onto t.
func (h *Chess4Hook) EnPassantTo(p *rules.Position, t int, s rules.Seat) bool {
	return deferredTo(p, t, s)
}

// EnPassantVictim returns the pawn an en-passant capture onto t takes,
// deferred rights included (epVictim).
func (h *Chess4Hook) EnPassantVictim(p *rules.Position, t int, s rules.Seat) int {
	return epVictim(p, t, s)
}

// Made updates the deferred rights (chainEP).
func (h *Chess4Hook) Made(p *rules.Position, m rules.Move, s rules.Seat, pc rules.Piece, capCell int) {
	chainEP(p, m, s, pc, capCell)
}

// Unmade restores them (unchainEP).
func (h *Chess4Hook) Unmade(p *rules.Position) { unchainEP(p) }

// HashInto adds the deferred rights to a repetition hash.
func (h *Chess4Hook) HashInto(p *rules.Position, hs hash.Hash64) { hashDeferred(p, hs) }
