package rules

// The four-player chess essay's games (configs/variants/essay-partners.yaml,
// essay-ffa.yaml, essay-partners-swap.yaml, essay-partners-alternate.yaml;
// the Russian fortress, russian-fortress.yaml, plays by the same mode):
// the hook of mode last_standing. It owns the essay's end of turn (a side
// with no seat left loses; a seat that is not yet reduced must move even
// into check, and is out only when its king is captured; a reduced seat
// is mated or stalemated as in chess), and the two optional rules: the
// partner pawn swap (EssayOptions.PartnerPawnSwap) and the alternate rule, a
// partner inheriting the army (EssayOptions.PartnerInheritsArmy; the core's
// mechanics for an army played by another seat are in armies.go). The
// hook generates the swaps (PieceMoves), labels them (Move.IsSwap) and
// plays the exchanging swap itself (MakeMove, UnmakeMove).

// EssayOptions are the four-player chess essay's two optional rules
// (keys options.partner_pawn_swap, options.partner_inherits_army),
// read by the Essay hook. Both concern partners: a variant without
// partnerships rejects them.
type EssayOptions struct {
	// PartnerPawnSwap: "a Pawn may move in the manner it would normally
	// move in to capture a Pawn belonging to its partner's team, but
	// instead of being captured, that Pawn will either exchange places
	// with the "capturing" Pawn, being placed on the square from which it
	// started its move, or, in the case of en passant capture, simply
	// remain undisturbed without moving." Off: partners' pawns block.
	PartnerPawnSwap bool
	// PartnerInheritsArmy, the essay's "alternate rule": "when the first
	// player of a partnership is defeated by the capture of the King …,
	// only the King is removed from the board, and the remaining pieces of
	// that player are added to the forces of the other player of the
	// partnership", who moves them on his turns; the defeated seat has no
	// turn. Off: the army goes as KingCaptureRemovesArmy or greying says.
	PartnerInheritsArmy bool
}

// readEssayOptions reads EssayOptions from a variant file and refuses them
// where no seats are partners.
func readEssayOptions(src OptionSource, _ *Variant) (any, error) {
	var o EssayOptions
	if err := boolOptions(src, boolKey{"options.partner_pawn_swap", &o.PartnerPawnSwap},
		boolKey{"options.partner_inherits_army", &o.PartnerInheritsArmy}); err != nil {
		return nil, err
	}
	if (o.PartnerPawnSwap || o.PartnerInheritsArmy) && src.Partnerships() == [NumSeats]uint8{} {
		key := "options.partner_pawn_swap"
		if o.PartnerInheritsArmy {
			key = "options.partner_inherits_army"
		}
		return nil, src.Errorf(key, "the rule is about partners, and this variant has none (partners: [])")
	}
	return o, nil
}

// essay returns the variant's EssayOptions.
func (v *Variant) essay() EssayOptions { return HookOptions[EssayOptions](v) }

func init() {
	registerOptions(readEssayOptions)
	registerHook(func(v *Variant) Hook {
		if v.Mode != LastStanding && !v.essay().PartnerPawnSwap && !v.essay().PartnerInheritsArmy {
			return nil
		}
		return &Essay{v: v}
	})
}

// Essay is the hook of the essay's games.
type Essay struct {
	HookBase
	v *Variant
}

// ID returns "essay".
func (*Essay) ID() string { return "essay" }

// Provides names what the variant's data asks for.
func (h *Essay) Provides(b byte) bool {
	v := h.v
	switch b {
	case OnPieceMoves, OnMakeMove:
		return v.essay().PartnerPawnSwap
	case OnSettle, OnMustMove:
		return v.Mode == LastStanding
	case OnRead:
		return v.essay().PartnerInheritsArmy
	}
	return false
}

// Compile switches on the core's inherited armies for the alternate rule.
func (h *Essay) Compile(v *Variant) error {
	v.inheritance = v.essay().PartnerInheritsArmy
	return nil
}

// PieceMoves adds a pawn's swaps with its partners' pawns before its
// ordinary moves.
func (h *Essay) PieceMoves(p *Position, moves []Move, c int, pc Piece, anyEP bool) ([]Move, bool) {
	if pc.Kind() == Pawn && h.v.essay().PartnerPawnSwap {
		moves = p.swapMoves(moves, c, pc.Seat(), anyEP)
	}
	return moves, false
}

// Read restores the inheritances a FEN4 shows (a seat written eliminated
// with live pieces and no king).
func (h *Essay) Read(p *Position) { p.readHeirs() }

// MustMove: a seat not yet reduced must still move.
func (h *Essay) MustMove(g *Game, s Seat) bool { return !g.reduced(s) }

// Settle applies the essay's rules after a turn: a side with no seat left
// loses; a reduced seat with no legal move is checkmated (out) or
// stalemated (draw); a seat that is not reduced must move anyway.
func (h *Essay) Settle(g *Game, mover Seat, rec *Record) bool {
	p := g.pos
	mated := false
	for changed := true; changed && g.result == nil; {
		changed = false
		var sides []Seat
		for s := Seat(0); s < NumSeats; s++ {
			if g.status[s] == Playing && (len(sides) == 0 || !g.sameSide(s, sides)) {
				sides = append(sides, s)
			}
		}
		if len(sides) == 1 {
			g.end("last side standing", g.sideOf(sides[0]))
			return mated
		}
		s := p.turn
		if g.status[s] != Playing || g.hasMoves(s) || !g.reduced(s) {
			if g.status[s] == Playing && !g.hasMoves(s) && len(p.PseudoLegal(nil)) == 0 {
				p.turn = p.nextSeat(s) // not even a move into check: pass
				changed = true
			}
			continue
		}
		if !p.InCheck(s) {
			g.status[s] = Stalemated
			g.end("stalemate", nil)
			return mated
		}
		g.knockOut(rec, s, Mated)
		g.v.hook(OnMated).Mated(g, s)
		mated = true
		changed = true
	}
	if g.result == nil {
		g.checkDraws(rec)
	}
	return mated
}

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

// The essay hook's labels on the swaps it generates (hookMove).
const (
	// swapExchange: the two pawns exchange squares; the hook plays it
	// (MakeMove).
	swapExchange uint8 = 1 + iota
	// swapPass: the en passant form, the partner's pawn stays where it is;
	// Make plays it as an ordinary move onto the empty square.
	swapPass
)

// IsSwap reports whether m is the essay's partner pawn swap (a pawn
// "captures" a partner's pawn, which takes its square instead), and whether
// it is the en passant form, where the partner's pawn stays put.
func (m Move) IsSwap() (swap, enPassant bool) {
	l := m.hookLabel()
	return l == swapExchange || l == swapPass, l == swapPass
}

// MakeMove plays an exchanging swap (Make has filled u).
func (h *Essay) MakeMove(p *Position, m Move, u Undo) Undo { return p.makeSwap(m, u) }

// UnmakeMove takes back MakeMove.
func (h *Essay) UnmakeMove(p *Position, m Move, u Undo) { p.unmakeSwap(m, u) }

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
				moves = p.addSwap(moves, c, t, s, swapPass)
			}
		case q.Kind() == Pawn && !q.Dead() && q&Wall == 0 && v.Partners(s, q.Seat()) && !v.promoCell[q.Seat()][c]:
			moves = p.addSwap(moves, c, t, s, swapExchange)
		}
	}
	return moves
}

// addSwap appends the swap c→t of a pawn of seat s, labelled kind, one
// per promotion kind when t is one of s's promotion squares.
func (p *Position) addSwap(moves []Move, c, t int, s Seat, kind uint8) []Move {
	if !p.v.promoCell[s][t] {
		return append(moves, hookMove(c, t, NoKind, kind == swapExchange, kind))
	}
	for _, k := range p.v.Promotions {
		moves = append(moves, hookMove(c, t, k, kind == swapExchange, kind))
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
