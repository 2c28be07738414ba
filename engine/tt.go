package engine

// Transposition table flags: the stored score is exact, a lower bound
// (the search failed high) or an upper bound (it failed low).
const (
	flagExact uint8 = iota + 1
	flagLower
	flagUpper
)

// entry is one slot of the transposition table.
type entry struct {
	key   uint64
	move  Move
	score int32
	depth int8
	flag  uint8
}

// table is a fixed-size transposition table, replace-if-deeper-or-older.
type table struct {
	slots []entry
	mask  uint64
}

// newTable makes a table of about mb megabytes (a power of two of slots).
func newTable(mb int) *table {
	if mb < 1 {
		mb = 1
	}
	n := uint64(1)
	for n*2*16 <= uint64(mb)<<20 {
		n *= 2
	}
	return &table{slots: make([]entry, n), mask: n - 1}
}

// probe returns the entry stored for key.
func (t *table) probe(key uint64) (entry, bool) {
	e := t.slots[key&t.mask]
	return e, e.key == key && e.flag != 0
}

// store keeps a search result, preferring deeper results for one key.
func (t *table) store(key uint64, m Move, score, depth int, flag uint8) {
	e := &t.slots[key&t.mask]
	if e.key == key && int(e.depth) > depth && flag != flagExact {
		return
	}
	*e = entry{key: key, move: m, score: int32(score), depth: int8(depth), flag: flag}
}

// clear empties the table.
func (t *table) clear() { clear(t.slots) }

// toTT stores mate scores relative to the node, not the root.
func toTT(score, ply int) int {
	switch {
	case score > mateScore-maxPly*2:
		return score + ply
	case score < -mateScore+maxPly*2:
		return score - ply
	}
	return score
}

// fromTT turns a stored score back into one relative to the root.
func fromTT(score, ply int) int {
	switch {
	case score > mateScore-maxPly*2:
		return score - ply
	case score < -mateScore+maxPly*2:
		return score + ply
	}
	return score
}
