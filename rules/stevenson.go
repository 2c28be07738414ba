package rules

import (
	"fmt"
	"slices"

	"boardd/rules/square"
)

// Stevenson's four-player chess (configs/variants/stevenson.yaml): the
// variant's hook. It owns the pawns' rules (promotion only to the seat's
// own captured pieces, StevensonOptions.PromoteToCaptured; a pawn that reaches the
// far side with nothing to promote to, or meets a partner's pawn head to
// head, is stuck, StevensonOptions.HeadToHeadStuck), the king that moves as a
// queen (StevensonOptions.KingMovesAsQueen), the refusals that quote those rules,
// and the game's end (mode capture_all): a side wins by capturing every
// opposing piece, a seat that cannot move passes, blocked pawns alone
// draw, and there is no draw by insufficient material. Kings that are not
// royal (Variant.OrdinaryKings) are plain data the core reads: nobody
// gives check.

// StevensonOptions are stevenson.yaml's rules (keys king_moves_as_queen,
// promote_to_captured, head_to_head_stuck), read by the Stevenson hook.
type StevensonOptions struct {
	// KingMovesAsQueen lets kings move like queens.
	KingMovesAsQueen bool
	// PromoteToCaptured limits promotion to the kinds of the seat's own
	// pieces that have been captured (counted against the start array);
	// with none available a pawn reaches the last square unpromoted and is
	// stuck there.
	PromoteToCaptured bool
	// HeadToHeadStuck: a pawn facing a partner's pawn that comes the other
	// way cannot move at all until one of them is captured.
	HeadToHeadStuck bool
}

// readStevensonOptions reads StevensonOptions from a variant file.
func readStevensonOptions(src OptionSource, _ *Variant) (any, error) {
	var o StevensonOptions
	err := boolOptions(src, boolKey{"king_moves_as_queen", &o.KingMovesAsQueen},
		boolKey{"promote_to_captured", &o.PromoteToCaptured}, boolKey{"head_to_head_stuck", &o.HeadToHeadStuck})
	return o, err
}

// stevenson returns the variant's StevensonOptions.
func (v *Variant) stevenson() StevensonOptions { return HookOptions[StevensonOptions](v) }

func init() {
	registerOptions(readStevensonOptions)
	registerHook(func(v *Variant) Hook {
		if !v.stevenson().PromoteToCaptured && !v.stevenson().HeadToHeadStuck && !v.stevenson().KingMovesAsQueen && v.Mode != CaptureAll {
			return nil
		}
		h := &Stevenson{v: v}
		return h
	})
}

// Stevenson is the hook of stevenson.yaml.
type Stevenson struct {
	HookBase
	v    *Variant
	army [NumSeats][King + 1]int // the start array's pieces per seat and kind (PromoteToCaptured)
}

// ID returns "stevenson".
func (*Stevenson) ID() string { return "stevenson" }

// Provides names what the variant's data asks for.
func (h *Stevenson) Provides(b byte) bool {
	v := h.v
	switch b {
	case OnPieceMoves:
		return v.stevenson().PromoteToCaptured || v.stevenson().HeadToHeadStuck || v.stevenson().KingMovesAsQueen
	case OnPromote:
		return v.stevenson().PromoteToCaptured
	case OnExplain:
		return v.stevenson().PromoteToCaptured || v.stevenson().HeadToHeadStuck
	case OnSettle, OnDraws:
		return v.Mode == CaptureAll
	}
	return false
}

// Compile counts the start array's pieces, against which captured pieces
// are counted.
func (h *Stevenson) Compile(v *Variant) error {
	h.army = [NumSeats][King + 1]int{}
	if !v.stevenson().PromoteToCaptured {
		return nil
	}
	p, err := ParseFEN4(v, v.Start)
	if err != nil {
		return fmt.Errorf("variant %s: start position: %v", v.Name, err)
	}
	for _, c := range v.cells {
		if pc := p.board[c]; pc.IsPiece() {
			h.army[pc.Seat()][pc.Kind()]++
		}
	}
	return nil
}

// PieceMoves: stuck pawns have no move; a king moves as a queen.
func (h *Stevenson) PieceMoves(p *Position, moves []Move, c int, pc Piece, _ bool) ([]Move, bool) {
	switch pc.Kind() {
	case Pawn:
		if h.stuck(p, c, pc.Seat()) != "" {
			return moves, true
		}
	case King:
		if h.v.stevenson().KingMovesAsQueen {
			return p.slide(moves, c, dirN, dirNW+1, &h.v.capTab[pc.Seat()], h.v.Geometry.hasWalls), true
		}
	}
	return moves, false
}

// stuck says why seat s's pawn on cell c may not move at all, or "".
func (h *Stevenson) stuck(p *Position, c int, s Seat) string {
	v := h.v
	if v.stevenson().PromoteToCaptured && v.promoCell[s][c] {
		return "stuck at the far side"
	}
	fwd := int(v.Seats[s].Forward)
	if q := p.board[c+dirDelta[fwd]]; v.stevenson().HeadToHeadStuck && q.IsPiece() && q.Kind() == Pawn && !q.Dead() && v.Partners(s, q.Seat()) && opposite[fwd] == int(v.Seats[q.Seat()].Forward) {
		return "head to head"
	}
	return ""
}

// Promote offers the kinds among the variant's promotion kinds of which
// seat s has fewer on the board than it started with; with none, the
// pawn moves onto the square unpromoted.
func (h *Stevenson) Promote(p *Position, moves []Move, c, t int, s Seat) []Move {
	n := len(moves)
	for _, k := range h.available(p, s) {
		moves = append(moves, newMove(c, t, k, flagNormal))
	}
	if len(moves) == n {
		moves = append(moves, newMove(c, t, NoKind, flagNormal))
	}
	return moves
}

// available lists the promotion kinds seat s has lost pieces of.
func (h *Stevenson) available(p *Position, s Seat) []Kind {
	var have [King + 1]int
	for _, x := range p.plist[s][:p.pcount[s]] {
		if pc := p.board[x]; !pc.Dead() {
			have[pc.Kind()]++
		}
	}
	var out []Kind
	for _, k := range h.v.Promotions {
		if have[k] < h.army[s][k] {
			out = append(out, k)
		}
	}
	return out
}

// Explain quotes the rule that keeps a pawn stuck, or the rule on
// promotion when the pawn's move exists but not with the kind asked for.
func (h *Stevenson) Explain(p *Position, pc Piece, from, to square.Square, promo Kind) string {
	v, s := h.v, pc.Seat()
	if pc.Kind() != Pawn {
		return ""
	}
	c := cell(from)
	switch h.stuck(p, c, s) {
	case "stuck at the far side":
		return fmt.Sprintf("the pawn on %s reached the far side with no piece available for promotion: \"the Pawn is stuck and may no longer move\"", from)
	case "head to head":
		fwd := v.Seats[s].Forward
		q := p.board[c+dirDelta[fwd]]
		return fmt.Sprintf("the pawn on %s meets %s's pawn on %s head to head: \"A Pawn head-to-head with a friendly Pawn is stuck until one of them is captured\"", from, q.Seat(), squareOf(c+dirDelta[fwd]))
	}
	if !v.stevenson().PromoteToCaptured || promo == NoKind || !v.promoCell[s][cell(to)] {
		return ""
	}
	var buf [256]Move
	exists := false
	for _, m := range p.LegalMoves(buf[:0]) {
		exists = exists || (m.From() == from && m.To() == to)
	}
	if !exists {
		return ""
	}
	avail := h.available(p, s)
	if len(avail) == 0 {
		return fmt.Sprintf("no piece of %s's has been captured, so the pawn arrives unpromoted: \"If there are no pieces available for promotion, then upon reaching the far side, the Pawn is stuck\"", s)
	}
	if !slices.Contains(avail, promo) && slices.Contains(v.Promotions, promo) {
		return fmt.Sprintf("pawns promote \"only to previously captured pieces\", and no %s of %s's has been captured", kindNames[promo], s)
	}
	return ""
}

// Draws: there is no draw by insufficient material ("victory is by
// capturing all opposing pieces").
func (h *Stevenson) Draws(*Game) bool { return false }

// Settle applies Stevenson's rules after a turn: a seat with no pieces
// left is out; "victory is by capturing all opposing pieces"; a seat that
// cannot move passes; "If the only pieces a side has left on either side
// are blocked or stuck Pawns, the game is a stalemate (draw)."
func (h *Stevenson) Settle(g *Game, _ Seat, rec *Record) bool {
	p := g.pos
	for s := Seat(0); s < NumSeats; s++ {
		if g.status[s] != Playing {
			continue
		}
		alive := false
		for _, c := range p.plist[s][:p.pcount[s]] {
			alive = alive || !p.board[c].Dead()
		}
		if !alive {
			g.knockOut(rec, s, Wiped)
		}
	}
	for s := Seat(0); s < NumSeats; s++ {
		side := g.sideOf(s)
		out, moves := true, false
		for _, t := range side {
			if g.status[t] == Playing {
				out = false
				moves = moves || g.hasMoves(t)
			}
		}
		if out {
			g.end("all pieces captured", g.sideOf(g.opponentOf(s)))
			return false
		}
		if !moves {
			g.end("stalemate", nil)
			return false
		}
	}
	for i := 0; i < NumSeats && !g.hasMoves(p.turn); i++ {
		p.turn = p.nextSeat(p.turn) // a seat that cannot move passes
	}
	g.checkDraws(rec)
	return false
}
