package engine

import (
	"sort"
	"sync/atomic"
	"time"

	"boardd/rules/square"
)

// maxPly bounds the search's depth in plies (quiescence included).
const maxPly = 64

// maxQPly bounds the quiescence search below the main search's leaves.
const maxQPly = 8

// searcher is one search: the board, the tables and the counters.
type searcher struct {
	b        *board
	tt       *table
	team     [numSeats]uint8 // 0: the root's side, 1: its opponents
	paranoid bool            // root alone against three (singles modes)
	// brs: the singles modes search the opponents' turns as one layer in
	// which one opponent plays all its moves and the others the move
	// their move ordering ranks first (best-reply search, BRS+).
	brs   bool
	noBRS bool // the paranoid search in the singles modes instead
	lead  bool // singles: the leading opponent weighs half (on trial)
	// branched[ply]: in the opponents' layer the node at ply belongs to,
	// an opponent has already played all its moves.
	branched [maxPly + 2]bool
	root     Seat

	material   [numSeats]int
	positional [numSeats]int
	kingSq     [numSeats]square.Square
	attackers  []attacker
	// trial switches on terms under trial, measured against the bot
	// without them at equal time (TestAB) and so far not better: check
	// extensions with evasions at the first quiescence ply (Teams, 20 ms
	// a move: 26 wins to 34), king tropism (23 to 27). Off by default.
	trial bool
	// kingZone charges kings for the enemy pieces attacking the squares
	// around them (partnership modes with royal kings).
	kingZone bool
	lazyZone bool // scan leaves the king zone out (evaluateLazy)
	// nullMove allows null-move pruning (chess.com Teams); nulled marks
	// the plies reached by a pass.
	nullMove bool
	nulled   [maxPly + 1]bool
	// prune allows the shallow pruning of the partnership modes, at
	// nodes off the principal variation and out of check, within three
	// plies of the horizon: a static value that beats beta by a margin
	// ends the node (reverse futility), and quiet moves that give no
	// check are skipped late in the move list (late-move pruning) or when
	// the static value is far below alpha (futility).
	prune bool
	// hist keeps the history scores bounded, debits the quiet moves
	// tried before a quiet cut-off and reduces late quiet moves with a
	// negative history one ply more (searcher.rewardQuiet; partnership
	// modes, where it was measured).
	hist bool
	// delta skips, in quiescence, captures that cannot lift the value to
	// alpha even if the piece taken is never avenged (delta pruning;
	// partnership modes, where a capture gains no points).
	delta bool
	// checkExt extends checks and spares checking moves reductions.
	checkExt bool
	// deepLMP prunes late quiet moves at depths 4 and 5 too (under trial).
	deepLMP bool
	// sel is the selective search of the partnership modes: late moves
	// reduced by depth and move number, late quiet moves pruned at every
	// depth, a deeper null move and at most maxExt check extensions on a
	// line (exts[ply] counts those above the node at ply).
	sel  bool
	exts [maxPly + 2]int8
	// plainEval leaves the points scored out of the evaluation (the
	// plain opponent of Engine.plain).
	plainEval bool
	gained    [numSeats]int // FFA points scored inside the search
	out       [numSeats]int

	killers [maxPly + 1][2]Move
	// counter allows counter-moves: the quiet move that last cut a node
	// off after the same previous move ranks just after the killers
	// (partnership modes). played[ply] is the move made at ply (0: a pass).
	counter  bool
	counters [numSeats][256][256]Move
	played   [maxPly + 1]Move
	history  [numSeats][256][256]int32
	hashes   [maxPly + 1]uint64
	movers   [maxPly + 1]Seat

	nodes     int64
	maxNodes  int64
	deadline  time.Time
	timed     bool
	stop      *atomic.Bool
	aborted   bool
	noiseAmp  int
	seed      uint64
	curHash   uint64
	selDepth  int
	scoreBufs [maxPly + 1][]int
}

// noise is the level's deterministic evaluation noise for the current
// position (a function of the position and the seed, so the transposition
// table stays consistent and a seed replays the same game).
func (e *searcher) noise() int {
	if e.noiseAmp == 0 {
		return 0
	}
	r := mix(e.curHash ^ e.seed)
	return int(r%uint64(2*e.noiseAmp+1)) - e.noiseAmp
}

// checkStop polls the clock, the node limit and the stop flag (the clock
// every 256 nodes: a few milliseconds of search even on a loaded machine).
func (e *searcher) checkStop() bool {
	if e.aborted {
		return true
	}
	if e.maxNodes > 0 && e.nodes >= e.maxNodes {
		e.aborted = true
	} else if e.nodes&255 == 0 {
		if e.stop != nil && e.stop.Load() {
			e.aborted = true
		} else if e.timed && time.Now().After(e.deadline) {
			e.aborted = true
		}
	}
	return e.aborted
}

// sameTeam says whether seats a and b are on one side of this search.
func (e *searcher) sameTeam(a, c Seat) bool { return e.team[a] == e.team[c] }

// child searches the position after a move, returning its value from the
// point of view of the mover (seat before): negated when the seat now to
// move is on the other side, as is when seats of one side follow each
// other (an eliminated seat skipped, or paranoid's three opponents).
func (e *searcher) child(mover Seat, depth, ply, alpha, beta int) int {
	if e.sameTeam(mover, e.b.turn()) {
		return e.search(depth, ply, alpha, beta)
	}
	return -e.search(depth, ply, -beta, -alpha)
}

// branchedKey marks in the table's key a node of a best-reply layer after
// its branching opponent (the same position, fewer moves searched).
var branchedKey = mix(0x50000)

// childDepth is the depth left for the position after a move of mover
// searched to depth: one less, except inside best-reply search's
// layers, where consecutive seats of one side count as one ply.
func (e *searcher) childDepth(mover Seat, depth int) int {
	if e.brs && e.sameTeam(mover, e.b.turn()) {
		return depth
	}
	return depth - 1
}

// childQ is child for the quiescence search.
func (e *searcher) childQ(mover Seat, ply, qply, alpha, beta int) int {
	if e.sameTeam(mover, e.b.turn()) {
		return e.quiesce(ply, qply, alpha, beta)
	}
	return -e.quiesce(ply, qply, -beta, -alpha)
}

// doMove makes m, keeping FFA points scored and the hash stack up to date.
func (e *searcher) doMove(m Move, ply int) (undo, int) {
	b := e.b
	s := b.turn()
	gain := 0
	if b.scoresPoints {
		if c, ok := b.captured(m); ok && !c.dead {
			gain = pointValue[c.kind]
			if c.promo && b.promotedOne {
				gain = 1
			}
		}
		e.gained[s] += gain
	}
	e.movers[ply] = s
	e.played[ply] = m
	u := b.make(m, ply)
	e.nodes++
	e.curHash = b.hash()
	e.hashes[ply+1] = e.curHash
	return u, gain
}

// undoMove takes back doMove.
func (e *searcher) undoMove(m Move, u undo, s Seat, gain, ply int) {
	e.b.unmake(m, u, ply)
	e.gained[s] -= gain
	e.curHash = e.hashes[ply]
}

// repeated reports whether the current position occurred earlier in the
// search line, a full round or more before (a draw by repetition is
// near). Positions of the game before the root are not known here.
func (e *searcher) repeated(ply int) bool {
	h := e.hashes[ply]
	for i := ply - 4; i >= 0; i -= 4 {
		if e.hashes[i] == h {
			return true
		}
	}
	return false
}

// tryNull is null-move pruning (Teams): the side to move passes and the
// next seat, an opponent, moves at a reduced depth; if the side still
// holds beta it would hold it with a move too, and the node is cut. Only
// when the static value is at least beta, never in check, never twice in
// a row. The pass is a copy of the position with the next seat to move
// (the rules have no null move); the board's mirror of the pieces stays.
func (e *searcher) tryNull(depth, ply, beta int) (int, bool) {
	b := e.b
	margin := 0
	if e.sel {
		margin = 50
	}
	if e.evaluate() < beta+margin {
		return 0, false
	}
	mover := b.turn()
	next := e.nextSeat(mover)
	if next == noSeat || e.sameTeam(next, mover) {
		return 0, false
	}
	r := 2
	if depth >= 6 {
		r = 3
	}
	if e.sel {
		if p := b.partner[mover]; p != noSeat && b.inCheck(p) {
			return 0, false // the pass may leave the partner's king to be taken
		}
		r = min(depth/3+2, depth)
	}
	orig, saved := b.p, e.curHash
	b.p = orig.WithTurn(next)
	e.movers[ply] = mover
	e.played[ply] = 0
	e.curHash = b.hash()
	e.hashes[ply+1] = e.curHash
	e.nulled[ply+1] = true
	v := e.child(mover, depth-1-r, ply+1, beta-1, beta)
	e.nulled[ply+1] = false
	b.p, e.curHash = orig, saved
	if e.aborted || v < beta {
		return 0, false
	}
	return beta, true
}

// nextSeat is the seat that moves after s (the variant's order, skipping
// eliminated seats), or noSeat.
func (e *searcher) nextSeat(s Seat) Seat {
	order := e.b.v.Order
	for i, o := range order {
		if o != s {
			continue
		}
		for j := 1; j < len(order); j++ {
			n := order[(i+j)%len(order)]
			if !e.b.eliminated(n) {
				return n
			}
		}
	}
	return noSeat
}

// takesKing reports whether a capture of c takes a king in chess.com
// Teams, where that wins the game on the spot: a king left in check by a
// discovered attack of an opponent who moves before its owner is taken.
func (e *searcher) takesKing(c pieceInfo, isCap bool) bool {
	return isCap && c.kind == kKing && !c.dead && e.b.mode == modeTeams
}

// givesCheck reports whether the move just made by mover puts a king of
// the other side in check (such a move is not reduced in the partnership
// modes).
func (e *searcher) givesCheck(mover Seat) bool {
	b := e.b
	for s := Seat(0); s < numSeats; s++ {
		if !e.sameTeam(s, mover) && !b.eliminated(s) && b.inCheck(s) {
			return true
		}
	}
	return false
}

// pastOut searches on past an opponent the search finds mated (or
// stalemated where that scores) in FFA while two or more others play: the
// seat is taken out as the rules take it (its army grey, +20 points for
// the mater or the stalemated seat), and the next seat moves with the
// depth left. Scoring the mate where it falls would hide the next seat's
// reply: a mate that leaves the bot's own king to be mated next. ok is
// false where noMoves scores the position instead.
func (e *searcher) pastOut(depth, ply, alpha, beta int) (int, bool) {
	b := e.b
	s := b.turn()
	if b.mode != modeFFA || ply == 0 || e.team[s] == 0 {
		return 0, false
	}
	mated := b.inCheck(s)
	if !mated && b.stalemateDraws {
		return 0, false
	}
	left := 0
	for o := Seat(0); o < numSeats; o++ {
		if o != s && e.out[o] == 0 && !b.eliminated(o) {
			left++
		}
	}
	if left < 2 {
		return 0, false // the game ends here
	}
	scorer := s
	if mated {
		scorer = e.mater(s, ply)
	}
	orig, saved := b.p, e.curHash
	b.p = orig.WithOut(s)
	b.rebuild()
	e.gained[scorer] += 20
	e.movers[ply] = scorer // a mate of the next seat too is the same move's
	e.played[ply] = 0
	e.curHash = b.hash()
	e.hashes[ply+1] = e.curHash
	next := b.turn()
	e.branched[ply+1] = e.branched[ply] && e.sameTeam(s, next)
	// The value is s's (an opponent of the root), the bonus the root's:
	// a mate now is worth more than the same mate later, as in noMoves.
	bonus := 0
	if mated {
		bonus = 200 - 4*ply
	}
	v := e.child(s, e.childDepth(s, depth), ply+1, alpha+bonus, beta+bonus)
	e.gained[scorer] -= 20
	b.p, e.curHash = orig, saved
	b.rebuild()
	return v - bonus, true
}

// claimed scores, for the side to move, a position inside the search in
// which two seats are left and one leads the other by more than 20
// points: the leader claims the win (chess.com FFA), so it counts as a
// mate for the leader's side. ok is false for any other position (and at
// the root, where the game itself decides).
func (e *searcher) claimed(ply int) (int, bool) {
	b := e.b
	if !b.claimWin || ply == 0 {
		return 0, false
	}
	a, c := noSeat, noSeat
	for s := Seat(0); s < numSeats; s++ {
		if e.out[s] != 0 || b.eliminated(s) {
			continue
		}
		switch {
		case a == noSeat:
			a = s
		case c == noSeat:
			c = s
		default:
			return 0, false // three or more play
		}
	}
	if c == noSeat {
		return 0, false
	}
	lead := b.points(a) + e.gained[a] - b.points(c) - e.gained[c]
	if lead >= -20 && lead <= 20 {
		return 0, false
	}
	winner := a
	if lead < 0 {
		winner = c
	}
	v := mateScore - ply
	if e.team[winner] != e.team[b.turn()] {
		v = -v
	}
	return v, true
}

// mater is the seat credited with the mate of s found at ply: of the
// seats that moved since s last did, the first whose men give the check
// (the rules take a mated seat out at the move that mates it, not at its
// turn), else the last to move.
func (e *searcher) mater(s Seat, ply int) Seat {
	first := ply - 1
	for first > 0 && e.movers[first-1] != s {
		first--
	}
	if k := e.b.p.KingSquare(s); k != square.None {
		for p := first; p < ply; p++ {
			if c := e.movers[p]; c != s && c != noSeat && e.attacks(c, k) {
				return c
			}
		}
	}
	return e.movers[ply-1]
}

// noMoves scores a position whose side to move has no legal move.
func (e *searcher) noMoves(ply int) int {
	b := e.b
	s := b.turn()
	mated := b.inCheck(s)
	switch b.mode {
	case modeTeams, modeDouble, modeLast:
		if mated {
			return -mateScore + ply
		}
		return 0
	case modeCaptureAll:
		return 0
	case modeVerney:
		// Verney: a mated army is inert until released; the game is won
		// only when both partners are mated.
		if !mated {
			return 0
		}
		p := b.partner[s]
		if p != noSeat && e.out[p] != 0 {
			return -mateScore + ply
		}
		e.out[s]++
		v := e.evaluate()
		e.out[s]--
		return v
	}
	// Singles (FFA, Chess4): the mated seat is out; the mater scores 20
	// points in FFA, or (Chess4 Method 2) takes the army over. Where a
	// stalemate ends the game it is a draw: worth nothing to the root.
	if !mated && b.stalemateDraws {
		return 0
	}
	if !mated && b.mode == modeFFA {
		e.gained[s] += 20
		e.out[s]++
		v := e.evaluate()
		e.out[s]--
		e.gained[s] -= 20
		return v
	}
	if e.team[s] == 0 {
		return -mateScore + ply
	}
	mater := noSeat
	if ply > 0 && mated {
		mater = e.mater(s, ply)
	}
	if mater != noSeat && b.scoresPoints && mated {
		e.gained[mater] += 20
	}
	// A mate now is worth more than the same mate later (the opponents
	// may see it coming).
	bonus := 200 - 4*ply
	if b.armyControl && mater != noSeat && e.team[mater] == 0 {
		e.scan()
		bonus += e.material[s] / 2
	}
	e.out[s]++
	v := e.evaluate()
	e.out[s]--
	if mater != noSeat && b.scoresPoints && mated {
		e.gained[mater] -= 20
	}
	// v is from s's side (an opponent of the root); the army bonus is the
	// root's.
	return v - bonus
}

// maxExt bounds the check extensions on one line of the selective search.
const maxExt = 3

// rfpMargin is reverse futility's margin per ply of depth left, and
// futilityMargin[d] what a quiet move d plies from the horizon is
// assumed to gain at most, in centipawns.
const rfpMargin = 150

var futilityMargin = [4]int{0, 200, 350, 500}

// search is the principal-variation alpha-beta search; it returns the
// value for the side to move's team.
func (e *searcher) search(depth, ply, alpha, beta int) int {
	if ply > e.selDepth {
		e.selDepth = ply
	}
	if e.checkStop() {
		return 0
	}
	if ply > 0 && (e.repeated(ply) || e.b.p.HalfMoveClock() >= 100) {
		return 0
	}
	if v, ok := e.claimed(ply); ok {
		return v
	}
	b := e.b
	// In the partnership modes a check is answered in full, never cut
	// short by the horizon: most Teams games end in a mate that a run of
	// checks (the partner's too) prepares.
	inCheck := (e.trial || e.checkExt) && b.inCheck(b.turn())
	e.exts[ply+1] = e.exts[ply]
	if inCheck && ply < maxPly-maxQPly-4 && (!e.sel || e.exts[ply] < maxExt) {
		depth++
		e.exts[ply+1]++
	}
	if depth <= 0 || ply >= maxPly-maxQPly-1 {
		return e.quiesce(ply, 0, alpha, beta)
	}
	mover := b.turn()
	// Best-reply search: at an opponent's turn, before another opponent
	// of the layer has played all its moves (branched), this one may do
	// so, or play its first-ordered move and leave the choice to the next
	// opponent; after, it plays its first-ordered move only.
	opp := e.brs && e.team[mover] != 0
	br := opp && e.branched[ply]
	hash := e.curHash
	if br {
		hash ^= branchedKey
	}
	var ttMove Move
	if ent, ok := e.tt.probe(hash); ok {
		ttMove = ent.move
		if ply > 0 && int(ent.depth) >= depth {
			sc := fromTT(int(ent.score), ply)
			switch ent.flag {
			case flagExact:
				return sc
			case flagLower:
				if sc >= beta {
					return sc
				}
			case flagUpper:
				if sc <= alpha {
					return sc
				}
			}
		}
	}
	// Shallow pruning (partnership modes): see searcher.prune.
	pv := beta-alpha > 1
	shallow := e.prune && !pv && !inCheck && ply > 0 && depth <= 3 && beta < mateScore-maxPly && alpha > -mateScore+maxPly
	static := 0
	if shallow {
		static = e.evaluate()
		if static-rfpMargin*depth >= beta {
			return static - rfpMargin*depth
		}
	}
	futile := shallow && static+futilityMargin[depth] <= alpha
	lateMoves := 1 << 30
	if shallow || e.deepLMP && e.prune && !pv && !inCheck && ply > 0 && depth <= 5 && beta < mateScore-maxPly && alpha > -mateScore+maxPly {
		lateMoves = 4 + 3*depth*depth
	}
	// Selective: quiet moves past the first lateQuiets are pruned at any
	// depth (counted among the quiet moves searched, not all moves).
	lateQuiets := 1 << 30
	if e.sel && !inCheck && ply > 0 && alpha > -mateScore+maxPly {
		lateMoves = 1 << 30
		if pv {
			lateQuiets = 5 + depth*depth
		} else {
			lateQuiets = 1 + depth*depth/5
		}
	}
	minNull := 3
	if e.sel {
		minNull = 2
	}
	if e.nullMove && ply > 0 && !inCheck && depth >= minNull && !e.nulled[ply] && beta < mateScore-maxPly && beta > -mateScore+maxPly {
		if v, ok := e.tryNull(depth, ply, beta); ok {
			return v
		}
		if e.aborted {
			return 0
		}
	}
	moves := b.legal(ply)
	if len(moves) == 0 {
		if v, ok := e.pastOut(depth, ply, alpha, beta); ok {
			return v
		}
		return e.noMoves(ply)
	}
	scores := e.order(moves, ply, ttMove)
	best, bestMove := -infinity, Move(0)
	origAlpha := alpha
	limit := len(moves)
	if br {
		limit = 1
	}
	passLeft := opp && !br
	quiets := 0
	for i := 0; i < limit || passLeft; i++ {
		pass := i >= limit
		if pass {
			passLeft = false
		} else {
			pickNext(moves, scores, i)
		}
		m := moves[0] // a pass plays the first-ordered move
		if !pass {
			m = moves[i]
		}
		c, isCap := b.captured(m)
		quiet := !isCap && !isPromotion(m)
		if !pass && e.takesKing(c, isCap) {
			// Teams: capturing a king ends the game at once.
			best, bestMove = mateScore-ply-1, m
			break
		}
		upCapture := e.sel && isCap && !pass && pieceValue[c.kind] > pieceValue[b.mover(m)]
		u, gain := e.doMove(m, ply)
		checks := -1 // not known yet
		givesCheck := func() bool {
			if checks < 0 {
				checks = 0
				if e.givesCheck(mover) {
					checks = 1
				}
			}
			return checks == 1
		}
		if i > 0 && quiet && !pass && (futile || i >= lateMoves || quiets >= lateQuiets) && best > -mateScore+maxPly && !givesCheck() {
			e.undoMove(m, u, mover, gain, ply)
			continue
		}
		if e.sel && quiet && !pass && !inCheck && !givesCheck() {
			quiets++
		}
		next := e.sameTeam(mover, b.turn())
		if pass && !next {
			// The last opponent of the layer: no one is left to branch.
			e.undoMove(m, u, mover, gain, ply)
			continue
		}
		e.branched[ply+1] = opp && next && !pass
		d := e.childDepth(mover, depth)
		var v int
		if i == 0 {
			v = e.child(mover, d, ply+1, alpha, beta)
		} else if e.sel && !pass {
			r := 0
			if depth > 1 && i > 1 {
				r = 1 + max(0, (depth-5)/3) + i/30
				if quiet && !givesCheck() {
					r += 1 + depth/8
				}
				if givesCheck() {
					r--
				}
				if pv {
					r--
				}
				if inCheck {
					r--
				}
				if quiet {
					switch h := e.history[mover][sqByte(m.From())][sqByte(m.To())]; {
					case h < 0:
						r++
					case h > historyMax/2:
						r--
					}
				} else if upCapture {
					r-- // takes a more valuable piece
				}
				r = max(0, min(r, d-1))
			}
			v = e.child(mover, d-r, ply+1, alpha, alpha+1)
			if v > alpha && r > 0 && !e.aborted {
				v = e.child(mover, d, ply+1, alpha, alpha+1)
			}
			if v > alpha && v < beta && pv && !e.aborted {
				v = e.child(mover, d, ply+1, alpha, beta)
			}
		} else {
			r := 0
			if quiet && !pass && !inCheck && depth >= 3 && i >= 4 && !(e.checkExt && givesCheck()) {
				r = 1
				if i >= 12 && depth >= 5 {
					r = 2
				}
				if e.hist && i >= 8 && depth >= 4 && e.history[mover][sqByte(m.From())][sqByte(m.To())] < 0 {
					r++ // a move that has failed more often than it cut
				}
			}
			v = e.child(mover, d-r, ply+1, alpha, alpha+1)
			if v > alpha && (r > 0 || v < beta) && !e.aborted {
				v = e.child(mover, d, ply+1, alpha, beta)
			}
		}
		e.undoMove(m, u, mover, gain, ply)
		if e.aborted {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if alpha >= beta {
					if quiet {
						if e.killers[ply][0] != m {
							e.killers[ply][1] = e.killers[ply][0]
							e.killers[ply][0] = m
						}
						e.rewardQuiet(mover, moves[:i], m, depth)
						if p := e.prevMove(ply); e.counter && p != 0 {
							e.counters[mover][sqByte(p.From())][sqByte(p.To())] = m
						}
					}
					break
				}
			}
		}
	}
	flag := flagExact
	if best <= origAlpha {
		flag = flagUpper
	} else if best >= beta {
		flag = flagLower
	}
	e.tt.store(hash, bestMove, toTT(best, ply), depth, flag)
	return best
}

// historyMax bounds the history scores (the "gravity" of the update
// below keeps them within ±historyMax).
const historyMax = 1 << 14

// rewardQuiet credits quiet move m, which caused a cut-off at depth, in
// the history table of seat mover; with e.hist the quiet moves tried
// before it (tried) are debited as much, and every update is scaled so
// that the scores stay within ±historyMax, recent results weighing most.
func (e *searcher) rewardQuiet(mover Seat, tried []Move, m Move, depth int) {
	h := &e.history[mover]
	bonus := int32(depth * depth)
	if !e.hist {
		h[sqByte(m.From())][sqByte(m.To())] += bonus
		return
	}
	bonus = min(bonus, historyMax/4)
	update := func(x *int32, d int32) { *x += d - int32(int(*x)*abs(int(d))/historyMax) }
	update(&h[sqByte(m.From())][sqByte(m.To())], bonus)
	b := e.b
	for _, t := range tried {
		if _, isCap := b.captured(t); !isCap && !isPromotion(t) {
			update(&h[sqByte(t.From())][sqByte(t.To())], -bonus)
		}
	}
}

// deltaMargin is what a capture may gain beyond the piece it takes
// (position, a recapture refused) for quiescence's delta pruning.
const deltaMargin = 200

// quiesce searches captures and promotions only, from a stand-pat score,
// so that no leaf is evaluated in the middle of an exchange.
func (e *searcher) quiesce(ply, qply, alpha, beta int) int {
	if ply > e.selDepth {
		e.selDepth = ply
	}
	if e.checkStop() {
		return 0
	}
	if v, ok := e.claimed(ply); ok {
		return v
	}
	b := e.b
	moves := b.legal(ply)
	if len(moves) == 0 {
		return e.noMoves(ply)
	}
	stand := e.evaluateLazy(alpha, beta)
	if qply >= maxQPly || ply >= maxPly-1 {
		return stand
	}
	// In check (at the first quiescence ply) every evasion is searched
	// and standing pat is no option: that finds the mates the main search
	// leaves just beyond its horizon.
	evade := e.trial && qply == 0 && b.inCheck(b.turn())
	if !evade {
		if stand >= beta {
			return stand
		}
		if stand > alpha {
			alpha = stand
		}
		// Keep only captures of live men and promotions, best victim first.
		// In best-reply search the opponents' captures of each other's
		// men are left out too: they change the root's value little (the
		// opponents count as their average) and multiply the leaves.
		oppOnly := e.brs && e.team[b.turn()] != 0
		n := 0
		for _, m := range moves {
			c, ok := b.captured(m)
			if ok && oppOnly && c.seat != noSeat && e.team[c.seat] != 0 {
				continue
			}
			if (ok && !c.dead) || isPromotion(m) {
				moves[n] = m
				n++
			}
		}
		moves = moves[:n]
		if n == 0 {
			return stand
		}
	}
	scores := e.order(moves, ply, 0)
	mover := b.turn()
	best := stand
	if evade {
		best = -infinity
	}
	for i := range moves {
		pickNext(moves, scores, i)
		m := moves[i]
		c, ok := b.captured(m)
		if e.takesKing(c, ok) {
			return mateScore - ply - 1
		}
		if e.delta && !evade && ok && !isPromotion(m) && stand+pieceValue[c.kind]+deltaMargin <= alpha {
			continue // even winning the piece for nothing leaves the side below alpha
		}
		u, gain := e.doMove(m, ply)
		v := e.childQ(mover, ply+1, qply+1, alpha, beta)
		e.undoMove(m, u, mover, gain, ply)
		if e.aborted {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// order scores moves for ordering: the transposition table's move, then
// captures by most valuable victim and least valuable attacker, promotions,
// the killers of the ply, the counter-move, and quiet moves by history.
func (e *searcher) order(moves []Move, ply int, ttMove Move) []int {
	if cap(e.scoreBufs[ply]) < len(moves) {
		e.scoreBufs[ply] = make([]int, len(moves), max(256, len(moves)))
	}
	sc := e.scoreBufs[ply][:len(moves)]
	b := e.b
	mover := b.turn()
	var counter Move
	if p := e.prevMove(ply); e.counter && p != 0 {
		counter = e.counters[mover][sqByte(p.From())][sqByte(p.To())]
	}
	for i, m := range moves {
		switch {
		case m == ttMove:
			sc[i] = 1 << 30
		default:
			if c, ok := b.captured(m); ok {
				v := pieceValue[c.kind]
				if c.kind == kKing {
					v = 5000
				}
				if c.dead {
					v = 10
				}
				sc[i] = 1<<24 + v*8 - int(b.mover(m))
			} else if isPromotion(m) {
				sc[i] = 1<<23 + int(m.Promotion())
			} else if m == e.killers[ply][0] {
				sc[i] = 1 << 22
			} else if m == e.killers[ply][1] {
				sc[i] = 1<<22 - 1
			} else if m == counter {
				sc[i] = 1<<22 - 2
			} else {
				sc[i] = int(e.history[mover][sqByte(m.From())][sqByte(m.To())])
			}
		}
	}
	return sc
}

// pickNext moves the best-scored remaining move to position i (selection
// sort, lazily: a cut-off spares sorting the rest).
func pickNext(moves []Move, sc []int, i int) {
	bi := i
	for j := i + 1; j < len(moves); j++ {
		if sc[j] > sc[bi] {
			bi = j
		}
	}
	if bi != i {
		moves[i], moves[bi] = moves[bi], moves[i]
		sc[i], sc[bi] = sc[bi], sc[i]
	}
}

// prevMove is the move that led to the node at ply (0 at the root and
// after a null move).
func (e *searcher) prevMove(ply int) Move {
	if ply == 0 {
		return 0
	}
	return e.played[ply-1]
}

// sqByte folds a square into a byte for the history table.
func sqByte(s square.Square) int { return int(uint16(s)) & 255 }

// sortRoot orders root moves by score, best first, keeping ties stable.
func sortRoot(moves []Move, scores []int) {
	idx := make([]int, len(moves))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, c int) bool { return scores[idx[a]] > scores[idx[c]] })
	ms := make([]Move, len(moves))
	ss := make([]int, len(moves))
	for i, j := range idx {
		ms[i], ss[i] = moves[j], scores[j]
	}
	copy(moves, ms)
	copy(scores, ss)
}
