// Package verney is Capt. Verney's four-handed chess (1881; configs/variants/verney.yaml):
// its hook, a package of its own that registers itself in init
// (rules/shipped links it in). It owns:
//   - the leap over a partner's pawn (Options.PawnLeap) and the pawns'
//     moves once they turn round (Options.PawnReversal: "When a Pawn has
//     attained either one of the ultimate squares of the board, belonging
//     to a partner, such Pawn remains there as a Pawn, and moves back
//     again as a Pawn … Should such Pawn return to the line from which it
//     originally started, it moves forward again"). Where a pawn turns is
//     seat data (SeatRules.Reverse, Resume) that Make applies in the core
//     (a reversed pawn is written 'v' in FEN4);
//   - the partner's king (Options.GuardPartnerKing): a move may not open
//     the partner's king to a check;
//   - inert mates (Options.InertMates): a mated army stays on the board,
//     inert and not capturable; it is released when its mate no longer
//     holds (its king out of check, or in check with a move again). Kings
//     are never captured;
//   - the refusals that quote those rules, and the end of turn.

package verney

import (
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Options are verney.yaml's rules (keys pawn_reversal, pawn_leap,
// guard_partner_king, inert_mates), read by the Verney hook.
type Options struct {
	// PawnReversal: "When a Pawn has attained either one of the ultimate
	// squares of the board, belonging to a partner, such Pawn remains there
	// as a Pawn, and moves back again as a Pawn … Should such Pawn return
	// to the line from which it originally started, it moves forward
	// again" (SeatRules.Reverse and Resume); a reversed pawn captures in
	// its reversed direction.
	PawnReversal bool
	// PawnLeap: a pawn whose next square holds a partner's pawn may "leap
	// over the friendly Pawn, and place themselves in their move on the
	// square beyond".
	PawnLeap bool
	// GuardPartnerKing: "No player is allowed to move a Piece or Pawn,
	// which move would open his partner's King to a check from either of
	// his adversaries".
	GuardPartnerKing bool
	// InertMates: a checkmate is judged as soon as it stands; the mated
	// army stays on the board "inert and useless, both for attack and
	// defence … not liable to capture by the adversaries", the seat misses
	// its turns until a move lifts the mate (Verney.mated: the check, or
	// a guard of a flight square, taken or moved), which releases it;
	// kings are never captured; the game is won when both partners are
	// mated (game layer: Verney.settle).
	InertMates bool
}

// readOptions reads Options from a variant file.
func readOptions(src rules.OptionSource, _ *rules.Variant) (any, error) {
	var o Options
	err := rules.ReadBools(src, rules.BoolKey{Key: "pawn_reversal", Field: &o.PawnReversal}, rules.BoolKey{Key: "pawn_leap", Field: &o.PawnLeap},
		rules.BoolKey{Key: "guard_partner_king", Field: &o.GuardPartnerKing}, rules.BoolKey{Key: "inert_mates", Field: &o.InertMates})
	return o, err
}

func init() {
	rules.RegisterOptions(readOptions)
	rules.RegisterHook(func(v *rules.Variant) rules.Hook {
		o := rules.HookOptions[Options](v)
		if o == (Options{}) {
			return nil
		}
		return &Verney{v: v, o: o}
	})
}

// Verney is the hook of verney.yaml.
type Verney struct {
	rules.HookBase
	v *rules.Variant
	o Options
}

// ID returns "verney".
func (*Verney) ID() string { return "verney" }

// Provides names what the variant's data asks for.
func (h *Verney) Provides(b byte) bool {
	switch b {
	case rules.OnPieceMoves:
		return h.o.PawnReversal || h.o.PawnLeap
	case rules.OnLegalMoves, rules.OnRefuse:
		return h.o.GuardPartnerKing || h.o.InertMates
	case rules.OnSettle:
		return h.o.InertMates
	}
	return false
}

// Compile checks the rules' needs and adds the reversed pawns' attacks.
func (h *Verney) Compile(v *rules.Variant) error { return h.compile(v) }

// PieceMoves generates a pawn's moves: forward or, reversed, back; the
// leap; captures in its direction.
func (h *Verney) PieceMoves(p *rules.Position, moves []rules.Move, c int, pc rules.Piece, _ bool) ([]rules.Move, bool) {
	if pc.Kind() != rules.Pawn {
		return moves, false
	}
	return h.pawnMoves(p, moves, c, pc.Seat()), true
}

// LegalMoves drops the moves Verney's rules forbid (filter).
func (h *Verney) LegalMoves(p *rules.Position, moves []rules.Move) []rules.Move {
	return moves[:h.filter(p, moves)]
}

// Refuse says which of Verney's rules refuses the pseudo-legal move m.
func (h *Verney) Refuse(p *rules.Position, m rules.Move) string { return h.why(p, m) }

// Settle applies Verney's end of turn (settle).
func (h *Verney) Settle(g *rules.Game, mover rules.Seat, rec *rules.Record) bool {
	return h.settle(g, mover, rec)
}

// compile checks that the board and kings suit Verney's rules and
// adds the reversed pawns' attacks to the attack tables.
func (h *Verney) compile(v *rules.Variant) error {
	if v.HasWalls() {
		return fmt.Errorf("variant %s: pawn reversal, leaps, the partner's-king rule and inert mates are not supported on a board with barriers", v.Name)
	}
	if v.OrdinaryKings || v.KingCaptureGreys {
		return fmt.Errorf("variant %s: inert mates and the partner's-king rule need royal kings that are never captured", v.Name)
	}
	if h.o.PawnReversal {
		// A reversed pawn attacks diagonally in its reversed direction.
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			for e := rules.Seat(0); e < rules.NumSeats; e++ {
				if !v.Checks[e][s] {
					continue
				}
				for _, d := range v.Seats[e].Forward.Opposite().PawnCaptureSteps() {
					if err := v.AddPawnAttack(s, -d, rules.MakePiece(e, rules.Pawn).WithReversed()); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// pawnMoves appends the moves of the pawn on cell c: one step in
// its direction (forward, or back when reversed), the leap over a
// partner's pawn, and diagonal captures in its direction.
//
// "In every such case, they are allowed to leap over the friendly Pawn,
// and place themselves in their move on the square beyond; always
// preserving their forward or backward progression, as the case may be;
// but never leaving their file, save to take a Piece or another Pawn."
func (h *Verney) pawnMoves(p *rules.Position, moves []rules.Move, c int, s rules.Seat) []rules.Move {
	v := h.v
	dir := v.PawnDir(p.OnCell(c))
	fwd := dir.Step()
	t := c + fwd
	switch q := p.OnCell(t); {
	case q == rules.NoPiece:
		moves = p.AddPawnMove(moves, c, t, s)
	case h.o.PawnLeap && q&rules.Wall == 0 && q.Kind() == rules.Pawn && v.Partners(s, q.Seat()) && p.OnCell(t+fwd) == rules.NoPiece:
		moves = p.AddPawnMove(moves, c, t+fwd, s)
	}
	for _, d := range dir.PawnCaptureSteps() {
		t := c + d
		if q := p.OnCell(t); q != rules.NoPiece && v.Captures(s, q) {
			moves = p.AddPawnMove(moves, c, t, s)
		}
	}
	return moves
}

// filter keeps the moves of the side to move that Verney's rules
// allow, compacting them in place, and returns how many remain:
//
//   - no king is captured, and no piece of a mated (inert) army: "they are
//     not liable to capture by the adversaries";
//   - "No player is allowed to move a Piece or Pawn, which move would open
//     his partner's King to a check from either of his adversaries";
//   - a move that releases a mated army leaves neither the mover's king nor
//     (newly) the partner's king attacked by the pieces that regain life.
func (h *Verney) filter(p *rules.Position, moves []rules.Move) int {
	v := h.v
	s := p.Turn()
	pt := v.Partner(s)
	guard := h.o.GuardPartnerKing && pt != rules.NoSeat && !p.Eliminated(pt) && p.KingCell(pt) != 0
	anyOut := h.o.InertMates && p.OutSeats() != [rules.NumSeats]bool{}
	n := 0
	for _, m := range moves {
		to := m.ToCell()
		if q := p.OnCell(to); h.o.InertMates && q != rules.NoPiece && (q.Kind() == rules.King || p.Eliminated(q.Seat())) {
			continue
		}
		if guard && h.opensLine(p, m.FromCell(), to, p.KingCell(pt), pt) {
			continue
		}
		if anyOut && !h.releaseSafe(p, m) {
			continue
		}
		moves[n] = m
		n++
	}
	return n
}

// opensLine reports whether moving a piece from cell from to cell to
// uncovers an attack on the king of seat ks on cell k: from lies on a
// queen line out of k with nothing between them, and beyond from (before
// to, where the mover now stands) the first piece is a live slider that
// checks ks along that line.
func (h *Verney) opensLine(p *rules.Position, from, to, k int, ks rules.Seat) bool {
	step, ok := rules.LineStep(k, from)
	if !ok {
		return false
	}
	for t := k + step; t != from; t += step {
		if t == to || p.OnCell(t) != rules.NoPiece {
			return false
		}
	}
	diag := step != 1 && step != -1 && step != rules.CellStride && step != -rules.CellStride
	for t := from + step; ; t += step {
		if t == to {
			return false
		}
		q := p.OnCell(t)
		if q == rules.NoPiece {
			continue
		}
		if !h.v.AttacksKing(ks, q) || p.Eliminated(q.Seat()) {
			return false
		}
		kd := q.Kind()
		return kd == rules.Queen || (kd == rules.Rook && !diag) || (kd == rules.Bishop && diag)
	}
}

// releaseSafe makes m and reports whether, with the mated armies it
// releases brought back to life, the mover's king is safe and the
// partner's king is not newly in check.
func (h *Verney) releaseSafe(p *rules.Position, m rules.Move) bool {
	_, hit, _ := h.releaseHarm(p, m, false)
	return hit == rules.NoSeat
}

// releaseHarm makes m and returns the seats whose mated armies m releases
// (mated: their mate no longer holds) and the seat (the mover, or
// its partner newly) whose king the released pieces would then attack
// (NoSeat if none), with that king's square. Unless list is set, released
// is left empty when nothing is hit.
func (h *Verney) releaseHarm(p *rules.Position, m rules.Move, list bool) (released []rules.Seat, hit rules.Seat, at square.Square) {
	s := p.Turn()
	pt := h.v.Partner(s)
	watch := pt != rules.NoSeat && !p.Eliminated(pt) && p.KingCell(pt) != 0
	partnerBefore := watch && p.InCheck(pt)
	u := p.Make(m)
	saved := p.OutSeats()
	hits := func() rules.Seat {
		switch {
		case p.InCheck(s):
			return s
		case watch && !partnerBefore && p.InCheck(pt):
			return pt
		}
		return rules.NoSeat
	}
	// Live armies attack more, never less: when no king is hit with every
	// mated army alive, none is hit by those m really releases, and the
	// costlier question (does each mate still hold?) need not be asked.
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		if saved[e] && p.KingCell(e) != 0 {
			p.SetOut(e, false)
		}
	}
	hit = rules.NoSeat
	if p.OutSeats() != saved {
		hit = hits()
	}
	p.SetOutSeats(saved)
	if hit != rules.NoSeat || list {
		for e := rules.Seat(0); e < rules.NumSeats; e++ {
			if saved[e] && p.KingCell(e) != 0 && !h.mated(p, e) {
				released = append(released, e)
			}
		}
		for _, e := range released {
			p.SetOut(e, false)
		}
		hit = rules.NoSeat
		if len(released) > 0 {
			hit = hits()
		}
		if hit != rules.NoSeat {
			at = rules.SquareOf(p.KingCell(hit))
		}
		p.SetOutSeats(saved)
	}
	p.Unmake(m, u)
	return released, hit, at
}

// mated reports whether the mate of seat e, whose army is inert,
// still holds: with its army alive, its king is in check and it has no
// legal move. "A partner may at any time, if he can, release from
// checkmate the party who is mated, by either capturing the Pieces of his
// adversaries which hold the checkmate, or by forcing these Pieces to move
// in such a way as to release his partner from that predicament": the
// pieces that hold a checkmate are those that give the check and those
// that guard the king's flight squares, so capturing or driving away
// either releases it, as does lifting the check itself.
func (h *Verney) mated(p *rules.Position, e rules.Seat) bool {
	wasOut := p.Eliminated(e)
	p.SetOut(e, false)
	mated := p.InCheck(e)
	if mated {
		saved := p.Turn()
		p.SetTurn(e)
		var buf [256]rules.Move
		mated = len(p.LegalMoves(buf[:0])) == 0
		p.SetTurn(saved)
	}
	p.SetOut(e, wasOut)
	return mated
}

// why says which of Verney's rules refuses the pseudo-legal move m
// (filter's reasons, in its order), or "" if none does.
func (h *Verney) why(p *rules.Position, m rules.Move) string {
	v := h.v
	s := p.Turn()
	to := m.ToCell()
	if q := p.OnCell(to); h.o.InertMates && q != rules.NoPiece {
		e, at := q.Seat(), rules.SquareOf(to)
		switch {
		case q.Kind() == rules.King:
			return fmt.Sprintf("%s's king on %s may not be captured: kings are never taken in this game, a king with no escape is checkmated", e, at)
		case p.Eliminated(e):
			why := fmt.Sprintf("%s's %s on %s belongs to a checkmated army: \"they are not liable to capture by the adversaries\"", e, rules.KindName(q.Kind()), at)
			if released, _, _ := h.releaseHarm(p, m, true); len(released) > 0 {
				why += ", and a move that releases the mate may not \"take any of the Pieces or Pawns of the adversary so released\""
			}
			return why
		}
	}
	if pt := v.Partner(s); h.o.GuardPartnerKing && pt != rules.NoSeat && !p.Eliminated(pt) && p.KingCell(pt) != 0 && h.opensLine(p, m.FromCell(), to, p.KingCell(pt), pt) {
		return fmt.Sprintf("it would open %s's king on %s (%s's partner) to a check: \"No player is allowed to move a Piece or Pawn, which move would open his partner's King to a check\"", pt, rules.SquareOf(p.KingCell(pt)), s)
	}
	if h.o.InertMates && p.OutSeats() != [rules.NumSeats]bool{} {
		if released, hit, at := h.releaseHarm(p, m, true); hit != rules.NoSeat {
			names := make([]string, len(released))
			for i, e := range released {
				names[i] = e.String()
			}
			return fmt.Sprintf("it releases %s from checkmate, and the released pieces (\"regain life, resume their functions\") would attack %s's king on %s", strings.Join(names, " and "), hit, at)
		}
	}
	return ""
}

// settle applies Verney's rules after a turn by seat mover:
//
//   - a mated army whose mate no longer holds (mated) is released ("The
//     Pieces of the partner thus released regain life, resume their
//     functions, and he moves again in his regular turn");
//   - a seat still playing whose king is in check and that has no legal
//     move is checkmated at once, whoever's turn it is: its army turns
//     inert and it misses its turns;
//   - "The game is only won when two of the partners are checkmated";
//   - a seat with no legal move on its turn (not in check) passes while
//     its partner can still move; when the partner is checkmated or cannot
//     move either, the game is drawn: "Should one be checkmated, and the
//     other be stalemated, the game is drawn, as if both were stalemated."
//
// It reports whether a seat was checkmated (the move's text gets '#').
func (h *Verney) settle(g *rules.Game, mover rules.Seat, rec *rules.Record) bool {
	p := g.LivePosition()
	mated := false
	for round := 0; round < 2*rules.NumSeats; round++ {
		changed := false
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			if g.Status(s) == rules.Mated && p.KingCell(s) != 0 && !h.mated(p, s) {
				g.SetStatus(s, rules.Playing)
				p.SetOut(s, false)
				changed = true
			}
		}
		for _, s := range h.v.Order {
			if g.Status(s) == rules.Playing && p.InCheck(s) && !g.HasMoves(s) {
				g.SetStatus(s, rules.Mated)
				p.SetOut(s, true)
				p.ClearEnPassant(s)
				if rec != nil {
					rec.Out = append(rec.Out, s)
				}
				mated, changed = true, true
			}
		}
		if !changed {
			break
		}
	}
	// The next seat in rotation that is not mated moves: a seat released
	// by this move takes its regular turn.
	if rec != nil && rec.Action == rules.ActMove {
		p.SetTurn(p.NextSeat(mover))
	} else if p.Eliminated(p.Turn()) {
		p.SetTurn(p.NextSeat(p.Turn()))
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		all := true
		for _, t := range g.SideOf(s) {
			all = all && g.Status(t) == rules.Mated
		}
		if all {
			g.End("checkmate", g.SideOf(g.OpponentOf(s)))
			return mated
		}
	}
	for i := 0; i < rules.NumSeats; i++ {
		s := p.Turn()
		if g.HasMoves(s) {
			break
		}
		pt := h.v.Partner(s)
		if pt == rules.NoSeat || g.Status(pt) != rules.Playing || !g.HasMoves(pt) {
			g.SetStatus(s, rules.Stalemated)
			g.End("stalemate", nil)
			return mated
		}
		p.SetTurn(p.NextSeat(s)) // stalemated while the partner can move: pass
	}
	g.CheckDraws(rec)
	return mated
}
