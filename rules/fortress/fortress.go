// Package fortress is Russian Four-Player Fortress Chess
// (configs/variants/russian-fortress.yaml, docs/variants/russian-fortress.md)
// as a hook of package rules: it registers itself in init (rules/shipped
// links it in). It owns the queen's knight jump (Options.QueenMovesAsKnight:
// the queen joins the knight in the variant's leaper table,
// Variant.AddLeaper, so the core generates and tests the jump as a
// knight's), the truce between the pawns that stand en prise in the
// initial layout (Options.InitialPawnTruce), the removal of a checkmated
// army (Options.MateRemovesArmy, which also puts every seat under normal
// mate rules), the refusals that quote those rules, and the check of a
// start position's fortress placement (CheckStart). The barriers
// themselves are plain Geometry data.
package fortress

import (
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Options are russian-fortress.yaml's rules (keys queen_moves_as_knight,
// initial_pawn_truce, mate_removes_army and each seat's fortress), read by
// the RussianFortress hook.
type Options struct {
	// QueenMovesAsKnight: "The Queen also moves as the Knight, this being
	// the Queen move in normal Chess in Russia at the time of this game's
	// invention." The queen adds the knight's jump to her own moves;
	// barriers stop the jump as they stop a knight's.
	QueenMovesAsKnight bool
	// InitialPawnTruce: "Pawns cannot capture the Pawns that appear en
	// prise to them in the initial layout." Compile finds, in Start, each
	// pawn that attacks another seat's pawn; a pawn of that seat on that
	// square may not capture a pawn of the other seat on the attacked
	// square. Pawns only move forward, so a pawn on its seat's start
	// square is the original one and the board alone says whether the
	// truce still holds (no extra FEN4 state).
	InitialPawnTruce bool
	// MateRemovesArmy (LastStanding): every seat plays by chess's normal
	// mate rules (a checkmated seat is out; no seat is forced to move into
	// check), and "the pieces of a checkmated side are removed from the
	// board"; the game goes on until one partnership is left.
	MateRemovesArmy bool
	// Fortresses are, per seat, the squares where the seat places its
	// extra pieces at the start ("each player places a third Rook, a third
	// Bishop, and a third Knight anywhere within the fortress to the right
	// of his initial array"; seats.SEAT.fortress); CheckStart checks a
	// start position against them.
	Fortresses [rules.NumSeats]square.Set
}

// readOptions reads Options from a variant file.
func readOptions(src rules.OptionSource, _ *rules.Variant) (any, error) {
	var o Options
	if err := rules.ReadBools(src, rules.BoolKey{Key: "queen_moves_as_knight", Field: &o.QueenMovesAsKnight},
		rules.BoolKey{Key: "initial_pawn_truce", Field: &o.InitialPawnTruce}, rules.BoolKey{Key: "mate_removes_army", Field: &o.MateRemovesArmy}); err != nil {
		return nil, err
	}
	f, err := src.SeatSquares("fortress")
	o.Fortresses = f
	return o, err
}

func init() {
	rules.RegisterOptions(readOptions)
	rules.RegisterHook(func(v *rules.Variant) rules.Hook {
		o := rules.HookOptions[Options](v)
		if !o.QueenMovesAsKnight && !o.InitialPawnTruce && !o.MateRemovesArmy {
			return nil
		}
		return &RussianFortress{v: v, o: o}
	})
}

// RussianFortress is the hook of russian-fortress.yaml.
type RussianFortress struct {
	rules.HookBase
	v      *rules.Variant
	o      Options
	truces []truce // the start's pawn pairs (InitialPawnTruce)
}

// ID returns "russian-fortress".
func (*RussianFortress) ID() string { return "russian-fortress" }

// Provides names what the variant's data asks for.
func (h *RussianFortress) Provides(b byte) bool {
	switch b {
	case rules.OnPawnCapture:
		return h.o.InitialPawnTruce
	case rules.OnReduced, rules.OnMated:
		return h.o.MateRemovesArmy
	case rules.OnExplain:
		return h.o.InitialPawnTruce
	}
	return false
}

// Compile puts the queen among the knight-jumping kinds and finds the
// truce pairs.
func (h *RussianFortress) Compile(v *rules.Variant) error {
	h.v = v
	if h.o.QueenMovesAsKnight {
		if err := v.AddLeaper(rules.Queen); err != nil {
			return err
		}
	}
	return h.compileTruces(v)
}

// truce is one pair of the start array: the pawn mover on cell from may
// not capture the pawn victim on cell to.
type truce struct {
	from, to      int
	mover, victim rules.Piece
}

// compileTruces finds the start array's pawns that stand en prise to
// another seat's pawns (InitialPawnTruce).
func (h *RussianFortress) compileTruces(v *rules.Variant) error {
	h.truces = h.truces[:0]
	if !h.o.InitialPawnTruce {
		return nil
	}
	p, err := rules.ParseFEN4(v, v.Start)
	if err != nil {
		return fmt.Errorf("variant %s: start position: %v", v.Name, err)
	}
	for _, c16 := range v.PlayableCells() {
		c := int(c16)
		pc := p.OnCell(c)
		if !pc.IsPiece() || pc.Kind() != rules.Pawn || pc.Dead() {
			continue
		}
		s := pc.Seat()
		for _, d := range v.Seats[s].Forward.PawnCaptureSteps() {
			q := p.OnCell(c + d)
			if !q.IsPiece() || q.Kind() != rules.Pawn || !v.Captures(s, q) || v.Walled(c, d) {
				continue
			}
			h.truces = append(h.truces, truce{from: c, to: c + d, mover: pc, victim: q})
		}
	}
	return nil
}

// PawnCapture refuses a capture between a truce pair.
func (h *RussianFortress) PawnCapture(p *rules.Position, c, t int) bool {
	return !h.truceHolds(p, c, t)
}

// truceHolds reports whether the pawn on cell c may not capture the pawn
// on cell t because they are a pair of the initial layout, both still on
// their start squares.
func (h *RussianFortress) truceHolds(p *rules.Position, c, t int) bool {
	for _, x := range h.truces {
		if x.from == c && x.to == t && p.OnCell(c) == x.mover && p.OnCell(t) == x.victim {
			return true
		}
	}
	return false
}

// TrucePairs lists the initial layout's pawn pairs as "e4xd5": the pawn on
// the first square may not capture the pawn on the second while both
// stand there.
func (h *RussianFortress) TrucePairs() []string {
	var out []string
	for _, x := range h.truces {
		out = append(out, rules.SquareOf(x.from).String()+"x"+rules.SquareOf(x.to).String())
	}
	return out
}

// TrucePairs lists the initial layout's pawn pairs of a variant with the
// Russian fortress's pawn truce (RussianFortress.TrucePairs), or none.
func TrucePairs(v *rules.Variant) []string {
	if h, ok := rules.HookOf[*RussianFortress](v); ok {
		return h.TrucePairs()
	}
	return nil
}

// Explain quotes the truce.
func (h *RussianFortress) Explain(p *rules.Position, pc rules.Piece, from, to square.Square, _ rules.Kind) string {
	if pc.Kind() == rules.Pawn && h.truceHolds(p, rules.CellOf(from), rules.CellOf(to)) {
		return fmt.Sprintf("pawns cannot capture the pawns that appear en prise to them in the initial layout (%s and %s)", from, to)
	}
	return ""
}

// Reduced: every seat plays by chess's normal mate rules throughout.
func (h *RussianFortress) Reduced(*rules.Game, rules.Seat) bool { return true }

// Mated removes the checkmated seat's army: "the pieces of a checkmated
// side are removed from the board".
func (h *RussianFortress) Mated(g *rules.Game, s rules.Seat) { g.RemoveArmy(s) }

// CheckStart reports whether fen is a proper start position of v:
// everything outside the fortresses as in v's start array, and inside each
// seat's fortress exactly that seat's third rook, bishop and knight
// ("each player places a third Rook, a third Bishop, and a third Knight
// anywhere within the fortress to the right of his initial array"). The
// error names the first thing that is wrong.
func CheckStart(v *rules.Variant, fen string) error {
	forts := rules.HookOptions[Options](v).Fortresses
	var all square.Set
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		all = all.Or(forts[s])
	}
	if all.Len() == 0 {
		return fmt.Errorf("variant %s has no fortresses", v.Name)
	}
	ref, err := rules.ParseFEN4(v, v.Start)
	if err != nil {
		return fmt.Errorf("variant %s: start position: %v", v.Name, err)
	}
	p, err := rules.ParseFEN4(v, fen)
	if err != nil {
		return err
	}
	if !sameState(p, ref) {
		return fmt.Errorf("a start position has %s to move, nobody eliminated, every castling right, no points, no en-passant entry and a zero clock", ref.Turn())
	}
	for _, c16 := range v.PlayableCells() {
		c := int(c16)
		q := rules.SquareOf(c)
		if all.Has(q) {
			continue
		}
		if p.OnCell(c) != ref.OnCell(c) {
			return fmt.Errorf("%s holds %s, the start array has %s there (only the fortresses' pieces may be placed freely)", q, pieceName(p.OnCell(c)), pieceName(ref.OnCell(c)))
		}
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		for _, q := range forts[s].Squares() {
			pc := p.At(q)
			if pc != rules.NoPiece && (pc.Seat() != s || pc.Dead() || pc.Promoted() || (pc.Kind() != rules.Rook && pc.Kind() != rules.Bishop && pc.Kind() != rules.Knight)) {
				return fmt.Errorf("%s's fortress holds %s on %s: only %s's third rook, bishop and knight belong there", s, pieceName(pc), q, s)
			}
		}
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		f := forts[s]
		if f.Len() == 0 {
			continue
		}
		var have [rules.King + 1]int
		for _, q := range f.Squares() {
			if pc := p.At(q); pc != rules.NoPiece {
				have[pc.Kind()]++
			}
		}
		if have[rules.Rook] != 1 || have[rules.Bishop] != 1 || have[rules.Knight] != 1 {
			return fmt.Errorf("%s's fortress (%s) holds %d rooks, %d bishops and %d knights of %s: want exactly one of each", s, setText(f), have[rules.Rook], have[rules.Bishop], have[rules.Knight], s)
		}
	}
	return nil
}

// sameState reports whether p has ref's side to move, eliminations,
// castling rights, points, en-passant entries (none) and clock (zero).
func sameState(p, ref *rules.Position) bool {
	if p.Turn() != ref.Turn() || p.OutSeats() != ref.OutSeats() || p.HalfMoveClock() != 0 {
		return false
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		pk, pq := p.CanCastle(s)
		rk, rq := ref.CanCastle(s)
		if pk != rk || pq != rq || p.Points(s) != ref.Points(s) {
			return false
		}
		if skipped, _ := p.EnPassant(s); skipped != square.None {
			return false
		}
	}
	return true
}

// pieceName names a piece for messages ("Red's rook", "nothing").
func pieceName(pc rules.Piece) string {
	if !pc.IsPiece() {
		return "nothing"
	}
	return fmt.Sprintf("%s's %s", pc.Seat(), rules.KindName(pc.Kind()))
}

// setText writes a rectangle of squares as "m1-p4", otherwise lists them.
func setText(s square.Set) string {
	sq := s.Squares()
	if len(sq) == 0 {
		return ""
	}
	lo, hi := sq[0], sq[len(sq)-1]
	w, h := hi.File()-lo.File()+1, hi.Rank()-lo.Rank()+1
	if w > 0 && h > 0 && w*h == len(sq) {
		return lo.String() + "-" + hi.String()
	}
	var names []string
	for _, q := range sq {
		names = append(names, q.String())
	}
	return strings.Join(names, ",")
}
