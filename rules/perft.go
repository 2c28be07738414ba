package rules

import "math/bits"

// Perft counts the move sequences of length depth from the position (the
// standard move-generator oracle). Conventions, shared with the reference
// counts in testdata: a move that captures a king is a leaf and is not
// expanded; a node whose side to move has no legal move contributes 0.
//
// With bulk set, the last ply is counted without making its moves (the
// legal-move count is the leaf count); without it every leaf move is made.
// Both give the same numbers.
func (p *Position) Perft(depth int, bulk bool) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return p.perft(depth, bulk, bufs)
}

func (p *Position) perft(depth int, bulk bool, bufs [][]Move) uint64 {
	if depth == 1 && bulk {
		return uint64(p.CountLegal(bufs[0][:0]))
	}
	if depth == 2 && bulk && p.v.plainCount && p.heir == [NumSeats]uint8{} {
		return p.perftLastTwo(bufs)
	}
	moves := p.LegalMoves(bufs[depth-1][:0])
	bufs[depth-1] = moves[:0]
	var n uint64
	for _, m := range moves {
		u := p.Make(m)
		if depth == 1 || u.kingCap {
			n++
		} else {
			n += p.perft(depth-1, bulk, bufs)
		}
		p.Unmake(m, u)
	}
	return n
}

// perftLastTwo is perft(2) with bulk counting on the plain path. The
// seat t that moves after this one is the same after each of its moves,
// and so is its king's cell, but after a capture of that king (a leaf):
// the slider checks and pins of t's king are found once, here, and reused
// after every move that changes none of the cells that walk reads
// (markKingLines); its pawn and knight checks likewise, looked for again
// only after a move that changes a cell within two files and two ranks of
// the king. The moves of t's free pieces are counted once too
// (freeCounts), and after each move again only for the pieces that read a
// cell it changed, wherever t's pins are as they were.
func (p *Position) perftLastTwo(bufs [][]Move) uint64 {
	moves := p.LegalMoves(bufs[1][:0])
	bufs[1] = moves[:0]
	s := p.turn
	t := p.nextSeat(s)
	kt := int(p.king[t])
	var pins [numKingDirs]int16
	var check bool
	np := 0
	cache := kt != 0 && t != s
	var leapCheck bool
	var fc freeCounts
	var lines [numCells]bool
	inc := false
	epMaybe := true
	if cache {
		check, np = p.sliderChecksAndPins(kt, t, &pins)
		leapCheck = p.leaperAttack(kt, t)
		inc = p.countFreeOf(t, np, &pins, &fc)
		p.markKingLines(kt, &lines)
		epMaybe = p.v.provides&(1<<OnEnPassant) != 0 || p.epBehind(s, t)
	}
	var n uint64
	for _, m := range moves {
		u := p.Make(m)
		switch {
		case u.kingCap:
			n++
		case cache && p.turn == t && int(p.king[t]) == kt && m.flag() < flagCastleShort &&
			!lines[m.from()] && !lines[m.to()] && !lines[u.capCell&cellMask]:
			inCheck := check || leapCheck
			if near(kt, m.from()) || near(kt, m.to()) || near(kt, int(u.capCell)) {
				inCheck = check || p.leaperAttack(kt, t)
			}
			free := -1
			if inc && !inCheck {
				free = fc.recount(&p.board, m.from(), m.to(), int(u.capCell))
			}
			n += uint64(p.countPlain(bufs[0][:0], kt, t, inCheck, np, &pins, free, epMaybe || m.flag() == flagDouble && p.pawnBehind(t, (m.from()+m.to())/2)))
		case inc && p.turn == t && int(p.king[t]) == kt && m.flag() < flagCastleShort:
			// A move on the king's lines: its checks and pins are
			// found again, and where the pins are as they were, so
			// are the free pieces.
			var pins2 [numKingDirs]int16
			inCheck, np2 := p.checkAndPins(kt, t, &pins2)
			free := -1
			if !inCheck && np2 == np && pins2 == pins {
				free = fc.recount(&p.board, m.from(), m.to(), int(u.capCell))
			}
			n += uint64(p.countPlain(bufs[0][:0], kt, t, inCheck, np2, &pins2, free, epMaybe || m.flag() == flagDouble && p.pawnBehind(t, (m.from()+m.to())/2)))
		default:
			n += uint64(p.CountLegal(bufs[0][:0]))
		}
		p.Unmake(m, u)
	}
	return n
}

// freeCounts is seat t's free pieces (countFree's) as perftLastTwo found
// them before the mover's moves: each one's cell, piece and count, their
// total, and for each cell the pieces whose count reads it (a bit each:
// the piece's own cell, its pawn steps or knight jumps, its rays up to
// the first piece). After a move only the pieces that read a changed cell
// are counted again.
type freeCounts struct {
	n     int
	total int
	cells [16]int16
	pcs   [16]Piece
	base  [16]int
	reads [numCells]uint16
	dest  *[256]uint8
	ps    pawnSteps
}

// countFreeOf fills fc with seat t's free pieces, none of the first np of
// pins among them. It reports false, fc being of no use, when t has more
// than 16 of them or not a single live king.
func (p *Position) countFreeOf(t Seat, np int, pins *[numKingDirs]int16, fc *freeCounts) bool {
	board := &p.board
	fc.ps = p.pawnStepsOf(t)
	fc.dest = &p.v.destTab[t]
	kings := 0
	for _, c16 := range p.plist[t][:p.pcount[t]] {
		c := int(c16) & cellMask
		pc := board[c]
		if pc&deadFlag != 0 || np > 0 && isPinned(c, pins, np) {
			continue
		}
		kind := pc.Kind()
		if kind == King {
			kings++
			continue
		}
		if fc.n == len(fc.cells) {
			return false
		}
		i := fc.n
		fc.n++
		fc.cells[i], fc.pcs[i] = int16(c), pc
		fc.base[i] = countOne(board, fc.dest, &fc.ps, c, kind)
		fc.total += fc.base[i]
		fc.markReads(board, c, kind, uint16(1)<<i)
	}
	return kings == 1
}

// markReads marks bit in fc.reads on the cells the count of the piece of
// kind kind on cell c reads.
func (fc *freeCounts) markReads(board *[numCells]Piece, c int, kind Kind, bit uint16) {
	r := &fc.reads
	r[c] |= bit
	d0, d1 := 0, 0
	switch kind {
	case Pawn:
		t := (c + fc.ps.fwd) & cellMask
		r[t] |= bit
		r[(t+fc.ps.fwd)&cellMask] |= bit
		r[(c+fc.ps.diagA)&cellMask] |= bit
		r[(c+fc.ps.diagB)&cellMask] |= bit
		return
	case Knight:
		for i := 8; i < 16; i++ {
			r[(c+dirDelta[i])&cellMask] |= bit
		}
		return
	case Bishop:
		d0, d1 = dirNE, dirNW+1
	case Rook:
		d0, d1 = dirN, dirW+1
	case Queen:
		d0, d1 = dirN, dirNW+1
	}
	for i := d0; i < d1; i++ {
		d := dirDelta[i]
		for t := (c + d) & cellMask; ; t = (t + d) & cellMask {
			r[t] |= bit
			if board[t] != NoPiece {
				break
			}
		}
	}
}

// recount returns the free pieces' count after a move that changed cells
// from, to and capture (and no other).
func (fc *freeCounts) recount(board *[numCells]Piece, from, to, capture int) int {
	n := fc.total
	for a := fc.reads[from&cellMask] | fc.reads[to&cellMask] | fc.reads[capture&cellMask]; a != 0; a &= a - 1 {
		i := bits.TrailingZeros16(a) & 15
		n -= fc.base[i]
		if c := int(fc.cells[i]) & cellMask; board[c] == fc.pcs[i] {
			n += countOne(board, fc.dest, &fc.ps, c, fc.pcs[i].Kind())
		}
	}
	return n
}

// epBehind reports whether a live pawn of seat t stands a diagonal step
// behind the target of an en-passant entry of a seat other than s: where
// none does, t has no en-passant capture after a move of s but onto the
// square s's own double step skips (no hook adding entries).
func (p *Position) epBehind(s, t Seat) bool {
	for e := Seat(0); e < NumSeats; e++ {
		if c := int(p.ep[e].target); c != 0 && e != s && p.pawnBehind(t, c) {
			return true
		}
	}
	return false
}

// pawnBehind reports whether a live pawn of seat t stands a diagonal step
// behind cell c, where it could capture onto c.
func (p *Position) pawnBehind(t Seat, c int) bool {
	v := p.v
	fwdDir := int(v.Seats[t].Forward)
	pawn := MakePiece(t, Pawn)
	const mask = Wall | deadFlag | 3<<seatShift | kindMask
	return p.board[(c-dirDelta[pawnDiag[fwdDir][0]])&cellMask]&mask == pawn ||
		p.board[(c-dirDelta[pawnDiag[fwdDir][1]])&cellMask]&mask == pawn
}

// markKingLines marks in lines the cells that sliderChecksAndPins reads
// from the king on cell k: along each of the eight lines, every cell up
// to the second piece or the first wall. A change elsewhere leaves its
// answer as it was.
func (p *Position) markKingLines(k int, lines *[numCells]bool) {
	for i := 0; i < numKingDirs; i++ {
		d := dirDelta[i]
		seen := 0
		for t := (k + d) & cellMask; ; t = (t + d) & cellMask {
			lines[t] = true
			q := p.board[t]
			if q == NoPiece {
				continue
			}
			seen++
			if q&Wall != 0 || seen == 2 {
				break
			}
		}
	}
}

// near reports whether cells a and b are at most two files and two ranks
// apart: where a pawn or a knight on b could attack a.
func near(a, b int) bool {
	df, dr := a%stride-b%stride, a/stride-b/stride
	return df >= -2 && df <= 2 && dr >= -2 && dr <= 2
}

// DivideEntry is one root move's share of a perft count.
type DivideEntry struct {
	Move  Move
	Text  string
	Nodes uint64
}

// Divide returns perft(depth) split by root move, in generation order.
func (p *Position) Divide(depth int, bulk bool) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var out []DivideEntry
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	for _, m := range p.LegalMoves(nil) {
		text := p.MoveText(m)
		u := p.Make(m)
		var n uint64 = 1
		if depth > 1 && !u.kingCap {
			n = p.perft(depth-1, bulk, bufs)
		}
		p.Unmake(m, u)
		out = append(out, DivideEntry{Move: m, Text: text, Nodes: n})
	}
	return out
}
