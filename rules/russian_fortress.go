package rules

import (
	"fmt"
	"strings"

	"boardd/rules/square"
)

// Russian Four-Player Fortress Chess (configs/variants/russian-fortress.yaml,
// docs/variants/russian-fortress.md): the variant's hook. It owns the
// queen's knight jump (Variant.QueenMovesAsKnight: the queen joins the
// knight in the variant's leaper table, so the core generates and tests
// the jump as a knight's), the truce between the pawns that stand en
// prise in the initial layout (Variant.InitialPawnTruce), the removal of
// a checkmated army (Variant.MateRemovesArmy, which also puts every seat
// under normal mate rules), the refusals that quote those rules, and the
// check of a start position's fortress placement. The barriers themselves
// are plain Geometry data.

func init() {
	registerHook(func(v *Variant) Hook {
		if !v.QueenMovesAsKnight && !v.InitialPawnTruce && !v.MateRemovesArmy {
			return nil
		}
		return &RussianFortress{v: v}
	})
}

// RussianFortress is the hook of russian-fortress.yaml.
type RussianFortress struct {
	HookBase
	v      *Variant
	truces []truce // the start's pawn pairs (InitialPawnTruce)
}

// ID returns "russian-fortress".
func (*RussianFortress) ID() string { return "russian-fortress" }

// Provides names what the variant's data asks for.
func (h *RussianFortress) Provides(b byte) bool {
	switch b {
	case OnPawnCapture:
		return h.v.InitialPawnTruce
	case OnReduced, OnMated:
		return h.v.MateRemovesArmy
	case OnExplain:
		return h.v.InitialPawnTruce
	}
	return false
}

// Compile puts the queen among the knight-jumping kinds and finds the
// truce pairs.
func (h *RussianFortress) Compile(v *Variant) error {
	h.v = v
	if v.QueenMovesAsKnight {
		v.leaps[Queen] = true
	}
	return h.compileTruces(v)
}

// truce is one pair of the start array: the pawn mover on cell from may
// not capture the pawn victim on cell to.
type truce struct {
	from, to      int16
	mover, victim Piece
}

// compileTruces finds the start array's pawns that stand en prise to
// another seat's pawns (InitialPawnTruce).
func (h *RussianFortress) compileTruces(v *Variant) error {
	h.truces = h.truces[:0]
	if !v.InitialPawnTruce {
		return nil
	}
	p, err := ParseFEN4(v, v.Start)
	if err != nil {
		return fmt.Errorf("variant %s: start position: %v", v.Name, err)
	}
	blocked := &v.Geometry.blocked
	for _, c := range v.cells {
		pc := p.board[c]
		if !pc.IsPiece() || pc.Kind() != Pawn || pc.Dead() {
			continue
		}
		s := pc.Seat()
		for _, di := range pawnDiag[v.Seats[s].Forward] {
			t := int(c) + dirDelta[di]
			q := p.board[t]
			if !q.IsPiece() || q.Kind() != Pawn || !v.capTab[s][q] || blocked[c]&(1<<di) != 0 {
				continue
			}
			h.truces = append(h.truces, truce{from: c, to: int16(t), mover: pc, victim: q})
		}
	}
	return nil
}

// PawnCapture refuses a capture between a truce pair.
func (h *RussianFortress) PawnCapture(p *Position, c, t int) bool { return !h.truceHolds(p, c, t) }

// truceHolds reports whether the pawn on cell c may not capture the pawn
// on cell t because they are a pair of the initial layout, both still on
// their start squares.
func (h *RussianFortress) truceHolds(p *Position, c, t int) bool {
	for _, x := range h.truces {
		if int(x.from) == c && int(x.to) == t && p.board[c] == x.mover && p.board[t] == x.victim {
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
		out = append(out, squareOf(int(x.from)).String()+"x"+squareOf(int(x.to)).String())
	}
	return out
}

// TrucePairs lists the initial layout's pawn pairs of a variant with the
// Russian fortress's pawn truce (RussianFortress.TrucePairs), or none.
func (v *Variant) TrucePairs() []string {
	if h, ok := HookOf[*RussianFortress](v); ok {
		return h.TrucePairs()
	}
	return nil
}

// Explain quotes the truce.
func (h *RussianFortress) Explain(p *Position, pc Piece, from, to square.Square, _ Kind) string {
	if pc.Kind() == Pawn && h.truceHolds(p, cell(from), cell(to)) {
		return fmt.Sprintf("pawns cannot capture the pawns that appear en prise to them in the initial layout (%s and %s)", from, to)
	}
	return ""
}

// Reduced: every seat plays by chess's normal mate rules throughout.
func (h *RussianFortress) Reduced(*Game, Seat) bool { return true }

// Mated removes the checkmated seat's army: "the pieces of a checkmated
// side are removed from the board".
func (h *RussianFortress) Mated(g *Game, s Seat) { g.removeArmy(s) }

// queenJumps appends the knight jumps from cell c of a kind that also
// leaps like a knight (Variant.leaps: the Russian fortress's queen).
func (p *Position) queenJumps(moves []Move, c int, capTab *[256]bool) []Move {
	blocked := &p.v.Geometry.blocked
	for i := 8; i < 16; i++ {
		if blocked[c]&(1<<i) != 0 {
			continue
		}
		t := c + dirDelta[i]
		if q := p.board[t]; q == NoPiece || capTab[q] {
			moves = append(moves, newMove(c, t, NoKind, flagNormal))
		}
	}
	return moves
}

// queenJumpHits reports whether a piece on cell c that also leaps like a
// knight attacks cell t with the jump.
func (p *Position) queenJumpHits(c, t int) bool {
	for i := 8; i < 16; i++ {
		if c+dirDelta[i] == t && p.v.Geometry.blocked[c]&(1<<i) == 0 {
			return true
		}
	}
	return false
}

// CheckFortressStart reports whether fen is a proper start position of v:
// everything outside the fortresses as in v's start array, and inside each
// seat's fortress exactly that seat's third rook, bishop and knight
// ("each player places a third Rook, a third Bishop, and a third Knight
// anywhere within the fortress to the right of his initial array"). The
// error names the first thing that is wrong.
func CheckFortressStart(v *Variant, fen string) error {
	var all square.Set
	for s := Seat(0); s < NumSeats; s++ {
		all = all.Or(v.Fortresses[s])
	}
	if all.Len() == 0 {
		return fmt.Errorf("variant %s has no fortresses", v.Name)
	}
	ref, err := ParseFEN4(v, v.Start)
	if err != nil {
		return fmt.Errorf("variant %s: start position: %v", v.Name, err)
	}
	p, err := ParseFEN4(v, fen)
	if err != nil {
		return err
	}
	if p.turn != ref.turn || p.out != ref.out || p.castle != ref.castle || p.points != ref.points || p.halfmove != 0 || p.ep != ([NumSeats]epEntry{}) {
		return fmt.Errorf("a start position has %s to move, nobody eliminated, every castling right, no points, no en-passant entry and a zero clock", ref.turn)
	}
	for _, c := range v.cells {
		q := squareOf(int(c))
		if all.Has(q) {
			continue
		}
		if p.board[c] != ref.board[c] {
			return fmt.Errorf("%s holds %s, the start array has %s there (only the fortresses' pieces may be placed freely)", q, pieceName(p.board[c]), pieceName(ref.board[c]))
		}
	}
	for s := Seat(0); s < NumSeats; s++ {
		for _, q := range v.Fortresses[s].Squares() {
			pc := p.board[cell(q)]
			if pc != NoPiece && (pc.Seat() != s || pc.Dead() || pc.Promoted() || (pc.Kind() != Rook && pc.Kind() != Bishop && pc.Kind() != Knight)) {
				return fmt.Errorf("%s's fortress holds %s on %s: only %s's third rook, bishop and knight belong there", s, pieceName(pc), q, s)
			}
		}
	}
	for s := Seat(0); s < NumSeats; s++ {
		f := v.Fortresses[s]
		if f.Len() == 0 {
			continue
		}
		var have [King + 1]int
		for _, q := range f.Squares() {
			if pc := p.board[cell(q)]; pc != NoPiece {
				have[pc.Kind()]++
			}
		}
		if have[Rook] != 1 || have[Bishop] != 1 || have[Knight] != 1 {
			return fmt.Errorf("%s's fortress (%s) holds %d rooks, %d bishops and %d knights of %s: want exactly one of each", s, setText(f), have[Rook], have[Bishop], have[Knight], s)
		}
	}
	return nil
}

// pieceName names a piece for messages ("Red's rook", "nothing").
func pieceName(pc Piece) string {
	if !pc.IsPiece() {
		return "nothing"
	}
	return fmt.Sprintf("%s's %s", pc.Seat(), kindNames[pc.Kind()])
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
