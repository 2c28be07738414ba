package rules

// Armies played by another seat: the core's mechanics for an army whose
// seat has lost its king but whose pieces play on, moved by a partner
// (Position.heir). The essay's alternate rule (package rules/essay,
// variant essay-partners-alternate) switches it on from its hook's
// Compile (Variant.EnableInheritance, which sets Variant.inheritance);
// nothing here runs otherwise (the generator asks only when a position
// has an heir).
//
// The rule's text:
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
	if !p.v.inheritance {
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
	if !p.v.inheritance {
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
