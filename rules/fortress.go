package rules

import (
	"fmt"
	"strings"

	"boardd/rules/square"
)

// Russian Four-Player Fortress Chess (configs/variants/russian-fortress.yaml,
// docs/variants/russian-fortress.md): the queen's knight jump, the truce
// between the pawns that stand en prise in the initial layout, and the
// check of a start position's fortress placement. The barriers themselves
// are plain Geometry data; the army of a checkmated seat is removed by the
// game layer (Variant.MateRemovesArmy).

// truce is one pair of the start array: the pawn mover on cell from may
// not capture the pawn victim on cell to.
type truce struct {
	from, to      int16
	mover, victim Piece
}

// compileTruces finds the start array's pawns that stand en prise to
// another seat's pawns (InitialPawnTruce).
func (v *Variant) compileTruces() error {
	v.truces = v.truces[:0]
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
			v.truces = append(v.truces, truce{from: c, to: int16(t), mover: pc, victim: q})
		}
	}
	return nil
}

// truceHolds reports whether the pawn on cell c may not capture the pawn
// on cell t because they are a pair of the initial layout, both still on
// their start squares.
func (p *Position) truceHolds(c, t int) bool {
	for _, x := range p.v.truces {
		if int(x.from) == c && int(x.to) == t && p.board[c] == x.mover && p.board[t] == x.victim {
			return true
		}
	}
	return false
}

// TrucePairs lists the initial layout's pawn pairs as "e4xd5": the pawn on
// the first square may not capture the pawn on the second while both
// stand there.
func (v *Variant) TrucePairs() []string {
	var out []string
	for _, x := range v.truces {
		out = append(out, squareOf(int(x.from)).String()+"x"+squareOf(int(x.to)).String())
	}
	return out
}

// queenJumps appends the queen's knight jumps from cell c
// (QueenMovesAsKnight).
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

// queenJumpHits reports whether a queen on cell c attacks cell t with a
// knight's jump (QueenMovesAsKnight).
func (p *Position) queenJumpHits(c, t int) bool {
	for i := 8; i < 16; i++ {
		if c+dirDelta[i] == t && p.v.Geometry.blocked[c]&(1<<i) == 0 {
			return true
		}
	}
	return false
}

// fortressWhy explains a refused move that a barrier or the pawn truce
// forbids, or returns "".
func (p *Position) fortressWhy(pc Piece, from, to square.Square) string {
	v := p.v
	c, t := cell(from), cell(to)
	if v.InitialPawnTruce && pc.Kind() == Pawn && p.truceHolds(c, t) {
		return fmt.Sprintf("pawns cannot capture the pawns that appear en prise to them in the initial layout (%s and %s)", from, to)
	}
	if !v.Geometry.hasWalls {
		return ""
	}
	blocked := &v.Geometry.blocked
	jump := pc.Kind() == Knight || (pc.Kind() == Queen && v.QueenMovesAsKnight)
	for i := 8; i < 16 && jump; i++ {
		if c+dirDelta[i] == t && blocked[c]&(1<<i) != 0 {
			return fmt.Sprintf("a barrier stands in the way (a %s's jump is one orthogonal step, then one diagonal step, and may cross no barrier)", kindNames[pc.Kind()])
		}
	}
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	if (df != 0 && dr != 0 && abs(df) != abs(dr)) || pc.Kind() == Knight {
		return ""
	}
	step, i := sign(dr)*stride+sign(df), 0
	for i < numKingDirs && dirDelta[i] != step {
		i++
	}
	for f := c; f != t; f += step {
		if f != c && p.board[f] != NoPiece {
			return ""
		}
		if blocked[f]&(1<<i) != 0 {
			return fmt.Sprintf("a barrier between %s and %s stands in the way", squareOf(f), squareOf(f+step))
		}
	}
	return ""
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
