package rules

// The four-player chess essay's two optional rules (seeds:
// four-player-chess-essay.txt), switched on by Options.PartnerPawnSwap and
// Options.PartnerInheritsArmy. Everything here is off the chess.com
// variants' paths: movegen.go and position.go call in only behind those
// flags (or, for Make, on a move flag only a swap carries).

// ---- The partner pawn swap ------------------------------------------------
//
// "a Pawn may move in the manner it would normally move in to capture a
// Pawn belonging to its partner's team, but instead of being captured,
// that Pawn will either exchange places with the "capturing" Pawn, being
// placed on the square from which it started its move, or, in the case of
// en passant capture, simply remain undisturbed without moving."
//
// Interpretations:
//   - The mover's pawn lands where a capture would: it promotes there if
//     the square is one of its promotion squares (one move per kind).
//   - A swap that would put the partner's pawn on one of its own promotion
//     squares is not offered: the text has the partner's pawn "placed", not
//     promoted, and a pawn left unpromoted on its last square has no rule.
//   - A swap may leave the partner's king in check (as any move that opens
//     a line may); the mover's own king decides legality as for any move.

// swapMoves appends the swaps of the pawn of seat s on cell c: onto a
// partner's live pawn diagonally forward, or onto the empty square a
// partner's pawn skipped with its double step on the turn just past.
func (p *Position) swapMoves(moves []Move, c int, s Seat, anyEP bool) []Move {
	v := p.v
	fwdDir := int(v.Seats[s].Forward)
	walls := v.Geometry.hasWalls
	blocked := &v.Geometry.blocked
	for _, di := range pawnDiag[fwdDir] {
		if walls && blocked[c]&(1<<di) != 0 {
			continue
		}
		t := c + dirDelta[di]
		q := p.board[t]
		switch {
		case q == NoPiece:
			if anyEP && p.swapPassable(t, s) {
				moves = p.addSwap(moves, c, t, s, flagSwapPass)
			}
		case q.Kind() == Pawn && !q.Dead() && q&Wall == 0 && v.Partners(s, q.Seat()) && !v.promoCell[q.Seat()][c]:
			moves = p.addSwap(moves, c, t, s, flagSwap)
		}
	}
	return moves
}

// addSwap appends the swap c→t of a pawn of seat s, one per promotion
// kind when t is one of s's promotion squares.
func (p *Position) addSwap(moves []Move, c, t int, s Seat, flag int) []Move {
	if !p.v.promoCell[s][t] {
		return append(moves, newMove(c, t, NoKind, flag))
	}
	for _, k := range p.v.Promotions {
		moves = append(moves, newMove(c, t, k, flag))
	}
	return moves
}

// swapPassable reports whether a pawn of seat s may "capture" en passant
// onto the empty cell t: a partner's pawn skipped t with its double step
// and still stands where it landed. Entries of the seat to move are its
// own from its last turn and have expired.
func (p *Position) swapPassable(t int, s Seat) bool {
	for e := Seat(0); e < NumSeats; e++ {
		en := p.ep[e]
		if int(en.target) != t || e == s || e == p.turn {
			continue
		}
		vic := p.board[en.pawn]
		if vic.Kind() == Pawn && !vic.Dead() && (vic.Seat() == e || p.inheritedPawn(vic, e)) && p.v.Partners(s, vic.Seat()) {
			return true
		}
	}
	return false
}

// makeSwap plays an exchanging swap (Make has saved u): the mover's pawn
// goes to the partner's pawn's square, promoting there if it may, and the
// partner's pawn to the mover's square. Nothing is captured.
func (p *Position) makeSwap(m Move, u Undo) Undo {
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

// unmakeSwap takes back makeSwap.
func (p *Position) unmakeSwap(m Move, u Undo) {
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

// ---- The alternate rule: the partner inherits the army ---------------------
//
// "when the first player of a partnership is defeated by the capture of
// the King …, only the King is removed from the board, and the remaining
// pieces of that player are added to the forces of the other player of
// the partnership. Subsequently, the remaining players play in their
// turns, and defeated players do not have a turn; therefore, when one
// player's King is removed from the board, the other player of that
// partnership may either move one of his own pieces, or one of those of
// his defeated partner."
//
// The kingless seat w keeps its pieces (live, with their own pawn
// directions and promotion squares) and Position.heir[w] names the
// partner who moves them. w is not "out" (its pieces still attack and
// may be captured), but it has no turn (nextSeat skips it). A double step
// by an inherited pawn is recorded under the partner's en-passant entry,
// so it expires when the partner moves again. In FEN4 the seat is written
// eliminated with live (not 'd') pieces; reading such a seat back in a
// variant with the rule restores the inheritance.

// commands reports whether seat s moves an inherited army.
func (p *Position) commands(s Seat) bool {
	for w := Seat(0); w < NumSeats; w++ {
		if p.heir[w] == uint8(s)+1 {
			return true
		}
	}
	return false
}

// Heir returns the seat that moves seat w's army after w's king was
// captured under the alternate rule, if any.
func (p *Position) Heir(w Seat) (Seat, bool) {
	if w >= NumSeats || p.heir[w] == 0 {
		return NoSeat, false
	}
	return Seat(p.heir[w] - 1), true
}

// inheritedMoves appends the moves of the armies seat s inherited.
func (p *Position) inheritedMoves(moves []Move, s Seat, anyEP bool) []Move {
	for w := Seat(0); w < NumSeats; w++ {
		if p.heir[w] != uint8(s)+1 {
			continue
		}
		for _, c16 := range p.plist[w][:p.pcount[w]] {
			if pc := p.board[c16]; pc&deadFlag == 0 {
				moves = p.pieceMoves(moves, int(c16), pc, w, anyEP)
			}
		}
	}
	return moves
}

// inheritedPawn reports whether vic is a live pawn of an army seat e
// inherited (its double step is entered under e).
func (p *Position) inheritedPawn(vic Piece, e Seat) bool {
	return vic.Kind() == Pawn && !vic.Dead() && p.heir[vic.Seat()] == uint8(e)+1
}

// heirFor returns the partner who would inherit seat e's army were its
// king captured now: one still playing with its king and no army of its
// own inherited yet. Without the rule, or with none, NoSeat.
func (p *Position) heirFor(e Seat) Seat {
	if !p.v.Options.PartnerInheritsArmy {
		return NoSeat
	}
	for t := Seat(0); t < NumSeats; t++ {
		if p.v.Partners(e, t) && !p.out[t] && p.heir[t] == 0 && p.king[t] != 0 && t != e {
			return t
		}
	}
	return NoSeat
}

// inherits reports whether seat e, whose king has just been captured,
// keeps its army on the board for a partner (so the capture's legality is
// judged with that army still attacking).
func (p *Position) inherits(e Seat) bool { return p.heirFor(e) != NoSeat }

// readHeirs restores inheritances after FEN4 is read: in a variant with
// the rule, a seat marked eliminated with no king but live pieces belongs
// to its partner still playing.
func (p *Position) readHeirs() {
	if !p.v.Options.PartnerInheritsArmy {
		return
	}
	for w := Seat(0); w < NumSeats; w++ {
		if !p.out[w] || p.king[w] != 0 {
			continue
		}
		live := false
		for _, c := range p.plist[w][:p.pcount[w]] {
			live = live || !p.board[c].Dead()
		}
		if t := p.heirFor(w); live && t != NoSeat {
			p.out[w], p.heir[w] = false, uint8(t)+1
		}
	}
}

// inherit applies the alternate rule when seat e's king has just been
// captured: its partner takes the army and e loses its turns. It reports
// false (nothing done) when the rule is off or no partner plays on.
func (g *Game) inherit(e Seat) bool {
	p := g.pos
	t := p.heirFor(e)
	if t == NoSeat || g.status[t] != Playing {
		return false
	}
	g.status[e] = KingCaptured
	p.heir[e] = uint8(t) + 1
	p.castle[e] = 0
	p.ep[e] = epEntry{}
	if p.turn == e {
		p.turn = p.nextSeat(e)
	}
	return true
}

// releaseWards is called when seat s is eliminated: an army s inherited
// goes with it (its side is then out).
func (g *Game) releaseWards(s Seat) {
	p := g.pos
	for w := Seat(0); w < NumSeats; w++ {
		if p.heir[w] == uint8(s)+1 {
			p.heir[w] = 0
			p.out[w] = true
			g.greyArmy(w, false)
		}
	}
}
