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
	"boardd/rules"
	"boardd/rules/square"
)

// Touch is one debounced switch change: a piece lifted from a square or
// put down on one.
type Touch struct {
	Square square.Square
	Lift   bool
}

// Observation is what the board saw since it was last quiet and in step
// with the game.
type Observation struct {
	// Trace lists the lifts and places in the order they happened.
	Trace []Touch
	// Final is the debounced occupancy now, after a quiet period.
	Final square.Set
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
	Kind       VerdictKind
	Move       rules.Move   // Moved, OutOfTurn
	Candidates []rules.Move // Promotion, Ambiguous
	Seat       rules.Seat   // OutOfTurn: whose move it would have been
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
		v.Kind = NoChange
		return v
	}
	cands := explaining(p, moves, obs)
	if len(cands) > 0 {
		return decide(v, cands)
	}
	// Does another seat's legal move explain it? Then it was out of turn.
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if s == p.Turn() || p.Eliminated(s) {
			continue
		}
		q := p.WithTurn(s)
		if c := explaining(q, q.LegalMoves(nil), obs); len(c) > 0 {
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
func explaining(p *rules.Position, moves []rules.Move, obs Observation) []rules.Move {
	var byOcc []rules.Move
	for _, m := range moves {
		if p.OccupancyAfter(m) == obs.Final {
			byOcc = append(byOcc, m)
		}
	}
	if len(byOcc) <= 1 {
		return byOcc
	}
	var byTrace []rules.Move
	for _, m := range byOcc {
		if touched(obs.Trace, m.From(), true) && placedLast(obs.Trace, m.To()) {
			byTrace = append(byTrace, m)
		}
	}
	if len(byTrace) == 0 {
		return byOcc
	}
	return byTrace
}

func touched(tr []Touch, s square.Square, lift bool) bool {
	for _, t := range tr {
		if t.Square == s && t.Lift == lift {
			return true
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
