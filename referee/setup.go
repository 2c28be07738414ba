package referee

import (
	"slices"

	"boardd/leds"
	"boardd/rules"
	"boardd/rules/square"
)

// A board that cannot be brought back (pieces knocked over, a game
// restored onto a scrambled board) is set up again from scratch: the
// switches cannot tell a knight from a bishop, so matching occupancy is no
// proof that every piece is where the game has it. The guided set-up
// starts from an empty board and places the position's pieces one at a
// time, each square lit in its owner's colour while displays name the
// piece. Emptying the whole board during a correction starts it (the
// gesture needs no screen); so does StartSetup (the setup command).

// guidedSetup is the state of a set-up of the current position.
type guidedSetup struct {
	clearing bool            // waiting for every piece to come off the board
	order    []square.Square // the position's pieces, in the order they are placed
	next     int             // order[next] is the square to fill now
}

// SetupStep is where a guided set-up stands: the square to fill now and
// its piece (square.None and rules.NoPiece while the board is being
// cleared), and how many of the pieces stand.
type SetupStep struct {
	Square      square.Square
	Piece       rules.Piece
	Done, Total int
	Clearing    bool
}

// StartSetup begins a guided set-up of the current position: take every
// piece off the board, then place them one by one as the lights show.
func (r *Referee) StartSetup() {
	p := r.g.Position()
	r.setup = &guidedSetup{clearing: true, order: setupOrder(p)}
	r.fix = &Verdict{Kind: Illegal}
	r.trace, r.lifted, r.asked = r.trace[:0], square.None, false
	r.advanceSetup()
}

// Setup reports the guided set-up's progress; ok is false when none runs.
func (r *Referee) Setup() (step SetupStep, ok bool) {
	s := r.setup
	if s == nil {
		return SetupStep{}, false
	}
	step = SetupStep{Square: square.None, Done: s.next, Total: len(s.order), Clearing: s.clearing}
	if !s.clearing && s.next < len(s.order) {
		step.Square = s.order[s.next]
		step.Piece = r.g.Position().At(step.Square)
	}
	return step, true
}

// setupOrder lists the occupied squares of p in the order a person sets
// them up: seat by seat, pieces before pawns, square by square.
func setupOrder(p *rules.Position) []square.Square {
	var out []square.Square
	for _, q := range p.Variant().Geometry.Playable.Squares() {
		if p.At(q).IsPiece() {
			out = append(out, q)
		}
	}
	rank := func(q square.Square) int {
		pc := p.At(q)
		r := int(pc.Seat()) * 2
		if pc.Dead() {
			r = 2 * rules.NumSeats // grey pieces last
		}
		if pc.Kind() == rules.Pawn {
			r++
		}
		return r
	}
	slices.SortStableFunc(out, func(a, b square.Square) int { return rank(a) - rank(b) })
	return out
}

// advanceSetup moves the set-up on as far as the board allows and reports
// whether it is complete (the board then matches the position).
func (r *Referee) advanceSetup() bool {
	s := r.setup
	if s.clearing {
		if r.occ.Len() > 0 {
			return false
		}
		s.clearing = false
	}
	placed := square.Set{}
	for _, q := range s.order[:s.next] {
		placed.Add(q)
	}
	for s.next < len(s.order) && r.occ.Has(s.order[s.next]) && r.occ.AndNot(placed).Len() == 1 {
		placed.Add(s.order[s.next]) // the lit square filled, nothing else stray
		s.next++
	}
	return s.next == len(s.order) && r.occ == r.g.Position().Occupancy()
}

// setupFrame draws the guided set-up: while clearing, every occupied
// square in the "wrong" colour; then each stray piece in that colour and
// the square to fill now in its owner's turn colour.
func (r *Referee) setupFrame(f *leds.Frame) {
	s := r.setup
	placed := square.Set{}
	for _, q := range s.order[:s.next] {
		placed.Add(q)
	}
	for _, q := range r.occ.AndNot(placed).Squares() {
		f.Set(q, r.Palette.Wrong)
	}
	if !s.clearing && s.next < len(s.order) {
		q := s.order[s.next]
		f.Set(q, r.Palette.Turn[r.g.Position().At(q).Seat()])
	}
}
