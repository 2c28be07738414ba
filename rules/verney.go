package rules

import (
	"fmt"
	"strings"

	"boardd/rules/square"
)

// Capt. Verney's four-handed chess (1881; configs/variants/verney.yaml):
// the variant's hook. It owns:
//   - the leap over a partner's pawn (VerneyOptions.PawnLeap) and the pawns'
//     moves once they turn round (VerneyOptions.PawnReversal: "When a Pawn has
//     attained either one of the ultimate squares of the board, belonging
//     to a partner, such Pawn remains there as a Pawn, and moves back
//     again as a Pawn … Should such Pawn return to the line from which it
//     originally started, it moves forward again"). Where a pawn turns is
//     seat data (SeatRules.Reverse, Resume) that Make applies in the core
//     (a reversed pawn is written 'v' in FEN4, piece.go);
//   - the partner's king (VerneyOptions.GuardPartnerKing): a move may not open
//     the partner's king to a check;
//   - inert mates (VerneyOptions.InertMates): a mated army stays on the board,
//     inert and not capturable; it is released when its mate no longer
//     holds (its king out of check, or in check with a move again). Kings
//     are never captured;
//   - the refusals that quote those rules, and the end of turn.

// VerneyOptions are verney.yaml's rules (keys pawn_reversal, pawn_leap,
// guard_partner_king, inert_mates), read by the Verney hook.
type VerneyOptions struct {
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
	// its turns until a move lifts the mate (verneyMated: the check, or a
	// guard of a flight square, taken or moved), which releases it; kings are never captured; the game is won when both partners
	// are mated (game layer: settleVerney).
	InertMates bool
}

// readVerneyOptions reads VerneyOptions from a variant file.
func readVerneyOptions(src OptionSource, _ *Variant) (any, error) {
	var o VerneyOptions
	err := boolOptions(src, boolKey{"pawn_reversal", &o.PawnReversal}, boolKey{"pawn_leap", &o.PawnLeap},
		boolKey{"guard_partner_king", &o.GuardPartnerKing}, boolKey{"inert_mates", &o.InertMates})
	return o, err
}

// verney returns the variant's VerneyOptions.
func (v *Variant) verney() VerneyOptions { return HookOptions[VerneyOptions](v) }

func init() {
	registerOptions(readVerneyOptions)
	registerHook(func(v *Variant) Hook {
		if !v.verney().PawnReversal && !v.verney().PawnLeap && !v.verney().GuardPartnerKing && !v.verney().InertMates {
			return nil
		}
		return &Verney{v: v}
	})
}

// Verney is the hook of verney.yaml.
type Verney struct {
	HookBase
	v *Variant
}

// ID returns "verney".
func (*Verney) ID() string { return "verney" }

// Provides names what the variant's data asks for.
func (h *Verney) Provides(b byte) bool {
	v := h.v
	switch b {
	case OnPieceMoves:
		return v.verney().PawnReversal || v.verney().PawnLeap
	case OnLegalMoves, OnRefuse:
		return v.verney().GuardPartnerKing || v.verney().InertMates
	case OnSettle:
		return v.verney().InertMates
	}
	return false
}

// Compile checks the rules' needs and adds the reversed pawns' attacks.
func (h *Verney) Compile(v *Variant) error { return v.compileVerney() }

// PieceMoves generates a pawn's moves: forward or, reversed, back; the
// leap; captures in its direction.
func (h *Verney) PieceMoves(p *Position, moves []Move, c int, pc Piece, _ bool) ([]Move, bool) {
	if pc.Kind() != Pawn {
		return moves, false
	}
	return p.verneyPawnMoves(moves, c, pc.Seat()), true
}

// LegalMoves drops the moves Verney's rules forbid (verneyFilter).
func (h *Verney) LegalMoves(p *Position, moves []Move) []Move {
	return moves[:p.verneyFilter(moves)]
}

// Refuse says which of Verney's rules refuses the pseudo-legal move m.
func (h *Verney) Refuse(p *Position, m Move) string { return p.verneyWhy(m) }

// Settle applies Verney's end of turn (settleVerney).
func (h *Verney) Settle(g *Game, mover Seat, rec *Record) bool { return g.settleVerney(mover, rec) }

// compileVerney checks that the board and kings suit Verney's rules and
// adds the reversed pawns' attacks to the attack tables.
func (v *Variant) compileVerney() error {
	if v.Geometry.hasWalls {
		return fmt.Errorf("variant %s: pawn reversal, leaps, the partner's-king rule and inert mates are not supported on a board with barriers", v.Name)
	}
	if v.OrdinaryKings || v.KingCaptureGreys {
		return fmt.Errorf("variant %s: inert mates and the partner's-king rule need royal kings that are never captured", v.Name)
	}
	if v.verney().PawnReversal {
		// A reversed pawn attacks diagonally in its reversed direction.
		for s := Seat(0); s < NumSeats; s++ {
			for e := Seat(0); e < NumSeats; e++ {
				if !v.Checks[e][s] {
					continue
				}
				for _, di := range pawnDiag[opposite[v.Seats[e].Forward]] {
					v.pawnAtk[s][v.pawnAtkN[s]] = pawnAttack{d: -dirDelta[di], pc: MakePiece(e, Pawn).WithReversed()}
					v.pawnAtkN[s]++
				}
			}
		}
	}
	return nil
}

// verneyPawnMoves appends the moves of the pawn on cell c: one step in
// its direction (forward, or back when reversed), the leap over a
// partner's pawn, and diagonal captures in its direction.
//
// "In every such case, they are allowed to leap over the friendly Pawn,
// and place themselves in their move on the square beyond; always
// preserving their forward or backward progression, as the case may be;
// but never leaving their file, save to take a Piece or another Pawn."
func (p *Position) verneyPawnMoves(moves []Move, c int, s Seat) []Move {
	v := p.v
	dir := v.pawnDir(p.board[c])
	fwd := dirDelta[dir]
	capTab := &v.capTab[s]
	t := c + fwd
	switch q := p.board[t]; {
	case q == NoPiece:
		moves = p.addPawnMove(moves, c, t, s)
	case v.verney().PawnLeap && q&Wall == 0 && q.Kind() == Pawn && v.Partners(s, q.Seat()) && p.board[t+fwd] == NoPiece:
		moves = p.addPawnMove(moves, c, t+fwd, s)
	}
	for _, di := range pawnDiag[dir] {
		t := c + dirDelta[di]
		if q := p.board[t]; q != NoPiece && capTab[q] {
			moves = p.addPawnMove(moves, c, t, s)
		}
	}
	return moves
}

// verneyFilter keeps the moves of the side to move that Verney's rules
// allow, compacting them in place, and returns how many remain:
//
//   - no king is captured, and no piece of a mated (inert) army: "they are
//     not liable to capture by the adversaries";
//   - "No player is allowed to move a Piece or Pawn, which move would open
//     his partner's King to a check from either of his adversaries";
//   - a move that releases a mated army leaves neither the mover's king nor
//     (newly) the partner's king attacked by the pieces that regain life.
func (p *Position) verneyFilter(moves []Move) int {
	v := p.v
	s := p.turn
	pt := v.partner[s]
	guard := v.verney().GuardPartnerKing && pt != NoSeat && !p.out[pt] && p.king[pt] != 0
	anyOut := v.verney().InertMates && p.out != [NumSeats]bool{}
	n := 0
	for _, m := range moves {
		to := m.to()
		if q := p.board[to]; v.verney().InertMates && q != NoPiece && (q.Kind() == King || p.out[q.Seat()]) {
			continue
		}
		if guard && p.opensLine(m.from(), to, int(p.king[pt]), pt) {
			continue
		}
		if anyOut && !p.releaseSafe(m) {
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
func (p *Position) opensLine(from, to, k int, ks Seat) bool {
	df, dr := from%stride-k%stride, from/stride-k/stride
	if !(df == 0 || dr == 0 || df == dr || df == -dr) || (df == 0 && dr == 0) {
		return false
	}
	step := sign(dr)*stride + sign(df)
	for t := k + step; t != from; t += step {
		if t == to || p.board[t] != NoPiece {
			return false
		}
	}
	diag := df != 0 && dr != 0
	atk := &p.v.atkTab[ks]
	for t := from + step; ; t += step {
		if t == to {
			return false
		}
		q := p.board[t]
		if q == NoPiece {
			continue
		}
		if !atk[q] || p.out[q.Seat()] {
			return false
		}
		kd := q.Kind()
		return kd == Queen || (kd == Rook && !diag) || (kd == Bishop && diag)
	}
}

// releaseSafe makes m and reports whether, with the mated armies it
// releases brought back to life, the mover's king is safe and the
// partner's king is not newly in check.
func (p *Position) releaseSafe(m Move) bool {
	_, hit, _ := p.releaseHarm(m, false)
	return hit == NoSeat
}

// releaseHarm makes m and returns the seats whose mated armies m releases
// (verneyMated: their mate no longer holds) and the seat (the mover, or
// its partner newly) whose king the released pieces would then attack
// (NoSeat if none), with that king's square. Unless list is set, released
// is left empty when nothing is hit.
func (p *Position) releaseHarm(m Move, list bool) (released []Seat, hit Seat, at square.Square) {
	s := p.turn
	pt := p.v.partner[s]
	watch := pt != NoSeat && !p.out[pt] && p.king[pt] != 0
	partnerBefore := watch && p.InCheck(pt)
	u := p.Make(m)
	saved := p.out
	hits := func() Seat {
		switch {
		case p.InCheck(s):
			return s
		case watch && !partnerBefore && p.InCheck(pt):
			return pt
		}
		return NoSeat
	}
	// Live armies attack more, never less: when no king is hit with every
	// mated army alive, none is hit by those m really releases, and the
	// costlier question (does each mate still hold?) need not be asked.
	for e := Seat(0); e < NumSeats; e++ {
		if saved[e] && p.king[e] != 0 {
			p.out[e] = false
		}
	}
	hit = NoSeat
	if p.out != saved {
		hit = hits()
	}
	p.out = saved
	if hit != NoSeat || list {
		for e := Seat(0); e < NumSeats; e++ {
			if saved[e] && p.king[e] != 0 && !p.verneyMated(e) {
				released = append(released, e)
			}
		}
		for _, e := range released {
			p.out[e] = false
		}
		hit = NoSeat
		if len(released) > 0 {
			hit = hits()
		}
		if hit != NoSeat {
			at = squareOf(int(p.king[hit]))
		}
		p.out = saved
	}
	p.Unmake(m, u)
	return released, hit, at
}

// verneyMated reports whether the mate of seat e, whose army is inert,
// still holds: with its army alive, its king is in check and it has no
// legal move. "A partner may at any time, if he can, release from
// checkmate the party who is mated, by either capturing the Pieces of his
// adversaries which hold the checkmate, or by forcing these Pieces to move
// in such a way as to release his partner from that predicament": the
// pieces that hold a checkmate are those that give the check and those
// that guard the king's flight squares, so capturing or driving away
// either releases it, as does lifting the check itself.
func (p *Position) verneyMated(e Seat) bool {
	wasOut := p.out[e]
	p.out[e] = false
	mated := p.InCheck(e)
	if mated {
		saved := p.turn
		p.turn = e
		var buf [256]Move
		mated = len(p.LegalMoves(buf[:0])) == 0
		p.turn = saved
	}
	p.out[e] = wasOut
	return mated
}

// verneyWhy says which of Verney's rules refuses the pseudo-legal move m
// (verneyFilter's reasons, in its order), or "" if none does.
func (p *Position) verneyWhy(m Move) string {
	v := p.v
	s := p.turn
	to := m.to()
	if q := p.board[to]; v.verney().InertMates && q != NoPiece {
		e, at := q.Seat(), squareOf(to)
		switch {
		case q.Kind() == King:
			return fmt.Sprintf("%s's king on %s may not be captured: kings are never taken in this game, a king with no escape is checkmated", e, at)
		case p.out[e]:
			why := fmt.Sprintf("%s's %s on %s belongs to a checkmated army: \"they are not liable to capture by the adversaries\"", e, kindNames[q.Kind()], at)
			if released, _, _ := p.releaseHarm(m, true); len(released) > 0 {
				why += ", and a move that releases the mate may not \"take any of the Pieces or Pawns of the adversary so released\""
			}
			return why
		}
	}
	if pt := v.partner[s]; v.verney().GuardPartnerKing && pt != NoSeat && !p.out[pt] && p.king[pt] != 0 && p.opensLine(m.from(), to, int(p.king[pt]), pt) {
		return fmt.Sprintf("it would open %s's king on %s (%s's partner) to a check: \"No player is allowed to move a Piece or Pawn, which move would open his partner's King to a check\"", pt, squareOf(int(p.king[pt])), s)
	}
	if v.verney().InertMates && p.out != [NumSeats]bool{} {
		if released, hit, at := p.releaseHarm(m, true); hit != NoSeat {
			names := make([]string, len(released))
			for i, e := range released {
				names[i] = e.String()
			}
			return fmt.Sprintf("it releases %s from checkmate, and the released pieces (\"regain life, resume their functions\") would attack %s's king on %s", strings.Join(names, " and "), hit, at)
		}
	}
	return ""
}

// settleVerney applies Verney's rules after a turn by seat mover:
//
//   - a mated army whose mate no longer holds (verneyMated) is released ("The
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
func (g *Game) settleVerney(mover Seat, rec *Record) bool {
	p := g.pos
	mated := false
	for round := 0; round < 2*NumSeats; round++ {
		changed := false
		for s := Seat(0); s < NumSeats; s++ {
			if g.status[s] == Mated && p.king[s] != 0 && !p.verneyMated(s) {
				g.status[s] = Playing
				p.out[s] = false
				changed = true
			}
		}
		for _, s := range g.v.Order {
			if g.status[s] == Playing && p.InCheck(s) && !g.hasMoves(s) {
				g.status[s] = Mated
				p.out[s] = true
				p.ep[s] = epEntry{}
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
	if rec != nil && rec.Action == ActMove {
		p.turn = p.nextSeat(mover)
	} else if p.out[p.turn] {
		p.turn = p.nextSeat(p.turn)
	}
	for s := Seat(0); s < NumSeats; s++ {
		all := true
		for _, t := range g.sideOf(s) {
			all = all && g.status[t] == Mated
		}
		if all {
			g.end("checkmate", g.sideOf(g.opponentOf(s)))
			return mated
		}
	}
	for i := 0; i < NumSeats; i++ {
		s := p.turn
		if g.hasMoves(s) {
			break
		}
		pt := g.v.partner[s]
		if pt == NoSeat || g.status[pt] != Playing || !g.hasMoves(pt) {
			g.status[s] = Stalemated
			g.end("stalemate", nil)
			return mated
		}
		p.turn = p.nextSeat(s) // stalemated while the partner can move: pass
	}
	g.checkDraws(rec)
	return mated
}
