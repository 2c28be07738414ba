package rules

import (
	"fmt"

	"boardd/rules/square"
)

// Why a move is refused: FindMove and Explain name the move and the rule
// ("Qd1-h5: the queen's path is blocked at f3"). The plain reasons
// (geometry, turn, capture table, king safety, barriers, blocked paths)
// are here; a variant's own reasons come from its hook (Explain,
// CaptureBar, Refuse).

// IllegalMoveError says why a move was refused, naming the move and the
// reason ("Qd1-h5: the queen's path is blocked at f3").
type IllegalMoveError struct {
	Text   string // the move as the mover would write it ("Qd1-h5")
	Reason string
}

func (e *IllegalMoveError) Error() string { return e.Text + ": " + e.Reason }

var kindNames = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// FindMove returns the legal move of the side to move from one square to
// another (for castling: the king's squares; promo is the kind a pawn
// promotes to, or NoKind for the variant's default). If no legal move
// matches, the error explains why.
func (p *Position) FindMove(from, to square.Square, promo Kind) (Move, error) {
	var buf [256]Move
	legal := p.LegalMoves(buf[:0])
	var cands []Move
	for _, m := range legal {
		if m.From() == from && m.To() == to {
			cands = append(cands, m)
		}
	}
	if len(cands) > 0 {
		if cands[0].Promotion() == NoKind {
			if promo == NoKind {
				return cands[0], nil
			}
			if why := p.hookWhy(p.At(from), from, to, promo); why != "" {
				return 0, &IllegalMoveError{Text: p.rawText(from, to, promo), Reason: why}
			}
			return 0, &IllegalMoveError{Text: p.rawText(from, to, promo), Reason: "only a pawn reaching its promotion squares promotes"}
		}
		if promo == NoKind {
			return cands[0], nil // the variant's default promotion comes first
		}
		for _, m := range cands {
			if m.Promotion() == promo {
				return m, nil
			}
		}
		if why := p.hookWhy(p.At(from), from, to, promo); why != "" {
			return 0, &IllegalMoveError{Text: p.rawText(from, to, promo), Reason: why}
		}
		return 0, &IllegalMoveError{Text: p.rawText(from, to, promo), Reason: fmt.Sprintf("a pawn may not promote to a %s in %s", kindNames[promo], p.v.Name)}
	}
	return 0, p.explain(from, to, promo)
}

// Explain returns why m is not a legal move for the side to move, or nil
// if it is legal.
func (p *Position) Explain(m Move) error {
	if p.IsLegal(m) {
		return nil
	}
	return p.explain(m.From(), m.To(), m.Promotion())
}

func (p *Position) rawText(from, to square.Square, promo Kind) string {
	s := ""
	if pc := p.At(from); pc.IsPiece() && pc.Kind() != Pawn {
		s = string(pc.Kind().Letter())
	}
	sep := "-"
	if p.At(to).IsPiece() {
		sep = "x"
	}
	s += from.String() + sep + to.String()
	if promo != NoKind {
		s += "=" + promo.String()
	}
	return s
}

func (p *Position) explain(from, to square.Square, promo Kind) error {
	text := p.rawText(from, to, promo)
	bad := func(format string, a ...any) error {
		return &IllegalMoveError{Text: text, Reason: fmt.Sprintf(format, a...)}
	}
	g := p.v.Geometry
	switch {
	case !g.Has(from):
		return bad("%s is not a square of the board", from)
	case !g.Has(to):
		return bad("%s is not a square of the board", to)
	case from == to:
		return bad("the piece must leave its square")
	}
	pc := p.At(from)
	s := p.turn
	switch {
	case !pc.IsPiece():
		return bad("there is no piece on %s", from)
	case pc.Dead():
		return bad("the %s on %s is dead (grey) and cannot move", kindNames[pc.Kind()], from)
	case pc.Seat() != s && p.heir[pc.Seat()] != uint8(s)+1:
		return bad("it is %s's turn, and the %s on %s is %s's", s, kindNames[pc.Kind()], from, pc.Seat())
	}
	name := kindNames[pc.Kind()]
	if victim := p.At(to); victim.IsPiece() && !p.v.capTab[s][victim] {
		return bad("%s", p.captureBar(s, victim, to))
	}
	// Does any pseudo-legal move match? Then a variant's own rule refuses
	// it, or the king would be in check.
	var buf [256]Move
	for _, m := range p.PseudoLegal(buf[:0]) {
		if m.From() != from || m.To() != to {
			continue
		}
		if p.v.provides&(1<<OnRefuse) != 0 {
			for _, h := range p.v.hooks {
				if !h.Provides(OnRefuse) {
					continue
				}
				if why := h.Refuse(p, m); why != "" {
					return bad("%s", why)
				}
			}
		}
		if pc.Kind() == King && p.InCheck(s) {
			return bad("%s's king on %s is in check and would still be attacked on %s", s, from, to)
		}
		u := p.Make(m)
		ks := p.KingSquare(s)
		by := p.attackerOf(int(p.king[s]), s)
		p.Unmake(m, u)
		if by != "" && pc.Kind() == King {
			return bad("%s's king would be attacked on %s by %s", s, ks, by)
		}
		if by != "" {
			return bad("it would leave %s's king on %s in check from %s", s, ks, by)
		}
		return bad("it would leave %s's king in check", s)
	}
	if pc.Kind() == King {
		df, dr := to.File()-from.File(), to.Rank()-from.Rank()
		if (abs(df) == 2 && dr == 0) || (abs(dr) == 2 && df == 0) {
			return bad("castling is not possible here: the king or rook has moved, a square between them is occupied, or the king would cross an attacked square")
		}
	}
	if why := p.barrierWhy(pc, from, to); why != "" {
		return bad("%s", why)
	}
	if path := p.blockedAt(pc, from, to); path != square.None {
		return bad("the %s's path is blocked at %s", name, path)
	}
	if why := p.hookWhy(pc, from, to, promo); why != "" {
		return bad("%s", why)
	}
	if pc.Kind() == Pawn {
		if p.At(to).IsPiece() {
			return bad("a pawn captures only diagonally forward")
		}
		return bad("a %s pawn cannot move from %s to %s", s, from, to)
	}
	return bad("a %s does not move from %s to %s", name, from, to)
}

// hookWhy asks the variant's hooks which of its own rules refuses moving
// pc from one square to another, or returns "".
func (p *Position) hookWhy(pc Piece, from, to square.Square, promo Kind) string {
	if !p.v.Provides(OnExplain) {
		return ""
	}
	for _, h := range p.v.hooks {
		if !h.Provides(OnExplain) {
			continue
		}
		if why := h.Explain(p, pc, from, to, promo); why != "" {
			return why
		}
	}
	return ""
}

// captureBar says why seat s may not capture the live piece victim on to,
// which the variant's capture table forbids: its own piece, a reason of
// the variant's own (Hook.CaptureBar: Chess4's active king, blocking
// double chess's other game), a partner's.
func (p *Position) captureBar(s Seat, victim Piece, to square.Square) string {
	v := p.v
	e, name := victim.Seat(), kindNames[victim.Kind()]
	switch {
	case e == s:
		return fmt.Sprintf("%s already holds %s's own %s", to, s, name)
	case v.provides&(1<<OnExplain) != 0:
		for _, h := range v.hooks {
			if !h.Provides(OnExplain) {
				continue
			}
			if why := h.CaptureBar(p, s, victim, to); why != "" {
				return why
			}
		}
	}
	if v.Partners(s, e) {
		return fmt.Sprintf("%s's %s on %s may not be captured by %s (partner)", e, name, to, s)
	}
	return fmt.Sprintf("%s's %s on %s may not be captured by %s in %s", e, name, to, s, v.Name)
}

// blockedAt returns the first occupied square between from and to when a
// sliding piece could make that move on an empty board, else None.
func (p *Position) blockedAt(pc Piece, from, to square.Square) square.Square {
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	straight := df == 0 || dr == 0
	diag := abs(df) == abs(dr)
	switch pc.Kind() {
	case Rook:
		if !straight {
			return square.None
		}
	case Bishop:
		if !diag {
			return square.None
		}
	case Queen:
		if !straight && !diag {
			return square.None
		}
	default:
		return square.None
	}
	sf, sr := sign(df), sign(dr)
	for f, r := from.File()+sf, from.Rank()+sr; f != to.File() || r != to.Rank(); f, r = f+sf, r+sr {
		if q := square.At(f, r); p.At(q) != NoPiece || !p.v.Geometry.Has(q) {
			return q
		}
	}
	return square.None
}

// attackerOf names a piece that attacks cell t for seat s ("the bishop on
// e4"), or "".
func (p *Position) attackerOf(t int, s Seat) string {
	for _, c := range p.v.cells {
		pc := p.board[c]
		if !pc.IsPiece() || !p.v.atkTab[s][pc] || p.out[pc.Seat()] {
			continue
		}
		// Put a probe on t: does this single piece attack it?
		saved := p.board
		for _, o := range p.v.cells {
			if o != c && p.board[o].IsPiece() && p.v.atkTab[s][p.board[o]] {
				p.board[o] = MakePiece(s, Pawn).WithDead() // blocks, attacks nothing
			}
		}
		hit := p.attacked(t, s)
		p.board = saved
		if hit {
			return fmt.Sprintf("%s's %s on %s", pc.Seat(), kindNames[pc.Kind()], squareOf(int(c)))
		}
	}
	return ""
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// sign returns -1, 0 or 1 as x is negative, zero or positive (LineStep,
// the refusals and the attack tests; the one copy).
func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// barrierWhy explains a refused move that a barrier forbids, or returns
// "".
func (p *Position) barrierWhy(pc Piece, from, to square.Square) string {
	v := p.v
	if !v.Geometry.hasWalls {
		return ""
	}
	c, t := cell(from), cell(to)
	blocked := &v.Geometry.blocked
	jump := v.leaps[pc.Kind()]
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
