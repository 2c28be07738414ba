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
