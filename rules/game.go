package rules

import (
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
)

// The game layer: a Game is a position plus everything above movement for
// chess.com's Teams and FFA (checkmate and when it counts, elimination,
// FFA's points, the draws, resignation and time-outs) and the history
// that takeback and look-ahead restore. Where a variant decides otherwise
// (its end of turn, resignation, draws, the seat that must move into
// check, notes), Play, leave, settle and checkDraws ask its hook
// (hooks.go); the hooks' per-game states travel in every snapshot.

// Status is where a seat stands in a game.
type Status uint8

// Seat statuses.
const (
	Playing Status = iota
	// Walking: resigned or flagged in FFA with Dead King Walking; the army
	// is grey but the king stays live, keeps its turns and can still be
	// checkmated or captured.
	Walking
	Mated
	Stalemated
	Resigned
	TimedOut
	KingCaptured
	// Wiped: every piece of the seat has been captured (mode capture_all, stevenson.CaptureAll).
	Wiped
	// Finished: the seat's individual game is over and its army has left
	// the board, whatever the result (Double).
	Finished
)

var statusNames = [...]string{"playing", "walking", "checkmated", "stalemated", "resigned", "timed out", "king captured", "all pieces captured", "game finished"}

// String names the status.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "?"
}

// Action is what a seat did on its turn.
type Action uint8

// Actions.
const (
	ActMove Action = iota
	ActResign
	ActTimeout
)

// Record is one turn of the game as it was played.
type Record struct {
	Seat   Seat
	Action Action
	Move   Move   // for ActMove
	Text   string // PGN4 token: the move with check and mate marks, or R / T
	// Gained is the points each seat gained on this turn (FFA).
	Gained [NumSeats]int
	// Out lists the seats eliminated by this turn (checkmate, captured
	// king, resignation) in order.
	Out []Seat
	// By lists, for each seat in Out, the player credited with its
	// elimination (Chess4; NoSeat for nobody).
	By []Seat
	// TurnAfter is the seat to move after this turn.
	TurnAfter Seat
}

// Result is how a finished game ended.
type Result struct {
	// Reason is a short description: "checkmate", "stalemate",
	// "threefold repetition", "50-move rule", "insufficient material",
	// "resignation", "timeout", "king captured", "last player standing",
	// "claim win".
	Reason string
	// Winners are the winning seats (a team in Teams, the top scorers in
	// FFA); empty for a draw in Teams.
	Winners []Seat
	// Points are the final scores (FFA).
	Points [NumSeats]int
	// Sharing are the players who share a drawn game (Chess4).
	Sharing []Seat
}

// Draw reports whether the game was drawn (no winner).
func (r Result) Draw() bool { return len(r.Winners) == 0 }

// Tag returns the PGN4 Result tag value: "1-0" (Red and Yellow win),
// "0-1" (Blue and Green win), "1/2-1/2" in Teams; in FFA the scores as
// chess.com writes them with the given player names ("A: 72 - B: 14 - …").
func (r Result) Tag(mode Mode, names [NumSeats]string) string {
	if tag := resultTags[mode]; tag != nil {
		return tag(r, names) // a mode whose hook writes its own (RegisterResultTag)
	}
	if mode == Teams {
		switch {
		case r.Draw():
			return "1/2-1/2"
		case r.Winners[0]%2 == 0:
			return "1-0"
		default:
			return "0-1"
		}
	}
	parts := make([]string, NumSeats)
	for s := Seat(0); s < NumSeats; s++ {
		n := names[s]
		if n == "" {
			n = s.String()
		}
		parts[s] = fmt.Sprintf("%s: %d", n, r.Points[s])
	}
	return strings.Join(parts, " - ")
}

// Game is a game in progress under one variant: a position plus the game
// rules that sit above movement — checkmate and when it counts,
// elimination, points, draws, resignation and time-outs — and the full
// history, so that any earlier position can be restored (takeback).
type Game struct {
	v       *Variant
	pos     *Position
	start   string
	status  [NumSeats]Status
	records []Record
	// snaps[i] is the state before records[i]; snaps[len(records)] the
	// current state.
	snaps  []snapshot
	reps   map[uint64]int
	result *Result
	agreed bool        // the game ended by AgreeDraw (a takeback reopens it)
	states []HookState // states[i]: the game state of the variant's hook i (nil: none)
	notes  []Note      // decisions between turns (notes.go); never appended to in place
}

type snapshot struct {
	pos    *Position
	status [NumSeats]Status
	states []HookState // the hooks' states, copies no later change touches
	notes  []Note
}

// ErrGameOver is returned for a move or action after the game has ended.
var ErrGameOver = errors.New("the game is over")

// NewGame starts a game of v from a FEN4 position ("" for the variant's
// start array).
func NewGame(v *Variant, fen string) (*Game, error) {
	if fen == "" {
		fen = v.Start
	}
	p, err := ParseFEN4(v, fen)
	if err != nil {
		return nil, err
	}
	g := &Game{v: v, pos: p, start: fen, reps: map[uint64]int{}}
	g.states = make([]HookState, len(v.hooks))
	for i, h := range v.hooks {
		if h.Provides(OnState) {
			g.states[i] = h.NewState()
		}
	}
	for s := Seat(0); s < NumSeats; s++ {
		if p.out[s] {
			g.status[s] = Mated
		} else if p.heir[s] != 0 {
			g.status[s] = KingCaptured // an army inherited (the essay's alternate rule)
		}
	}
	g.reps[p.Hash()]++
	g.snaps = append(g.snaps, g.snapshot())
	g.settle(Red, nil)
	return g, nil
}

// Clone returns an independent copy of the game, history and hooks'
// states included: what is played or taken back on either leaves the
// other as it was (the referee follows other readings of the switches on
// copies).
func (g *Game) Clone() *Game {
	c := *g
	c.pos = g.pos.Clone()
	c.records = append([]Record(nil), g.records...)
	c.snaps = append([]snapshot(nil), g.snaps...) // a snapshot is never changed in place
	c.reps = maps.Clone(g.reps)
	if g.result != nil {
		res := *g.result
		c.result = &res
	}
	c.states = copyStates(g.states)
	return &c
}

// StartTurn returns the seat that moved first.
func (g *Game) StartTurn() Seat { return g.snaps[0].pos.turn }

// Variant returns the game's rules.
func (g *Game) Variant() *Variant { return g.v }

// Position returns a copy of the current position.
func (g *Game) Position() *Position { return g.pos.Clone() }

// StartFEN4 returns the position the game started from.
func (g *Game) StartFEN4() string { return g.start }

// Records returns the turns played so far.
func (g *Game) Records() []Record { return append([]Record(nil), g.records...) }

// Status returns seat s's status.
func (g *Game) Status(s Seat) Status { return g.status[s] }

// Turn returns the seat to move.
func (g *Game) Turn() Seat { return g.pos.turn }

// Result returns the result once the game is over.
func (g *Game) Result() (Result, bool) {
	if g.result == nil {
		return Result{}, false
	}
	return *g.result, true
}

// LegalMoves returns the legal moves of the seat to move (none once the
// game is over).
func (g *Game) LegalMoves() []Move {
	if g.result != nil {
		return nil
	}
	if g.v.provides&(1<<OnGameMoves) != 0 {
		return g.v.hook(OnGameMoves).GameMoves(g)
	}
	moves := g.pos.LegalMoves(nil)
	if len(moves) == 0 && g.mustMove(g.pos.turn) {
		// "that team must still make a move on its turn, even though
		// that move will leave the King in check" (the essay)
		moves = g.pos.PseudoLegal(nil)
	}
	return moves
}

// mustMove reports whether seat s, having no legal move, must still make
// one that leaves its king in check (mode last_standing, not yet reduced).
func (g *Game) mustMove(s Seat) bool {
	return g.v.provides&(1<<OnMustMove) != 0 && g.v.hook(OnMustMove).MustMove(g, s)
}

// reduced reports whether seat s plays by the normal rules of mate and
// stalemate: its partners are all out, or (singles) two seats remain.
func (g *Game) reduced(s Seat) bool {
	return g.v.hook(OnReduced).Reduced(g, s)
}

// partnersReduced is the essay's rule for reduced: seat s's partners are
// all out, or (singles) two seats remain.
func (g *Game) partnersReduced(s Seat) bool {
	partners, in := 0, 0
	for t := Seat(0); t < NumSeats; t++ {
		if g.status[t] != Playing {
			continue
		}
		in++
		if g.v.Partners(s, t) {
			partners++
		}
	}
	if len(g.sideOf(s)) > 1 {
		return partners == 0
	}
	return in <= 2
}

// Play makes a move for the seat to move. An illegal move is refused with
// an error that says why, and changes nothing.
func (g *Game) Play(m Move) (Record, error) {
	if g.result != nil {
		return Record{}, ErrGameOver
	}
	if g.v.provides&(1<<OnGameMoves) != 0 {
		if err := g.v.hook(OnGameMoves).CheckMove(g, m); err != nil {
			return Record{}, err
		}
	} else if !g.pos.IsLegal(m) && !(g.mustMove(g.pos.turn) && g.canOnlyMoveIntoCheck(m)) {
		return Record{}, g.pos.Explain(m)
	}
	s := g.pos.turn
	text := g.pos.MoveText(m)
	rec := Record{Seat: s, Action: ActMove, Move: m}
	victim := g.pos.board[m.to()]
	if m.IsEnPassant() {
		for e := Seat(0); e < NumSeats; e++ {
			if int(g.pos.ep[e].target) == m.to() && e != s {
				victim = g.pos.board[g.pos.ep[e].pawn]
			}
		}
	}
	// A walking king's moves score nothing: its player has left the game
	// and its score is final (chess.com; see walkingKingShare).
	scores := g.v.Mode == FFA && g.status[s] == Playing
	u := g.pos.Make(m)
	if scores && victim != NoPiece && !victim.Dead() {
		g.gain(&rec, s, pieceValue(victim)) // a live king, walking or not, is worth 20
	}
	mark := ""
	if u.kingCap && !g.v.OrdinaryKings {
		e := victim.Seat()
		if g.status[e] == Playing {
			mark = "#" // a player is out: chess.com marks it like a mate
		}
		if g.status[e] == Playing || g.status[e] == Walking {
			if !g.inherit(e) {
				g.eliminate(e, KingCaptured)
				if g.v.KingCaptureRemovesArmy {
					g.removeArmy(e) // data: the essay's games, the fortress, blocking double
				}
			}
			rec.Out = append(rec.Out, e)
		}
	}
	if scores {
		g.gain(&rec, s, g.checkBonus(s))
	}
	if g.settle(s, &rec) {
		mark = "#"
	}
	rec.Text = text + mark
	g.finishTurn(&rec)
	return rec, nil
}

// canOnlyMoveIntoCheck reports whether the seat to move has no legal move
// and m is one of its pseudo-legal moves.
func (g *Game) canOnlyMoveIntoCheck(m Move) bool {
	if len(g.pos.LegalMoves(nil)) > 0 {
		return false
	}
	for _, x := range g.pos.PseudoLegal(nil) {
		if x == m {
			return true
		}
	}
	return false
}

// gain adds n points to seat s now and records them in rec.
func (g *Game) gain(rec *Record, s Seat, n int) {
	if rec == nil || n == 0 {
		return
	}
	rec.Gained[s] += n
	g.pos.points[s] += n
}

// pieceValue is a piece's worth when captured in FFA: P1 N3 B5 R5 Q9, a
// promoted queen 1, a king 20; dead pieces are worth nothing.
func pieceValue(p Piece) int {
	if p.Dead() {
		return 0
	}
	if p.Promoted() {
		return 1
	}
	switch p.Kind() {
	case Pawn:
		return 1
	case Knight:
		return 3
	case Bishop, Rook:
		return 5
	case Queen:
		return 9
	case King:
		return 20
	}
	return 0
}

// checkBonus scores a move by seat s that leaves two or three kings of
// players still playing in check from s's pieces: "Checking two players
// simultaneously (+5)", "Checking three players simultaneously (+20)";
// with CheapQueenChecks, +1 and +5 when only queens give the checks.
func (g *Game) checkBonus(s Seat) int {
	p := g.pos
	n, onlyQueens := 0, true
	for e := Seat(0); e < NumSeats; e++ {
		if e == s || g.status[e] != Playing || p.king[e] == 0 || !g.v.Checks[s][e] {
			continue
		}
		hit := false
		for _, c := range p.plist[s][:p.pcount[s]] {
			pc := p.board[c]
			if pc.Dead() || !p.pieceAttacks(int(c), int(p.king[e])) {
				continue
			}
			hit = true
			if pc.Kind() != Queen {
				onlyQueens = false
			}
		}
		if hit {
			n++
		}
	}
	cheap := onlyQueens && g.v.Options.CheapQueenChecks
	switch {
	case n == 2 && cheap:
		return 1
	case n == 2:
		return 5
	case n >= 3 && cheap:
		return 5
	case n >= 3:
		return 20
	}
	return 0
}

// Resign makes seat s resign (any seat may resign at any time).
func (g *Game) Resign(s Seat) (Record, error) { return g.leave(s, ActResign, false) }

// Timeout records that seat s's clock ran out.
func (g *Game) Timeout(s Seat) (Record, error) { return g.leave(s, ActTimeout, false) }

// KingWalksOn reports whether seat s's king would walk on if s resigned or
// flagged now: FFA with Dead King Walking, s playing with its king on the
// board, and two or more others still playing ("When a player resigns or
// times out, leaving two or more active players on the board, that
// player's king remains \"alive\"").
func (g *Game) KingWalksOn(s Seat) bool {
	if g.result != nil || s >= NumSeats || g.v.Mode != FFA || !g.v.Options.DeadKingWalking ||
		g.v.provides&(1<<OnLeave) != 0 || g.status[s] != Playing || g.pos.king[s] == 0 {
		return false
	}
	others := 0
	for e := Seat(0); e < NumSeats; e++ {
		if e != s && g.status[e] == Playing {
			others++
		}
	}
	return others >= 2
}

// LeaveAndWalk makes the seat to move resign (a is ActResign) or flag
// (ActTimeout) on its turn, after which its king, walking on under Dead
// King Walking, makes move m in the same turn: what chess.com writes as
// one token with the R or T after the king's move ("Kj8xNj9T"). The
// walking king's move scores nothing. It returns the two records (the
// leaving, then the move); when the king would not walk on (KingWalksOn)
// or m is not a legal move for it, it fails and changes nothing.
func (g *Game) LeaveAndWalk(a Action, m Move) ([]Record, error) {
	s := g.pos.turn
	if a != ActResign && a != ActTimeout {
		return nil, fmt.Errorf("LeaveAndWalk takes a resignation or a time-out, not action %d", a)
	}
	if !g.KingWalksOn(s) {
		return nil, fmt.Errorf("%s's king would not walk on after %s leaves (it walks only in FFA with Dead King Walking while two or more others play): play the move and the resignation separately", s, s)
	}
	left, err := g.leave(s, a, true)
	if err != nil {
		return nil, err
	}
	if g.pos.turn != s || g.status[s] != Walking {
		g.popTurn()
		return nil, fmt.Errorf("%s's walking king has no move once %s has left", s, s)
	}
	moved, err := g.Play(m)
	if err != nil {
		g.popTurn()
		return nil, fmt.Errorf("%s's walking king: %w", s, err)
	}
	return []Record{left, moved}, nil
}

func (g *Game) leave(s Seat, a Action, keepTurn bool) (Record, error) {
	if g.result != nil {
		return Record{}, ErrGameOver
	}
	if s >= NumSeats || (g.status[s] != Playing && g.status[s] != Walking) {
		return Record{}, fmt.Errorf("%s is not playing", s)
	}
	rec := Record{Seat: s, Action: a, Text: "R"}
	st := Resigned
	if a == ActTimeout {
		rec.Text, st = "T", TimedOut
	}
	if g.v.provides&(1<<OnLeave) != 0 {
		g.v.hook(OnLeave).Leave(g, &rec, s, st)
		g.finishTurn(&rec)
		return rec, nil
	}
	if g.status[s] == Walking {
		// Already resigned: the king walks on (chess.com writes a walking
		// king's time-out, and it keeps its turns); on its own turn the
		// turn passes.
		if g.pos.turn == s {
			g.pos.turn = g.pos.nextSeat(s)
		}
		g.finishTurn(&rec)
		return rec, nil
	}
	if g.v.Mode != FFA {
		g.eliminate(s, st)
		rec.Out = append(rec.Out, s)
		reason := "resignation"
		if a == ActTimeout {
			reason = "timeout"
		}
		g.end(reason, g.sideOf(g.opponentOf(s)))
		g.finishTurn(&rec)
		return rec, nil
	}
	wasTurn := g.pos.turn == s
	if g.KingWalksOn(s) {
		g.status[s] = Walking
		g.greyArmy(s, true)
	} else {
		g.eliminate(s, st)
	}
	rec.Out = append(rec.Out, s)
	if wasTurn && g.pos.turn == s && !keepTurn {
		// The resignation uses up the seat's turn; a walking king moves
		// again next round (LeaveAndWalk: at once).
		g.pos.ep[s] = epEntry{}
		g.pos.turn = g.pos.nextSeat(s)
	}
	g.settle(s, &rec)
	g.finishTurn(&rec)
	return rec, nil
}

// ReasonClaimWin is the Result.Reason of an FFA game ended by ClaimWin.
const ReasonClaimWin = "claim win"

// ClaimWin ends an FFA game in seat s's favour when the variant allows
// claiming, two players remain and s leads the other by more than 20
// points.
func (g *Game) ClaimWin(s Seat) error {
	if g.result != nil {
		return ErrGameOver
	}
	if g.v.Mode != FFA || !g.v.Options.ClaimWin {
		return fmt.Errorf("%s has no claim-win rule", g.v.Name)
	}
	if s >= NumSeats || g.status[s] != Playing {
		return fmt.Errorf("%s is not playing", s)
	}
	if n := g.activeCount(); n != 2 {
		return fmt.Errorf("a win can be claimed when two players remain, not %d", n)
	}
	for o := Seat(0); o < NumSeats; o++ {
		if o != s && g.status[o] == Playing && g.pos.points[s]-g.pos.points[o] <= 20 {
			return fmt.Errorf("%s leads %s by %d points; a claim needs more than 20", s, o, g.pos.points[s]-g.pos.points[o])
		}
	}
	g.endFFA(ReasonClaimWin, 0)
	return nil
}

// knockOut eliminates seat s and records it in the turn's record.
func (g *Game) knockOut(rec *Record, s Seat, st Status) {
	g.eliminate(s, st)
	if rec != nil {
		rec.Out = append(rec.Out, s)
	}
}

// eliminate takes seat s out: its army turns grey and it has no more turns.
func (g *Game) eliminate(s Seat, st Status) {
	g.status[s] = st
	g.pos.out[s] = true
	g.pos.castle[s] = 0
	g.pos.ep[s] = epEntry{}
	g.greyArmy(s, false)
	g.releaseWards(s)
	if g.pos.turn == s {
		g.pos.turn = g.pos.nextSeat(s)
	}
}

// greyArmy marks s's pieces dead, except the king when keepKing is set.
func (g *Game) greyArmy(s Seat, keepKing bool) {
	for _, c := range g.v.cells {
		pc := g.pos.board[c]
		if pc.IsPiece() && pc.Seat() == s && !(keepKing && pc.Kind() == King) {
			g.pos.board[c] = pc.WithDead()
		}
	}
}

// settle applies the consequences of a turn by seat mover: checkmates
// and stalemates, the end of the game. It reports whether a seat was
// checkmated (the move's text gets '#').
func (g *Game) settle(mover Seat, rec *Record) bool {
	if g.result != nil {
		return false
	}
	if g.v.provides&(1<<OnSettle) != 0 {
		return g.v.hook(OnSettle).Settle(g, mover, rec)
	}
	mated := false
	p := g.pos
	if g.v.Mode == Teams {
		if rec != nil && len(rec.Out) > 0 {
			g.end("king captured", g.sideOf(mover))
			return true
		}
		check := []Seat{p.turn}
		if g.v.Options.MateAtOnce {
			check = g.activeInOrder(p.turn)
		}
		for _, s := range check {
			if g.status[s] != Playing || g.hasMoves(s) {
				continue
			}
			if p.InCheck(s) {
				g.status[s] = Mated
				if rec != nil {
					rec.Out = append(rec.Out, s)
				}
				g.end("checkmate", g.sideOf(g.opponentOf(s)))
				return true
			}
			if s == p.turn {
				g.status[s] = Stalemated
				g.end("stalemate", nil)
				return false
			}
		}
		g.checkDraws(rec)
		return false
	}

	// FFA: a checkmate eliminates at once, whoever's turn it is.
	for changed := true; changed && g.result == nil; {
		changed = false
		for _, s := range g.activeInOrder(p.turn) {
			if g.hasMoves(s) {
				continue
			}
			if p.InCheck(s) {
				mated = true
				g.knockOut(rec, s, Mated)
				g.gain(rec, mover, 20)
				changed = true
				break
			}
			if s != p.turn {
				continue // stalemate counts only on the player's own turn
			}
			if g.status[s] == Walking {
				// A walking king with no move is out; nobody can capture
				// it now, so its 20 points are shared (walkingKingShare).
				g.knockOut(rec, s, Stalemated)
				if n := g.activeCount(); n > 0 && rec != nil {
					for _, e := range g.playingSeats() {
						g.gain(rec, e, walkingKingShare(n))
					}
				}
				changed = true
				break
			}
			if g.v.Options.StalemateScoresSelf && g.activeCount() > 2 {
				// chess.com: "Stalemating yourself is 20"; the player is
				// out and the others play on.
				g.knockOut(rec, s, Stalemated)
				g.gain(rec, s, 20)
				changed = true
				break
			}
			// The rules text, and chess.com with two players left ("the
			// game ends in a draw between those 2 players"): the game ends
			// and the stalemated player is still one of "the remaining
			// players" who share the draw points.
			g.endFFA("stalemate", 10)
			g.status[s] = Stalemated
			return mated
		}
		if g.activeCount() <= 1 {
			g.endFFA("last player standing", 0)
		}
	}
	if g.result == nil {
		g.checkDraws(rec)
	}
	return mated
}

// removeArmy takes every piece of seat s off the board.
func (g *Game) removeArmy(s Seat) {
	p := g.pos
	for p.pcount[s] > 0 {
		c := int(p.plist[s][p.pcount[s]-1])
		p.removePiece(s, c)
		p.board[c] = NoPiece
	}
	p.king[s] = 0
}

// sameSide reports whether s is a partner of one of the seats listed.
func (g *Game) sameSide(s Seat, seats []Seat) bool {
	for _, t := range seats {
		if g.v.Partners(s, t) {
			return true
		}
	}
	return false
}

// sideOf lists seat s and its partners.
func (g *Game) sideOf(s Seat) []Seat {
	out := []Seat{s}
	for t := Seat(0); t < NumSeats; t++ {
		if g.v.Partners(s, t) {
			out = append(out, t)
		}
	}
	return out
}

// opponentOf returns a seat of the other side.
func (g *Game) opponentOf(s Seat) Seat {
	for t := Seat(0); t < NumSeats; t++ {
		if t != s && !g.v.Partners(s, t) {
			return t
		}
	}
	return s
}

// activeInOrder lists the seats still taking turns (playing or walking),
// in turn order starting with from.
func (g *Game) activeInOrder(from Seat) []Seat {
	var out []Seat
	o := g.v.Order
	i := g.v.orderIdx[from]
	for k := 0; k < len(o); k++ {
		s := o[(i+k)%len(o)]
		if st := g.status[s]; st == Playing || st == Walking {
			out = append(out, s)
		}
	}
	return out
}

// activeCount counts the seats still playing (walking kings excluded).
func (g *Game) activeCount() int {
	n := 0
	for s := Seat(0); s < NumSeats; s++ {
		if g.status[s] == Playing {
			n++
		}
	}
	return n
}

// hasMoves reports whether seat s would have a legal move if it were its
// turn.
func (g *Game) hasMoves(s Seat) bool {
	p := g.pos
	saved := p.turn
	p.turn = s
	var buf [256]Move
	n := len(p.LegalMoves(buf[:0]))
	p.turn = saved
	return n > 0
}

func (g *Game) end(reason string, winners []Seat) {
	r := &Result{Reason: reason, Winners: winners, Points: g.pos.points}
	g.result = r
}

// walkingKingShare is what each of n players still playing gains for a
// walking king that can no longer be captured: its 20 points shared
// evenly, rounded up. The rules text says it for one player ("The last
// remaining player will be given +20 for each king of all resigned or
// timed out players that is still on the board"); chess.com does the same
// for two or three when the king is stalemated or the game is drawn with
// it on the board (real games 103144750 and 97969768, rules/pgn4's
// TestReplayWalkingKings): 20 among three is 7 each, among two 10 each.
func walkingKingShare(n int) int {
	return (20 + n - 1) / n
}

// endFFA ends an FFA game: each remaining player gains bonus points and a
// share of 20 for each king of a resigned or timed-out player still on
// the board (walkingKingShare; the last player standing gains 20 per
// king); the top scorers win.
func (g *Game) endFFA(reason string, bonus int) {
	p := g.pos
	var remaining []Seat
	for s := Seat(0); s < NumSeats; s++ {
		if g.status[s] == Playing {
			remaining = append(remaining, s)
		}
	}
	for _, s := range remaining {
		p.points[s] += bonus
	}
	if len(remaining) > 0 && reason != ReasonClaimWin {
		// "The last remaining player will be given +20 for each king of
		// all resigned or timed out players that is still on the board";
		// with two left at a draw, 10 each (walkingKingShare). A claimed
		// win is not known to share them: no text or game says.
		for s := Seat(0); s < NumSeats; s++ {
			switch g.status[s] {
			case Walking, Resigned, TimedOut:
				if p.king[s] != 0 {
					for _, r := range remaining {
						p.points[r] += walkingKingShare(len(remaining))
					}
				}
			}
		}
	}
	best := -1
	var winners []Seat
	for s := Seat(0); s < NumSeats; s++ {
		switch {
		case p.points[s] > best:
			best, winners = p.points[s], []Seat{s}
		case p.points[s] == best:
			winners = append(winners, s)
		}
	}
	g.result = &Result{Reason: reason, Winners: winners, Points: p.points}
}

// checkDraws ends the game on threefold repetition, the 50-move rule or
// insufficient material after turn rec (nil: none).
func (g *Game) checkDraws(rec *Record) {
	p := g.pos
	moved := rec != nil && rec.Action == ActMove
	reason := ""
	switch {
	case moved && g.reps[p.Hash()] >= 2: // this occurrence will be the third
		reason = "threefold repetition"
	case g.fiftyMovesEach(rec):
		reason = "50-move rule"
	case g.v.hook(OnDraws).Draws(g) && g.insufficient() && g.normalRules():
		reason = "insufficient material"
	default:
		return
	}
	if g.v.Mode == FFA { // only FFA scores draws; elsewhere nobody wins
		g.endFFA(reason, 10)
	} else {
		g.v.hook(OnDrawEnd).DrawEnd(g, reason)
	}
}

// fiftyMovesEach applies the 50-move rule after turn rec (nil: none): the
// game is drawn when every seat still taking turns has made 50 moves since
// the last pawn move or capture, by anyone. It is chess's rule ("the last
// 50 moves by each player have been completed without the movement of any
// pawn and without any capture", FIDE Laws 9.3) read for four: the texts
// name the rule and nothing more (chess.com: "The game is a draw in case
// of … the 50-move rule"; Chess4: "The traditional rules of Chess apply";
// Verney: "in every way similar to those of the ordinary game"), and the
// essay's own modified rule counts it the same way ("for the 50 moves
// involved, there must not be a Pawn move or capture by all four
// players"). Each seat counts its own moves, so a seat that leaves (mated,
// resigned, timed out) shortens nobody's count: a mate after 40 quiet
// moves each leaves the others 10 more to make. A seat that cannot move
// and passes its turns (Stevenson, Verney's stalemated partner, a Chess4
// player waiting to be put out) holds nobody's count up.
func (g *Game) fiftyMovesEach(rec *Record) bool {
	if g.pos.halfmove < 50 {
		return false
	}
	seats := g.activeInOrder(g.pos.turn)
	count := g.quietMoves(rec)
	most := 0
	for _, s := range seats {
		most = max(most, count[s])
	}
	for _, s := range seats {
		// A seat one move behind the others is taking its turns; one
		// further behind has passed some: it counts while it can move.
		if count[s] < 50 && (count[s] >= most-1 || g.hasMoves(s)) {
			return false
		}
	}
	return true
}

// quietMoves counts, per seat, the moves made since the last pawn move or
// capture (the position's half-move clock), rec (the turn being settled,
// not yet recorded; nil for none) included. Moves made before the game's
// start position, which its clock counts too, are shared one by one among
// the seats taking turns there, in turn order going back from the seat
// that moved first.
func (g *Game) quietMoves(rec *Record) [NumSeats]int {
	var count [NumSeats]int
	n := g.pos.halfmove
	if rec != nil && rec.Action == ActMove && n > 0 {
		count[rec.Seat]++
		n--
	}
	for i := len(g.records) - 1; i >= 0 && n > 0; i-- {
		if r := g.records[i]; r.Action == ActMove {
			count[r.Seat]++
			n--
		}
	}
	var buf [NumSeats]Seat
	o := buf[:0] // the seats taking turns in the start position
	for _, s := range g.v.Order {
		if st := g.snaps[0].status[s]; st == Playing || st == Walking {
			o = append(o, s)
		}
	}
	if len(o) == 0 {
		return count
	}
	i := slices.Index(o, g.StartTurn())
	for i = max(i, 0); n > 0; n-- {
		i = (i + len(o) - 1) % len(o)
		count[o[i]]++
	}
	return count
}

// normalRules reports whether every seat still playing follows chess's
// normal mate rules: always, except in mode last_standing before it is reduced
// (a king forced to move into check can still be captured).
func (g *Game) normalRules() bool {
	if g.v.provides&(1<<OnMustMove) == 0 {
		return true
	}
	for s := Seat(0); s < NumSeats; s++ {
		if g.status[s] == Playing && g.mustMove(s) {
			return false
		}
	}
	return true
}

// insufficient reports that no side still playing can give mate: every
// active army is down to its king plus at most one knight or bishop.
func (g *Game) insufficient() bool {
	p := g.pos
	var minors [NumSeats]int
	for _, c := range g.v.cells {
		pc := p.board[c]
		if !pc.IsPiece() || pc.Dead() {
			continue
		}
		switch pc.Kind() {
		case King:
		case Knight, Bishop:
			minors[pc.Seat()]++
		default:
			return false
		}
	}
	if g.v.Mode == Teams {
		return minors[0]+minors[2] <= 1 && minors[1]+minors[3] <= 1
	}
	for s := range minors {
		if minors[s] > 1 {
			return false
		}
	}
	return true
}

// finishTurn records the turn and the new state.
func (g *Game) finishTurn(rec *Record) {
	rec.TurnAfter = g.pos.turn
	g.records = append(g.records, *rec)
	if rec.Action == ActMove {
		g.reps[g.pos.Hash()]++ // only moves repeat positions
	}
	g.snaps = append(g.snaps, g.snapshot())
}

// PreviousPosition returns a copy of the position before the last turn.
func (g *Game) PreviousPosition() (*Position, bool) {
	if len(g.snaps) < 2 {
		return nil, false
	}
	return g.snaps[len(g.snaps)-2].pos.Clone(), true
}

// Takeback undoes the last turn. It fails at the start of the game.
// The announcement and replies that led to the turn (blocking-double) go
// with it.
func (g *Game) Takeback() error {
	if g.agreed {
		g.agreed, g.result = false, nil // the agreement itself is what is taken back
		return nil
	}
	if len(g.records) == 0 {
		return errors.New("no move to take back")
	}
	last := g.popTurn()
	for i, st := range g.states {
		if st != nil {
			g.states[i] = st.TakenBack()
		}
	}
	g.notes = takebackNotes(last.notes, len(g.records))
	return nil
}

// LookAhead plays m, calls see with the game as it stands after m, and
// puts the game back exactly as it was, notes and all (unlike Takeback,
// which also undoes what led to the turn): the way to ask what a move
// would do. It fails, changing nothing, if m cannot be played.
func (g *Game) LookAhead(m Move, see func()) error {
	if _, err := g.Play(m); err != nil {
		return err
	}
	see()
	last := g.popTurn()
	g.notes = last.notes
	return nil
}

// popTurn drops the last turn and restores the state kept before it (the
// hooks' states included) but for the notes, which are the caller's to
// restore; it returns that state.
func (g *Game) popTurn() snapshot {
	if g.records[len(g.records)-1].Action == ActMove {
		g.reps[g.pos.Hash()]--
	}
	g.records = g.records[:len(g.records)-1]
	g.snaps = g.snaps[:len(g.snaps)-1]
	last := g.snaps[len(g.snaps)-1]
	g.pos = last.pos.Clone()
	g.status = last.status
	g.states = copyStates(last.states)
	g.result = nil
	return last
}

// Hash returns a hash of what makes positions the same for repetition:
// the pieces, the seat to move, castling rights and en-passant entries.
func (p *Position) Hash() uint64 {
	h := fnv.New64a()
	var buf [NumSeats*5 + 1]byte
	for _, c := range p.v.cells {
		buf[0] = byte(p.board[c])
		h.Write(buf[:1])
	}
	buf[0] = byte(p.turn)
	for s := 0; s < NumSeats; s++ {
		buf[1+s*5] = p.castle[s]
		buf[2+s*5] = byte(p.ep[s].target)
		buf[3+s*5] = byte(p.ep[s].target >> 8)
		buf[4+s*5] = byte(p.ep[s].pawn)
		buf[5+s*5] = byte(p.ep[s].pawn >> 8)
	}
	h.Write(buf[:])
	if p.v.provides&(1<<OnEnPassant) != 0 {
		p.v.hook(OnEnPassant).HashInto(p, h)
	}
	return h.Sum64()
}

// playingSeats lists the seats still playing.
func (g *Game) playingSeats() []Seat {
	var out []Seat
	for t := Seat(0); t < NumSeats; t++ {
		if g.status[t] == Playing {
			out = append(out, t)
		}
	}
	return out
}

// snapshot returns the current state for the history: copies of the
// position and of the hooks' states.
func (g *Game) snapshot() snapshot {
	return snapshot{pos: g.pos.Clone(), status: g.status, states: copyStates(g.states), notes: g.notes}
}

// copyStates copies the hooks' states.
func copyStates(states []HookState) []HookState {
	out := make([]HookState, len(states))
	for i, st := range states {
		if st != nil {
			out[i] = st.Copy()
		}
	}
	return out
}

// hookState returns the game's state of the hook of type H, or nil.
func hookState[S HookState](g *Game) (S, bool) {
	for _, st := range g.states {
		if s, ok := st.(S); ok {
			return s, true
		}
	}
	var zero S
	return zero, false
}
