// Package engine is boardd's bot: a four-player chess player for an empty
// seat, in any variant the rules engine knows, at a chosen strength.
//
// The search is alpha-beta on the rules engine's own move generator and
// make/unmake (rules is the only package it imports), with iterative
// deepening under a time, depth or node limit, a transposition table,
// principal-variation search with late-move reductions, move ordering
// (table move, captures by most valuable victim / least valuable
// attacker, promotions, killers, history; counter-moves in the
// partnership modes) and a quiescence search on captures and promotions;
// in the partnership modes check extensions and, in chess.com Teams,
// null-move pruning.
//
// Four players are not two. The search splits the seats into two sides and
// lets each seat maximise its own side's value:
//
//   - Partnership modes (chess.com Teams, Stevenson, Verney, the essay's
//     partnerships, blocking double): the partner's move is the team's, so
//     the search is an exact two-sided alpha-beta over the turn order
//     (R, B, Y, G alternate sides, so it is ordinary negamax).
//   - Singles modes (chess.com FFA, Chess4, the essay's free-for-all):
//     best-reply search in the BRS+ form (Schadd & Winands, "Best Reply
//     Search for Multiplayer Games", 2011; Esser et al., "Improving
//     Best-Reply Search", 2013): in each layer of the opponents' turns one
//     opponent plays all its moves and the others the move their move
//     ordering ranks first, so the real turn order is kept and the layer
//     counts as one ply. The paranoid search (Sturtevant & Korf, AAAI
//     2000: the bot's seat against the three as one coalition) is kept
//     for comparison. The evaluation counts the bot's points, material,
//     king shelter and pawns against the average of the three
//     opponents', and a mate of the bot as lost.
//
// See docs/bot.md for levels, time management and the measured figures.
package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"boardd/rules"
)

// noSeat is rules.NoSeat.
const noSeat = rules.NoSeat

// Level settings, per mode: how deep the search goes, the evaluation
// noise in centipawns, and how often (per mille of moves) the level
// blunders: plays a random legal move without thinking, as a beginner now
// and then does. The partnership modes search every seat's turn as a ply;
// the singles modes (best-reply search) count the three opponents' turns
// as one, so a singles ply is worth about two and the singles column stops
// sooner. In the singles modes one more ply beyond two buys little (with
// four seats on points, first place is a race that the one-move tactics
// mostly decide), so there the upper levels differ by noise and blunders
// as much as by depth.
type modeLevel struct {
	depth   int
	noise   int
	blunder int
}

// levelSpec is one level: its settings in the partnership modes, in the
// singles modes, and its share of the time.
type levelSpec struct {
	partners modeLevel
	singles  modeLevel
	timeFrac float64
}

var levels = [6]levelSpec{
	{},
	{partners: modeLevel{1, 100, 250}, singles: modeLevel{1, 100, 350}, timeFrac: 0.25},
	{partners: modeLevel{2, 50, 100}, singles: modeLevel{1, 50, 100}, timeFrac: 0.4},
	{partners: modeLevel{3, 30, 100}, singles: modeLevel{2, 120, 200}, timeFrac: 0.4},
	{partners: modeLevel{5, 0, 20}, singles: modeLevel{2, 60, 80}, timeFrac: 0.4},
	{partners: modeLevel{unlimited, 0, 0}, singles: modeLevel{unlimited, 0, 0}, timeFrac: 1},
}

// unlimited is the deepest iteration there is.
const unlimited = maxPly - maxQPly - 2

// MaxLevel is the strongest level.
const MaxLevel = 5

// Options set how long and how well the bot thinks.
type Options struct {
	// Level is the strength, 1 (a beginner who blunders now and then) to 5
	// (the strongest the time allows). 0 means 3.
	Level int
	// MoveTime is the time for this move. Zero: the clock below, or 1 s
	// when there is no clock either.
	MoveTime time.Duration
	// Clock, when MoveTime is zero, is the seat's clock: the bot plans
	// its time on it (Clock.Plan).
	Clock *Clock
	// Depth limits the search in plies (one seat's move each); 0 means the
	// level's limit. A depth or node limit with no time makes the search
	// reproducible.
	Depth int
	// Nodes stops the search after about this many nodes (0: no limit).
	Nodes int64
	// NoTimeLimit searches to Depth or Nodes only, ignoring the clock.
	NoTimeLimit bool
	// Seed makes the level's noise and tie-breaks reproducible.
	Seed uint64
	// HashMB is the transposition table's size (default 16).
	HashMB int
}

// Result is what the bot found.
type Result struct {
	// Move is the move to play.
	Move Move
	// Text is Move in PGN4, the form boardd replay reads.
	Text string
	// Score is the value for the bot's side in centipawns (mates near
	// ±1,000,000).
	Score int
	// Depth is the last completed iteration's depth in plies.
	Depth int
	// Nodes is the number of positions searched.
	Nodes int64
	// Elapsed is the time spent; Allowed the time the bot gave itself
	// (the hard limit).
	Elapsed, Allowed time.Duration
	// Forced says the seat had one legal move, played at once without a
	// search (Score and Depth are then 0).
	Forced bool
}

// Engine is a bot that keeps its transposition table from move to move.
// It is not safe for concurrent use: give each seat its own.
type Engine struct {
	opt  Options
	tt   *table
	stop atomic.Bool
	// trial: see searcher.trial.
	trial bool
	// noNull switches null-move pruning off (to measure it).
	noNull bool
	// noPrune switches the shallow pruning (searcher.prune) off.
	noPrune bool
	// noHist switches the history's debits and bounds off (searcher.hist).
	noHist bool
	// noCounter switches the counter-moves (searcher.counter) off.
	noCounter bool
	// noDelta switches quiescence's delta pruning (searcher.delta) off.
	noDelta bool
	// deepLMP: see searcher.deepLMP.
	deepLMP bool
	// noSel switches the selective search (searcher.sel) off.
	noSel bool
	// plain plays the singles modes as a strong generic engine would:
	// the partnership modes' search (its pruning, reductions and
	// extensions) in a paranoid search, on a plain evaluation that
	// leaves the points out (searcher.plainEval). An opponent to measure
	// the singles bot against.
	plain bool
	// brsPrune, brsHist and brsCheck switch shallow pruning, the history's
	// debits and check extensions on in best-reply search (under trial).
	brsPrune, brsHist, brsCheck bool
	// noBRS searches the singles modes with the paranoid search instead
	// of best-reply search (to measure one against the other).
	noBRS bool
	// lead: see searcher.lead.
	lead bool
	// lastRoot is the seat the table's entries were searched for: the
	// paranoid search's values depend on whose side is whose.
	lastRoot Seat
	// thought says a Think has run (the table holds entries; the process
	// is no longer starting).
	thought bool
}

// processStart is when this process loaded the engine, about when it
// started: a program that runs one move (boardd bestmove) has spent the
// time since then before its first Think, and that time is the move's.
var processStart = time.Now()

// exitMargin is kept back from a fixed time per move, in a process started
// for the move, for what follows the search: printing and exiting.
const exitMargin = 3 * time.Millisecond

// New returns an engine with the given options.
func New(opt Options) *Engine {
	if opt.Level <= 0 {
		opt.Level = 3
	}
	if opt.Level > MaxLevel {
		opt.Level = MaxLevel
	}
	if opt.HashMB == 0 {
		opt.HashMB = 16
	}
	return &Engine{opt: opt, tt: newTable(opt.HashMB), lastRoot: noSeat}
}

// SetOptions changes the options of the next Think (the level, the time,
// the limits), keeping the transposition table; HashMB is fixed at New.
func (e *Engine) SetOptions(opt Options) {
	if opt.Level <= 0 {
		opt.Level = 3
	}
	if opt.Level > MaxLevel {
		opt.Level = MaxLevel
	}
	opt.HashMB = e.opt.HashMB
	e.opt = opt
}

// ErrNoMove is returned when the seat to move has no move to play (the
// game is over, or the seat must make a choice that is not a move).
var ErrNoMove = errors.New("no legal move to play")

// plan is the time the bot gives itself for one move: a fixed time per
// move is a limit (no new iteration after softLimit % of it), a clock is
// planned (Clock.Plan, with the moves to go estimated from b when not
// given); either is scaled by the level's share of the time.
func (o Options) plan(b *board) Plan {
	frac := levels[o.Level].timeFrac
	var p Plan
	switch {
	case o.MoveTime > 0:
		p = Plan{Soft: o.MoveTime * softLimit / 100, Hard: o.MoveTime}
	case o.Clock != nil:
		mtg := o.Clock.MovesToGo
		if mtg == 0 {
			mtg = b.movesToGo(b.singles())
		}
		p = o.Clock.Plan(mtg)
	default:
		p = Plan{Soft: time.Second * softLimit / 100, Hard: time.Second}
	}
	return Plan{Soft: time.Duration(float64(p.Soft) * frac), Hard: time.Duration(float64(p.Hard) * frac)}
}

// Think chooses a move for the seat to move in g, which it does not change.
// It returns early with the best move so far when ctx is cancelled, and
// ErrNoMove when the seat has no legal move.
func (e *Engine) Think(ctx context.Context, g *rules.Game) (Result, error) {
	began := time.Now()
	moves := rootMoves(g)
	if len(moves) == 0 {
		return Result{}, ErrNoMove
	}
	if len(moves) == 1 {
		// The only move: played at once, whatever the time.
		return Result{Move: moves[0], Text: MoveText(g, moves[0]), Forced: true, Elapsed: time.Since(began)}, nil
	}
	opt := e.opt
	b := newBoard(gamePosition(g))
	plan := opt.plan(b)
	allowed := plan.Hard
	if opt.MoveTime > 0 {
		// A fixed time per move is a limit, not a target: what a young
		// process spent before its first Think (loading, parsing the
		// position) and what it needs to print and exit count in it.
		var spent time.Duration
		if !e.thought {
			// Younger than one move: a process started for this move
			// (a daemon's first move comes much later), which must
			// also print and exit within it. On a loaded machine its
			// start can take much of the move.
			if since := began.Sub(processStart); since < opt.MoveTime {
				spent = exitMargin + min(since, opt.MoveTime*3/4)
			}
		}
		allowed = max(allowed-spent, min(allowed, time.Millisecond))
		plan = Plan{Soft: allowed * softLimit / 100, Hard: allowed}
	}
	res := Result{Move: moves[0], Allowed: allowed}
	s := &searcher{b: b, tt: e.tt, stop: &e.stop, maxNodes: opt.Nodes, trial: e.trial, noBRS: e.noBRS, lead: e.lead, attackers: make([]attacker, 0, 64)}
	s.seed = mix(opt.Seed ^ 0x5eed)
	s.root = b.turn()
	if s.root != e.lastRoot {
		// The values stored are the side to move's; only the singles
		// modes' search values a position by whose side is whose. A
		// partner's search (one engine for both seats of a side) keeps
		// the table.
		if e.thought && (e.lastRoot == noSeat || b.partner[e.lastRoot] != s.root) {
			e.tt.clear() // a new table is empty: clearing it would only touch every page
		}
		e.lastRoot = s.root
	}
	e.thought = true
	s.setTeams(controllers(g))
	lvl := levels[opt.Level].partners
	if s.paranoid {
		lvl = levels[opt.Level].singles
	}
	s.noiseAmp = lvl.noise
	s.kingZone = !s.paranoid && !b.ordinaryKings
	s.nullMove = b.mode == modeTeams && !s.paranoid && !e.noNull
	s.prune = (!s.paranoid || s.brs && e.brsPrune) && !e.noPrune
	s.hist = (!s.paranoid || s.brs && e.brsHist) && !e.noHist
	s.checkExt = !s.paranoid || s.brs && e.brsCheck
	s.delta = !s.paranoid && !e.noDelta
	s.counter = !s.paranoid && !e.noCounter
	s.deepLMP = e.deepLMP
	s.sel = !s.paranoid && !e.noSel
	if e.plain && s.paranoid {
		s.brs = false
		s.prune, s.hist, s.checkExt, s.delta, s.counter, s.sel = true, true, true, true, true, true
		s.plainEval = true
	}
	if !opt.NoTimeLimit {
		s.timed = true
		s.deadline = began.Add(allowed)
	}
	maxDepth := lvl.depth
	if s.paranoid && !s.brs {
		// The paranoid search (measured against best-reply search) has a
		// ply a seat, as the partnership modes.
		maxDepth = levels[opt.Level].partners.depth
	}
	if opt.Depth > 0 {
		maxDepth = opt.Depth
	}
	maxDepth = min(maxDepth, unlimited)
	e.stop.Store(false)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			e.stop.Store(true)
		case <-done:
		}
	}()

	// Seeded shuffle so equal moves are chosen reproducibly by seed.
	rng := rand.New(rand.NewPCG(opt.Seed, uint64(len(g.Records()))))
	rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	if b := lvl.blunder; b > 0 && rng.IntN(1000) < b {
		res.Move = moves[0] // a blunder: the first of the shuffled moves
		res.Elapsed = time.Since(began)
		res.Text = MoveText(g, res.Move)
		return res, nil
	}
	scores := make([]int, len(moves))
	s.curHash = b.hash()
	s.hashes[0] = s.curHash
	for depth := 1; depth <= maxDepth; depth++ {
		// The first iteration (one ply and captures) always finishes, so
		// the move is never a random one however little time is left.
		s.timed = !opt.NoTimeLimit && depth > 1
		runnerUp := scores[min(1, len(scores)-1)]
		best, ok := s.rootSearch(moves, scores, depth)
		if !ok {
			break
		}
		if s.aborted && best == 0 && len(moves) > 1 && depth > 1 && scores[0] < -mateScore+maxPly && res.Score > -mateScore+maxPly {
			// Stopped in an iteration that found the last best move
			// mated and had no time for another: the runner-up of the
			// last full iteration is not known to lose.
			res.Move, res.Score = moves[1], runnerUp
			break
		}
		res.Move, res.Score, res.Depth = moves[best], scores[best], depth
		sortRoot(moves, scores)
		if res.Score > mateScore-maxPly || res.Score < -mateScore+maxPly {
			break
		}
		// An iteration stopped by the clock still counts (its best
		// move is searched first, and a move replaces it only when fully
		// searched and better), so the next one starts unless little
		// time is left: each costs several times the last. The first
		// iteration, which always finishes, is followed by no other
		// when the soft limit has passed (a clock with nothing left).
		if !opt.NoTimeLimit && time.Since(began) > plan.Soft {
			break
		}
	}
	res.Nodes = s.nodes
	res.Elapsed = time.Since(began)
	res.Text = MoveText(g, res.Move)
	return res, nil
}

// softLimit is the percentage of a fixed time per move after which no
// new iteration starts.
const softLimit = 55

// Stop makes a running Think return at once with its best move so far.
func (e *Engine) Stop() { e.stop.Store(true) }

// setTeams puts the root seat's side in team 0. Partnership modes pair the
// partners; singles modes put every other army against the root's (an army
// the root's player controls, Chess4 Method 2, plays on the root's side).
func (e *searcher) setTeams(ctrl [numSeats]Seat) {
	r := e.root
	single := true
	for s := Seat(0); s < numSeats; s++ {
		if e.b.partner[s] != noSeat {
			single = false
		}
	}
	e.paranoid = single
	e.brs = single && !e.noBRS
	me := ctrl[r]
	if me == noSeat {
		me = r
	}
	for s := Seat(0); s < numSeats; s++ {
		switch {
		case s == r:
			e.team[s] = 0
		case !single && e.b.partner[r] == s:
			e.team[s] = 0
		case single && ctrl[s] == me:
			e.team[s] = 0
		default:
			e.team[s] = 1
		}
	}
}

// rootSearch searches every root move to depth and returns the index of
// the best. ok is false when the search was stopped before the first move
// was fully searched (then the previous iteration's move stands).
func (e *searcher) rootSearch(moves []Move, scores []int, depth int) (int, bool) {
	b := e.b
	mover := b.turn()
	alpha, beta := -infinity, infinity
	best := -1
	for i, m := range moves {
		if c, ok := b.captured(m); e.takesKing(c, ok) {
			scores[i] = mateScore - 1
			if best < 0 || scores[i] > alpha {
				alpha, best = scores[i], i
			}
			continue
		}
		u, gain := e.doMove(m, 0)
		var v int
		if i == 0 {
			v = e.child(mover, depth-1, 1, alpha, beta)
		} else {
			v = e.child(mover, depth-1, 1, alpha, alpha+1)
			if v > alpha && !e.aborted {
				v = e.child(mover, depth-1, 1, alpha, beta)
			}
		}
		e.undoMove(m, u, mover, gain, 0)
		if e.aborted {
			break
		}
		scores[i] = v
		if v > alpha || best < 0 {
			if v > alpha {
				alpha = v
			}
			best = i
		} else {
			scores[i] = v - 1 // an upper bound: below the best
		}
	}
	if best < 0 {
		return 0, false
	}
	if e.aborted {
		// Moves not searched this iteration keep the previous order
		// below the best one found so far.
		for i := range moves {
			if i != best && scores[i] >= scores[best] {
				scores[i] = scores[best] - 1
			}
		}
	}
	return best, true
}

// Mated reports whether the search found a forced mate of the bot's side.
func (r Result) Mated() bool { return r.Score < -mateScore+maxPly }

// Hopeless reports whether the bot's side stands lost: mated by force, or
// down more than a queen and a rook's worth.
func (r Result) Hopeless() bool { return r.Mated() || r.Score <= -HopelessScore }

// HopelessScore is the deficit (centipawns) at which a position counts as
// hopeless.
const HopelessScore = 1500

// String describes a result as one line.
func (r Result) String() string {
	return fmt.Sprintf("%s score %d depth %d nodes %d time %s of %s", r.Text, r.Score, r.Depth, r.Nodes, r.Elapsed.Round(time.Millisecond), r.Allowed.Round(time.Millisecond))
}
