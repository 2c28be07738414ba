package referee

import (
	"fmt"
	"slices"

	"boardd/leds"
	"boardd/rules"
	"boardd/rules/blocking"
	"boardd/rules/essay"
	"boardd/rules/square"
)

// EventKind says what happened on the board.
type EventKind uint8

// Events the referee emits.
const (
	// EvMove: a move was recognised and played (Record).
	EvMove EventKind = iota
	// EvIllegal: the board shows something no legal move explains; the
	// referee waits in correction until the board matches the game again.
	EvIllegal
	// EvOutOfTurn: a legal move, but by the wrong seat (Seat).
	EvOutOfTurn
	// EvAmbiguous: several moves explain the board; the humans must show
	// which (or a command must say).
	EvAmbiguous
	// EvPromotionChoice: a pawn reached a promotion square where the
	// variant offers a choice; Candidates lists it, default first.
	EvPromotionChoice
	// EvCorrected: the board matches the game again.
	EvCorrected
	// EvGameOver: the game ended (Result).
	EvGameOver
	// EvTakeback: the last turn was undone (the board was put back).
	EvTakeback
	// EvTakebackAsked: the board was put back to before the last turn and
	// the club's setting wants a confirmation (ConfirmTakeback).
	EvTakebackAsked
	// EvPromotionChanged: the promoted piece was lifted and put back, the
	// gesture that moves the last promotion to the next piece on offer
	// (Record is the move as it now stands).
	EvPromotionChanged
	// EvSetup: the board was emptied during a correction: a guided set-up
	// of the current position begins (see StartSetup).
	EvSetup
	// EvRevised: a move read before was another: the first part of a
	// castle the same seat has now completed (its rook moved first), or
	// one of several readings of the switches that the moves since have
	// decided (doubt.go; EvTakeback events take the moves since back
	// first and EvMove events play them again after). Replaced was taken
	// back and Record played instead; Why says why.
	EvRevised
)

var eventNames = [...]string{"move", "illegal", "out of turn", "ambiguous", "promotion choice", "corrected", "game over", "takeback", "takeback asked", "promotion changed", "set-up", "revised"}

// TakebackMode is the club's setting for undoing a move by putting the
// pieces back.
type TakebackMode uint8

// Takeback settings.
const (
	// TakebackOff: putting the pieces back is a position to correct.
	TakebackOff TakebackMode = iota
	// TakebackOn: putting the pieces back undoes the last turn.
	TakebackOn
	// TakebackAsk: it asks first (ConfirmTakeback).
	TakebackAsk
)

func (k EventKind) String() string { return eventNames[k] }

// Event is one entry of the board's ordered event stream.
type Event struct {
	Seq        uint64
	Kind       EventKind
	Record     rules.Record // EvMove
	Seat       rules.Seat   // EvOutOfTurn: the seat that moved
	Candidates []rules.Move // EvAmbiguous, EvPromotionChoice
	Result     rules.Result // EvGameOver
	Replaced   rules.Record // EvRevised: the move read before
	// Why says, for EvIllegal, what was wrong when the board shows exactly
	// one move the rules forbid ("Pf2-f3: it would leave Red's king …"),
	// for EvRevised why the move was revised, and for an EvMove read on
	// one of several readings which others are still open.
	Why string
}

// Referee owns one live game on the board. It is not safe for concurrent
// use: one goroutine feeds it touches and tells it when the board is quiet.
type Referee struct {
	g        *rules.Game
	occ      square.Set // what the switches read now
	trace    []Touch    // since the board was last in step
	lifted   square.Square
	last     rules.Move
	fix      *Verdict     // set while the board disagrees with the game
	fixAt    int          // len(trace) when fix was set by a refusal
	refused  *Verdict     // the fix set by the last refusal
	partial  rules.Move   // a castle the board shows half made (lit)
	doubt    *doubt       // a move read where others fit as well (doubt.go)
	setup    *guidedSetup // a set-up of the current position from scratch
	seq      uint64
	Palette  Palette
	pendProm []rules.Move
	// Takeback is the club's takeback setting (default off).
	Takeback TakebackMode
	asked    bool // a takeback waits for confirmation
	// Expect, when set, is the only move the board may show next: a
	// remote seat's move that a human executes. Any other move is a
	// position to correct.
	Expect rules.Move
	// ExpectBy names who asked for Expect in the refusal of another move
	// ("Blue's bot (level 3)"); empty: the seat to move.
	ExpectBy string
}

// Palette is the LED language (see README "LED language").
type Palette struct {
	Lifted, Destination, LastMove, Check, Wrong, Missing, Promotion leds.Color
	// Out marks the king of an eliminated seat (mated, stalemated,
	// resigned, flagged) while it stays on the board; Fault a square whose
	// switch is suspect.
	Out, Fault leds.Color
	// Storage fills the board while it is paused because its disk cannot
	// be written (full).
	Storage leds.Color
	Turn    [rules.NumSeats]leds.Color
}

// DefaultPalette: white lifted square, green destinations, dim blue last
// move, red king in check, red for squares that must be emptied, amber for
// squares that must be filled, yellow for a promotion choice, purple for
// an eliminated (mated, resigned, …) seat's king, cyan for a suspect switch, magenta over the whole board while the disk
// cannot be written, and each seat's own colour for whose turn it is.
var DefaultPalette = Palette{
	Lifted:      leds.Color{R: 255, G: 255, B: 255},
	Destination: leds.Color{G: 160},
	LastMove:    leds.Color{B: 90},
	Check:       leds.Color{R: 255},
	Wrong:       leds.Color{R: 255, B: 40},
	Missing:     leds.Color{R: 255, G: 120},
	Promotion:   leds.Color{R: 255, G: 220},
	Out:         leds.Color{R: 120, B: 160},
	Fault:       leds.Color{G: 200, B: 200},
	Storage:     leds.Color{R: 160, B: 160},
	Turn:        [rules.NumSeats]leds.Color{{R: 200}, {B: 200}, {R: 200, G: 200}, {G: 200}},
}

// SetColor sets one colour of the palette by its config name: lifted,
// destination, last_move, check, wrong, missing, promotion, out, fault,
// storage, or
// a seat's turn colour (red, blue, yellow, green).
func (p *Palette) SetColor(name string, c leds.Color) error {
	slots := map[string]*leds.Color{"lifted": &p.Lifted, "destination": &p.Destination, "last_move": &p.LastMove, "check": &p.Check,
		"wrong": &p.Wrong, "missing": &p.Missing, "promotion": &p.Promotion, "out": &p.Out, "fault": &p.Fault, "storage": &p.Storage,
		"red": &p.Turn[rules.Red], "blue": &p.Turn[rules.Blue], "yellow": &p.Turn[rules.Yellow], "green": &p.Turn[rules.Green]}
	slot, ok := slots[name]
	if !ok {
		return fmt.Errorf("%q is not a colour of the LED language (lifted, destination, last_move, check, wrong, missing, promotion, out, fault, storage, red, blue, yellow, green)", name)
	}
	*slot = c
	return nil
}

// New starts refereeing g with the board in step with its position.
func New(g *rules.Game) *Referee {
	r := &Referee{g: g, occ: g.Position().Occupancy(), lifted: square.None, Palette: DefaultPalette}
	if recs := g.Records(); len(recs) > 0 {
		r.last = recs[len(recs)-1].Move // a game carried on shows its last move
	}
	return r
}

// Game returns the game being refereed.
func (r *Referee) Game() *rules.Game { return r.g }

// Touch records one debounced switch change.
func (r *Referee) Touch(t Touch) {
	if t.Lift {
		if r.lifted == square.None && r.fix == nil {
			p := r.g.Position()
			if pc := p.At(t.Square); pc.IsPiece() && !pc.Dead() && (pc.Seat() == r.g.Turn() || movedBy(p, pc.Seat()) == r.g.Turn()) {
				r.lifted = t.Square // the mover's piece: show where it may go
			}
		}
		r.occ.Remove(t.Square)
	} else {
		r.occ.Add(t.Square)
		if t.Square == r.lifted {
			r.lifted = square.None
		}
	}
	r.trace = append(r.trace, t)
}

// Quiet tells the referee the board has been still for the quiet period:
// it judges what happened and returns the events, in order.
func (r *Referee) Quiet() []Event {
	var out []Event
	emit := func(e Event) {
		r.seq++
		e.Seq = r.seq
		out = append(out, e)
	}
	if _, over := r.g.Result(); over {
		return nil
	}
	r.partial = 0
	p := r.g.Position()
	if r.setup != nil {
		if r.advanceSetup() {
			r.setup, r.fix, r.trace, r.lifted = nil, nil, r.trace[:0], square.None
			emit(Event{Kind: EvCorrected})
		}
		return out
	}
	if r.fix != nil {
		if r.asked && r.occ != p.Occupancy() {
			return out // still waiting for the takeback to be confirmed
		}
		r.asked = false
		switch {
		case r.occ == p.Occupancy():
			r.fix, r.trace, r.lifted = nil, r.trace[:0], square.None
			emit(Event{Kind: EvCorrected})
		case r.occ.Len() == 0 && len(r.trace) > 0:
			// Every piece taken off in the middle of a correction: the
			// gesture for "set the position up again from scratch".
			r.StartSetup()
			emit(Event{Kind: EvSetup})
		default:
			r.recover(p, emit)
		}
		return out
	}
	if prev, ok := r.g.PreviousPosition(); ok && r.Takeback != TakebackOff && r.occ == prev.Occupancy() && !r.lastWasSwap() {
		if r.Takeback == TakebackAsk {
			r.asked = true
			r.fix = &Verdict{Kind: Illegal}
			emit(Event{Kind: EvTakebackAsked})
			return out
		}
		r.undo(emit)
		return out
	}
	if len(r.pendProm) > 0 && r.occ == p.Occupancy() && onlyLiftedAndReplaced(r.trace, r.last.To()) {
		// The promotion gesture: the promoted piece lifted and put back
		// moves the choice on to the next piece (Q, R, B, N, Q, …).
		next := r.pendProm[0]
		for i, m := range r.pendProm {
			if m == r.last {
				next = r.pendProm[(i+1)%len(r.pendProm)]
			}
		}
		r.trace, r.lifted = r.trace[:0], square.None
		if rec, err := r.ChoosePromotion(next.Promotion()); err == nil {
			emit(Event{Kind: EvPromotionChanged, Record: rec})
		}
		return out
	}
	obs := Observation{Trace: r.trace, Final: r.occ, After: r.after, After2: r.after2, Leaves: r.leaves}
	inHand := false
	if n := len(r.trace); n > 0 && r.trace[n-1].Lift && r.occ.AndNot(p.Occupancy()).Len() == 0 && !RulesCleared(p, r.g.LegalMoves(), obs) {
		// The last thing done was a lift, and pieces were only taken
		// off: a move in progress (a piece in the hand, a captured piece
		// set aside). Nothing to judge until a piece is put down; the
		// lifted piece's destinations stay lit. (Unless a move was made
		// and the army the rules remove after it is being taken off, or
		// the lift may be the tail of a slide onto a capture: see below.)
		if !restedOn(r.trace) {
			return out
		}
		inHand = true
	}
	if rules.HookOptions[essay.Options](r.g.Variant()).PartnerPawnSwap && SwapUnderway(p, r.g.LegalMoves(), r.trace, r.occ) {
		return out // a partner pawn swap half made: wait for the second pawn
	}
	moves := r.g.LegalMoves()
	v := Infer(p, moves, obs)
	if inHand && !slidOnto(v, r.trace) || heldAgain(v, r.trace) {
		return out // a piece in the hand after all
	}
	switch v.Kind {
	case NoChange:
		r.trace, r.lifted = r.trace[:0], square.None
	case Moved, Promotion:
		var ok bool
		shown := v
		if v, ok = r.expected(v); !ok {
			r.refuse(Verdict{Kind: Illegal}, r.notExpected(p, shown), emit)
			return out
		}
		if v.Kind == Moved && len(v.Others) > 0 && r.openDoubt(p, v, emit) {
			return out // read, with the other readings kept open
		}
		r.accept(v, emit)
		r.doubtValid() // each branch follows the move, or is dropped
	default:
		if m, j, ok := r.revision(); ok && r.revise(m, j, emit) {
			return out
		}
		if r.settleDoubt(emit) || v.Kind == Ambiguous && r.openDoubt(p, v, emit) {
			return out // a doubted move read on another reading, or a new doubt
		}
		why := ""
		if v.Kind == Illegal {
			if why = r.why(); why == "" && r.unfinished(p, moves, obs) {
				return out // a move (or two quick ones) still being made
			}
			if r.Expect != 0 && why == "" {
				why = r.notExpected(p, v)
			} else if r.Expect != 0 {
				why = r.notExpected(p, v) + "; " + why
			}
		}
		r.refuse(v, why, emit)
	}
	return out
}

// expected checks a Moved or Promotion verdict against the remote seat's
// move the board waits for (Expect): it reports false for another move,
// and turns a promotion into the promotion the remote seat chose.
func (r *Referee) expected(v Verdict) (Verdict, bool) {
	switch {
	case r.Expect == 0:
		return v, true
	case v.Kind == Promotion && slices.Contains(v.Candidates, r.Expect):
		return Verdict{Kind: Moved, Move: r.Expect}, true
	}
	return v, v.Kind == Moved && v.Move == r.Expect
}

// notExpected says why the move the board shows (verdict v) is refused
// while a remote seat's move is expected: who asked for which move, and
// the move shown ("Blue's bot (level 3) asked for Qa8-b9, not Qa8-c10").
func (r *Referee) notExpected(p *rules.Position, v Verdict) string {
	who := r.ExpectBy
	if who == "" {
		who = p.Turn().String()
	}
	shown := "another move"
	switch v.Kind {
	case Moved:
		shown = p.MoveText(v.Move)
	case Promotion:
		shown = p.MoveText(v.Candidates[0])
	}
	return fmt.Sprintf("%s asked for %s, not %s", who, p.MoveText(r.Expect), shown)
}

// accept plays a Moved or Promotion verdict.
func (r *Referee) accept(v Verdict, emit func(Event)) {
	if v.Kind == Promotion {
		// The switches cannot tell a queen from a knight: take the
		// variant's default, announce the choice; a command may change it
		// (ChoosePromotion) before the next move.
		emit(Event{Kind: EvPromotionChoice, Candidates: v.Candidates})
		r.play(v.Candidates[0], emit)
		r.pendProm = v.Candidates
		r.checkBoard()
		return
	}
	r.play(v.Move, emit)
	for _, m := range v.Then { // quick replies before the board was quiet
		if _, over := r.g.Result(); over || !slices.Contains(r.g.LegalMoves(), m) {
			break // checkBoard below shows what is left to put right
		}
		r.play(m, emit)
	}
	r.checkBoard()
}

// refuse enters correction for a verdict that is no move to play, and
// says why (an Illegal verdict's why, or "").
func (r *Referee) refuse(v Verdict, why string, emit func(Event)) {
	r.fix, r.fixAt = &v, len(r.trace)
	r.refused = r.fix
	switch v.Kind {
	case Ambiguous:
		emit(Event{Kind: EvAmbiguous, Candidates: v.Candidates})
	case OutOfTurn:
		emit(Event{Kind: EvOutOfTurn, Seat: v.Seat})
	default:
		emit(Event{Kind: EvIllegal, Why: why})
	}
}

// recover reads, during a correction, a board that shows the game after
// one legal move of the seat to move (or a castle completed after its
// rook was read): nobody has to put the pieces back first. The trace is
// tried whole and from the refusal on (the hands may have put the
// refused move right, or made it again cleanly).
func (r *Referee) recover(p *rules.Position, emit func(Event)) {
	moves := r.g.LegalMoves()
	if r.fix != r.refused {
		// A correction no move caused: the board differed from the game
		// at a new game or a restart, or the rules took an army off. The
		// seat to move may start at once once the board is right, inside
		// the quiet period that would have ended the correction: its move
		// is read from the moment the switches showed the game exactly,
		// and only then, so a piece set up on a wrong square is never
		// read as a move.
		i, ok := reachedAt(r.trace, r.occ, p.Occupancy())
		if !ok {
			return
		}
		v, ok := r.expected(Infer(p, moves, Observation{Trace: r.trace[i:], Final: r.occ, After: r.after, After2: r.after2, Leaves: r.leaves}))
		if (v.Kind == Moved || v.Kind == Promotion) && ok {
			r.fix = nil
			emit(Event{Kind: EvCorrected})
			r.accept(v, emit)
		}
		return
	}
	for _, tr := range [][]Touch{r.trace, r.trace[min(r.fixAt, len(r.trace)):]} {
		v, ok := r.expected(Infer(p, moves, Observation{Trace: tr, Final: r.occ, After: r.after, After2: r.after2, Leaves: r.leaves}))
		if v.Kind != Moved && v.Kind != Promotion || !ok {
			continue
		}
		r.fix = nil
		emit(Event{Kind: EvCorrected})
		r.accept(v, emit)
		return
	}
	if m, j, ok := r.revision(); ok {
		fix := r.fix
		r.fix = nil
		if !r.revise(m, j, emit) {
			r.fix = fix
		}
	}
}

// reachedAt finds the last moment in trace at which the switches showed
// want: the index of the first touch after it. final is what they show
// now, after the whole trace; the trace is walked back from there.
func reachedAt(trace []Touch, final, want square.Set) (int, bool) {
	occ := final
	for i := len(trace); i > 0; i-- {
		t := trace[i-1]
		if t.Lift {
			occ.Add(t.Square)
		} else {
			occ.Remove(t.Square)
		}
		if occ == want {
			return i - 1, true
		}
	}
	return 0, false
}

// unfinished reports whether the board shows a move still being made, so
// that nothing is refused yet: a piece is in the hand (the last thing done
// was a lift, or pieces lifted last are missing from the game as it stands
// or as the seat to move's move leaves it), or a castle is half made (king
// or rook on its new square, the other still to come), by the seat to move
// or by the next seat after the seat to move's move.
func (r *Referee) unfinished(p *rules.Position, moves []rules.Move, obs Observation) bool {
	tr := obs.Trace
	if n := len(tr); n > 0 && tr[n-1].Lift || held(p.Occupancy(), obs.Final, tr) {
		return true
	}
	if c := castlePart(p, moves, obs.Final, tr); c != 0 {
		r.partial = c
		return true
	}
	for _, m1 := range moves {
		i1 := index(tr, 0, m1.From(), true)
		j1 := index(tr, i1+1, m1.To(), false)
		if i1 < 0 || j1 < 0 {
			continue
		}
		if held(p.OccupancyAfter(m1), obs.Final, tr) {
			return true
		}
		if q, second := r.after(m1); q != nil && castlePart(q, second, obs.Final, tr[j1+1:]) != 0 {
			return true
		}
	}
	return false
}

// restedOn reports whether the trace's last event lifts a piece off a
// square where a piece was put down before (an empty square, or one a
// move left): a piece that came down on the square next to it while it
// still covered this one (the tail of a slide) may be read as a move
// (see slidOnto); the piece may as well be in the hand again.
func restedOn(tr []Touch) bool {
	return index(tr, 0, tr[len(tr)-1].Square, false) >= 0
}

// slidOnto reports whether verdict v reads a move whose piece was lifted,
// put down on the square the trace's last event lifts (restedOn) and then
// on its destination next to it at most SlideRest later, at most
// SlideOverlap before that lift: the tail of its slide. (Later, it is the next player taking the piece
// that moved, or another piece knocked: a piece in the hand.)
func slidOnto(v Verdict, tr []Touch) bool {
	m := v.Move
	switch {
	case v.Kind == Promotion:
		m = v.Candidates[0]
	case v.Kind != Moved:
		return false
	case len(v.Then) > 0:
		m = v.Then[len(v.Then)-1] // the last of quick moves slid
	}
	last := tr[len(tr)-1]
	j := -1
	for k := len(tr) - 2; k >= 0 && j < 0; k-- {
		if tr[k].Square == m.To() && !tr[k].Lift {
			j = k // its landing (after a bounce, the last put-down)
		}
	}
	if j < 0 || distance(m.To(), last.Square) != 1 || !soon(tr[j], last, SlideOverlap) {
		return false
	}
	// The piece rested on the square it left last while it was carried:
	// put down there before its landing (after its lift, or a moment
	// before: leaving its square it closed both switches too), after the
	// move before came down.
	rest := -1
	for k := len(tr) - 2; k >= 0 && rest < 0; k-- {
		if tr[k].Square == last.Square && !tr[k].Lift {
			rest = k
		}
	}
	if rest < 0 || rest > j || index(tr[:j], 0, m.From(), true) < 0 || !soon(tr[rest], tr[j], SlideRest) {
		return false
	}
	return rest > previousLanding(v, tr)
}

// previousLanding returns the trace index where the move before verdict
// v's last move came down (-1 when v reads one move).
func previousLanding(v Verdict, tr []Touch) int {
	moves := append([]rules.Move{v.Move}, v.Then...)
	j := -1
	for _, m := range moves[:len(moves)-1] {
		i := index(tr, j+1, m.From(), true)
		j = index(tr, i+1, m.To(), false)
	}
	return j
}

// heldAgain reports whether the trace ends lifting a piece from a square
// where the moves verdict v reads put nothing down: a piece set down
// there that no move explains (neither a landing, nor a rest while a
// piece was carried, nor a piece set back) is in the hand again, its
// move still being made (the next player's piece resting beside the
// piece it is taking, that piece just lifted).
func heldAgain(v Verdict, tr []Touch) bool {
	n := len(tr)
	if v.Kind != Moved || n == 0 || !tr[n-1].Lift {
		return false
	}
	x, at := tr[n-1].Square, -1
	for k := n - 2; k >= 0 && at < 0; k-- {
		if tr[k].Square == x && !tr[k].Lift {
			at = k
		}
	}
	if at < 0 || emptiedBefore(tr, at, x) {
		return false
	}
	j := -1
	for _, m := range append([]rules.Move{v.Move}, v.Then...) {
		i := index(tr, j+1, m.From(), true)
		if j = index(tr, i+1, m.To(), false); i < 0 || j < 0 || (i < at || at == i-1) && at <= j {
			return false // carried (or leaving its square, both switches closed); or a move the trace does not show
		}
	}
	return true
}

// held reports whether the board shows occupancy base with some pieces in
// the hand: every square base fills and the board does not was lifted last.
func held(base, final square.Set, tr []Touch) bool {
	off := base.AndNot(final)
	if off.Len() == 0 || final.AndNot(base).Len() > 0 {
		return false
	}
	for _, q := range off.Squares() {
		if placedLast(tr, q) || index(tr, 0, q, true) < 0 {
			return false
		}
	}
	return true
}

// castlePart returns the legal castle among moves that the board shows
// half made: the king or the rook in the hand or on its new square while
// the other is still at home or in the hand (each piece that left home
// lifted in the trace), or 0.
func castlePart(p *rules.Position, moves []rules.Move, final square.Set, tr []Touch) rules.Move {
	cur := p.Occupancy()
	for _, m := range moves {
		if c, _ := m.IsCastle(); !c {
			continue
		}
		rf, rt := m.RookSquares()
		kl, rl := index(tr, 0, m.From(), true) >= 0, index(tr, 0, rf, true) >= 0
		// Each piece: 0 at home, 1 in the hand, 2 on its new square.
		for k := 0; k < 3; k++ {
			for rk := 0; rk < 3; rk++ {
				if k == rk && k != 1 || k > 0 && !kl || rk > 0 && !rl {
					continue
				}
				occ := cur
				if k > 0 {
					occ.Remove(m.From())
				}
				if rk > 0 {
					occ.Remove(rf)
				}
				if k == 2 {
					occ.Add(m.To())
				}
				if rk == 2 {
					occ.Add(rt)
				}
				if occ == final {
					return m
				}
			}
		}
	}
	return 0
}

// revision finds the castle whose rook's part was the last move read, by
// the same seat, now completed by its king (lifted from its square and put
// down on its castling square since), with nobody having moved since. It
// returns the castle and the trace index of the king's put-down.
func (r *Referee) revision() (rules.Move, int, bool) {
	recs := r.g.Records()
	if len(recs) == 0 || len(r.pendProm) > 0 {
		return 0, 0, false
	}
	last := recs[len(recs)-1]
	if c, _ := last.Move.IsCastle(); last.Action != rules.ActMove || c {
		return 0, 0, false
	}
	prev, ok := r.g.PreviousPosition()
	if !ok {
		return 0, 0, false
	}
	var buf [256]rules.Move
	for _, m := range prev.LegalMoves(buf[:0]) {
		if c, _ := m.IsCastle(); !c {
			continue
		}
		if rf, rt := m.RookSquares(); rf != last.Move.From() || rt != last.Move.To() {
			continue
		}
		if i := index(r.trace, 0, m.From(), true); i >= 0 {
			if j := index(r.trace, i+1, m.To(), false); j >= 0 {
				return m, j, true
			}
		}
	}
	return 0, 0, false
}

// revise takes the last move back and plays castle m instead (EvRevised)
// when the board shows the castle, or the castle and the next seat's
// quick reply after the king's put-down at trace index j. It reports
// false, changing nothing, otherwise.
func (r *Referee) revise(m rules.Move, j int, emit func(Event)) bool {
	recs := r.g.Records()
	old := recs[len(recs)-1]
	if err := r.g.Takeback(); err != nil {
		return false
	}
	rec, err := r.g.Play(m)
	var v Verdict
	if err == nil && r.g.Position().Occupancy() != r.occ {
		v = Infer(r.g.Position(), r.g.LegalMoves(), Observation{Trace: r.trace[j+1:], Final: r.occ, After: r.after, After2: r.after2, Leaves: r.leaves})
	}
	if err != nil || r.g.Position().Occupancy() != r.occ && v.Kind != Moved {
		if err == nil {
			r.g.Takeback()
		}
		if _, err := r.g.Play(old.Move); err != nil {
			panic(fmt.Sprintf("referee: replaying %v after a refused revision: %v", old.Move, err))
		}
		return false
	}
	r.last, r.trace, r.lifted, r.Expect = m, r.trace[:0], square.None, 0
	emit(Event{Kind: EvRevised, Record: rec, Replaced: old, Why: "the king completed the castle"})
	if res, over := r.g.Result(); over {
		emit(Event{Kind: EvGameOver, Result: res})
		return true
	}
	if v.Kind == Moved {
		r.accept(v, emit) // the next seat's quick reply
		return true
	}
	r.checkBoard()
	return true
}

// why names the move the board shows and the rule it breaks, when the
// changed squares fit exactly one move of the seat to move that the
// rules forbid ("Pe2-e3: it would leave Red's king on h1 in check from
// Blue's queen on a4"), or "".
func (r *Referee) why() string {
	p := r.g.Position()
	cur := p.Occupancy()
	extra, missing := r.occ.AndNot(cur), cur.AndNot(r.occ)
	var from, to square.Square = square.None, square.None
	var buf [256]rules.Move
	n := 0
	for _, m := range p.PseudoLegal(buf[:0]) {
		if p.OccupancyAfter(m) == r.occ && (n == 0 || m.From() != from || m.To() != to) {
			from, to = m.From(), m.To()
			n++
		}
	}
	if n != 1 && missing.Len() == 1 {
		// One of the mover's pieces left its square: where it came down
		// (an empty square, or the last place on an occupied one).
		from, to = missing.Squares()[0], square.None
		if extra.Len() == 1 {
			to = extra.Squares()[0]
		} else if extra.Len() == 0 {
			for i := len(r.trace) - 1; i >= 0; i-- {
				if t := r.trace[i]; !t.Lift && t.Square != from && cur.Has(t.Square) {
					to = t.Square
					break
				}
			}
		}
		if pc := p.At(from); to == square.None || !pc.IsPiece() || pc.Seat() != p.Turn() {
			return ""
		}
	} else if n != 1 {
		return ""
	}
	if _, err := p.FindMove(from, to, rules.NoKind); err != nil {
		return err.Error()
	}
	return ""
}

// leaves plays m on the game to see what the rules leave on the board, and
// takes it back (Observation.Leaves).
func (r *Referee) leaves(m rules.Move) square.Set { return leavesIn(r.g, m) }

// after plays m on the game to see who moves next and how, and takes it
// back (Observation.After).
func (r *Referee) after(m rules.Move) (*rules.Position, []rules.Move) { return afterIn(r.g, m) }

// after2 plays m1 and m2 on the game to see who moves next and how, and
// takes them back (Observation.After2).
func (r *Referee) after2(m1, m2 rules.Move) (*rules.Position, []rules.Move) {
	return after2In(r.g, m1, m2)
}

// after2In is Observation.After2 on game g.
func after2In(g *rules.Game, m1, m2 rules.Move) (q *rules.Position, next []rules.Move) {
	g.LookAhead(m1, func() {
		if _, over := g.Result(); !over {
			q, next = afterIn(g, m2)
		}
	})
	return q, next
}

// leavesIn is Observation.Leaves on game g.
func leavesIn(g *rules.Game, m rules.Move) square.Set {
	var occ square.Set
	g.LookAhead(m, func() { occ = g.Position().Occupancy() })
	return occ
}

// afterIn is Observation.After on game g.
func afterIn(g *rules.Game, m rules.Move) (q *rules.Position, next []rules.Move) {
	g.LookAhead(m, func() {
		if _, over := g.Result(); !over {
			q, next = g.Position(), g.LegalMoves()
		}
	})
	return q, next
}

// ConfirmTakeback carries out a takeback the board asked about.
func (r *Referee) ConfirmTakeback() ([]Event, error) {
	if !r.asked {
		return nil, fmt.Errorf("no takeback is waiting for confirmation")
	}
	var out []Event
	r.asked, r.fix = false, nil
	r.undo(func(e Event) {
		r.seq++
		e.Seq = r.seq
		out = append(out, e)
	})
	return out, nil
}

func (r *Referee) undo(emit func(Event)) {
	if err := r.g.Takeback(); err != nil {
		return
	}
	r.trace, r.lifted, r.last, r.pendProm = r.trace[:0], square.None, 0, nil
	if recs := r.g.Records(); len(recs) > 0 {
		r.last = recs[len(recs)-1].Move
	}
	emit(Event{Kind: EvTakeback})
}

// ChoosePromotion changes the piece the last move promoted to (the
// switches cannot tell them apart; the default was played). It fails when
// the last move offered no such choice. The choice stays open, by command
// or by the lift-and-replace gesture, until the next move is played.
func (r *Referee) ChoosePromotion(k rules.Kind) (rules.Record, error) {
	for _, m := range r.pendProm {
		if m.Promotion() != k {
			continue
		}
		if err := r.g.Takeback(); err != nil {
			return rules.Record{}, err
		}
		rec, err := r.g.Play(m)
		if err != nil {
			return rules.Record{}, err
		}
		r.last = m // the choice stays open until the next move
		return rec, nil
	}
	return rules.Record{}, fmt.Errorf("the last move offers no promotion to %v", k)
}

// onlyLiftedAndReplaced reports whether the trace only lifted the piece on
// s and put it back.
func onlyLiftedAndReplaced(tr []Touch, s square.Square) bool {
	if len(tr) < 2 || tr[len(tr)-1].Lift {
		return false
	}
	for _, t := range tr {
		if t.Square != s {
			return false
		}
	}
	return true
}

func (r *Referee) play(m rules.Move, emit func(Event)) {
	r.pendProm = nil
	rec, err := r.g.Play(m)
	if err != nil { // Infer only offers legal moves; this is a bug
		panic(fmt.Sprintf("referee: inferred move %v refused: %v", m, err))
	}
	r.last, r.trace, r.lifted, r.Expect, r.ExpectBy = m, r.trace[:0], square.None, 0, ""
	emit(Event{Kind: EvMove, Record: rec})
	if res, over := r.g.Result(); over {
		emit(Event{Kind: EvGameOver, Result: res})
	}
}

// checkBoard enters correction when, after the moves were played, the
// board still differs from the game: the rules removed pieces (an army
// taken off the board) and the LEDs must guide the humans.
func (r *Referee) checkBoard() {
	if occ := r.g.Position().Occupancy(); occ != r.occ {
		r.fix = &Verdict{Kind: Illegal, Extra: r.occ.AndNot(occ), Missing: occ.AndNot(r.occ)}
	}
}

// Frame draws the LED language for the current state into f.
func (r *Referee) Frame(f *leds.Frame) {
	f.Clear()
	p := r.g.Position()
	pal := r.Palette
	if r.setup != nil {
		r.setupFrame(f)
		return
	}
	if r.fix != nil {
		// Correction: the way back, one fix at a time so a person can
		// follow: the nearest piece to take away and square to fill (a
		// piece to carry back), else one of either.
		extra, missing := r.NextFix()
		if extra != square.None {
			f.Set(extra, pal.Wrong)
		}
		if missing != square.None {
			f.Set(missing, pal.Missing)
		}
		return
	}
	// Whose turn: the two corners of that seat's back line.
	turn := r.g.Turn()
	for _, c := range r.g.Variant().Seats[turn].RookHomes {
		if c != square.None {
			f.Set(c, pal.Turn[turn])
		}
	}
	if r.last != 0 {
		f.Set(r.last.From(), pal.LastMove)
		f.Set(r.last.To(), pal.LastMove)
		if len(r.pendProm) > 0 {
			f.Set(r.last.To(), pal.Promotion) // a promotion that may still be changed
		}
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		switch k := p.KingSquare(s); {
		case k == square.None:
		case r.g.Status(s) != rules.Playing && r.g.Status(s) != rules.Walking:
			f.Set(k, pal.Out)
		case p.InCheck(s):
			f.Set(k, pal.Check)
		}
	}
	// Blocking double chess: a move announced into check, waiting for the
	// partner's reply or accepted and still to be made, is lit in the
	// announcer's colour, its king in the check colour; once it is made,
	// the king the partner must relieve is lit in the check colour.
	if d, ok := rules.HookIn[*blocking.BlockingDouble](r.g); ok {
		if m, by, _, ok := d.Announced(); ok {
			f.Set(m.From(), pal.Turn[by])
			f.Set(m.To(), pal.Turn[by])
			if k := p.KingSquare(by); k != square.None {
				f.Set(k, pal.Check)
			}
		}
		if s, ok := d.MustRelieve(); ok {
			if k := p.KingSquare(s); k != square.None {
				f.Set(k, pal.Check)
			}
		}
	}
	if c := r.partial; c != 0 && len(r.trace) > 0 {
		// A castle half made: the piece still to move and where it goes.
		rf, rt := c.RookSquares()
		if r.occ.Has(c.From()) {
			rf, rt = c.From(), c.To()
		}
		f.Set(rf, pal.Lifted)
		f.Set(rt, pal.Destination)
	}
	if r.lifted != square.None {
		f.Set(r.lifted, pal.Lifted)
		for _, m := range r.g.LegalMoves() {
			if m.From() == r.lifted {
				f.Set(m.To(), pal.Destination)
			}
		}
	}
}

// Resync tells the referee what the switches read now after the game
// changed outside the board (a new game, a resignation, a restored game):
// if the board differs, it waits in correction and the LEDs show the way
// (this is also how a new game's set-up is guided).
func (r *Referee) Resync(occ square.Set) {
	r.occ, r.trace, r.lifted, r.fix, r.asked, r.setup, r.doubt = occ, r.trace[:0], square.None, nil, false, nil, nil
	r.checkBoard()
}

// Occupancy is what the switches read now.
func (r *Referee) Occupancy() square.Set { return r.occ }

// Lifted is the square of the mover's piece in the air (square.None if none).
func (r *Referee) Lifted() square.Square { return r.lifted }

// LastMove is the last move played (0 if none).
func (r *Referee) LastMove() rules.Move { return r.last }

// TakebackAsked reports whether a takeback waits for ConfirmTakeback.
func (r *Referee) TakebackAsked() bool { return r.asked }

// PromotionChoice lists the promotions the last move may still be
// changed to (nil when it offers none).
func (r *Referee) PromotionChoice() []rules.Move { return r.pendProm }

// NextFix is the next step of a correction: the occupied square that
// should be empty and the empty square that should be occupied that lie
// nearest each other (often one piece to carry back), or just one of
// either when only that kind is left; square.None for none.
func (r *Referee) NextFix() (extra, missing square.Square) {
	want := r.g.Position().Occupancy()
	extras, missings := r.occ.AndNot(want).Squares(), want.AndNot(r.occ).Squares()
	extra, missing = square.None, square.None
	switch {
	case len(extras) > 0 && len(missings) > 0:
		best := -1
		for _, e := range extras {
			for _, m := range missings {
				if d := distance(e, m); best < 0 || d < best {
					best, extra, missing = d, e, m
				}
			}
		}
	case len(extras) > 0:
		extra = extras[0]
	case len(missings) > 0:
		missing = missings[0]
	}
	return extra, missing
}

// distance is the number of king steps between two squares.
func distance(a, b square.Square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	return max(df, -df, dr, -dr)
}

// InStep reports whether the board matches the game.
func (r *Referee) InStep() bool { return r.fix == nil }

// lastWasSwap reports whether the last turn was an exchanging partner pawn
// swap (the essay): it left the occupancy as it was, so the board cannot
// show it taken back, and any piece lifted and put back would otherwise
// look like the takeback.
func (r *Referee) lastWasSwap() bool {
	recs := r.g.Records()
	if len(recs) == 0 || recs[len(recs)-1].Action != rules.ActMove {
		return false
	}
	sw, ep := recs[len(recs)-1].Move.IsSwap()
	return sw && !ep
}

// movedBy returns the seat that moves seat s's army now that s's king is
// gone (the essay's alternate rule), or NoSeat.
func movedBy(p *rules.Position, s rules.Seat) rules.Seat {
	h, _ := p.Heir(s)
	return h
}
