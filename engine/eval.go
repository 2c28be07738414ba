package engine

import "boardd/rules/square"

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
	if b.scoresPoints {
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
		if e.trial && pc.kind >= kKnight && pc.kind <= kQueen {
			e.attackers = append(e.attackers, attacker{sq: sq, seat: s, kind: pc.kind})
		}
		switch pc.kind {
		case kPawn:
			e.material[s] += pieceValue[kPawn]
			if d := b.pawnGoal[s][i]; d >= 0 && d < 10 {
				a := int(10 - d)
				e.positional[s] += a * a * 2
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
	b := e.b
	n := 0
	f, r := k.File(), k.Rank()
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if df == 0 && dr == 0 {
				continue
			}
			ff, rr := f+df, r+dr
			if ff < 0 || rr < 0 || ff >= b.files || rr >= b.ranks {
				continue
			}
			i := b.squareIndex(square.At(ff, rr))
			if i < 0 {
				continue
			}
			if pc := b.piece(i); pc.kind != 0 && !pc.dead && pc.seat == s {
				n++
			}
		}
	}
	if n > 4 {
		n = 4
	}
	return n*15 - int(b.centre[b.squareIndex(k)])*3
}

// evaluate scores the position for the side to move's team: its utility
// minus the opponents'. In the paranoid modes the root seat stands alone
// against the other three, whose utilities count a third each.
func (e *searcher) evaluate() int {
	e.scan()
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
