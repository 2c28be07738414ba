// Package essay is the four-player chess essay's games
// (configs/variants/essay-partners.yaml, essay-ffa.yaml,
// essay-partners-swap.yaml, essay-partners-alternate.yaml; the Russian
// fortress, russian-fortress.yaml, plays by the same mode) as a hook of
// package rules: the hook of mode last_standing, registered in init
// (rules/shipped links it in). It owns the essay's end of turn (a side
// with no seat left loses; a seat that is not yet reduced must move even
// into check, and is out only when its king is captured; a reduced seat
// is mated or stalemated as in chess), and the two optional rules: the
// partner pawn swap (Options.PartnerPawnSwap) and the alternate rule, a
// partner inheriting the army (Options.PartnerInheritsArmy; the core's
// mechanics for an army played by another seat are in rules/armies.go,
// switched on with Variant.EnableInheritance). The hook generates the
// swaps (PieceMoves, rules.NewSwap; the core's move form, Move.IsSwap)
// and plays the exchanging swap itself (MakeMove, Position.MakeSwap).
package essay

import (
	"boardd/rules"
	"boardd/rules/square"
)

// LastStanding is the mode of the essay's games and the Russian fortress
// (mode: last_standing): partnerships (or everyone alone) play until one
// side is left. While a seat is not yet reduced (its partner still plays;
// in a game of singles, more than two remain) a mated or stalemated seat
// must still move, even into check, and a seat is out only when its king
// is captured; once reduced, normal checkmate puts it out and stalemate
// draws.
var LastStanding = rules.RegisterMode("last_standing", "LastStanding")

// Options are the four-player chess essay's two optional rules (keys
// options.partner_pawn_swap, options.partner_inherits_army), read by the
// Essay hook. Both concern partners: a variant without partnerships
// rejects them.
type Options struct {
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

// readOptions reads Options from a variant file and refuses them where no
// seats are partners.
func readOptions(src rules.OptionSource, _ *rules.Variant) (any, error) {
	var o Options
	if err := rules.ReadBools(src, rules.BoolKey{Key: "options.partner_pawn_swap", Field: &o.PartnerPawnSwap},
		rules.BoolKey{Key: "options.partner_inherits_army", Field: &o.PartnerInheritsArmy}); err != nil {
		return nil, err
	}
	if (o.PartnerPawnSwap || o.PartnerInheritsArmy) && src.Partnerships() == [rules.NumSeats]uint8{} {
		key := "options.partner_pawn_swap"
		if o.PartnerInheritsArmy {
			key = "options.partner_inherits_army"
		}
		return nil, src.Errorf(key, "the rule is about partners, and this variant has none (partners: [])")
	}
	return o, nil
}

func init() {
	rules.RegisterOptions(readOptions)
	rules.RegisterHook(func(v *rules.Variant) rules.Hook {
		o := rules.HookOptions[Options](v)
		if v.Mode != LastStanding && !o.PartnerPawnSwap && !o.PartnerInheritsArmy {
			return nil
		}
		return &Essay{v: v, o: o}
	})
}

// Essay is the hook of the essay's games.
type Essay struct {
	rules.HookBase
	v *rules.Variant
	o Options
}

// ID returns "essay".
func (*Essay) ID() string { return "essay" }

// Provides names what the variant's data asks for.
func (h *Essay) Provides(b byte) bool {
	switch b {
	case rules.OnPieceMoves, rules.OnMakeMove:
		return h.o.PartnerPawnSwap
	case rules.OnSettle, rules.OnMustMove:
		return h.v.Mode == LastStanding
	}
	return false
}

// Compile switches on the core's inherited armies for the alternate rule
// (the core then also restores them from FEN4).
func (h *Essay) Compile(v *rules.Variant) error {
	if h.o.PartnerInheritsArmy {
		v.EnableInheritance()
	}
	return nil
}

// PieceMoves adds a pawn's swaps with its partners' pawns before its
// ordinary moves.
func (h *Essay) PieceMoves(p *rules.Position, moves []rules.Move, c int, pc rules.Piece, anyEP bool) ([]rules.Move, bool) {
	if pc.Kind() == rules.Pawn && h.o.PartnerPawnSwap {
		moves = h.swapMoves(p, moves, c, pc.Seat(), anyEP)
	}
	return moves, false
}

// MustMove: a seat not yet reduced must still move.
func (h *Essay) MustMove(g *rules.Game, s rules.Seat) bool { return !g.Reduced(s) }

// Settle applies the essay's rules after a turn: a side with no seat left
// loses; a reduced seat with no legal move is checkmated (out) or
// stalemated (draw); a seat that is not reduced must move anyway.
func (h *Essay) Settle(g *rules.Game, mover rules.Seat, rec *rules.Record) bool {
	p := g.LivePosition()
	mated := false
	over := func() bool { _, done := g.Result(); return done }
	for changed := true; changed && !over(); {
		changed = false
		var sides []rules.Seat
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			if g.Status(s) == rules.Playing && (len(sides) == 0 || !h.sameSide(s, sides)) {
				sides = append(sides, s)
			}
		}
		if len(sides) == 1 {
			g.End("last side standing", g.SideOf(sides[0]))
			return mated
		}
		s := p.Turn()
		if g.Status(s) != rules.Playing || g.HasMoves(s) || !g.Reduced(s) {
			if g.Status(s) == rules.Playing && !g.HasMoves(s) && len(p.PseudoLegal(nil)) == 0 {
				p.SetTurn(p.NextSeat(s)) // not even a move into check: pass
				changed = true
			}
			continue
		}
		if !p.InCheck(s) {
			g.SetStatus(s, rules.Stalemated)
			g.End("stalemate", nil)
			return mated
		}
		g.Checkmate(rec, s)
		mated = true
		changed = true
	}
	if !over() {
		g.CheckDraws(rec)
	}
	return mated
}

// sameSide reports whether s is a partner of one of the seats listed.
func (h *Essay) sameSide(s rules.Seat, seats []rules.Seat) bool {
	for _, t := range seats {
		if h.v.Partners(s, t) {
			return true
		}
	}
	return false
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

// MakeMove plays an exchanging swap (Make has filled u).
func (h *Essay) MakeMove(p *rules.Position, m rules.Move, u rules.Undo) rules.Undo {
	return p.MakeSwap(m, u)
}

// UnmakeMove takes back MakeMove.
func (h *Essay) UnmakeMove(p *rules.Position, m rules.Move, u rules.Undo) { p.UnmakeSwap(m, u) }

// swapMoves appends the swaps of the pawn of seat s on cell c: onto a
// partner's live pawn diagonally forward, or onto the empty square a
// partner's pawn skipped with its double step on the turn just past.
func (h *Essay) swapMoves(p *rules.Position, moves []rules.Move, c int, s rules.Seat, anyEP bool) []rules.Move {
	v := h.v
	for _, d := range v.Seats[s].Forward.PawnCaptureSteps() {
		if v.Walled(c, d) {
			continue
		}
		t := c + d
		q := p.OnCell(t)
		switch {
		case q == rules.NoPiece:
			if anyEP && h.swapPassable(p, t, s) {
				moves = h.addSwap(moves, c, t, s, true)
			}
		case q.Kind() == rules.Pawn && !q.Dead() && q&rules.Wall == 0 && v.Partners(s, q.Seat()) && !v.IsPromotionCell(q.Seat(), c):
			moves = h.addSwap(moves, c, t, s, false)
		}
	}
	return moves
}

// addSwap appends the swap c→t of a pawn of seat s (the en-passant form
// with ep), one per promotion kind when t is one of s's promotion squares.
func (h *Essay) addSwap(moves []rules.Move, c, t int, s rules.Seat, ep bool) []rules.Move {
	if !h.v.IsPromotionCell(s, t) {
		return append(moves, rules.NewSwap(c, t, rules.NoKind, ep))
	}
	for _, k := range h.v.Promotions {
		moves = append(moves, rules.NewSwap(c, t, k, ep))
	}
	return moves
}

// swapPassable reports whether a pawn of seat s may "capture" en passant
// onto the empty cell t: a partner's pawn skipped t with its double step
// and still stands where it landed. Entries of the seat to move are its
// own from its last turn and have expired.
func (h *Essay) swapPassable(p *rules.Position, t int, s rules.Seat) bool {
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		skipped, pawn := p.EnPassant(e)
		if skipped == square.None || rules.CellOf(skipped) != t || e == s || e == p.Turn() {
			continue
		}
		vic := p.At(pawn)
		if vic.Kind() == rules.Pawn && !vic.Dead() && (vic.Seat() == e || inherited(p, vic, e)) && h.v.Partners(s, vic.Seat()) {
			return true
		}
	}
	return false
}

// inherited reports whether vic is a live pawn of an army seat e
// inherited (its double step is entered under e).
func inherited(p *rules.Position, vic rules.Piece, e rules.Seat) bool {
	heir, ok := p.Heir(vic.Seat())
	return ok && heir == e && vic.Kind() == rules.Pawn && !vic.Dead()
}
