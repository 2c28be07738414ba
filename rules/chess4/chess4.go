// Package chess4 is Chess4 (shared/seeds/chess4-rules.txt;
// configs/variants/chess4.yaml, chess4-m2.yaml) as a hook of package
// rules: its mode (Chess4), its options, the game layer above, and its
// en passant (ep.go). It registers itself in init (rules/shipped links it
// in); its own operations on a game are methods of Chess4Hook, reached
// through rules.HookIn[*chess4.Chess4Hook](g).
//
// The game layer of mode chess4.
//
// Rule 1: "A player is only eliminated by checkmate if he is checkmated at
// the beginning of the checkmating player's next turn": a seat that is
// checkmated when its own turn comes cannot move and waits (its turn
// passes); it is out when the turn of the player credited with the mate
// begins and the mate still stands. Every player who moves in between may
// lift it. The
// credit (rule 6, "For purposes of determining which player gets
// 'credit'") goes to the player whose move made the mate; it is reset when
// the mate is lifted, even for a moment in the middle of a move, and
// re-established by whoever mates again, and the elimination waits for
// that player's next turn. A mate with nobody to wait for (a position set
// up with the mate standing, or a credited player who is out himself)
// counts at the mated player's own turn, as rule 6.1 words it
// ("Checkmate occurs at the beginning of the eliminated player's turn").
//
// Method 1 greys the eliminated army: static pieces that block, can be
// captured (the king too) and give no check. Method 2 (Options.ArmyControl)
// hands the army to the credited player, who plays it on the eliminated
// seat's turns; its king is never in check and may be captured; a player
// keeps one such army.
package chess4

import (
	"fmt"
	"strconv"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Chess4 is the mode of chess4.yaml and chess4-m2.yaml (mode: chess4):
// everyone for himself; a checkmate counts only at the beginning of the
// mated player's own turn, and is credited to the player whose move made
// it; the last player left wins.
var Chess4 = rules.RegisterMode("chess4", "Chess4")

// Options are chess4.yaml's and chess4-m2.yaml's rules (keys
// no_king_capture, army_control, chain_en_passant), read by Chess4Hook
// (shared/seeds/chess4-rules.txt).
type Options struct {
	// NoKingCapture: "It is an illegal move to capture an active player's
	// King." A live king of a seat that another seat gives check to may
	// not be captured; a dead king may ("they can be captured … including
	// the King"), and so may a king nobody checks (an acquired king under
	// Method 2: it "is never considered to be in check").
	NoKingCapture bool
	// ArmyControl (Method 2): "the player who checkmated the King is now
	// able to use the remaining Chess pieces of the captured King against
	// the remaining opponents", on the eliminated player's turn.
	ArmyControl bool
	// ChainEnPassant (rule 7.2): a player who takes en passant keeps his
	// other en-passant rights for his next turn ("double en passant …
	// as long as he plays both moves on his next two turns"), the
	// destination square unchanged even if the passed pawn moved; the
	// passed pawn may not capture meanwhile.
	ChainEnPassant bool
}

// readOptions reads Options from a variant file.
func readOptions(src rules.OptionSource, _ *rules.Variant) (any, error) {
	var o Options
	err := rules.ReadBools(src, rules.BoolKey{Key: "no_king_capture", Field: &o.NoKingCapture},
		rules.BoolKey{Key: "army_control", Field: &o.ArmyControl}, rules.BoolKey{Key: "chain_en_passant", Field: &o.ChainEnPassant})
	return o, err
}

func init() {
	rules.RegisterResultTag(Chess4, func(r rules.Result, _ [rules.NumSeats]string) string { return resultTag(r) })
	rules.RegisterOptions(readOptions)
	rules.RegisterHook(func(v *rules.Variant) rules.Hook {
		o := rules.HookOptions[Options](v)
		if v.Mode != Chess4 && o == (Options{}) {
			return nil
		}
		return &Chess4Hook{v: v, o: o}
	})
}

// Chess4Hook is the hook of chess4.yaml and chess4-m2.yaml: the game layer
// above (mode chess4), the king that may not be captured (NoKingCapture,
// a capture table entry the hook clears) and the chained en passant's
// stuck pawn (ChainEnPassant; the deferred rights themselves are
// position state, ep.go). Its own operations on a game
// (EliminatedBy, MateCredit, Controller, ArmyChoice, KeepArmy) are reached
// through HookIn, which binds it to the game.
type Chess4Hook struct {
	rules.HookBase
	v *rules.Variant
	o Options
	g *rules.Game // the game HookIn bound the hook to; nil in the variant's hook
	// armyOf[e] is 1 + the player who plays seat e's acquired army (0:
	// nobody, Method 2), set in the hook of the game's copy of the variant
	// (setVariant) so that a refusal can say why the two do not capture
	// each other.
	armyOf [rules.NumSeats]rules.Seat
}

// BindGame returns the hook bound to g (HookIn).
func (h *Chess4Hook) BindGame(g *rules.Game) *Chess4Hook {
	c := *h
	c.g = g
	return &c
}

// ID returns "chess4".
func (*Chess4Hook) ID() string { return "chess4" }

// Provides names what the variant's data asks for.
func (h *Chess4Hook) Provides(b byte) bool {
	switch b {
	case rules.OnPieceMoves, rules.OnEnPassant:
		return h.o.ChainEnPassant
	case rules.OnSettle, rules.OnLeave, rules.OnDrawEnd, rules.OnNote, rules.OnState:
		return h.v.Mode == Chess4
	case rules.OnExplain:
		return h.o.NoKingCapture || h.o.ArmyControl
	}
	return false
}

// Compile forbids capturing an active king.
func (h *Chess4Hook) Compile(v *rules.Variant) error {
	h.v = v
	if h.o.NoKingCapture {
		compileNoKingCapture(v)
	}
	return nil
}

// PieceMoves: a pawn passed by a chained en passant "may not capture …
// but it may move".
func (h *Chess4Hook) PieceMoves(p *rules.Position, moves []rules.Move, c int, pc rules.Piece, _ bool) ([]rules.Move, bool) {
	if pc.Kind() == rules.Pawn && passedPawn(p, c, pc.Seat()) {
		return p.PawnPushes(moves, c, pc.Seat()), true
	}
	return moves, false
}

// NewState returns a game's Chess4 state: credits and army control.
func (h *Chess4Hook) NewState() rules.HookState { return &state{} }

// Copy copies the state (all arrays: a plain copy).
func (st *state) Copy() rules.HookState { c := *st; return &c }

// TakenBack returns a copy: a turn taken back restores the state before
// it as it was.
func (st *state) TakenBack() rules.HookState { return st.Copy() }

// game is a game of mode chess4 as the hook works on it.
type game struct {
	*rules.Game
	h *Chess4Hook
}

// on returns the hook's view of g.
func (h *Chess4Hook) on(g *rules.Game) game { return game{Game: g, h: h} }

// c4 returns the game's Chess4 state (a blank one outside Chess4, whose
// changes are dropped).
func (g game) c4() *state {
	if st, ok := rules.HookStateIn[*state](g.Game); ok {
		return st
	}
	return &state{}
}

// CaptureBar names Method 2's acquired army and its controller, and the
// active king that may not be captured.
func (h *Chess4Hook) CaptureBar(p *rules.Position, s rules.Seat, victim rules.Piece, to square.Square) string {
	v := p.Variant() // the position's copy of the variant, whose hook knows who plays which army (setVariant)
	armyOf := h.armyOf
	if hv, ok := rules.HookOf[*Chess4Hook](v); ok {
		armyOf = hv.armyOf
	}
	e, name := victim.Seat(), rules.KindName(victim.Kind())
	switch {
	case e == s:
	case armyOf[e] == s+1 || armyOf[s] == e+1:
		c, army := s, e
		if armyOf[s] == e+1 {
			c, army = e, s
		}
		return fmt.Sprintf("%s's %s on %s may not be captured by %s: %s plays %s's army, which does not capture its controller's pieces, nor they it", e, name, to, s, c, army)
	case h.o.NoKingCapture && victim.Kind() == rules.King && v.CanCapture[s][e]:
		return fmt.Sprintf("%s's king on %s may not be captured: \"It is an illegal move to capture an active player's King\" (%s must be checkmated instead)", e, to, e)
	}
	return ""
}

// Settle applies Chess4's end of turn (settle).
func (h *Chess4Hook) Settle(g *rules.Game, mover rules.Seat, rec *rules.Record) bool {
	return h.on(g).settle(mover, rec)
}

// Leave puts the seat out with no credit, its army (and any army it
// controlled) static; play goes on.
func (h *Chess4Hook) Leave(g *rules.Game, rec *rules.Record, s rules.Seat, st rules.Status) {
	if g.LivePosition().Turn() == s {
		g.LivePosition().ClearEnPassant(s)
	}
	c := h.on(g)
	c.eliminate(rec, s, st, 0)
	c.settle(s, rec)
}

// DrawEnd shares the draw among the players still in.
func (h *Chess4Hook) DrawEnd(g *rules.Game, reason string) { h.on(g).draw(reason) }

// ApplyNote carries out a Method 2 army choice.
func (h *Chess4Hook) ApplyNote(g *rules.Game, text string) (bool, error) {
	return h.on(g).applyNote(text)
}

// state is the game state Chess4 adds, kept in every snapshot. Seats
// are stored plus one, so that the zero value means "nobody".
type state struct {
	// mateBy[s]: who gets the credit for the checkmate standing on the
	// board against s (rule 6).
	mateBy [rules.NumSeats]rules.Seat
	// by[s]: who eliminated s.
	by [rules.NumSeats]rules.Seat
	// ctrl[s]: Method 2, the player who plays s's army.
	ctrl [rules.NumSeats]rules.Seat
	// choice: Method 2, a choice between two armies still open (until the
	// next turn): the controller, the army kept by default and the other.
	choice [3]rules.Seat
	// castle: Method 2, the acquired armies' castling state (rule 1 of
	// "Rules Specific to Method 2").
	castle [rules.NumSeats]castling
	// made[s]: the last turn's move checkmated s, newly or re-establishing
	// a mate (rule 6.3); its elimination may come later (rule 1).
	made [rules.NumSeats]bool
}

// castling tracks an acquired king and its two castling rooks: where each
// stands (a cell, 0 when captured or disqualified) and where it started.
type castling struct {
	cur, home [3]int // 0: the king; 1, 2: the rooks of the seat's two corners
}

// player returns the seat that decides seat s's moves: s itself, or its
// controller under Method 2.
func (g game) player(s rules.Seat) rules.Seat {
	if c := g.c4().ctrl[s]; c != 0 {
		return c - 1
	}
	return s
}

// eliminatedBy is Chess4Hook.EliminatedBy on the game.
func (g game) eliminatedBy(s rules.Seat) (rules.Seat, bool) {
	if b := g.c4().by[s]; b != 0 {
		return b - 1, true
	}
	return rules.NoSeat, false
}

// mateCredit is Chess4Hook.MateCredit on the game.
func (g game) mateCredit(s rules.Seat) (rules.Seat, bool) {
	if b := g.c4().mateBy[s]; b != 0 {
		return b - 1, true
	}
	return rules.NoSeat, false
}

// controller is Chess4Hook.Controller on the game.
func (g game) controller(s rules.Seat) rules.Seat {
	if c := g.c4().ctrl[s]; c != 0 {
		return c - 1
	}
	if st := g.Status(s); st == rules.Playing || st == rules.Walking {
		return s
	}
	return rules.NoSeat
}

// players lists the seats still playing for themselves.
func (g game) players() []rules.Seat {
	var out []rules.Seat
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if g.Status(s) == rules.Playing {
			out = append(out, s)
		}
	}
	return out
}

// mated reports whether seat s is checkmated in p: in check with no legal
// move were it its turn.
func mated(p *rules.Position, s rules.Seat) bool {
	if p.OutSeats()[s] || p.KingCell(s) == 0 || !p.InCheck(s) {
		return false
	}
	saved := p.Turn()
	p.SetTurn(s)
	var buf [256]rules.Move
	n := len(p.LegalMoves(buf[:0]))
	p.SetTurn(saved)
	return n == 0
}

// over reports whether the game has ended.
func (g game) over() bool {
	_, done := g.Result()
	return done
}

// settle applies the consequences of a turn: the credit for mates on the
// board, then, at the start of the next seat's turn, the seats that seat
// has checkmated (out, rule 1), its own checkmate (it waits for the
// checkmating player's turn) or stalemate (a draw), and the end of the
// game.
func (g game) settle(mover rules.Seat, rec *rules.Record) bool {
	p := g.LivePosition()
	g.c4().made = [rules.NumSeats]bool{}
	n := len(g.Records())
	if rec != nil && rec.Action == rules.ActMove {
		g.credit(g.player(mover), g.PositionBefore(n), rec.Move)
	}
	if g.h.o.ArmyControl && rec != nil && rec.Action == rules.ActMove {
		g.trackCastling(mover, rec.Move)
	}
	g.c4().choice = [3]rules.Seat{} // a choice is open only until the next turn
	out := false
	for i := 0; i < 4*rules.NumSeats && !g.over(); i++ {
		players := g.players()
		if len(players) <= 1 {
			g.end("last player standing", players, nil)
			break
		}
		s := p.Turn()
		if g.Status(s) == rules.Playing && g.outAtTurnOf(rec, s) {
			out = true // s's turn begins: the seats it checkmated are out
			continue
		}
		if g.Status(s) != rules.Playing { // an acquired army (Method 2)
			if g.HasMoves(s) {
				break
			}
			p.SetTurn(p.NextSeat(s)) // it cannot move: its turn passes
			continue
		}
		if g.HasMoves(s) {
			break
		}
		if !p.InCheck(s) {
			g.SetStatus(s, rules.Stalemated)
			g.end("stalemate", nil, players)
			break
		}
		if by := g.c4().mateBy[s]; by != 0 && by != s+1 && g.Status(by-1) == rules.Playing {
			p.SetTurn(p.NextSeat(s)) // checkmated: waits for the checkmating player's turn
			continue
		}
		g.eliminate(rec, s, rules.Mated, g.c4().mateBy[s])
		out = true
	}
	if !g.over() {
		g.CheckDraws(rec)
	}
	return out
}

// outAtTurnOf eliminates, as player s's turn begins, every seat still
// checkmated whose mate is credited to s (rule 1), and reports whether it
// eliminated any.
func (g game) outAtTurnOf(rec *rules.Record, s rules.Seat) bool {
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		if e != s && g.Status(e) == rules.Playing && g.c4().mateBy[e] == s+1 && mated(g.LivePosition(), e) {
			g.eliminate(rec, e, rules.Mated, s+1)
			return true
		}
	}
	return false
}

// credit updates the mate credits after player's move m (rule 6): a seat
// newly checkmated is credited to player; a standing mate keeps its credit
// unless m lifted it for a moment (its piece in the hand, the captured
// piece off the board), in which case player re-established it.
func (g game) credit(player rules.Seat, prev *rules.Position, m rules.Move) {
	p := g.LivePosition()
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		if g.Status(e) != rules.Playing || e == player {
			continue
		}
		switch {
		case !mated(p, e):
			g.c4().mateBy[e] = 0
		case g.c4().mateBy[e] == 0 || !mated(liftedPosition(prev, m), e):
			g.c4().mateBy[e] = player + 1
			g.c4().made[e] = true
		}
	}
}

// recheck resets the credit of mates that an elimination lifted, and
// credits new ones to player (plus one; 0 for nobody).
func (g game) recheck(player rules.Seat) {
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		if g.Status(e) != rules.Playing {
			continue
		}
		if !mated(g.LivePosition(), e) {
			g.c4().mateBy[e] = 0
		} else if g.c4().mateBy[e] == 0 {
			g.c4().mateBy[e] = player
		}
	}
}

// liftedPosition returns prev in the middle of move m: the moving piece
// in the hand and the captured piece taken off.
func liftedPosition(prev *rules.Position, m rules.Move) *rules.Position {
	q := prev.Clone()
	cap := m.ToCell()
	if m.IsEnPassant() {
		cap = epVictim(q, m.ToCell(), q.Turn())
	}
	q.Lift(m.FromCell())
	q.Lift(cap)
	return q
}

// eliminate puts seat s out with status st, credited to by (plus one; 0
// for nobody). Under Method 2 the credited player takes the army over;
// otherwise it turns static. An army s controlled turns static.
func (g game) eliminate(rec *rules.Record, s rules.Seat, st rules.Status, by rules.Seat) {
	if by == s+1 {
		by = 0 // a player who mated himself (with an acquired army) gets no credit
	}
	g.c4().by[s] = by
	g.c4().mateBy[s] = 0
	if rec != nil {
		rec.Out = append(rec.Out, s)
		rec.By = append(rec.By, by-1)
	}
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		if g.c4().ctrl[e] == s+1 {
			g.static(e) // "may only choose to control the piece of an opponent he directly eliminated"
		}
	}
	if !g.h.o.ArmyControl || by == 0 {
		g.Eliminate(s, st)
		g.setVariant()
		g.recheck(by)
		return
	}
	g.SetStatus(s, st)
	g.c4().ctrl[s] = by
	g.startCastling(s)
	for f := rules.Seat(0); f < rules.NumSeats; f++ {
		if f != s && g.c4().ctrl[f] == by {
			// "A player only retains control of one set of opponent's
			// pieces": by default the army with more material (the new
			// one on a tie); Chess4Hook.KeepArmy can change it before the next
			// turn.
			keep, drop := s, f
			if g.material(f) > g.material(s) {
				keep, drop = f, s
			}
			g.c4().choice = [3]rules.Seat{by, keep + 1, drop + 1}
			g.static(drop)
		}
	}
	g.setVariant()
	g.recheck(by)
}

// static turns seat s's army static, as in Method 1.
func (g game) static(s rules.Seat) {
	g.c4().ctrl[s] = 0
	g.c4().castle[s] = castling{}
	st := g.Status(s)
	if st == rules.Playing {
		st = rules.Mated
	}
	g.Eliminate(s, st)
}

// material is the standard value of seat s's live pieces (P1 N3 B3 R5 Q9).
func (g game) material(s rules.Seat) int {
	p := g.LivePosition()
	n := 0
	for _, c := range p.PieceCells(s) {
		pc := p.OnCell(int(c))
		if pc.Dead() {
			continue
		}
		n += [...]int{0, 1, 3, 3, 5, 9, 0}[pc.Kind()]
	}
	return n
}

// armyChoice is Chess4Hook.ArmyChoice on the game.
func (g game) armyChoice() (by, keep, other rules.Seat, ok bool) {
	ch := g.c4().choice
	if ch[0] == 0 {
		return rules.NoSeat, rules.NoSeat, rules.NoSeat, false
	}
	return ch[0] - 1, ch[1] - 1, ch[2] - 1, true
}

// keepArmy is Chess4Hook.KeepArmy on the game.
func (g game) keepArmy(s rules.Seat) error {
	ch := g.c4().choice
	if g.over() {
		return rules.ErrGameOver // "(and another player remains in the game)"
	}
	if ch[0] == 0 {
		return fmt.Errorf("no choice of armies is open")
	}
	keep, drop := ch[1]-1, ch[2]-1
	if s == keep {
		g.keepNote(ch[0]-1, s)
		return nil
	}
	if s != drop {
		return fmt.Errorf("%s may keep %s's or %s's army, not %s's", ch[0]-1, keep, drop, s)
	}
	p := g.LivePosition()
	// Bring the dropped army back: it was live an instant ago.
	p.Revive(drop)
	g.c4().ctrl[drop] = ch[0]
	wasTurn := p.Turn()
	g.static(keep)
	g.c4().choice = [3]rules.Seat{ch[0], drop + 1, keep + 1}
	// An elimination at the beginning of the chooser's own turn (rule 1)
	// leaves the turn with him. One at the eliminated seat's own turn (a
	// mate nobody waits for): the army eliminated on this turn plays on
	// from it (if kept); the turn order otherwise is unchanged.
	recs := g.Records()
	if last := recs[len(recs)-1]; len(last.Out) > 0 && wasTurn != ch[0]-1 {
		newest := last.Out[len(last.Out)-1]
		if newest == drop {
			p.SetTurn(drop)
		} else if wasTurn == keep {
			p.SetTurn(p.NextSeat(keep))
		}
	}
	g.setVariant()
	g.recheck(ch[0])
	g.SetTurnAfter()
	g.keepNote(ch[0]-1, s)
	return nil
}

// keepNote records by's choice to keep army s, replacing an earlier
// choice of the same turn: the last one made before the next turn is the
// permanent one.
func (g game) keepNote(by, s rules.Seat) {
	g.AddNote(fmt.Sprintf("%s keeps %s's army", by, s), isKeepNote)
}

// parseKeepNote reads "Blue keeps Yellow's army".
func parseKeepNote(text string) (by, s rules.Seat, ok bool) {
	f := strings.Fields(text)
	if len(f) != 4 || f[1] != "keeps" || f[3] != "army" {
		return rules.NoSeat, rules.NoSeat, false
	}
	name, ok := strings.CutSuffix(f[2], "'s")
	if !ok {
		return rules.NoSeat, rules.NoSeat, false
	}
	by, ok1 := rules.ParseSeat(f[0])
	s, ok2 := rules.ParseSeat(name)
	return by, s, ok1 && ok2
}

// isKeepNote reports whether text is a kept army's note.
func isKeepNote(text string) bool {
	_, _, ok := parseKeepNote(text)
	return ok
}

// applyNote carries out a kept army as Notes writes it.
func (g game) applyNote(text string) (bool, error) {
	by, s, ok := parseKeepNote(text)
	if !ok {
		return false, nil
	}
	if c, _, _, open := g.armyChoice(); !open || c != by {
		return true, fmt.Errorf("%s has no choice of armies to make now", by)
	}
	return true, g.keepArmy(s)
}

// setVariant gives the position the rules of the current control: a
// player's own pieces and his acquired army neither capture nor check
// each other, and an acquired king is never in check (so it may be
// captured).
func (g game) setVariant() {
	if !g.h.o.ArmyControl {
		return
	}
	any := false
	nv := g.Variant().Copy()
	var armyOf [rules.NumSeats]rules.Seat
	for e := rules.Seat(0); e < rules.NumSeats; e++ {
		c := g.c4().ctrl[e]
		if c == 0 {
			continue
		}
		any = true
		armyOf[e] = c
		nv.CanCapture[c-1][e], nv.CanCapture[e][c-1] = false, false
		nv.Checks[e][c-1] = false
		for x := rules.Seat(0); x < rules.NumSeats; x++ {
			nv.Checks[x][e] = false
		}
	}
	if !any {
		g.PlayBy(nil)
		return
	}
	if err := nv.Compile(); err != nil {
		panic(err) // the variant compiled before; control changes no data Compile checks
	}
	if h, ok := rules.HookOf[*Chess4Hook](nv); ok {
		h.armyOf = armyOf
	}
	g.PlayBy(nv)
}

// startCastling records, at the moment seat s's army is acquired, where
// its king and the rooks that started on its corners now stand (rule 1 of
// "Rules Specific to Method 2"): they may castle again if they come back
// to their starting squares without ever moving away from them.
func (g game) startCastling(s rules.Seat) {
	st := castling{}
	first := g.PositionBefore(0)
	if k := first.KingCell(s); k != 0 {
		st.home[0] = k
	}
	for i, c := range g.Variant().CornerCells(s) {
		if c != 0 && first.OnCell(c) == rules.MakePiece(s, rules.Rook) {
			st.home[i+1] = c
		}
	}
	st.cur = st.home
	// Follow each piece through the game so far.
	for i, r := range g.Records() {
		if r.Action != rules.ActMove {
			continue
		}
		st.follow(g.PositionBefore(i), r.Move, false)
	}
	st.cur[0] = g.LivePosition().KingCell(s) // the king, whatever happened
	if st.home[0] == 0 {
		st.cur[0] = 0
	}
	g.c4().castle[s] = st
	g.castleRights(s)
}

// follow moves the tracked pieces along move m played in position before;
// with strict set, a tracked piece of the mover that moves away from its
// home (or off it) loses its castling.
func (st *castling) follow(before *rules.Position, m rules.Move, strict bool) {
	from, to := m.FromCell(), m.ToCell()
	cap := to
	if m.IsEnPassant() {
		cap = epVictim(before, to, before.Turn())
	}
	moves := [][2]int{{from, to}}
	if c, _ := m.IsCastle(); c {
		rf, rt := m.RookSquares()
		moves = append(moves, [2]int{rules.CellOf(rf), rules.CellOf(rt)})
	}
	for i := range st.cur {
		if st.cur[i] != 0 && st.cur[i] == cap && cap != from {
			st.cur[i] = 0 // captured
		}
	}
	for _, mv := range moves {
		for i := range st.cur {
			if st.cur[i] == 0 || st.cur[i] != mv[0] {
				continue
			}
			if strict && !approaches(mv[0], mv[1], st.home[i]) {
				st.cur[i] = 0
				continue
			}
			st.cur[i] = mv[1]
		}
	}
}

// approaches reports whether a move from a to b brings a piece closer to
// home: "each move of that piece must bring it at least one rank or file
// closer to, and no ranks or files further from, its starting position.
// Once either piece is on its starting location, it may not move again".
func approaches(a, b, home int) bool {
	if a == home {
		return false
	}
	const stride = rules.CellStride
	df0, dr0 := abs(a%stride-home%stride), abs(a/stride-home/stride)
	df1, dr1 := abs(b%stride-home%stride), abs(b/stride-home/stride)
	return df1 <= df0 && dr1 <= dr0 && (df1 < df0 || dr1 < dr0)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// trackCastling follows an acquired army's king and rooks after a move.
func (g game) trackCastling(mover rules.Seat, m rules.Move) {
	before := g.PositionBefore(len(g.Records()))
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if g.c4().ctrl[s] == 0 {
			continue
		}
		st := &g.c4().castle[s]
		if c, _ := m.IsCastle(); c && mover == s {
			*st = castling{} // castled: done
		} else {
			st.follow(before, m, mover == s)
		}
		g.castleRights(s)
	}
}

// castleRights gives acquired seat s the castling rights its king and
// rooks have earned: both on their starting squares, neither having moved
// away since the army was acquired.
func (g game) castleRights(s rules.Seat) {
	st := g.c4().castle[s]
	p := g.LivePosition()
	p.SetCastling(s, false, false)
	if st.cur[0] == 0 || st.cur[0] != st.home[0] || p.KingCell(s) != st.home[0] {
		return
	}
	short, long := false, false
	for i := 1; i < 3; i++ {
		h := st.home[i]
		if h == 0 || st.cur[i] != h {
			continue
		}
		d := abs(h - st.home[0])
		if d == 3 || d == 3*rules.CellStride {
			short = true
		} else if d == 4 || d == 4*rules.CellStride {
			long = true
		}
	}
	p.SetCastling(s, short, long)
}

// end ends the game: winners (the last player standing), or a draw
// shared by the players still in.
func (g game) end(reason string, winners, sharing []rules.Seat) {
	if len(winners) > 0 {
		g.End(reason, winners)
		return
	}
	g.EndShared(reason, sharing)
}

// draw ends the game drawn (repetition, the 50-move rule, insufficient
// material) among the players still in.
func (g game) draw(reason string) { g.end(reason, nil, g.players()) }

// resultTag writes a Chess4 result in the text's format ("1/4-1/4-1/4-1/4"):
// each seat's share of the point in seat order (White, Silver, Black,
// Gold = Red, Blue, Yellow, Green): 1 for the winner, 1/n for each of n
// players sharing a draw, 0 for the others.
func resultTag(r rules.Result) string {
	parts := []string{"0", "0", "0", "0"}
	for _, s := range r.Winners {
		parts[s] = "1"
	}
	if len(r.Winners) == 0 && len(r.Sharing) > 0 {
		share := "1"
		if len(r.Sharing) > 1 {
			share = "1/" + strconv.Itoa(len(r.Sharing))
		}
		for _, s := range r.Sharing {
			parts[s] = share
		}
	}
	return strings.Join(parts, "-")
}

// compileNoKingCapture forbids capturing a live king that some seat gives
// check to (Options.NoKingCapture).
func compileNoKingCapture(v *rules.Variant) {
	for t := rules.Seat(0); t < rules.NumSeats; t++ {
		royal := false
		for x := rules.Seat(0); x < rules.NumSeats; x++ {
			royal = royal || v.Checks[x][t]
		}
		if !royal {
			continue
		}
		k := rules.MakePiece(t, rules.King)
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			v.ForbidCapture(s, k)
			v.ForbidCapture(s, k.WithPromoted())
		}
	}
}

// EliminatedBy returns the player credited with eliminating seat s by
// checkmate (Chess4, rule 6), if any.
func (h *Chess4Hook) EliminatedBy(s rules.Seat) (rules.Seat, bool) {
	return h.on(h.g).eliminatedBy(s)
}

// MateMade reports whether the last turn's move checkmated seat s: made a
// mate of s, or re-established one it had lifted (rule 6.3). The player
// it credits eliminates s only at the start of his next turn (rule 1), if
// the mate still stands; this is the move Chess4's notation marks "##"
// ("Qf3xb7#g##bw – Queen on F3 captures on B7, checking Gold and
// checkmating Black and White").
func (h *Chess4Hook) MateMade(s rules.Seat) bool {
	return s < rules.NumSeats && h.on(h.g).c4().made[s]
}

// MateCredit returns the player who would be credited if seat s, now
// checkmated, stays so until its turn (Chess4, rule 6).
func (h *Chess4Hook) MateCredit(s rules.Seat) (rules.Seat, bool) { return h.on(h.g).mateCredit(s) }

// Controller returns who plays seat s's pieces: s while it plays, the
// player who took its army over (Method 2), or NoSeat once its army is
// static.
func (h *Chess4Hook) Controller(s rules.Seat) rules.Seat { return h.on(h.g).controller(s) }

// ArmyChoice returns the Method 2 choice of armies open now: by, who
// eliminated a second opponent, keeps army keep (the default, or his
// choice so far) while other is static. ok is false when no choice is open
// (it is open until the next turn is played).
func (h *Chess4Hook) ArmyChoice() (by, keep, other rules.Seat, ok bool) {
	return h.on(h.g).armyChoice()
}

// KeepArmy settles the choice a Method 2 player must make when he
// eliminates a second opponent: keep army s (one of the two) and let the
// other turn static. The choice is open until the next turn is played; it
// is then permanent. It is recorded as a note ("Blue keeps Yellow's
// army", Notes; a later KeepArmy before the next turn replaces it), which
// PGN4 writes after the move and replay carries out (ApplyNote).
func (h *Chess4Hook) KeepArmy(s rules.Seat) error { return h.on(h.g).keepArmy(s) }
