// Package referee owns a live game on the physical board: it works out
// each move from what the reed switches saw, checks it with the rules
// engine and decides what the LEDs show.
//
// This file holds move inference, a pure function: the switches report
// presence only, never which piece, so a move is recognised by comparing
// the board's final occupancy with the occupancy each legal move would
// leave, and by the order of lifts and places when occupancy alone is
// ambiguous (every capture by one piece leaves the same occupied squares:
// the square where the piece was put down decides).
package referee

import (
	"slices"
	"time"

	"boardd/rules"
	"boardd/rules/essay"
	"boardd/rules/square"
)

// Touch is one debounced switch change: a piece lifted from a square or
// put down on one.
type Touch struct {
	Square square.Square
	Lift   bool
	// At is when the switch changed (the zero time: not known).
	At time.Time
}

// SlideOverlap is how long a piece slid from one square onto the next
// may keep both switches closed: a lift of the square it left later than
// this after it came down is another hand's.
const SlideOverlap = 80 * time.Millisecond

// SlideRest is how long a sliding piece rests on a square on its way
// before it comes down on the next (a capture's piece snatched off
// meanwhile). When the last thing the switches showed is the lift of a
// square a piece stood on longer before the landing next to it, the
// board does not judge at once: that piece may have been set down there
// and be in another hand now (the next player's), its move not made yet.
const SlideRest = 250 * time.Millisecond

// soon reports whether touch b came at most d after touch a, or either's
// time is not known.
func soon(a, b Touch, d time.Duration) bool {
	return a.At.IsZero() || b.At.IsZero() || b.At.Sub(a.At) <= d
}

// Observation is what the board saw since it was last quiet and in step
// with the game.
type Observation struct {
	// Trace lists the lifts and places in the order they happened.
	Trace []Touch
	// Final is the debounced occupancy now, after a quiet period.
	Final square.Set
	// After, when set, gives the position after move m and the legal
	// moves of whoever moves next, as the game's rules say (a seat with
	// no move passes, a mated one may be eliminated). Without it the
	// seat after m's mover in turn order moves next. It is used to read
	// two quick moves made before the board was quiet.
	After func(m rules.Move) (*rules.Position, []rules.Move)
	// After2, when set, is After for move m1 followed by m2 (the next
	// seat's): it is used to read three quick moves.
	After2 func(m1, m2 rules.Move) (*rules.Position, []rules.Move)
	// Leaves, when set, gives the occupancy the game's rules leave after
	// move m, pieces they take off included (an army removed by a mate
	// or a captured king): players who know the rules may take those off
	// before the board is judged.
	Leaves func(m rules.Move) square.Set
}

// VerdictKind says what Infer concluded.
type VerdictKind uint8

// Verdicts.
const (
	// NoChange: the board matches the game (a piece lifted and put back).
	NoChange VerdictKind = iota
	// Moved: exactly one legal move explains the board (Move).
	Moved
	// Promotion: one move explains the board but the pawn may become one
	// of several pieces (Candidates; the first is the variant's default).
	Promotion
	// Ambiguous: several different legal moves explain it (Candidates).
	Ambiguous
	// OutOfTurn: a legal move of another seat (Seat) explains it.
	OutOfTurn
	// Illegal: no legal move explains the board; Extra and Missing say how
	// it differs from the game's position.
	Illegal
)

var verdictNames = [...]string{"no change", "moved", "promotion", "ambiguous", "out of turn", "illegal"}

func (k VerdictKind) String() string { return verdictNames[k] }

// Verdict is Infer's conclusion.
type Verdict struct {
	Kind VerdictKind
	Move rules.Move // Moved, OutOfTurn
	// Then holds further moves by the following seats when the humans
	// made several moves before the board was quiet (Moved only).
	// For Ambiguous, Then holds the next seat's quick reply when every
	// reading of the first move has it (on the same squares).
	Then       []rules.Move
	Candidates []rules.Move // Promotion, Ambiguous
	// Others, for Moved, are moves the same switches fit less well (a
	// second hand at work through the whole move) that leave the same
	// board: later moves may show one of them was played (doubt.go).
	Others []rules.Move
	Seat   rules.Seat // OutOfTurn: whose move it would have been
	// Extra are occupied squares the position has empty; Missing are
	// empty squares the position has occupied (always filled).
	Extra, Missing square.Set
}

// Infer decides what the humans did. moves are the legal moves of the
// seat to move (Game.LegalMoves, which knows variant rules such as moving
// into check when mated); p is the position they apply to.
func Infer(p *rules.Position, moves []rules.Move, obs Observation) Verdict {
	cur := p.Occupancy()
	v := Verdict{Extra: obs.Final.AndNot(cur), Missing: cur.AndNot(obs.Final)}
	if obs.Final == cur {
		if c := swapsMade(p, moves, obs.Trace); len(c) > 0 {
			return decide(v, c) // the essay's partner pawn swap leaves the occupancy as it was
		}
		v.Kind = NoChange
		return v
	}
	cands, others := explaining(p, moves, obs)
	if len(cands) > 0 {
		v = decide(v, cands)
		if v.Kind == Moved {
			v.Others = others
		}
		if v.Kind == Moved && rules.HookOptions[essay.Options](p.Variant()).PartnerPawnSwap {
			v.Then = swapAfter(p, v.Move, obs) // a quick swap reply changes no switch
		}
		return v
	}
	// Two quick moves by consecutive seats before the board was quiet?
	if pairs, all := explainingPairs(p, moves, obs); len(pairs) == 1 {
		v.Kind, v.Move, v.Then = Moved, pairs[0][0], []rules.Move{pairs[0][1]}
		if len(all) > 1 && sameReply(all) != nil {
			for _, pr := range all {
				if pr[0] != v.Move {
					v.Others = append(v.Others, pr[0])
				}
			}
		}
		return v
	} else if len(pairs) > 1 {
		v.Kind = Ambiguous
		for _, pr := range pairs {
			v.Candidates = append(v.Candidates, pr[0])
		}
		v.Then = sameReply(pairs)
		return v
	}
	// Three quick moves by consecutive seats (the fastest hands)?
	if triples := explainingTriples(p, moves, obs); len(triples) == 1 {
		v.Kind, v.Move, v.Then = Moved, triples[0][0], triples[0][1:]
		return v
	} else if len(triples) > 1 {
		v.Kind = Ambiguous
		for _, tr := range triples {
			v.Candidates = append(v.Candidates, tr[0])
		}
		return v
	}
	// Does another seat's legal move explain it? Then it was out of turn.
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if s == p.Turn() || p.Eliminated(s) {
			continue
		}
		q := p.WithTurn(s)
		if c, _ := explaining(q, q.LegalMoves(nil), obs); len(c) > 0 {
			v.Kind, v.Move, v.Seat = OutOfTurn, c[0], s
			return v
		}
	}
	v.Kind = Illegal
	return v
}

// explaining returns the moves whose resulting occupancy equals the final
// one, narrowed by the trace: the piece was lifted from the move's origin
// and put down on its destination. When the trace narrows them to none
// (a capture so quick the switch never opened), occupancy alone is used.
// Where the trace fits several, those it fits best (fewest oddities: see
// oddities) are cands and the others are others, left out of cands.
func explaining(p *rules.Position, moves []rules.Move, obs Observation) (cands, others []rules.Move) {
	var byOcc []rules.Move
	for _, m := range moves {
		if occ := p.OccupancyAfter(m); occ == obs.Final || removedToo(m, occ, obs) {
			byOcc = append(byOcc, m)
		}
	}
	if len(byOcc) <= 1 {
		return byOcc, nil
	}
	var byTrace []rules.Move
	var odd []int
	for _, m := range byOcc {
		// lifted from its square, then put down on its destination (a
		// neighbour nudged before the move does not count), and that
		// destination's last event is the put-down
		i := index(obs.Trace, 0, m.From(), true)
		if j := index(obs.Trace, i+1, m.To(), false); i >= 0 && j >= 0 && placedLast(obs.Trace, m.To()) && inHand(obs.Trace, i, j, m) {
			byTrace = append(byTrace, m)
			odd = append(odd, oddities(obs.Trace, i, j, m, square.Set{})+touchesLeft(obs.Trace, j)+strayPlaces(obs.Trace, []int{i}, []int{j}))
		}
	}
	if len(byTrace) == 0 {
		return byOcc, nil
	}
	byTrace, odd = onTheWay(byTrace, odd, func(m rules.Move) bool {
		i := index(obs.Trace, 0, m.From(), true)
		return offWay(obs.Trace, i, index(obs.Trace, i+1, m.To(), false), m, square.Set{})
	})
	cands = fittest(byTrace, odd)
	for _, m := range byTrace {
		if !slices.Contains(cands, m) {
			others = append(others, m)
		}
	}
	return cands, others
}

// oddities counts what the trace needs, besides move m's own hands, to
// be read as m with its piece lifted at trace index i (or lifted again
// later, after it was set back) and put down on its destination at j: a second hand at work through the whole move (see
// straddled), a piece lifted and set back while m's piece was in the hand
// (where another reading has that touch after m's piece came down: the
// next player's hand, a neighbour knocked), and m's piece resting on a
// square off its way (a hand carries a piece toward where it goes). Two
// captures by one piece leave the same board; these say which the hands
// made.
func oddities(tr []Touch, i, j int, m rules.Move, vacated square.Set) int {
	i = carriedFrom(tr, i, j, m)
	n := 0
	if straddled(tr, i, j, m, vacated) {
		n++
	}
	if touchedInHand(tr, i, j, m) {
		n++
	}
	if astray(tr, i, j, m, vacated) {
		n++
	}
	return n
}

// touchesLeft counts the touches of a trace (a piece lifted and set back
// on its square, the next event there) that a reading leaves to other
// hands: all but a capture's, where the piece taken off is followed on
// its square by the capturing piece, put down at trace index js[k]. Of
// two readings of one trace, the one that needs fewer is the hands' (a
// piece that rested on the way and came down on a capture, not another
// piece touched while the next player took the piece that rested there).
func touchesLeft(tr []Touch, js ...int) int {
	n := 0
	for k, t := range tr {
		if !t.Lift {
			continue
		}
		if next := nextOn(tr, k); next >= 0 && !tr[next].Lift && !slices.Contains(js, next) {
			n++
		}
	}
	return n
}

// strayPlaces counts the put-downs of a trace that a reading leaves
// unexplained: on an empty square, neither a move's landing (at trace
// indexes js) nor during a move's carry (between a lift at is[k] and its
// landing js[k]: a piece resting on its way), nor a piece set back where
// it was lifted. A pawn's double step slid over its first square and
// taken en passant leaves the same board as a single step taken there;
// only such a put-down tells them apart.
func strayPlaces(tr []Touch, is, js []int) int {
	n := 0
	for k, t := range tr {
		if t.Lift || slices.Contains(js, k) || emptiedBefore(tr, k, t.Square) {
			continue
		}
		carried := false
		for w := range is {
			carried = carried || is[w] < k && k < js[w]
		}
		if !carried {
			n++
		}
	}
	return n
}

// nextOn returns the index of the next event on trace index k's square
// after k, or -1.
func nextOn(tr []Touch, k int) int {
	for i := k + 1; i < len(tr); i++ {
		if tr[i].Square == tr[k].Square {
			return i
		}
	}
	return -1
}

// vacated is the squares moves left empty, their origins and the
// squares their pieces rested on (put down between a move's lift at
// is[k] and its landing at js[k], lifted again): where a later move's
// piece, resting on its way, is put down on an empty square although a
// piece was lifted there before in the trace.
func vacated(tr []Touch, moves []rules.Move, is, js []int) square.Set {
	var out square.Set
	for w, m := range moves {
		out.Add(m.From())
		for k := is[w] + 1; k < js[w]; k++ {
			if x := tr[k].Square; !tr[k].Lift && x != m.To() && !emptiedBefore(tr, k, x) && index(tr, k+1, x, true) >= 0 {
				out.Add(x)
			}
		}
	}
	return out
}

// carriedFrom returns the trace index of the last lift of move m's piece
// from its square before it came down at j (at or after i): where it was
// carried from, after any lift and set back before.
func carriedFrom(tr []Touch, i, j int, m rules.Move) int {
	for k := i + 1; k < j; k++ {
		if tr[k].Lift && tr[k].Square == m.From() {
			i = k
		}
	}
	return i
}

// offWay reports whether move m's piece, lifted at trace index i and put
// down at j, rested on a square off its way (astray): such a reading
// does not fit the hands when another does, and is not kept open.
func offWay(tr []Touch, i, j int, m rules.Move, vacated square.Set) bool {
	return astray(tr, carriedFrom(tr, i, j, m), j, m, vacated)
}

// touchedInHand reports whether, while the piece lifted at trace index i
// was carried to move m's destination (put down at j), another piece was
// lifted and set back on its square (m's own squares and a castling
// rook's aside).
func touchedInHand(tr []Touch, i, j int, m rules.Move) bool {
	rook := square.None
	if c, _ := m.IsCastle(); c {
		rook, _ = m.RookSquares()
	}
	for k := i + 1; k < j; k++ {
		if x := tr[k].Square; tr[k].Lift && x != m.From() && x != m.To() && x != rook && index(tr[:j], k+1, x, false) >= 0 {
			return true
		}
	}
	return false
}

// astray reports whether the piece carried from trace index i to move m's
// destination (put down at j) rested on the way (on an empty square, or
// one the moves before left: vacated) on a square off its way:
// one that is further from the origin and the destination together than
// a step aside from the straight way between them.
func astray(tr []Touch, i, j int, m rules.Move, vacated square.Set) bool {
	rook := square.None
	if c, _ := m.IsCastle(); c {
		_, rook = m.RookSquares()
	}
	way := distance(m.From(), m.To())
	for k := i + 1; k < j; k++ {
		x := tr[k].Square
		if tr[k].Lift || x == m.To() || x == rook || emptiedBefore(tr, k, x) && !vacated.Has(x) {
			continue
		}
		if distance(m.From(), x)+distance(x, m.To()) > way+1 {
			return true
		}
	}
	return false
}

// straddled reports whether, while the piece lifted at trace index i was
// carried to move m's destination (put down at j), a piece lifted before i
// was put back: a second hand at work through the whole move. (A square
// a move before left or only rested on, vacated, is no piece put back:
// m's piece rests there in turn.) Where the
// same switches fit a reading without that (a piece captured, then
// another touched by the next player), that reading is preferred.
func straddled(tr []Touch, i, j int, m rules.Move, vacated square.Set) bool {
	rook := square.None
	if c, _ := m.IsCastle(); c {
		_, rook = m.RookSquares()
	}
	for k := i + 1; k < j; k++ {
		if x := tr[k].Square; !tr[k].Lift && x != m.To() && x != rook && emptiedBefore(tr, i, x) && !lastLift(tr, i, k, x) && !vacated.Has(x) {
			return true
		}
	}
	return false
}

// lastLift reports whether square s was lifted between trace indexes from
// (inclusive) and to (exclusive).
func lastLift(tr []Touch, from, to int, s square.Square) bool {
	for k := from; k < to; k++ {
		if tr[k].Square == s && tr[k].Lift {
			return true
		}
	}
	return false
}

// removedToo reports whether the board shows move m (occupancy occ after
// it) with the pieces the rules take off after it already taken off.
func removedToo(m rules.Move, occ square.Set, obs Observation) bool {
	if obs.Leaves == nil || obs.Final.AndNot(occ).Len() > 0 || occ.AndNot(obs.Final).Len() < 2 {
		return false // cheap filter: pieces beyond the move gone, none come
	}
	return obs.Leaves(m) == obs.Final
}

// RulesCleared reports whether the board shows a legal move made (its
// piece lifted from its origin and put down on its destination) together
// with pieces the rules take off after it (obs.Leaves): the players took
// them off before the board was judged. A piece held in the hand never
// looks like this, as the pieces the rules would remove still stand.
func RulesCleared(p *rules.Position, moves []rules.Move, obs Observation) bool {
	for _, m := range moves {
		i := index(obs.Trace, 0, m.From(), true)
		if i < 0 || index(obs.Trace, i+1, m.To(), false) < 0 || !placedLast(obs.Trace, m.To()) {
			continue
		}
		if occ := p.OccupancyAfter(m); occ != obs.Final && removedToo(m, occ, obs) {
			return true
		}
	}
	return false
}

// explainingPairs looks for a move by the seat to move followed by a move
// of the next seat that together leave the final occupancy, each move's
// origin lifted and destination put down in the trace. Promotions are
// taken as the default piece. It returns the pairs the trace fits best
// (fewest oddities) and all.
func explainingPairs(p *rules.Position, moves []rules.Move, obs Observation) (pairs, all [][2]rules.Move) {
	var out [][2]rules.Move
	var odd []int
	var buf [256]rules.Move
	tr := obs.Trace
	for _, m1 := range moves {
		// m1's piece came off its square and was put down on its
		// destination before the next seat lifted anything of its own.
		i1 := index(tr, 0, m1.From(), true)
		j1 := index(tr, i1+1, m1.To(), false)
		if i1 < 0 || j1 < 0 || !defaultPromo(moves, m1) || !inHand(tr, i1, j1, m1) {
			continue
		}
		var q *rules.Position
		var second []rules.Move
		if obs.After != nil {
			if q, second = obs.After(m1); q == nil {
				continue // the game ended with m1
			}
		} else {
			q = p.Clone()
			q.Make(m1)
			second = q.LegalMoves(buf[:0])
		}
		for _, m2 := range second {
			// m2's piece was lifted after m1 came down, and put down on its
			// destination after that lift.
			i2 := index(tr, j1+1, m2.From(), true)
			j2 := index(tr, i2+1, m2.To(), false)
			if i2 < 0 || j2 < 0 || !placedLast(tr, m2.To()) || !defaultPromo(second, m2) || !inHand(tr, i2, j2, m2) {
				continue
			}
			if q.OccupancyAfter(m2) == obs.Final {
				out = append(out, [2]rules.Move{m1, m2})
				odd = append(odd, oddities(tr, i1, j1, m1, square.Set{})+oddities(tr, i2, j2, m2, vacated(tr, []rules.Move{m1}, []int{i1}, []int{j1}))+touchesLeft(tr, j1, j2)+strayPlaces(tr, []int{i1, i2}, []int{j1, j2}))
			}
		}
	}
	out, odd = onTheWay(out, odd, func(pr [2]rules.Move) bool {
		i1 := index(tr, 0, pr[0].From(), true)
		j1 := index(tr, i1+1, pr[0].To(), false)
		i2 := index(tr, j1+1, pr[1].From(), true)
		return offWay(tr, i1, j1, pr[0], square.Set{}) || offWay(tr, i2, index(tr, i2+1, pr[1].To(), false), pr[1], vacated(tr, pr[:1], []int{i1}, []int{j1}))
	})
	return fittest(out, odd), out
}

// onTheWay drops the readings for which astray says a piece rested off
// its way, when another reading is left (odd[k] is reading k's oddities,
// dropped with it).
func onTheWay[T any](readings []T, odd []int, astray func(T) bool) ([]T, []int) {
	var keep []T
	var keepOdd []int
	for k, r := range readings {
		if !astray(r) {
			keep = append(keep, r)
			keepOdd = append(keepOdd, odd[k])
		}
	}
	if len(keep) == 0 {
		return readings, odd
	}
	return keep, keepOdd
}

// fittest returns the readings with the fewest oddities (odd[k] is
// reading k's).
func fittest[T any](readings []T, odd []int) []T {
	if len(readings) == 0 {
		return nil
	}
	best := slices.Min(odd)
	var out []T
	for k, r := range readings {
		if odd[k] == best {
			out = append(out, r)
		}
	}
	return out
}

// sameReply returns the second move shared, on the same squares, by
// pairs whose first moves all differ, or nil.
func sameReply(pairs [][2]rules.Move) []rules.Move {
	for i, pr := range pairs {
		for _, q := range pairs[:i] {
			if q[0] == pr[0] || q[1].From() != pr[1].From() || q[1].To() != pr[1].To() {
				return nil
			}
		}
	}
	return []rules.Move{pairs[0][1]}
}

// explainingTriples looks for three moves by consecutive seats, each
// lifted after the one before was put down, that together leave the
// final occupancy: three players who moved before the board was quiet.
// Promotions are taken as the default piece. Like explainingPairs, it
// returns the readings the trace fits best (fewest oddities).
func explainingTriples(p *rules.Position, moves []rules.Move, obs Observation) [][]rules.Move {
	var out [][]rules.Move
	var odd []int
	tr := obs.Trace
	if len(tr) < 6 {
		return nil // three lifts and three put-downs at least
	}
	after := obs.After
	if after == nil {
		after = func(m rules.Move) (*rules.Position, []rules.Move) {
			q := p.Clone()
			q.Make(m)
			return q, q.LegalMoves(nil)
		}
	}
	after2 := obs.After2
	if after2 == nil {
		after2 = func(m1, m2 rules.Move) (*rules.Position, []rules.Move) {
			q := p.Clone()
			q.Make(m1)
			q.Make(m2)
			return q, q.LegalMoves(nil)
		}
	}
	for _, m1 := range moves {
		i1 := index(tr, 0, m1.From(), true)
		j1 := index(tr, i1+1, m1.To(), false)
		if i1 < 0 || j1 < 0 || !defaultPromo(moves, m1) || !inHand(tr, i1, j1, m1) {
			continue
		}
		q2, second := after(m1)
		if q2 == nil {
			continue
		}
		for _, m2 := range second {
			i2 := index(tr, j1+1, m2.From(), true)
			j2 := index(tr, i2+1, m2.To(), false)
			if i2 < 0 || j2 < 0 || !defaultPromo(second, m2) || !inHand(tr, i2, j2, m2) {
				continue
			}
			q3, third := after2(m1, m2)
			if q3 == nil {
				continue
			}
			for _, m3 := range third {
				i3 := index(tr, j2+1, m3.From(), true)
				j3 := index(tr, i3+1, m3.To(), false)
				if i3 < 0 || j3 < 0 || !placedLast(tr, m3.To()) || !defaultPromo(third, m3) || !inHand(tr, i3, j3, m3) {
					continue
				}
				if q3.OccupancyAfter(m3) == obs.Final {
					line := []rules.Move{m1, m2, m3}
					out = append(out, line)
					odd = append(odd, oddities(tr, i1, j1, m1, square.Set{})+oddities(tr, i2, j2, m2, vacated(tr, []rules.Move{m1}, []int{i1}, []int{j1}))+oddities(tr, i3, j3, m3, vacated(tr, []rules.Move{m1, m2}, []int{i1, i2}, []int{j1, j2}))+touchesLeft(tr, j1, j2, j3)+strayPlaces(tr, []int{i1, i2, i3}, []int{j1, j2, j3}))
				}
			}
		}
	}
	return fittest(out, odd)
}

// inHand reports whether the piece lifted at trace index i can be the one
// put down on move m's destination at index j: every piece put down on
// another square in between (but a castling rook's) refills a square
// emptied before (a neighbour set back, a piece put back), or is lifted
// again before j (the piece resting on its way, a drag) or right after j
// (a slide: the piece came down on its destination while it still
// covered the square before, both switches closed a moment). A piece put
// down on an empty square and left there is the moving piece, which then
// never reached m's destination.
func inHand(tr []Touch, i, j int, m rules.Move) bool {
	rook := square.None
	if c, _ := m.IsCastle(); c {
		_, rook = m.RookSquares()
	}
	for k := i + 1; k < j; k++ {
		x := tr[k].Square
		if tr[k].Lift || x == m.To() || x == rook {
			continue
		}
		if !emptiedBefore(tr, k, x) && index(tr[:j], k+1, x, true) < 0 && !slideTail(tr, i, j, x, m.To()) {
			return false
		}
	}
	return true
}

// slideTail reports whether square x, next to destination to, where the
// piece carried from trace index i to to (put down at j) rested, was
// lifted within SlideOverlap after j (untimed: before anyone lifted
// another piece, the destination's own bounce and the other squares it
// rested on aside): the tail of a slide. A piece covers two switches only on
// neighbouring squares, and only a moment.
func slideTail(tr []Touch, i, j int, x, to square.Square) bool {
	if distance(x, to) != 1 {
		return false
	}
	if !tr[j].At.IsZero() {
		// Timed: the first lift of x after the landing, within
		// SlideOverlap (another hand may have lifted a piece meanwhile,
		// in the same scan).
		k := index(tr, j+1, x, true)
		return k >= 0 && soon(tr[j], tr[k], SlideOverlap)
	}
	for k := j + 1; k < len(tr); k++ {
		s := tr[k].Square
		switch {
		case !tr[k].Lift || s == to:
		case s == x:
			return true
		case index(tr[:j], i+1, s, false) < 0 || emptiedBefore(tr, index(tr[:j], i+1, s, false), s):
			return false // a piece that was not resting on the way
		}
	}
	return false
}

// emptiedBefore reports whether the last event on square s before trace
// index k lifted a piece from it.
func emptiedBefore(tr []Touch, k int, s square.Square) bool {
	for k--; k >= 0; k-- {
		if tr[k].Square == s {
			return tr[k].Lift
		}
	}
	return false
}

// index returns the position of the first event at or after from that
// lifts (or places) a piece on s, or -1.
func index(tr []Touch, from int, s square.Square, lift bool) int {
	if from < 0 {
		return -1
	}
	for i := from; i < len(tr); i++ {
		if tr[i].Square == s && tr[i].Lift == lift {
			return i
		}
	}
	return -1
}

// defaultPromo reports whether m is the first of its squares' moves (the
// default promotion, or the only move).
func defaultPromo(moves []rules.Move, m rules.Move) bool {
	for _, x := range moves {
		if x.From() == m.From() && x.To() == m.To() {
			return x == m
		}
	}
	return false
}

// placedLast reports whether the last event on square s put a piece down.
func placedLast(tr []Touch, s square.Square) bool {
	for i := len(tr) - 1; i >= 0; i-- {
		if tr[i].Square == s {
			return !tr[i].Lift
		}
	}
	return false
}

// decide turns the explaining moves into a verdict: one move, one move
// with a choice of promotion, or an ambiguity to ask about.
func decide(v Verdict, cands []rules.Move) Verdict {
	if len(cands) == 1 {
		v.Kind, v.Move = Moved, cands[0]
		return v
	}
	same := true
	for _, m := range cands[1:] {
		same = same && m.From() == cands[0].From() && m.To() == cands[0].To()
	}
	if same {
		v.Kind, v.Candidates = Promotion, cands
		return v
	}
	v.Kind, v.Candidates = Ambiguous, cands
	return v
}

// The four-player chess essay's partner pawn swap (rules.Move.IsSwap): a
// pawn and its partner's pawn exchange squares. Both squares are occupied
// before and after, so the switches' final occupancy is unchanged and only
// the trace shows the move. Two pawns cannot pass through each other: at
// some moment both squares were empty (one pawn in the hand or set aside,
// the other lifted), then both were filled again. That is what a swap
// looks like, and a lift-and-put-back of one piece never does. (Lifting
// both pawns and putting each back on its own square looks the same as a
// swap; the board reads it as the swap when the swap is legal, and a
// takeback command undoes it: putting the pawns back cannot, since the
// occupancy never changed.) The en passant form moves the pawn to an empty
// square and is read like any move.

// swapsMade returns the exchanging swaps among moves whose two squares
// were both empty at one moment of the trace and are both filled at its end.
func swapsMade(p *rules.Position, moves []rules.Move, tr []Touch) []rules.Move {
	var out []rules.Move
	for _, m := range moves {
		if sw, ep := m.IsSwap(); sw && !ep && bothEmptied(p.Occupancy(), tr, m.From(), m.To()) {
			out = append(out, m)
		}
	}
	return out
}

// bothEmptied reports whether squares a and b, occupied in occ, were empty
// at the same moment while the trace was applied.
func bothEmptied(occ square.Set, tr []Touch, a, b square.Square) bool {
	if !occ.Has(a) || !occ.Has(b) {
		return false
	}
	for _, t := range tr {
		if t.Lift {
			occ.Remove(t.Square)
		} else {
			occ.Add(t.Square)
		}
		if !occ.Has(a) && !occ.Has(b) {
			return true
		}
	}
	return false
}

// SwapUnderway reports whether the board shows a partner pawn swap half
// made: both of a legal swap's squares have been empty at once, and the
// only squares now empty that the position fills are among those two (one
// pawn is in the hand). The referee waits for the second pawn instead of
// judging the board, where the first pawn alone on the partner's square
// could pass for a capture by occupancy.
func SwapUnderway(p *rules.Position, moves []rules.Move, tr []Touch, final square.Set) bool {
	cur := p.Occupancy()
	if final == cur || final.AndNot(cur).Len() > 0 {
		return false
	}
	missing := cur.AndNot(final)
	for _, m := range moves {
		if sw, ep := m.IsSwap(); !sw || ep {
			continue
		}
		var pair square.Set
		pair.Add(m.From())
		pair.Add(m.To())
		if missing.AndNot(pair).Len() == 0 && bothEmptied(cur, tr, m.From(), m.To()) {
			return true
		}
	}
	return false
}

// swapAfter looks for a swap by the next seat made before the board was
// quiet after m: occupancy cannot show it (the exchange leaves it as it
// was), so without this the board would hold the swapped pawns while the
// game does not. It returns the swap, or nil.
func swapAfter(p *rules.Position, m rules.Move, obs Observation) []rules.Move {
	tr := obs.Trace
	j := index(tr, index(tr, 0, m.From(), true)+1, m.To(), false)
	if j < 0 || j+1 >= len(tr) {
		return nil
	}
	var q *rules.Position
	var second []rules.Move
	if obs.After != nil {
		if q, second = obs.After(m); q == nil {
			return nil
		}
	} else {
		q = p.Clone()
		q.Make(m)
		second = q.LegalMoves(nil)
	}
	for _, s := range swapsMade(q, second, tr[j+1:]) {
		if defaultPromo(second, s) {
			return []rules.Move{s}
		}
	}
	return nil
}
