package rules

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
// the slider checks and pins of t's king are found once, here, and
// reused after every move that changes no cell on the king's eight lines;
// its pawn and knight checks likewise, looked for again only after a move
// that changes a cell within two files and two ranks of the king.
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
	if cache {
		check, np = p.sliderChecksAndPins(kt, t, &pins)
		leapCheck = p.leaperAttack(kt, t)
	}
	var n uint64
	for _, m := range moves {
		u := p.Make(m)
		switch {
		case u.kingCap:
			n++
		case cache && p.turn == t && int(p.king[t]) == kt && m.flag() < flagCastleShort &&
			!aligned(kt, m.from()) && !aligned(kt, m.to()) && !aligned(kt, int(u.capCell)):
			inCheck := check || leapCheck
			if near(kt, m.from()) || near(kt, m.to()) || near(kt, int(u.capCell)) {
				inCheck = check || p.leaperAttack(kt, t)
			}
			n += uint64(p.countPlain(bufs[0][:0], kt, t, inCheck, np, &pins))
		default:
			n += uint64(p.CountLegal(bufs[0][:0]))
		}
		p.Unmake(m, u)
	}
	return n
}

// aligned reports whether cells a and b share a rank, a file or a
// diagonal.
func aligned(a, b int) bool {
	df, dr := a%stride-b%stride, a/stride-b/stride
	return df == 0 || dr == 0 || df == dr || df == -dr
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
