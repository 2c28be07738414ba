package referee

import (
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Two readings of one quiet period that leave the same occupancy.
//
// The switches report presence only. A piece that captures on X while the
// next player lifts and sets back a piece on Y gives the same switch trace
// as the same piece, held in the hand, knocking X and then capturing on Y:
// lift a, lift X, place X, lift Y, place Y. Every reading of that kind
// (several legal moves of the seat to move that leave the identical board,
// the trace fitting each) is no question to stop the game for: the
// positions differ only in which piece stands where, and the next moves,
// made on those pieces or around them, show which one it was.
//
// So the referee plays the first reading (the one the trace fits with one
// hand at work, else the first legal move), says in the move's message
// which others fit, and keeps the others open (a
// doubt), each on a game of its own (a branch: the game before the
// doubted move, the other reading, then the moves read since, each the
// legal move on the same squares). A branch on which a move read since
// cannot be played, or leaves another board, is dropped; when none is
// left the first reading stands. When a board fits no move of the game as
// read but fits one on a branch, that branch was the game played: the
// moves since are taken back (EvTakeback), the doubted move is revised
// (EvRevised), the moves since are played again (EvMove), then the new
// move. The journal thus holds the moves actually played. A doubt ends
// with the first reading kept when the game ends, when a turn that is no
// move (a resignation, a timeout) or a note comes after the doubted move,
// or after doubtHorizon turns.

// doubtHorizon bounds the turns after a doubted move for which its other
// readings stay open (the moves since are played again on a revision).
const doubtHorizon = 200

// doubt is a move played on the first of several readings.
type doubt struct {
	ply      int           // index of the doubted move in the game's records
	move     rules.Move    // the reading played
	branches []*rules.Game // the game on each other reading still open
}

// Doubt reports the move read where other moves fit the switches as well:
// its index in the game's records and the other readings still open,
// which later moves may show to be the one played (EvRevised). ok is
// false when there is none.
func (r *Referee) Doubt() (ply int, alts []rules.Move, ok bool) {
	if !r.doubtValid() {
		return 0, nil, false
	}
	for _, b := range r.doubt.branches {
		alts = append(alts, b.Records()[r.doubt.ply].Move)
	}
	return r.doubt.ply, alts, true
}

// sameBoard reports whether every candidate leaves the same board, so
// that only later moves can tell them apart.
func sameBoard(p *rules.Position, cands []rules.Move) bool {
	for _, m := range cands[1:] {
		if p.OccupancyAfter(m) != p.OccupancyAfter(cands[0]) {
			return false
		}
	}
	return len(cands) > 1
}

// openDoubt plays the first of an ambiguous verdict's readings (or a
// Moved verdict's move, with its Others) and keeps the others open, with
// the next seat's quick reply all readings share (v.Then). It reports false, playing nothing, when it cannot (an
// expected remote move, a doubt already open, readings that leave
// different boards).
func (r *Referee) openDoubt(p *rules.Position, v Verdict, emit func(Event)) bool {
	cands := v.Candidates
	if v.Kind == Moved {
		cands = append([]rules.Move{v.Move}, v.Others...)
	}
	if r.Expect != 0 || r.doubtValid() || !sameBoard(p, cands) {
		return false
	}
	var first rules.Move
	var branches []*rules.Game
	for _, m := range cands {
		if !defaultPromo(cands, m) {
			continue // the switches cannot tell promotions apart: the default
		}
		if first == 0 {
			first = m
			continue
		}
		b := r.g.Clone()
		if _, err := b.Play(m); err != nil {
			return false
		}
		branches = append(branches, b)
	}
	if len(branches) == 0 {
		return false
	}
	ply := len(r.g.Records())
	var texts []string
	for _, b := range branches {
		texts = append(texts, p.MoveText(b.Records()[ply].Move))
	}
	note := fmt.Sprintf("%s would leave the same board: the next moves will tell", strings.Join(texts, " or "))
	said := false
	r.accept(Verdict{Kind: Moved, Move: first, Then: v.Then}, func(e Event) {
		if e.Kind == EvMove && !said {
			e.Why, said = note, true // the doubted move's message says so
		}
		emit(e)
	})
	r.doubt = &doubt{ply: ply, move: first, branches: branches}
	r.doubtValid() // the quick reply is followed on each branch
	return true
}

// doubtValid reports whether a doubt is open, first following on each
// branch the moves read since it was last looked at (dropping the
// branches that cannot follow them). It closes the doubt when the
// doubted move no longer stands, a turn since is no move, a note was
// added since, the game is over, the horizon is passed or no branch is
// left.
func (r *Referee) doubtValid() bool {
	d := r.doubt
	if d == nil {
		return false
	}
	recs := r.g.Records()
	_, over := r.g.Result()
	ok := !over && len(recs) > d.ply && recs[d.ply].Move == d.move && len(recs)-d.ply <= doubtHorizon
	for _, rec := range recs[min(d.ply, len(recs)):] {
		ok = ok && rec.Action == rules.ActMove
	}
	for _, n := range r.g.Notes() {
		ok = ok && n.After <= d.ply
	}
	if ok {
		occ := r.g.Position().Occupancy()
		kept := d.branches[:0]
		for _, b := range d.branches {
			if follow(b, recs, d.ply+1) && b.Position().Occupancy() == occ {
				kept = append(kept, b)
			}
		}
		d.branches = kept
		ok = len(kept) > 0
	}
	if !ok {
		r.doubt = nil
	}
	return ok
}

// follow brings branch b in line with the moves recs read from index from
// on: the turns it played that differ (by their squares) from recs are
// taken back, the missing ones played as the legal move on the same
// squares. It reports false when one cannot be played.
func follow(b *rules.Game, recs []rules.Record, from int) bool {
	have := b.Records()
	keep := from
	for keep < len(have) && keep < len(recs) && have[keep].Move.From() == recs[keep].Move.From() && have[keep].Move.To() == recs[keep].Move.To() {
		keep++
	}
	for range have[keep:] {
		if b.Takeback() != nil {
			return false
		}
	}
	for _, rec := range recs[keep:] {
		m, ok := sameSquares(b.LegalMoves(), rec.Move)
		if !ok {
			return false
		}
		if _, err := b.Play(m); err != nil {
			return false
		}
	}
	return true
}

// settleDoubt tries the board, which no move of the game as read explains,
// on each branch of the doubted move. When a move explains it there,
// that branch is the game: the events take the moves since back, revise
// the doubted move, play the moves since again and then the new move. It
// reports whether it did.
func (r *Referee) settleDoubt(emit func(Event)) bool {
	if !r.doubtValid() {
		return false
	}
	d := r.doubt
	for _, b := range d.branches {
		obs := Observation{Trace: r.trace, Final: r.occ,
			After:  func(m rules.Move) (*rules.Position, []rules.Move) { return afterIn(b, m) },
			After2: func(m1, m2 rules.Move) (*rules.Position, []rules.Move) { return after2In(b, m1, m2) },
			Leaves: func(m rules.Move) square.Set { return leavesIn(b, m) }}
		v, ok := r.expected(Infer(b.Position(), b.LegalMoves(), obs))
		if !ok || v.Kind != Moved && v.Kind != Promotion {
			continue
		}
		old := r.g.Records()[d.ply:]
		now := b.Records()[d.ply:]
		for range old {
			if err := r.g.Takeback(); err != nil {
				panic(fmt.Sprintf("referee: taking back to the doubted move %v: %v", d.move, err))
			}
		}
		for _, rec := range now {
			if _, err := r.g.Play(rec.Move); err != nil {
				panic(fmt.Sprintf("referee: playing %v, a move of the reading kept: %v", rec.Move, err))
			}
		}
		r.doubt = nil
		now = r.g.Records()[d.ply:]
		for range old[1:] {
			emit(Event{Kind: EvTakeback})
		}
		emit(Event{Kind: EvRevised, Record: now[0], Replaced: old[0],
			Why: fmt.Sprintf("both fit the switches, and the moves since show %s was played", now[0].Text)})
		for _, rec := range now[1:] {
			emit(Event{Kind: EvMove, Record: rec})
		}
		r.pendProm = nil
		r.accept(v, emit)
		return true
	}
	return false
}

// sameSquares returns the move among moves from m's square to m's
// square: m itself if present, else the first (the default promotion).
func sameSquares(moves []rules.Move, m rules.Move) (rules.Move, bool) {
	found := rules.Move(0)
	for _, x := range moves {
		if x == m {
			return x, true
		}
		if found == 0 && x.From() == m.From() && x.To() == m.To() {
			found = x
		}
	}
	return found, found != 0
}
