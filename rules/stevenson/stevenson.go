// Package stevenson is Stevenson's four-player chess
// (configs/variants/stevenson.yaml) as a hook of package rules: it
// registers itself in init (rules/shipped links it in). It owns the
// pawns' rules (promotion only to the seat's own captured pieces,
// Options.PromoteToCaptured; a pawn that reaches the far side with
// nothing to promote to, or meets a partner's pawn head to head, is
// stuck, Options.HeadToHeadStuck), the king that moves as a queen
// (Options.KingMovesAsQueen), the refusals that quote those rules, and
// the game's end (mode capture_all): a side wins by capturing every
// opposing piece, a seat that cannot move passes, blocked pawns alone
// draw, and there is no draw by insufficient material. Kings that are not
// royal (Variant.OrdinaryKings) are plain data the core reads: nobody
// gives check.
package stevenson

import (
	"fmt"
	"slices"

	"boardd/rules"
	"boardd/rules/square"
)

// CaptureAll is the mode of stevenson.yaml (mode: capture_all): two
// partnerships; a side wins by capturing every piece of the other side.
// No checkmate.
var CaptureAll = rules.RegisterMode("capture_all", "CaptureAll")

// Options are stevenson.yaml's rules (keys king_moves_as_queen,
// promote_to_captured, head_to_head_stuck), read by the Stevenson hook.
type Options struct {
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

// readOptions reads Options from a variant file.
func readOptions(src rules.OptionSource, _ *rules.Variant) (any, error) {
	var o Options
	err := rules.ReadBools(src, rules.BoolKey{Key: "king_moves_as_queen", Field: &o.KingMovesAsQueen},
		rules.BoolKey{Key: "promote_to_captured", Field: &o.PromoteToCaptured}, rules.BoolKey{Key: "head_to_head_stuck", Field: &o.HeadToHeadStuck})
	return o, err
}

func init() {
	rules.RegisterOptions(readOptions)
	rules.RegisterHook(func(v *rules.Variant) rules.Hook {
		o := rules.HookOptions[Options](v)
		if o == (Options{}) && v.Mode != CaptureAll {
			return nil
		}
		return &Stevenson{v: v, o: o}
	})
}

// Stevenson is the hook of stevenson.yaml.
type Stevenson struct {
	rules.HookBase
	v    *rules.Variant
	o    Options
	army [rules.NumSeats][rules.King + 1]int // the start array's pieces per seat and kind (PromoteToCaptured)
}

// ID returns "stevenson".
func (*Stevenson) ID() string { return "stevenson" }

// Provides names what the variant's data asks for.
func (h *Stevenson) Provides(b byte) bool {
	o := h.o
	switch b {
	case rules.OnPieceMoves:
		return o.PromoteToCaptured || o.HeadToHeadStuck || o.KingMovesAsQueen
	case rules.OnPromote:
		return o.PromoteToCaptured
	case rules.OnExplain:
		return o.PromoteToCaptured || o.HeadToHeadStuck
	case rules.OnSettle, rules.OnDraws:
		return h.v.Mode == CaptureAll
	}
	return false
}

// Compile counts the start array's pieces, against which captured pieces
// are counted.
func (h *Stevenson) Compile(v *rules.Variant) error {
	h.army = [rules.NumSeats][rules.King + 1]int{}
	if !h.o.PromoteToCaptured {
		return nil
	}
	p, err := rules.ParseFEN4(v, v.Start)
	if err != nil {
		return fmt.Errorf("variant %s: start position: %v", v.Name, err)
	}
	for _, c := range v.PlayableCells() {
		if pc := p.OnCell(int(c)); pc.IsPiece() {
			h.army[pc.Seat()][pc.Kind()]++
		}
	}
	return nil
}

// PieceMoves: stuck pawns have no move; a king moves as a queen.
func (h *Stevenson) PieceMoves(p *rules.Position, moves []rules.Move, c int, pc rules.Piece, _ bool) ([]rules.Move, bool) {
	switch pc.Kind() {
	case rules.Pawn:
		if h.stuck(p, c, pc.Seat()) != "" {
			return moves, true
		}
	case rules.King:
		if h.o.KingMovesAsQueen {
			return p.QueenMoves(moves, c, pc.Seat()), true
		}
	}
	return moves, false
}

// stuck says why seat s's pawn on cell c may not move at all, or "".
func (h *Stevenson) stuck(p *rules.Position, c int, s rules.Seat) string {
	v := h.v
	if h.o.PromoteToCaptured && v.IsPromotionCell(s, c) {
		return "stuck at the far side"
	}
	fwd := v.Seats[s].Forward
	if q := p.OnCell(c + fwd.Step()); h.o.HeadToHeadStuck && q.IsPiece() && q.Kind() == rules.Pawn && !q.Dead() && v.Partners(s, q.Seat()) && fwd.Opposite() == v.Seats[q.Seat()].Forward {
		return "head to head"
	}
	return ""
}

// Promote offers the kinds among the variant's promotion kinds of which
// seat s has fewer on the board than it started with; with none, the
// pawn moves onto the square unpromoted.
func (h *Stevenson) Promote(p *rules.Position, moves []rules.Move, c, t int, s rules.Seat) []rules.Move {
	n := len(moves)
	for _, k := range h.available(p, s) {
		moves = append(moves, rules.NewMove(c, t, k))
	}
	if len(moves) == n {
		moves = append(moves, rules.NewMove(c, t, rules.NoKind))
	}
	return moves
}

// available lists the promotion kinds seat s has lost pieces of.
func (h *Stevenson) available(p *rules.Position, s rules.Seat) []rules.Kind {
	var have [rules.King + 1]int
	for _, x := range p.PieceCells(s) {
		if pc := p.OnCell(int(x)); !pc.Dead() {
			have[pc.Kind()]++
		}
	}
	var out []rules.Kind
	for _, k := range h.v.Promotions {
		if have[k] < h.army[s][k] {
			out = append(out, k)
		}
	}
	return out
}

// Explain quotes the rule that keeps a pawn stuck, or the rule on
// promotion when the pawn's move exists but not with the kind asked for.
func (h *Stevenson) Explain(p *rules.Position, pc rules.Piece, from, to square.Square, promo rules.Kind) string {
	v, s := h.v, pc.Seat()
	if pc.Kind() != rules.Pawn {
		return ""
	}
	c := rules.CellOf(from)
	switch h.stuck(p, c, s) {
	case "stuck at the far side":
		return fmt.Sprintf("the pawn on %s reached the far side with no piece available for promotion: \"the Pawn is stuck and may no longer move\"", from)
	case "head to head":
		ahead := c + v.Seats[s].Forward.Step()
		q := p.OnCell(ahead)
		return fmt.Sprintf("the pawn on %s meets %s's pawn on %s head to head: \"A Pawn head-to-head with a friendly Pawn is stuck until one of them is captured\"", from, q.Seat(), rules.SquareOf(ahead))
	}
	if !h.o.PromoteToCaptured || promo == rules.NoKind || !v.IsPromotionCell(s, rules.CellOf(to)) {
		return ""
	}
	var buf [256]rules.Move
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
		return fmt.Sprintf("pawns promote \"only to previously captured pieces\", and no %s of %s's has been captured", rules.KindName(promo), s)
	}
	return ""
}

// Draws: there is no draw by insufficient material ("victory is by
// capturing all opposing pieces").
func (h *Stevenson) Draws(*rules.Game) bool { return false }

// Settle applies Stevenson's rules after a turn: a seat with no pieces
// left is out; "victory is by capturing all opposing pieces"; a seat that
// cannot move passes; "If the only pieces a side has left on either side
// are blocked or stuck Pawns, the game is a stalemate (draw)."
func (h *Stevenson) Settle(g *rules.Game, _ rules.Seat, rec *rules.Record) bool {
	p := g.LivePosition()
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if g.Status(s) != rules.Playing {
			continue
		}
		alive := false
		for _, c := range p.PieceCells(s) {
			alive = alive || !p.OnCell(int(c)).Dead()
		}
		if !alive {
			g.KnockOut(rec, s, rules.Wiped)
		}
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		side := g.SideOf(s)
		out, moves := true, false
		for _, t := range side {
			if g.Status(t) == rules.Playing {
				out = false
				moves = moves || g.HasMoves(t)
			}
		}
		if out {
			g.End("all pieces captured", g.SideOf(g.OpponentOf(s)))
			return false
		}
		if !moves {
			g.End("stalemate", nil)
			return false
		}
	}
	for i := 0; i < rules.NumSeats && !g.HasMoves(p.Turn()); i++ {
		p.SetTurn(p.NextSeat(p.Turn())) // a seat that cannot move passes
	}
	g.CheckDraws(rec)
	return false
}
