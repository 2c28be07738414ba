package rules

import (
	"boardd/rules/square"
)

// Move generation, the hot path (see doc.go): pseudo-legal moves per
// piece, legal moves decided mostly without making them (pins and check
// found in one pass of eight rays from the king), CountLegal for perft's
// last ply, and the attack tests. A variant's own movement enters only
// behind a bit of Variant.provides (hooks.go) or through tables its hook
// filled (the leaper table); nothing here names a variant.

// Move is a move packed into 32 bits: from cell (9 bits), to cell (9
// bits), promotion kind (3 bits) and a flag (3 bits). The zero Move is
// "no move".
type Move uint32

// Move flags.
const (
	flagNormal = iota
	flagDouble
	flagEnPassant
	flagCastleShort
	flagCastleLong
	flagSwap     // the essay's partner pawn swap: the two pawns exchange squares
	flagSwapPass // its en passant form: the partner's pawn stays where it is
)

func newMove(from, to int, promo Kind, flag int) Move {
	return Move(from) | Move(to)<<9 | Move(promo)<<18 | Move(flag)<<21
}

func (m Move) from() int { return int(m & 511) }
func (m Move) to() int   { return int(m >> 9 & 511) }
func (m Move) flag() int { return int(m >> 21 & 7) }

// From returns the square the piece leaves (the king's, for castling).
func (m Move) From() square.Square { return squareOf(m.from()) }

// To returns the square the piece lands on (the king's, for castling).
func (m Move) To() square.Square { return squareOf(m.to()) }

// Promotion returns the kind a pawn promotes to, or NoKind.
func (m Move) Promotion() Kind { return Kind(m >> 18 & 7) }

// IsEnPassant reports whether m captures en passant.
func (m Move) IsEnPassant() bool { return m.flag() == flagEnPassant }

// IsCastle reports whether m castles, and on which side.
func (m Move) IsCastle() (castles, kingside bool) {
	f := m.flag()
	return f == flagCastleShort || f == flagCastleLong, f == flagCastleShort
}

// IsSwap reports whether m is the essay's partner pawn swap (a pawn
// "captures" a partner's pawn, which takes its square instead), and whether
// it is the en passant form, where the partner's pawn stays put.
func (m Move) IsSwap() (swap, enPassant bool) {
	f := m.flag()
	return f == flagSwap || f == flagSwapPass, f == flagSwapPass
}

// IsDoubleStep reports whether m is a pawn's two-square first move.
func (m Move) IsDoubleStep() bool { return m.flag() == flagDouble }

// RookSquares returns, for a castling move, where the rook starts and ends.
func (m Move) RookSquares() (from, to square.Square) {
	c, short := m.IsCastle()
	if !c {
		return square.None, square.None
	}
	f, t := m.from(), m.to()
	dir := (t - f) / 2
	rf := f + 4*dir
	if short {
		rf = f + 3*dir
	}
	return squareOf(rf), squareOf(f + dir)
}

// String returns the move's squares in long form ("h2-h4", "h10-h11=Q");
// Position.MoveText adds piece letters, captures and checks.
func (m Move) String() string {
	if m == 0 {
		return "-"
	}
	s := m.From().String() + "-" + m.To().String()
	if k := m.Promotion(); k != NoKind {
		s += "=" + k.String()
	}
	return s
}

// pawnDiag[f] lists the two diagonal capture directions of a pawn moving f.
var pawnDiag = [4][2]int{
	dirN: {dirNE, dirNW},
	dirE: {dirNE, dirSE},
	dirS: {dirSE, dirSW},
	dirW: {dirNW, dirSW},
}

// PseudoLegal appends the moves of the side to move that follow the
// pieces' movement rules, without checking whether they leave the mover's
// own king attacked. Castling is only generated when fully legal.
func (p *Position) PseudoLegal(moves []Move) []Move {
	s := p.turn
	anyEP := p.v.EnPassant && (p.ep != [NumSeats]epEntry{} || p.v.provides&(1<<OnEnPassant) != 0 && p.v.hook(OnEnPassant).EnPassantOpen(p, s))
	if p.v.plainGen && p.heir == [NumSeats]uint8{} {
		return p.plainMoves(moves, s, anyEP)
	}
	for _, c16 := range p.plist[s][:p.pcount[s]] {
		if pc := p.board[c16]; pc&deadFlag == 0 {
			moves = p.pieceMoves(moves, int(c16), pc, s, anyEP)
		}
	}
	if p.heir != [NumSeats]uint8{} {
		moves = p.inheritedMoves(moves, s, anyEP)
	}
	return moves
}

// plainMoves is PseudoLegal for a variant whose pieces move by the plain
// rules (Variant.plainGen: no barriers, no hook changing movement, no
// extra leaper) and a position where no army is played by a partner: the
// same moves in the same order as pieceMoves gives, with the steps as
// constants and no barrier tests.
func (p *Position) plainMoves(moves []Move, s Seat, anyEP bool) []Move {
	v := p.v
	board := &p.board
	dest := &v.destTab[s]
	capTab := &v.capTab[s]
	fwdDir := int(v.Seats[s].Forward)
	fwd := dirDelta[fwdDir]
	diagA, diagB := dirDelta[pawnDiag[fwdDir][0]], dirDelta[pawnDiag[fwdDir][1]]
	promo := &v.promoCell[s]
	dbl := &v.dblCell[s]
	double := v.DoubleStep
	for _, c16 := range p.plist[s][:p.pcount[s]] {
		c := int(c16)
		pc := board[c]
		if pc&deadFlag != 0 {
			continue
		}
		switch pc.Kind() {
		case Pawn:
			if t := c + fwd; board[t] == NoPiece {
				if promo[t] {
					moves = p.plainPromotions(moves, c, t)
				} else {
					moves = append(moves, newMove(c, t, NoKind, flagNormal))
				}
				if double && dbl[c] && board[t+fwd] == NoPiece {
					moves = append(moves, newMove(c, t+fwd, NoKind, flagDouble))
				}
			}
			for _, t := range [2]int{c + diagA, c + diagB} {
				if q := board[t]; q != NoPiece {
					if capTab[q] {
						if promo[t] {
							moves = p.plainPromotions(moves, c, t)
						} else {
							moves = append(moves, newMove(c, t, NoKind, flagNormal))
						}
					}
				} else if anyEP && p.epCapturable(t, s) {
					moves = append(moves, newMove(c, t, NoKind, flagEnPassant))
				}
			}
		case Knight:
			moves = step(moves, board, dest, c, 2*stride+1)
			moves = step(moves, board, dest, c, 2*stride-1)
			moves = step(moves, board, dest, c, -2*stride+1)
			moves = step(moves, board, dest, c, -2*stride-1)
			moves = step(moves, board, dest, c, stride+2)
			moves = step(moves, board, dest, c, -stride+2)
			moves = step(moves, board, dest, c, stride-2)
			moves = step(moves, board, dest, c, -stride-2)
		case Bishop:
			moves = ray(moves, board, dest, c, stride+1)
			moves = ray(moves, board, dest, c, -stride+1)
			moves = ray(moves, board, dest, c, -stride-1)
			moves = ray(moves, board, dest, c, stride-1)
		case Rook:
			moves = ray(moves, board, dest, c, stride)
			moves = ray(moves, board, dest, c, 1)
			moves = ray(moves, board, dest, c, -stride)
			moves = ray(moves, board, dest, c, -1)
		case Queen:
			moves = ray(moves, board, dest, c, stride)
			moves = ray(moves, board, dest, c, 1)
			moves = ray(moves, board, dest, c, -stride)
			moves = ray(moves, board, dest, c, -1)
			moves = ray(moves, board, dest, c, stride+1)
			moves = ray(moves, board, dest, c, -stride+1)
			moves = ray(moves, board, dest, c, -stride-1)
			moves = ray(moves, board, dest, c, stride-1)
		case King:
			for i := 0; i < numKingDirs; i++ {
				moves = step(moves, board, dest, c, dirDelta[i])
			}
			if v.Castling && p.castle[s] != 0 && int(p.king[s]) == c {
				moves = p.castleMoves(moves, c, s)
			}
		}
	}
	return moves
}

// step appends the move from c to c+d if the piece may land there.
func step(moves []Move, board *[numCells]Piece, dest *[256]uint8, c, d int) []Move {
	if dest[board[(c+d)&cellMask]] != 0 {
		moves = append(moves, newMove(c, c+d, NoKind, flagNormal))
	}
	return moves
}

// ray appends a slider's moves from c along step d: the empty cells, and
// the first piece if it may be captured.
func ray(moves []Move, board *[numCells]Piece, dest *[256]uint8, c, d int) []Move {
	t := (c + d) & cellMask
	for board[t] == NoPiece {
		moves = append(moves, newMove(c, t, NoKind, flagNormal))
		t = (t + d) & cellMask
	}
	if dest[board[t]] != 0 {
		moves = append(moves, newMove(c, t, NoKind, flagNormal))
	}
	return moves
}

// pieceMoves appends the pseudo-legal moves of the piece pc of seat s on
// cell c.
func (p *Position) pieceMoves(moves []Move, c int, pc Piece, s Seat, anyEP bool) []Move {
	v := p.v
	walls := v.Geometry.hasWalls
	blocked := &v.Geometry.blocked
	capTab := &v.capTab[s]
	if v.provides&(1<<OnPieceMoves) != 0 {
		var done bool
		if moves, done = v.hook(OnPieceMoves).PieceMoves(p, moves, c, pc, anyEP); done {
			return moves
		}
	}
	switch pc.Kind() {
	case Pawn:
		moves = p.pawnMoves(moves, c, s, anyEP)
	case Knight:
		for i := 8; i < 16; i++ {
			t := c + dirDelta[i]
			q := p.board[t]
			if walls && blocked[c]&(1<<i) != 0 {
				continue
			}
			if q == NoPiece || capTab[q] {
				moves = append(moves, newMove(c, t, NoKind, flagNormal))
			}
		}
	case Bishop:
		moves = p.slide(moves, c, dirNE, dirNW+1, capTab, walls)
	case Rook:
		moves = p.slide(moves, c, dirN, dirW+1, capTab, walls)
	case Queen:
		moves = p.slide(moves, c, dirN, dirNW+1, capTab, walls)
		if v.leaps[Queen] {
			moves = p.queenJumps(moves, c, capTab)
		}
	case King:
		for i := 0; i < numKingDirs; i++ {
			t := c + dirDelta[i]
			q := p.board[t]
			if walls && blocked[c]&(1<<i) != 0 {
				continue
			}
			if q == NoPiece || capTab[q] {
				moves = append(moves, newMove(c, t, NoKind, flagNormal))
			}
		}
		if v.Castling && p.castle[s] != 0 && int(p.king[s]) == c {
			moves = p.castleMoves(moves, c, s)
		}
	}
	return moves
}

// CountLegal returns len(LegalMoves()) without building the list where it
// can: when the king is not in check, the moves of pieces that are not
// pinned are counted, not generated. buf is scratch space for the pieces
// that need the full test. perft uses it for the last ply.
func (p *Position) CountLegal(buf []Move) int {
	s := p.turn
	k := int(p.king[s])
	v := p.v
	if k == 0 || !v.plainCount || p.heir != [NumSeats]uint8{} {
		return len(p.LegalMoves(buf[:0]))
	}
	var pins [numKingDirs]int16
	inCheck, np := p.checkAndPins(k, s, &pins)
	return p.countPlain(buf, k, s, inCheck, np, &pins)
}

// countPlain is CountLegal on its plain path for seat s to move, its king
// on cell k, with what checkAndPins found: inCheck, and np pins in pins.
func (p *Position) countPlain(buf []Move, k int, s Seat, inCheck bool, np int, pins *[numKingDirs]int16) int {
	v := p.v
	if inCheck {
		return p.countEvasions(k, s, buf)
	}
	capTab := &v.capTab[s]
	// The pawns' steps and tables, looked up once per node.
	fwdDir := int(v.Seats[s].Forward)
	fwd := dirDelta[fwdDir]
	diagA, diagB := dirDelta[pawnDiag[fwdDir][0]], dirDelta[pawnDiag[fwdDir][1]]
	promo := &v.promoCell[s]
	dbl := &v.dblCell[s]
	double := v.DoubleStep
	promos := len(v.Promotions)
	board := &p.board
	dest := &v.destTab[s]
	n := 0
	// En passant, counted once per node from its targets: the empty
	// cells this seat may take en passant on, each captured onto by the
	// live pawns of s that are not pinned and stand a diagonal step
	// behind it (the full test; pinned pawns are counted below with
	// their other moves).
	var eps [NumSeats]int16
	ne := 0
	if v.EnPassant && p.ep != [NumSeats]epEntry{} {
		hookEP := v.provides&(1<<OnEnPassant) != 0
		for e := Seat(0); e < NumSeats; e++ {
			en := p.ep[e]
			t := int(en.target)
			if t == 0 || board[t&cellMask] != NoPiece {
				continue
			}
			if hookEP {
				if !p.epCapturable(t, s) {
					continue
				}
			} else if vic := board[en.pawn&cellMask]; e == s || vic != MakePiece(e, Pawn) || !capTab[vic] {
				// epCapturable without a hook and with no army played
				// by a partner: e's own entry, its pawn still there
				continue
			}
			dup := false
			for _, x := range eps[:ne] {
				dup = dup || int(x) == t
			}
			if dup {
				continue
			}
			eps[ne] = int16(t)
			ne++
			for _, c := range [2]int{t - diagA, t - diagB} {
				if board[c&cellMask]&(Wall|deadFlag|3<<seatShift|kindMask) != MakePiece(s, Pawn) || isPinned(c, pins, np) {
					continue
				}
				if p.legalAfter(newMove(c, t, NoKind, flagEnPassant)) {
					n++
				}
			}
		}
	}
	anyEP := ne > 0
	// diagCount counts a pawn's capture from c onto the diagonal cell t
	// (each promotion kind once); called directly, it is inlined.
	diagCount := func(t int) int {
		q := board[t]
		switch {
		case q == NoPiece || !capTab[q]:
			return 0
		case promo[t]:
			return promos
		}
		return 1
	}
	for _, c16 := range p.plist[s][:p.pcount[s]] {
		c := int(c16) & cellMask
		pc := board[c]
		if pc&deadFlag != 0 {
			continue
		}
		kind := pc.Kind()
		if kind == King {
			n += p.countKing(c, pc, s, dest)
			continue
		}
		if np > 0 && isPinned(c, pins, np) {
			if kind == Knight {
				// A pinned knight's jump leaves the pin line: illegal,
				// but for a king capture, which may grey the pinner.
				for i := 8; i < 16; i++ {
					t := (c + dirDelta[i]) & cellMask
					if q := board[t]; dest[q] != 0 && q.Kind() == King && p.legalAfter(newMove(c, t, NoKind, flagNormal)) {
						n++
					}
				}
				continue
			}
			for _, m := range p.pieceMoves(buf[:0], c, pc, s, anyEP) {
				if m.flag() == flagCastleShort || m.flag() == flagCastleLong || p.legalAfter(m) {
					n++
				}
			}
			continue
		}
		switch kind {
		case Pawn:
			// A pawn that is not pinned, its king not in check: pushes
			// and captures count as they are (en passant was counted
			// above).
			if t := (c + fwd) & cellMask; board[t] == NoPiece {
				if promo[t] {
					n += promos
				} else {
					n++
				}
				if double && dbl[c] && board[(t+fwd)&cellMask] == NoPiece {
					n++
				}
			}
			// The two diagonals, unrolled (a loop measured ~9 % slower).
			n += diagCount((c+diagA)&cellMask) + diagCount((c+diagB)&cellMask)
		case Knight:
			// Eight jumps, counted without a branch: dest[q] is 1 for an
			// empty square or a piece s may capture.
			n += int(dest[board[(c+2*stride+1)&cellMask]]) + int(dest[board[(c+2*stride-1)&cellMask]]) +
				int(dest[board[(c-2*stride+1)&cellMask]]) + int(dest[board[(c-2*stride-1)&cellMask]]) +
				int(dest[board[(c+stride+2)&cellMask]]) + int(dest[board[(c-stride+2)&cellMask]]) +
				int(dest[board[(c+stride-2)&cellMask]]) + int(dest[board[(c-stride-2)&cellMask]])
		case Bishop:
			n += countRay(board, dest, c, stride+1) + countRay(board, dest, c, stride-1) +
				countRay(board, dest, c, -stride+1) + countRay(board, dest, c, -stride-1)
		case Rook:
			n += countRay(board, dest, c, stride) + countRay(board, dest, c, -stride) +
				countRay(board, dest, c, 1) + countRay(board, dest, c, -1)
		case Queen:
			n += countRay(board, dest, c, stride+1) + countRay(board, dest, c, stride-1) +
				countRay(board, dest, c, -stride+1) + countRay(board, dest, c, -stride-1) +
				countRay(board, dest, c, stride) + countRay(board, dest, c, -stride) +
				countRay(board, dest, c, 1) + countRay(board, dest, c, -1)
		}
	}
	return n
}

// countEvasions counts the legal moves of seat s, whose king on cell k is
// in check, on the plain path (CountLegal's conditions). Only a move onto
// a checker's cell or a cell between a checking slider and the king can
// answer a check, so only those, the king's steps, en passant and king
// captures take a test; every other move leaves a check standing.
func (p *Position) countEvasions(k int, s Seat, buf []Move) int {
	var answers [numCells]bool
	p.markChecks(k, s, &answers)
	n := 0
	king := p.board[k]
	for _, m := range p.PseudoLegal(buf[:0]) {
		from, to := m.from(), m.to()
		switch {
		case m.flag() == flagCastleShort || m.flag() == flagCastleLong:
			n++ // generated only when legal (never in check)
		case p.board[to].Kind() == King || m.flag() == flagEnPassant:
			if p.legalAfter(m) {
				n++
			}
		case from == k:
			p.board[k] = NoPiece
			if !p.attacked(to, s) {
				n++
			}
			p.board[k] = king
		case answers[to&cellMask]:
			if p.legalAfter(m) {
				n++
			}
		}
	}
	return n
}

// markChecks marks in answers the cells whose occupation could answer a
// check to seat s's king on cell k (no barriers, no odd leapers): each
// checking piece's cell and, for a slider, the cells between it and the
// king.
func (p *Position) markChecks(k int, s Seat, answers *[numCells]bool) {
	v := p.v
	atk := &v.atkTab[s]
	for i := 0; i < numKingDirs; i++ {
		d := dirDelta[i]
		t := p.firstOnRay(k, d)
		q := p.board[t]
		if !atk[q] || p.out[q.Seat()] {
			continue
		}
		kd := q.Kind()
		if kd == Queen || (kd == Rook && i < dirNE) || (kd == Bishop && i >= dirNE) || (kd == King && t == k+d) {
			for c := k + d; c != t; c += d {
				answers[c&cellMask] = true
			}
			answers[t] = true
		}
	}
	for _, pa := range v.pawnAtk[s][:v.pawnAtkN[s]] {
		if c := (k + pa.d) & cellMask; p.board[c] == pa.pc && !p.out[pa.pc.Seat()] {
			answers[c] = true
		}
	}
	for i := 8; i < 16; i++ {
		c := (k + dirDelta[i]) & cellMask
		if q := p.board[c]; q&kindMask == Piece(Knight) && atk[q] && !p.out[q.Seat()] {
			answers[c] = true
		}
	}
}

// countRay counts a slider's moves from cell c along step d: the empty
// cells, and the first piece if it may be captured (dest, as destTab).
func countRay(board *[numCells]Piece, dest *[256]uint8, c, d int) int {
	n := 0
	t := (c + d) & cellMask
	for board[t] == NoPiece {
		n++
		t = (t + d) & cellMask
	}
	return n + int(dest[board[t]])
}

// countKing counts the legal moves of seat s's king pc on cell c, not in
// check: each step tested with the king lifted off the board (a king
// capture takes the full test, for FFA's greying), and castling, which is
// generated only when legal.
func (p *Position) countKing(c int, pc Piece, s Seat, dest *[256]uint8) int {
	n := 0
	p.board[c] = NoPiece
	for i := 0; i < numKingDirs; i++ {
		t := c + dirDelta[i]
		q := p.board[t]
		if dest[q] == 0 {
			continue
		}
		if q.Kind() == King {
			p.board[c] = pc
			if p.legalAfter(newMove(c, t, NoKind, flagNormal)) {
				n++
			}
			p.board[c] = NoPiece
			continue
		}
		if !p.attacked(t, s) {
			n++
		}
	}
	p.board[c] = pc
	if p.v.Castling && p.castle[s] != 0 && int(p.king[s]) == c {
		var buf [2]Move
		n += len(p.castleMoves(buf[:0], c, s))
	}
	return n
}

// isPinned reports whether cell c is among the first np of pins.
func isPinned(c int, pins *[numKingDirs]int16, np int) bool {
	pinned := false
	for _, x := range pins[:np] {
		pinned = pinned || int(x) == c
	}
	return pinned
}

func (p *Position) slide(moves []Move, c, d0, d1 int, capTab *[256]bool, walls bool) []Move {
	blocked := &p.v.Geometry.blocked
	for i := d0; i < d1; i++ {
		d := dirDelta[i]
		for t := c + d; ; t += d {
			if walls && blocked[t-d]&(1<<i) != 0 {
				break
			}
			q := p.board[t]
			if q == NoPiece {
				moves = append(moves, newMove(c, t, NoKind, flagNormal))
				continue
			}
			if capTab[q] {
				moves = append(moves, newMove(c, t, NoKind, flagNormal))
			}
			break
		}
	}
	return moves
}

func (p *Position) pawnMoves(moves []Move, c int, s Seat, anyEP bool) []Move {
	v := p.v
	fwdDir := int(v.Seats[s].Forward)
	fwd := dirDelta[fwdDir]
	walls := v.Geometry.hasWalls
	blocked := &v.Geometry.blocked
	capTab := &v.capTab[s]
	t := c + fwd
	if p.board[t] == NoPiece && !(walls && blocked[c]&(1<<fwdDir) != 0) {
		moves = p.addPawnMove(moves, c, t, s)
		if v.DoubleStep && v.dblCell[s][c] {
			t2 := t + fwd
			if p.board[t2] == NoPiece && !(walls && blocked[t]&(1<<fwdDir) != 0) {
				moves = append(moves, newMove(c, t2, NoKind, flagDouble))
			}
		}
	}
	for _, di := range pawnDiag[fwdDir] {
		t := c + dirDelta[di]
		if walls && blocked[c]&(1<<di) != 0 {
			continue
		}
		q := p.board[t]
		if q != NoPiece {
			if capTab[q] && !(v.pawnHooks && v.provides&(1<<OnPawnCapture) != 0 && !v.hook(OnPawnCapture).PawnCapture(p, c, t)) {
				moves = p.addPawnMove(moves, c, t, s)
			}
			continue
		}
		if anyEP && p.epCapturable(t, s) {
			moves = append(moves, newMove(c, t, NoKind, flagEnPassant))
		}
	}
	return moves
}

// epCapturable reports whether a pawn of seat s may take en passant onto
// the empty cell t: another seat's entry names t as its skipped square and
// that seat's pawn, which s may capture, still stands on the entry's square.
func (p *Position) epCapturable(t int, s Seat) bool {
	for e := Seat(0); e < NumSeats; e++ {
		en := p.ep[e]
		if int(en.target) == t && e != s {
			if vic := p.board[en.pawn]; (vic == MakePiece(e, Pawn) || p.inheritedPawn(vic, e)) && p.v.capTab[s][vic] {
				return true
			}
		}
	}
	return p.v.provides&(1<<OnEnPassant) != 0 && p.v.hook(OnEnPassant).EnPassantTo(p, t, s)
}

func (p *Position) addPawnMove(moves []Move, c, t int, s Seat) []Move {
	if p.v.promoCell[s][t] {
		if p.v.provides&(1<<OnPromote) != 0 {
			return p.v.hook(OnPromote).Promote(p, moves, c, t, s)
		}
		return p.plainPromotions(moves, c, t)
	}
	return append(moves, newMove(c, t, NoKind, flagNormal))
}

// plainPromotions appends a pawn's move from c onto its promotion cell t
// once for each of the variant's promotion kinds.
func (p *Position) plainPromotions(moves []Move, c, t int) []Move {
	for _, k := range p.v.Promotions {
		moves = append(moves, newMove(c, t, k, flagNormal))
	}
	return moves
}

// castleMoves adds castling for the king on c: the king moves two squares
// toward a rook on one of the seat's corners, the rook lands on the square
// the king crossed. All squares between are empty, and the king's origin,
// crossed and destination squares are not attacked.
func (p *Position) castleMoves(moves []Move, c int, s Seat) []Move {
	v := p.v
	rook := MakePiece(s, Rook)
	along := v.along[s]
	if p.board[(c+along)&cellMask] != NoPiece && p.board[(c-along)&cellMask] != NoPiece {
		return moves // both ways out along the back line are blocked
	}
	checked, inCheck := false, false
	for _, corner := range v.corners[s] {
		d := corner - c
		var dir, flag int
		switch d {
		case 3 * along:
			dir, flag = along, flagCastleShort
		case -3 * along:
			dir, flag = -along, flagCastleShort
		case 4 * along:
			dir, flag = along, flagCastleLong
		case -4 * along:
			dir, flag = -along, flagCastleLong
		default:
			continue
		}
		bit := castleShort
		if flag == flagCastleLong {
			bit = castleLong
		}
		if p.castle[s]&bit == 0 || p.board[corner] != rook {
			continue
		}
		clear := true
		for t := c + dir; t != corner; t += dir {
			if p.board[t] != NoPiece {
				clear = false
				break
			}
		}
		if !clear {
			continue
		}
		if !checked {
			checked, inCheck = true, p.attacked(c, s)
		}
		if inCheck || p.attacked(c+dir, s) || p.attacked(c+2*dir, s) {
			continue
		}
		moves = append(moves, newMove(c, c+2*dir, NoKind, flag))
	}
	return moves
}

// attacked reports whether cell t is attacked by a piece that gives check
// to seat s (a live piece of a seat that checks s and is still playing).
func (p *Position) attacked(t int, s Seat) bool {
	v := p.v
	atk := &v.atkTab[s]
	walls := v.Geometry.hasWalls
	blocked := &v.Geometry.blocked
	if !walls && !v.oddLeaps {
		if p.leaperAttack(t, s) {
			return true
		}
		return p.sliderAttack(t, s)
	}
	// Pawns: a pawn of seat e attacks t from t - (its diagonal step).
	for e := Seat(0); e < NumSeats; e++ {
		if !v.Checks[e][s] || p.out[e] {
			continue
		}
		pawn := MakePiece(e, Pawn)
		for _, di := range pawnDiag[v.Seats[e].Forward] {
			f := t - dirDelta[di]
			if p.board[f] == pawn && !(walls && blocked[f]&(1<<di) != 0) {
				return true
			}
		}
	}
	for i := 8; i < 16; i++ {
		f := t + dirDelta[i]
		q := p.board[f]
		if v.leaps[q&kindMask] && atk[q] && !p.out[q.Seat()] {
			if walls && blocked[f]&(1<<opposite[i]) != 0 {
				continue // the knight's own path from f to t is walled
			}
			return true
		}
	}
	for i := 0; i < numKingDirs; i++ {
		d := dirDelta[i]
		diag := i >= dirNE
		for f := t + d; ; f += d {
			if walls && blocked[f-d]&(1<<i) != 0 {
				break
			}
			q := p.board[f]
			if q == NoPiece {
				continue
			}
			if atk[q] && !p.out[q.Seat()] {
				switch q.Kind() {
				case Queen:
					return true
				case Rook:
					if !diag {
						return true
					}
				case Bishop:
					if diag {
						return true
					}
				case King:
					if f == t+d {
						return true
					}
				}
			}
			break
		}
	}
	return false
}

// firstOnRay returns the first cell after c along step d that is not
// empty (a piece or a Wall; no barriers).
func (p *Position) firstOnRay(c, d int) int {
	t := (c + d) & cellMask
	for p.board[t] == NoPiece {
		t = (t + d) & cellMask
	}
	return t
}

// sliderAttack reports whether a queen, rook, bishop or king that gives
// check to s attacks cell t (no barriers).
func (p *Position) sliderAttack(t int, s Seat) bool {
	atk := &p.v.atkTab[s]
	for i := 0; i < numKingDirs; i++ {
		d := dirDelta[i]
		f := p.firstOnRay(t, d)
		q := p.board[f]
		if !atk[q] || p.out[q.Seat()] {
			continue
		}
		switch q.Kind() {
		case Queen:
			return true
		case Rook:
			if i < dirNE {
				return true
			}
		case Bishop:
			if i >= dirNE {
				return true
			}
		case King:
			if f == t+d {
				return true
			}
		}
	}
	return false
}

// pieceAttacks reports whether the piece on cell c attacks cell t.
func (p *Position) pieceAttacks(c, t int) bool {
	pc := p.board[c]
	walls := p.v.Geometry.hasWalls
	blocked := &p.v.Geometry.blocked
	d := t - c
	switch pc.Kind() {
	case Pawn:
		for _, di := range pawnDiag[p.v.pawnDir(pc)] {
			if dirDelta[di] == d && !(walls && blocked[c]&(1<<di) != 0) {
				return true
			}
		}
	case Knight:
		for i := 8; i < 16; i++ {
			if dirDelta[i] == d && !(walls && blocked[c]&(1<<i) != 0) {
				return true
			}
		}
	case King:
		for i := 0; i < numKingDirs; i++ {
			if dirDelta[i] == d && !(walls && blocked[c]&(1<<i) != 0) {
				return true
			}
		}
	case Bishop, Rook, Queen:
		if p.v.leaps[pc.Kind()] && p.queenJumpHits(c, t) {
			return true
		}
		df, dr := t%stride-c%stride, t/stride-c/stride
		diag := df != 0 && dr != 0
		if (diag && abs(df) != abs(dr)) || (df == 0 && dr == 0) {
			return false
		}
		if (pc.Kind() == Rook && diag) || (pc.Kind() == Bishop && !diag) {
			return false
		}
		step := sign(dr)*stride + sign(df)
		i := 0
		for i < numKingDirs && dirDelta[i] != step {
			i++
		}
		for f := c; f != t; f += step {
			if walls && blocked[f]&(1<<i) != 0 {
				return false
			}
			if f != c && p.board[f] != NoPiece {
				return false
			}
		}
		return true
	}
	return false
}

// InCheck reports whether seat s's king is attacked by a seat that gives s
// check.
func (p *Position) InCheck(s Seat) bool {
	return p.king[s] != 0 && p.attacked(int(p.king[s]), s)
}

// Attacked reports whether square sq is attacked by a piece that gives
// check to seat s.
func (p *Position) Attacked(sq square.Square, s Seat) bool {
	if !p.v.Geometry.Has(sq) {
		return false
	}
	return p.attacked(cell(sq), s)
}

// LegalMoves appends the legal moves of the side to move: pseudo-legal
// moves after which the mover's own king is not attacked. A move that
// captures a king is legal when the mover's king is safe afterwards; where
// the variant greys a captured king's army (FFA), that army's pieces no
// longer count as attackers.
//
// Most moves are decided without making them: when the king is not in
// check, a move by a piece that is not pinned to its king cannot expose
// it; a king step is tested with the king lifted off its square.
func (p *Position) LegalMoves(moves []Move) []Move {
	start := len(moves)
	moves = p.PseudoLegal(moves)
	s := p.turn
	k := int(p.king[s])
	if k == 0 || p.v.OrdinaryKings {
		return moves
	}
	var pins [numKingDirs]int16
	var inCheck bool
	np := -1 // no fast path across barriers: test every aligned move
	if p.v.Geometry.hasWalls || p.v.oddLeaps {
		inCheck = p.attacked(k, s)
	} else {
		inCheck, np = p.checkAndPins(k, s, &pins)
	}
	if p.heir != [NumSeats]uint8{} && p.commands(s) {
		np = -1 // pins are found among s's own pieces only: test every aligned move
	}
	kf, kr := k%stride, k/stride
	n := start
	for _, m := range moves[start:] {
		from, to := m.from(), m.to()
		fast := false
		switch {
		case m.flag() == flagCastleShort || m.flag() == flagCastleLong:
			fast = true // castling is generated only when legal
		case p.board[to].Kind() == King || m.flag() == flagEnPassant:
			// king captures (FFA greying) and e.p. take the full test
		case from == k:
			king := p.board[k]
			p.board[k] = NoPiece
			ok := !p.attacked(to, s)
			p.board[k] = king
			if ok {
				moves[n] = m
				n++
			}
			continue
		case inCheck:
			// in check: every other move takes the full test
		case np >= 0:
			fast = true
			for _, c := range pins[:np] {
				if int(c) == from {
					fast = false
				}
			}
		default:
			df, dr := from%stride-kf, from/stride-kr
			fast = df != 0 && dr != 0 && df != dr && df != -dr
		}
		if fast || p.legalAfter(m) {
			moves[n] = m
			n++
		}
	}
	if p.v.provides&(1<<OnLegalMoves) != 0 {
		for _, h := range p.v.hooks {
			if h.Provides(OnLegalMoves) {
				n = start + len(h.LegalMoves(p, moves[start:n]))
			}
		}
	}
	return moves[:n]
}

// checkAndPins walks the eight lines out of the king on cell k once and
// reports whether the king is attacked, and which of the mover's pieces
// are pinned: the only piece between the king and an enemy slider
// attacking along that line. It returns the number of pins written.
func (p *Position) checkAndPins(k int, s Seat, pins *[numKingDirs]int16) (bool, int) {
	check, n := p.sliderChecksAndPins(k, s, pins)
	if !check {
		check = p.leaperAttack(k, s)
	}
	return check, n
}

// sliderChecksAndPins is checkAndPins without the pawns and knights: the
// eight lines out of the king on cell k, which only a change on one of
// them alters.
func (p *Position) sliderChecksAndPins(k int, s Seat, pins *[numKingDirs]int16) (bool, int) {
	atk := &p.v.atkTab[s]
	n := 0
	check := false
	for i := 0; i < numKingDirs; i++ {
		d := dirDelta[i]
		diag := i >= dirNE
		own := 0
		for t := (k + d) & cellMask; ; t = (t + d) & cellMask {
			q := p.board[t]
			if q == NoPiece {
				continue
			}
			// s's own live piece: not a wall, not dead, seat s, in one test
			if own == 0 && q&(Wall|deadFlag|3<<seatShift) == Piece(s)<<seatShift {
				own = t
				continue
			}
			if atk[q] && !p.out[q.Seat()] {
				kd := q.Kind()
				if kd == Queen || (kd == Rook && !diag) || (kd == Bishop && diag) {
					if own == 0 {
						check = true
					} else {
						pins[n] = int16(own)
						n++
					}
				} else if kd == King && own == 0 && t == k+d {
					check = true
				}
			}
			break
		}
	}
	return check, n
}

// leaperAttack reports whether a pawn or knight that gives check to s
// attacks cell t (no barriers).
func (p *Position) leaperAttack(t int, s Seat) bool {
	v := p.v
	for _, pa := range v.pawnAtk[s][:v.pawnAtkN[s]] {
		if p.board[(t+pa.d)&cellMask] == pa.pc && !p.out[pa.pc.Seat()] {
			return true
		}
	}
	atk := &v.atkTab[s]
	b := &p.board
	for _, q := range [8]Piece{ // the eight knight jumps, constant steps
		b[(t+2*stride+1)&cellMask], b[(t+2*stride-1)&cellMask],
		b[(t-2*stride+1)&cellMask], b[(t-2*stride-1)&cellMask],
		b[(t+stride+2)&cellMask], b[(t-stride+2)&cellMask],
		b[(t+stride-2)&cellMask], b[(t-stride-2)&cellMask],
	} {
		if q&kindMask == Piece(Knight) && atk[q] && !p.out[q.Seat()] {
			return true
		}
	}
	return false
}

// legalAfter makes m, tests the mover's king and takes m back.
func (p *Position) legalAfter(m Move) bool {
	s := p.turn
	u := p.Make(m)
	ok := true
	if k := p.king[s]; k != 0 {
		if u.kingCap && p.v.KingCaptureGreys && !p.inherits(u.captured.Seat()) {
			e := u.captured.Seat()
			was := p.out[e]
			p.out[e] = true
			ok = !p.attacked(int(k), s)
			p.out[e] = was
		} else {
			ok = !p.attacked(int(k), s)
		}
	}
	p.Unmake(m, u)
	return ok
}

// IsLegal reports whether m is among the legal moves of the side to move.
func (p *Position) IsLegal(m Move) bool {
	var buf [256]Move
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}
