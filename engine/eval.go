package engine

import (
	"cmp"

	"boardd/rules"
	"boardd/rules/square"
)

// Piece values in centipawns. Bishops are worth more than knights on the
// 160-square board (long diagonals, four directions of attack), as in the
// four-player engines' tables.
var pieceValue = [7]int{0, 100, 300, 400, 500, 1000, 0}

// pointValue is what capturing a live piece scores in FFA (chess.com:
// P1 N3 B5 R5 Q9; a promoted queen 1; a king 20).
var pointValue = [7]int{0, 1, 3, 5, 5, 9, 20}

const (
	// pointWeight is a point of FFA score in centipawns.
	pointWeight = 100
	// elimValue is what being eliminated (mated, king lost) costs a seat.
	elimValue = 3000
	// mateScore is a won game; scores above mateScore-maxPly are mates.
	mateScore = 1_000_000
	infinity  = mateScore + 1
)

// utility is how well seat s stands, in centipawns, by its own goal:
// material, pawns advancing to promotion, minor pieces and queen towards
// the centre, a king with its own men around it, and in FFA the points
// scored so far (gained holds points scored inside the search).
func (e *searcher) utility(s Seat) int {
	b := e.b
	u := 0
	if b.scoresPoints && !e.plainEval {
		u += (b.points(s) + e.gained[s]) * pointWeight
	}
	if e.out[s] != 0 || b.eliminated(s) {
		return u - elimValue
	}
	u += e.material[s]
	if !b.ordinaryKings && e.kingSq[s] == square.None {
		return u - elimValue
	}
	return u + e.positional[s]
}

// scan reads the board once and fills material, positional terms and
// king squares for every seat.
func (e *searcher) scan() {
	b := e.b
	for s := range e.material {
		e.material[s] = 0
		e.positional[s] = 0
		e.kingSq[s] = square.None
	}
	e.attackers = e.attackers[:0]
	for i, sq := range b.squares {
		pc := b.piece(i)
		if pc.kind == 0 || pc.dead {
			continue
		}
		s := pc.seat
		if (e.trial || e.kingZone) && pc.kind >= kKnight && pc.kind <= kQueen {
			e.attackers = append(e.attackers, attacker{sq: sq, seat: s, kind: pc.kind})
		}
		switch pc.kind {
		case kPawn:
			e.material[s] += pieceValue[kPawn]
			if d := b.pawnGoal[s][i]; d >= 0 && d < 10 {
				a := int(10 - d)
				if e.kingZone {
					// Teams: the first steps are worth little (they
					// open the king to three armies), the last ones
					// much, promotion being the way to a mating force.
					e.positional[s] += a * a * a / 5
				} else {
					e.positional[s] += a * a * 2
				}
			}
		case kKnight, kBishop:
			e.material[s] += pieceValue[pc.kind]
			e.positional[s] += int(b.centre[i]) * 4
		case kQueen:
			e.material[s] += pieceValue[kQueen]
			e.positional[s] += int(b.centre[i]) * 2
		case kRook:
			e.material[s] += pieceValue[kRook]
		case kKing:
			e.kingSq[s] = sq
			if b.ordinaryKings {
				e.material[s] += 600
				continue
			}
			e.positional[s] += e.kingShelter(sq, s)
		}
	}
	if !b.ordinaryKings && e.trial {
		e.kingTropism()
	}
	if e.kingZone && !e.lazyZone {
		e.kingZoneAttacks()
	}
}

// zoneWeight is what an enemy piece attacking a king's zone (the king's
// square and its neighbours) costs, by kind; zoneScale multiplies the sum
// by the number of attackers (in percent), since pieces that attack a king
// together mate it where one alone does not.
var (
	zoneWeight = [7]int{kKnight: 25, kBishop: 25, kRook: 35, kQueen: 55}
	zoneScale  = [...]int{0, 40, 100, 140, 180, 220, 250}
)

// kingZoneAttacks charges each king (partnership modes) for the enemy
// knights, bishops, rooks and queens that attack its zone through empty
// squares, more than linearly in their number, and twice when the king has
// no man of its own beside it while an enemy queen is on the board. Most
// chess.com Teams games end in a mate, usually by two or three pieces of
// both opponents converging on a king whose shelter is gone; material and
// shelter alone let the bot walk into them.
func (e *searcher) kingZoneAttacks() {
	b := e.b
	var queens [numSeats]bool
	for _, a := range e.attackers {
		if a.kind == kQueen {
			queens[a.seat] = true
		}
	}
	for s := Seat(0); s < numSeats; s++ {
		k := e.kingSq[s]
		if k == square.None {
			continue
		}
		kf, kr := k.File(), k.Rank()
		sum, n, enemyQueen := 0, 0, false
		for _, a := range e.attackers {
			if !b.canCapture[a.seat][s] || e.sameTeam(a.seat, s) {
				continue
			}
			if queens[a.seat] {
				enemyQueen = true
			}
			// A line through the zone passes within one file or rank
			// of the king (rooks), or one of its two diagonals
			// within two (bishops).
			dx, dy := abs(a.sq.File()-kf), abs(a.sq.Rank()-kr)
			orth, diag := dx <= 1 || dy <= 1, abs(dx-dy) <= 2
			switch a.kind {
			case kKnight:
				if max(dx, dy) > 3 {
					continue
				}
			case kBishop:
				if !diag {
					continue
				}
			case kRook:
				if !orth {
					continue
				}
			case kQueen:
				if !orth && !diag {
					continue
				}
			}
			if e.hitsZone(a, kf, kr) {
				sum += zoneWeight[a.kind]
				n++
			}
		}
		danger := sum * zoneScale[min(n, len(zoneScale)-1)] / 100
		if enemyQueen {
			if e.ownNeighbours(k, s) == 0 {
				danger += 60
			}
			danger += shieldMissing * (3 - e.shieldPawns(k, s))
		}
		if !enemyQueen {
			danger /= 2
		}
		e.positional[s] -= danger
	}
}

// hitsZone reports whether piece a attacks a square of the 3×3 zone
// centred on (kf, kr) (through empty squares, for the sliders).
func (e *searcher) hitsZone(a attacker, kf, kr int) bool {
	af, ar := a.sq.File(), a.sq.Rank()
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			zf, zr := kf+df, kr+dr
			if zf < 0 || zr < 0 || zf >= e.b.files || zr >= e.b.ranks {
				continue
			}
			if e.reaches(a.kind, af, ar, zf, zr) {
				return true
			}
		}
	}
	return false
}

// reaches reports whether a knight, bishop, rook or queen on (af, ar)
// attacks (zf, zr), a square on the board, through empty squares.
func (e *searcher) reaches(kind uint8, af, ar, zf, zr int) bool {
	fx, rx := zf-af, zr-ar
	ax, ay := abs(fx), abs(rx)
	switch {
	case ax+ay == 0:
		return false
	case kind == kKnight:
		return ax*ay == 2
	case kind == kBishop && ax != ay,
		kind == kRook && fx != 0 && rx != 0,
		kind == kQueen && ax != ay && fx != 0 && rx != 0:
		return false
	}
	return e.clearRay(af, ar, zf, zr)
}

// clearRay reports whether the squares strictly between (af, ar) and
// (zf, zr), which lie on one line, are on the board and empty, and the
// target square is on the board.
func (e *searcher) clearRay(af, ar, zf, zr int) bool {
	b := e.b
	sf, sr := cmp.Compare(zf, af), cmp.Compare(zr, ar)
	f, r := af+sf, ar+sr
	for {
		i := b.squareIndex(square.At(f, r))
		if i < 0 {
			return false
		}
		if f == zf && r == zr {
			return true
		}
		if pc := b.cells[i]; pc.IsPiece() {
			return false
		}
		f, r = f+sf, r+sr
	}
}

// shieldMissing is what each missing pawn of the three in front of a king
// costs while an enemy queen is on the board.
const shieldMissing = 20

// shieldPawns counts seat s's pawns on the three squares in front of its
// king on k (forward being the seat's pawn direction) or one further.
func (e *searcher) shieldPawns(k square.Square, s Seat) int {
	b := e.b
	ff, fr := e.forward(s)
	n := 0
	for side := -1; side <= 1; side++ {
		// side steps across the forward direction.
		for step := 1; step <= 2; step++ {
			f, r := k.File()+ff*step+fr*side, k.Rank()+fr*step+ff*side
			if f < 0 || r < 0 || f >= b.files || r >= b.ranks {
				continue
			}
			if i := b.squareIndex(square.At(f, r)); i >= 0 {
				if pc := b.piece(i); pc.kind == kPawn && !pc.dead && pc.seat == s {
					n++
					break
				}
			}
		}
	}
	return n
}

// forward is seat s's pawn step as (files, ranks).
func (e *searcher) forward(s Seat) (ff, fr int) {
	switch e.b.v.Seats[s].Forward {
	case rules.North:
		fr = 1
	case rules.South:
		fr = -1
	case rules.East:
		ff = 1
	case rules.West:
		ff = -1
	}
	return ff, fr
}

// attacks reports whether a live man of seat c attacks square k.
func (e *searcher) attacks(c Seat, k square.Square) bool {
	b := e.b
	kf, kr := k.File(), k.Rank()
	ff, fr := e.forward(c)
	for i, sq := range b.squares {
		pc := b.piece(i)
		if pc.kind == 0 || pc.dead || pc.seat != c {
			continue
		}
		af, ar := sq.File(), sq.Rank()
		hit := false
		switch pc.kind {
		case kPawn: // one step forward and one across
			fx, rx := kf-af, kr-ar
			hit = (fx == ff+fr || fx == ff-fr) && (rx == fr+ff || rx == fr-ff) && abs(fx)+abs(rx) == 2
		case kKing:
			hit = max(abs(kf-af), abs(kr-ar)) == 1
		default:
			hit = e.reaches(pc.kind, af, ar, kf, kr)
		}
		if hit {
			return true
		}
	}
	return false
}

// ownNeighbours counts seat s's men next to its king on k.
func (e *searcher) ownNeighbours(k square.Square, s Seat) int {
	b := e.b
	n := 0
	f, r := k.File(), k.Rank()
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if (df != 0 || dr != 0) && f+df >= 0 && r+dr >= 0 && f+df < b.files && r+dr < b.ranks {
				if i := b.squareIndex(square.At(f+df, r+dr)); i >= 0 {
					if pc := b.piece(i); pc.kind != 0 && !pc.dead && pc.seat == s {
						n++
					}
				}
			}
		}
	}
	return n
}

// abs is the absolute value of x.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// attacker is a piece that can join an attack on a king.
type attacker struct {
	sq   square.Square
	seat Seat
	kind uint8
}

// tropism is the danger an enemy piece at Chebyshev distance 1, 2, 3 from
// a king brings it: three opponents can gang up on one king, and most
// four-player games are decided by a mate.
var tropism = [7][4]int{
	kKnight: {0, 18, 12, 6},
	kBishop: {0, 15, 10, 5},
	kRook:   {0, 24, 16, 8},
	kQueen:  {0, 45, 30, 15},
}

// kingTropism charges each king for the enemy pieces near it.
func (e *searcher) kingTropism() {
	b := e.b
	for s := Seat(0); s < numSeats; s++ {
		k := e.kingSq[s]
		if k == square.None {
			continue
		}
		kf, kr := k.File(), k.Rank()
		danger, n := 0, 0
		for _, a := range e.attackers {
			if !b.canCapture[a.seat][s] {
				continue
			}
			df, dr := a.sq.File()-kf, a.sq.Rank()-kr
			if df < 0 {
				df = -df
			}
			if dr < 0 {
				dr = -dr
			}
			d := max(df, dr)
			if d <= 3 {
				danger += tropism[a.kind][d]
				n++
			}
		}
		// Attackers together are worse than one by one.
		if n >= 2 {
			danger += danger * (n - 1) / 4
		}
		e.positional[s] -= danger
	}
}

// kingShelter counts the seat's own men next to its king (a king in the
// open is a target for three opponents at once).
func (e *searcher) kingShelter(k square.Square, s Seat) int {
	n := min(e.ownNeighbours(k, s), 4)
	return n*15 - int(e.b.centre[e.b.squareIndex(k)])*3
}

// evaluate scores the position for the side to move's team: its utility
// minus the opponents'. In the paranoid modes the root seat stands alone
// against the other three, whose utilities count a third each.
func (e *searcher) evaluate() int {
	e.scan()
	return e.combine()
}

// lazyMargin bounds what the king zone can change a value by, in
// practice: a stand-pat this far outside the window without it is decided.
const lazyMargin = 400

// evaluateLazy is evaluate for the quiescence search's stand-pat: in the
// partnership modes the king zone, the costliest term, is added only when
// the value without it is within lazyMargin of the window (alpha, beta).
func (e *searcher) evaluateLazy(alpha, beta int) int {
	if !e.kingZone {
		return e.evaluate()
	}
	e.lazyZone = true
	e.scan()
	e.lazyZone = false
	v := e.combine()
	if v-lazyMargin >= beta || v+lazyMargin <= alpha {
		return v
	}
	e.kingZoneAttacks()
	return e.combine()
}

// combine sums the utilities scan left for the side to move's team.
func (e *searcher) combine() int {
	var v int
	if e.paranoid {
		opp, n, top := 0, 0, -infinity
		for s := Seat(0); s < numSeats; s++ {
			if e.team[s] == 0 {
				v += e.utility(s)
			} else {
				u := e.utility(s)
				opp += u
				n++
				top = max(top, u)
			}
		}
		if n > 0 {
			if e.lead {
				// First place is what counts: the strongest opponent
				// weighs as much as the three together.
				v -= (opp/n + top) / 2
			} else {
				v -= opp / n
			}
		}
	} else {
		for s := Seat(0); s < numSeats; s++ {
			if e.team[s] == 0 {
				v += e.utility(s)
			} else {
				v -= e.utility(s)
			}
		}
	}
	if e.team[e.b.turn()] != 0 {
		v = -v
	}
	return v + e.noise()
}
