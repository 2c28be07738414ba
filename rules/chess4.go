package rules

import (
	"fmt"
	"strconv"
	"strings"

	"boardd/rules/square"
)

// Chess4 (shared/seeds/chess4-rules.txt): the game layer of Mode Chess4.
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
// captured (the king too) and give no check. Method 2 (Chess4Options.ArmyControl)
// hands the army to the credited player, who plays it on the eliminated
// seat's turns; its king is never in check and may be captured; a player
// keeps one such army.

// Chess4 is the mode of chess4.yaml and chess4-m2.yaml (mode: chess4):
// everyone for himself; a checkmate counts only at the beginning of the
// mated player's own turn, and is credited to the player whose move made
// it; the last player left wins.
var Chess4 = RegisterMode("chess4", "Chess4")

// Chess4Options are chess4.yaml's and chess4-m2.yaml's rules (keys
// no_king_capture, army_control, chain_en_passant), read by Chess4Hook
// (shared/seeds/chess4-rules.txt).
type Chess4Options struct {
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

// readChess4Options reads Chess4Options from a variant file.
func readChess4Options(src OptionSource, _ *Variant) (any, error) {
	var o Chess4Options
	err := boolOptions(src, boolKey{"no_king_capture", &o.NoKingCapture},
		boolKey{"army_control", &o.ArmyControl}, boolKey{"chain_en_passant", &o.ChainEnPassant})
	return o, err
}

// chess4 returns the variant's Chess4Options.
func (v *Variant) chess4() Chess4Options { return HookOptions[Chess4Options](v) }

func init() {
	RegisterResultTag(Chess4, func(r Result, _ [NumSeats]string) string { return r.chess4Tag() })
	registerOptions(readChess4Options)
	registerHook(func(v *Variant) Hook {
		if v.Mode != Chess4 && !v.chess4().NoKingCapture && !v.chess4().ArmyControl && !v.chess4().ChainEnPassant {
			return nil
		}
		return &Chess4Hook{v: v}
	})
}

// Chess4Hook is the hook of chess4.yaml and chess4-m2.yaml: the game layer
// above (mode chess4), the king that may not be captured (NoKingCapture,
// a capture table entry the hook clears) and the chained en passant's
// stuck pawn (ChainEnPassant; the deferred rights themselves are
// position state, chess4_ep.go). Its own operations on a game
// (EliminatedBy, MateCredit, Controller, ArmyChoice, KeepArmy) are reached
// through HookIn, which binds it to the game.
type Chess4Hook struct {
	HookBase
	v *Variant
	g *Game // the game HookIn bound the hook to; nil in the variant's hook
	// armyOf[e] is 1 + the player who plays seat e's acquired army (0:
	// nobody, Method 2), set in the hook of the game's copy of the variant
	// (c4SetVariant) so that a refusal can say why the two do not capture
	// each other.
	armyOf [NumSeats]Seat
}

// BindGame returns the hook bound to g (HookIn).
func (h *Chess4Hook) BindGame(g *Game) *Chess4Hook {
	c := *h
	c.g = g
	return &c
}

// ID returns "chess4".
func (*Chess4Hook) ID() string { return "chess4" }

// Provides names what the variant's data asks for.
func (h *Chess4Hook) Provides(b byte) bool {
	switch b {
	case OnPieceMoves, OnEnPassant:
		return h.v.chess4().ChainEnPassant
	case OnSettle, OnLeave, OnDrawEnd, OnNote, OnState:
		return h.v.Mode == Chess4
	case OnExplain:
		return h.v.chess4().NoKingCapture || h.v.chess4().ArmyControl
	}
	return false
}

// Compile forbids capturing an active king.
func (h *Chess4Hook) Compile(v *Variant) error {
	if v.chess4().NoKingCapture {
		v.compileNoKingCapture()
	}
	return nil
}

// PieceMoves: a pawn passed by a chained en passant "may not capture …
// but it may move".
func (h *Chess4Hook) PieceMoves(p *Position, moves []Move, c int, pc Piece, _ bool) ([]Move, bool) {
	if pc.Kind() == Pawn && p.passedPawn(c, pc.Seat()) {
		return p.pawnPushes(moves, c, pc.Seat()), true
	}
	return moves, false
}

// NewState returns a game's Chess4 state: credits and army control.
func (h *Chess4Hook) NewState() HookState { return &chess4State{} }

// Copy copies the state (all arrays: a plain copy).
func (st *chess4State) Copy() HookState { c := *st; return &c }

// TakenBack returns a copy: a turn taken back restores the state before
// it as it was.
func (st *chess4State) TakenBack() HookState { return st.Copy() }

// c4 returns the game's Chess4 state (a blank one outside Chess4, whose
// changes are dropped).
func (g *Game) c4() *chess4State {
	if st, ok := hookState[*chess4State](g); ok {
		return st
	}
	return &chess4State{}
}

// CaptureBar names Method 2's acquired army and its controller, and the
// active king that may not be captured.
func (h *Chess4Hook) CaptureBar(p *Position, s Seat, victim Piece, to square.Square) string {
	v := p.v // the position's copy of the variant, whose hook knows who plays which army (c4SetVariant)
	armyOf := h.armyOf
	if hv, ok := HookOf[*Chess4Hook](v); ok {
		armyOf = hv.armyOf
	}
	e, name := victim.Seat(), kindNames[victim.Kind()]
	switch {
	case e == s:
	case armyOf[e] == s+1 || armyOf[s] == e+1:
		c, army := s, e
		if armyOf[s] == e+1 {
			c, army = e, s
		}
		return fmt.Sprintf("%s's %s on %s may not be captured by %s: %s plays %s's army, which does not capture its controller's pieces, nor they it", e, name, to, s, c, army)
	case v.chess4().NoKingCapture && victim.Kind() == King && v.CanCapture[s][e]:
		return fmt.Sprintf("%s's king on %s may not be captured: \"It is an illegal move to capture an active player's King\" (%s must be checkmated instead)", e, to, e)
	}
	return ""
}

// Settle applies Chess4's end of turn (settleChess4).
func (h *Chess4Hook) Settle(g *Game, mover Seat, rec *Record) bool { return g.settleChess4(mover, rec) }

// Leave puts the seat out with no credit, its army (and any army it
// controlled) static; play goes on.
func (h *Chess4Hook) Leave(g *Game, rec *Record, s Seat, st Status) {
	if g.pos.turn == s {
		g.pos.ep[s] = epEntry{}
	}
	g.c4Eliminate(rec, s, st, 0)
	g.settleChess4(s, rec)
}

// DrawEnd shares the draw among the players still in.
func (h *Chess4Hook) DrawEnd(g *Game, reason string) { g.c4Draw(reason) }

// ApplyNote carries out a Method 2 army choice.
func (h *Chess4Hook) ApplyNote(g *Game, text string) (bool, error) { return g.c4ApplyNote(text) }

// chess4State is the game state Chess4 adds, kept in every snapshot. Seats
// are stored plus one, so that the zero value means "nobody".
type chess4State struct {
	// mateBy[s]: who gets the credit for the checkmate standing on the
	// board against s (rule 6).
	mateBy [NumSeats]Seat
	// by[s]: who eliminated s.
	by [NumSeats]Seat
	// ctrl[s]: Method 2, the player who plays s's army.
	ctrl [NumSeats]Seat
	// choice: Method 2, a choice between two armies still open (until the
	// next turn): the controller, the army kept by default and the other.
	choice [3]Seat
	// castle: Method 2, the acquired armies' castling state (rule 1 of
	// "Rules Specific to Method 2").
	castle [NumSeats]c4Castle
	// made[s]: the last turn's move checkmated s, newly or re-establishing
	// a mate (rule 6.3); its elimination may come later (rule 1).
	made [NumSeats]bool
}

// c4Castle tracks an acquired king and its two castling rooks: where each
// stands (a cell, 0 when captured or disqualified) and where it started.
type c4Castle struct {
	cur, home [3]int16 // 0: the king; 1, 2: the rooks of the seat's two corners
}

// player returns the seat that decides seat s's moves: s itself, or its
// controller under Method 2.
func (g *Game) c4Player(s Seat) Seat {
	if c := g.c4().ctrl[s]; c != 0 {
		return c - 1
	}
	return s
}

// eliminatedBy is Chess4Hook.EliminatedBy on the game.
func (g *Game) eliminatedBy(s Seat) (Seat, bool) {
	if b := g.c4().by[s]; b != 0 {
		return b - 1, true
	}
	return NoSeat, false
}

// mateCredit is Chess4Hook.MateCredit on the game.
func (g *Game) mateCredit(s Seat) (Seat, bool) {
	if b := g.c4().mateBy[s]; b != 0 {
		return b - 1, true
	}
	return NoSeat, false
}

// controller is Chess4Hook.Controller on the game.
func (g *Game) controller(s Seat) Seat {
	if c := g.c4().ctrl[s]; c != 0 {
		return c - 1
	}
	if g.status[s] == Playing || g.status[s] == Walking {
		return s
	}
	return NoSeat
}

// players counts the seats still playing for themselves.
func (g *Game) c4Players() []Seat {
	var out []Seat
	for s := Seat(0); s < NumSeats; s++ {
		if g.status[s] == Playing {
			out = append(out, s)
		}
	}
	return out
}

// mated reports whether seat s is checkmated in p: in check with no legal
// move were it its turn.
func mated(p *Position, s Seat) bool {
	if p.out[s] || p.king[s] == 0 || !p.InCheck(s) {
		return false
	}
	saved := p.turn
	p.turn = s
	var buf [256]Move
	n := len(p.LegalMoves(buf[:0]))
	p.turn = saved
	return n == 0
}

// settleChess4 applies the consequences of a turn: the credit for mates on
// the board, then, at the start of the next seat's turn, the seats that
// seat has checkmated (out, rule 1), its own checkmate (it waits for the
// checkmating player's turn) or stalemate (a draw), and the end of the
// game.
func (g *Game) settleChess4(mover Seat, rec *Record) bool {
	p := g.pos
	g.c4().made = [NumSeats]bool{}
	if rec != nil && rec.Action == ActMove && len(g.snaps) > 0 {
		g.c4Credit(g.c4Player(mover), g.snaps[len(g.snaps)-1].pos, rec.Move)
	}
	if g.v.chess4().ArmyControl && rec != nil && rec.Action == ActMove {
		g.c4TrackCastling(mover, rec.Move)
	}
	g.c4().choice = [3]Seat{} // a choice is open only until the next turn
	out := false
	for i := 0; i < 4*NumSeats && g.result == nil; i++ {
		players := g.c4Players()
		if len(players) <= 1 {
			g.c4End("last player standing", players, nil)
			break
		}
		s := p.turn
		if g.status[s] == Playing && g.c4OutAtTurnOf(rec, s) {
			out = true // s's turn begins: the seats it checkmated are out
			continue
		}
		if g.status[s] != Playing { // an acquired army (Method 2)
			if g.hasMoves(s) {
				break
			}
			p.turn = p.nextSeat(s) // it cannot move: its turn passes
			continue
		}
		if g.hasMoves(s) {
			break
		}
		if !p.InCheck(s) {
			g.status[s] = Stalemated
			g.c4End("stalemate", nil, players)
			break
		}
		if by := g.c4().mateBy[s]; by != 0 && by != s+1 && g.status[by-1] == Playing {
			p.turn = p.nextSeat(s) // checkmated: waits for the checkmating player's turn
			continue
		}
		g.c4Eliminate(rec, s, Mated, g.c4().mateBy[s])
		out = true
	}
	if g.result == nil {
		g.checkDraws(rec)
	}
	return out
}

// c4OutAtTurnOf eliminates, as player s's turn begins, every seat still
// checkmated whose mate is credited to s (rule 1), and reports whether it
// eliminated any.
func (g *Game) c4OutAtTurnOf(rec *Record, s Seat) bool {
	for e := Seat(0); e < NumSeats; e++ {
		if e != s && g.status[e] == Playing && g.c4().mateBy[e] == s+1 && mated(g.pos, e) {
			g.c4Eliminate(rec, e, Mated, s+1)
			return true
		}
	}
	return false
}

// c4Credit updates the mate credits after player's move m (rule 6): a seat
// newly checkmated is credited to player; a standing mate keeps its credit
// unless m lifted it for a moment (its piece in the hand, the captured
// piece off the board), in which case player re-established it.
func (g *Game) c4Credit(player Seat, prev *Position, m Move) {
	p := g.pos
	for e := Seat(0); e < NumSeats; e++ {
		if g.status[e] != Playing || e == player {
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

// c4Recheck resets the credit of mates that an elimination lifted, and
// credits new ones to player (plus one; 0 for nobody).
func (g *Game) c4Recheck(player Seat) {
	for e := Seat(0); e < NumSeats; e++ {
		if g.status[e] != Playing {
			continue
		}
		if !mated(g.pos, e) {
			g.c4().mateBy[e] = 0
		} else if g.c4().mateBy[e] == 0 {
			g.c4().mateBy[e] = player
		}
	}
}

// liftedPosition returns prev in the middle of move m: the moving piece
// in the hand and the captured piece taken off.
func liftedPosition(prev *Position, m Move) *Position {
	q := prev.Clone()
	lift := func(c int) {
		pc := q.board[c]
		if !pc.IsPiece() {
			return
		}
		q.removePiece(pc.Seat(), c)
		q.board[c] = NoPiece
		if pc.Kind() == King && int(q.king[pc.Seat()]) == c {
			q.king[pc.Seat()] = 0
		}
	}
	cap := m.to()
	if m.IsEnPassant() {
		cap = q.epVictim(m.to(), q.turn)
	}
	lift(m.from())
	lift(cap)
	return q
}

// epVictim returns the cell of the pawn that seat s's en-passant capture
// onto cell t removes.
func (p *Position) epVictim(t int, s Seat) int {
	for e := Seat(0); e < NumSeats; e++ {
		if int(p.ep[e].target) == t && e != s {
			return int(p.ep[e].pawn)
		}
	}
	if p.v.chess4().ChainEnPassant {
		for e := Seat(0); e < NumSeats; e++ {
			if int(p.deferred()[s][e].target) == t {
				return int(p.deferred()[s][e].pawn)
			}
		}
	}
	return t
}

// c4Eliminate puts seat s out with status st, credited to by (plus one; 0
// for nobody). Under Method 2 the credited player takes the army over;
// otherwise it turns static. An army s controlled turns static.
func (g *Game) c4Eliminate(rec *Record, s Seat, st Status, by Seat) {
	if by == s+1 {
		by = 0 // a player who mated himself (with an acquired army) gets no credit
	}
	g.c4().by[s] = by
	g.c4().mateBy[s] = 0
	if rec != nil {
		rec.Out = append(rec.Out, s)
		rec.By = append(rec.By, by-1)
	}
	for e := Seat(0); e < NumSeats; e++ {
		if g.c4().ctrl[e] == s+1 {
			g.c4Static(e) // "may only choose to control the piece of an opponent he directly eliminated"
		}
	}
	if !g.v.chess4().ArmyControl || by == 0 {
		g.eliminate(s, st)
		g.c4SetVariant()
		g.c4Recheck(by)
		return
	}
	g.status[s] = st
	g.c4().ctrl[s] = by
	g.c4StartCastling(s)
	for f := Seat(0); f < NumSeats; f++ {
		if f != s && g.c4().ctrl[f] == by {
			// "A player only retains control of one set of opponent's
			// pieces": by default the army with more material (the new
			// one on a tie); Chess4Hook.KeepArmy can change it before the next
			// turn.
			keep, drop := s, f
			if g.c4Material(f) > g.c4Material(s) {
				keep, drop = f, s
			}
			g.c4().choice = [3]Seat{by, keep + 1, drop + 1}
			g.c4Static(drop)
		}
	}
	g.c4SetVariant()
	g.c4Recheck(by)
}

// c4Static turns seat s's army static, as in Method 1.
func (g *Game) c4Static(s Seat) {
	g.c4().ctrl[s] = 0
	g.c4().castle[s] = c4Castle{}
	st := g.status[s]
	if st == Playing {
		st = Mated
	}
	g.eliminate(s, st)
}

// c4Material is the standard value of seat s's live pieces (P1 N3 B3 R5 Q9).
func (g *Game) c4Material(s Seat) int {
	p := g.pos
	n := 0
	for _, c := range p.plist[s][:p.pcount[s]] {
		pc := p.board[c]
		if pc.Dead() {
			continue
		}
		n += [...]int{0, 1, 3, 3, 5, 9, 0}[pc.Kind()]
	}
	return n
}

// armyChoice is Chess4Hook.ArmyChoice on the game.
func (g *Game) armyChoice() (by, keep, other Seat, ok bool) {
	ch := g.c4().choice
	if ch[0] == 0 {
		return NoSeat, NoSeat, NoSeat, false
	}
	return ch[0] - 1, ch[1] - 1, ch[2] - 1, true
}

// keepArmy is Chess4Hook.KeepArmy on the game.
func (g *Game) keepArmy(s Seat) error {
	ch := g.c4().choice
	if g.result != nil {
		return ErrGameOver // "(and another player remains in the game)"
	}
	if ch[0] == 0 {
		return fmt.Errorf("no choice of armies is open")
	}
	keep, drop := ch[1]-1, ch[2]-1
	if s == keep {
		g.c4KeepNote(ch[0]-1, s)
		return nil
	}
	if s != drop {
		return fmt.Errorf("%s may keep %s's or %s's army, not %s's", ch[0]-1, keep, drop, s)
	}
	p := g.pos
	// Bring the dropped army back: it was live an instant ago.
	for _, c := range p.plist[drop][:p.pcount[drop]] {
		p.board[c] &^= deadFlag
	}
	p.out[drop] = false
	g.c4().ctrl[drop] = ch[0]
	wasTurn := p.turn
	g.c4Static(keep)
	g.c4().choice = [3]Seat{ch[0], drop + 1, keep + 1}
	// An elimination at the beginning of the chooser's own turn (rule 1)
	// leaves the turn with him. One at the eliminated seat's own turn (a
	// mate nobody waits for): the army eliminated on this turn plays on
	// from it (if kept); the turn order otherwise is unchanged.
	if last := g.records[len(g.records)-1]; len(last.Out) > 0 && wasTurn != ch[0]-1 {
		newest := last.Out[len(last.Out)-1]
		if newest == drop {
			p.turn = drop
		} else if wasTurn == keep {
			p.turn = p.nextSeat(keep)
		}
	}
	g.c4SetVariant()
	g.c4Recheck(ch[0])
	g.records[len(g.records)-1].TurnAfter = p.turn
	g.c4KeepNote(ch[0]-1, s)
	return nil
}

// c4KeepNote records by's choice to keep army s, replacing an earlier
// choice of the same turn: the last one made before the next turn is the
// permanent one.
func (g *Game) c4KeepNote(by, s Seat) {
	if n := len(g.notes); n > 0 && g.notes[n-1].After == len(g.records) && c4IsKeepNote(g.notes[n-1].Text) {
		g.notes = g.notes[: n-1 : n-1]
	}
	g.note(fmt.Sprintf("%s keeps %s's army", by, s))
}

// c4ParseKeepNote reads "Blue keeps Yellow's army".
func c4ParseKeepNote(text string) (by, s Seat, ok bool) {
	f := strings.Fields(text)
	if len(f) != 4 || f[1] != "keeps" || f[3] != "army" {
		return NoSeat, NoSeat, false
	}
	name, ok := strings.CutSuffix(f[2], "'s")
	if !ok {
		return NoSeat, NoSeat, false
	}
	by, ok1 := seatByName(f[0])
	s, ok2 := seatByName(name)
	return by, s, ok1 && ok2
}

func c4IsKeepNote(text string) bool {
	_, _, ok := c4ParseKeepNote(text)
	return ok
}

// c4ApplyNote carries out a kept army as Notes writes it.
func (g *Game) c4ApplyNote(text string) (bool, error) {
	by, s, ok := c4ParseKeepNote(text)
	if !ok {
		return false, nil
	}
	if c, _, _, open := g.armyChoice(); !open || c != by {
		return true, fmt.Errorf("%s has no choice of armies to make now", by)
	}
	return true, g.keepArmy(s)
}

// c4SetVariant gives the position the rules of the current control:
// a player's own pieces and his acquired army neither capture nor check
// each other, and an acquired king is never in check (so it may be
// captured).
func (g *Game) c4SetVariant() {
	if !g.v.chess4().ArmyControl {
		return
	}
	any := false
	nv := *g.v
	var armyOf [NumSeats]Seat
	for e := Seat(0); e < NumSeats; e++ {
		c := g.c4().ctrl[e]
		if c == 0 {
			continue
		}
		any = true
		armyOf[e] = c
		nv.CanCapture[c-1][e], nv.CanCapture[e][c-1] = false, false
		nv.Checks[e][c-1] = false
		for x := Seat(0); x < NumSeats; x++ {
			nv.Checks[x][e] = false
		}
	}
	if !any {
		g.pos.v = g.v
		return
	}
	nv.cells = nil
	if err := nv.Compile(); err != nil {
		panic(err) // the variant compiled before; control changes no data Compile checks
	}
	if h, ok := HookOf[*Chess4Hook](&nv); ok {
		h.armyOf = armyOf
	}
	g.pos.v = &nv
}

// c4StartCastling records, at the moment seat s's army is acquired, where
// its king and the rooks that started on its corners now stand (rule 1 of
// "Rules Specific to Method 2"): they may castle again if they come back
// to their starting squares without ever moving away from them.
func (g *Game) c4StartCastling(s Seat) {
	st := c4Castle{}
	first := g.snaps[0].pos
	if k := first.king[s]; k != 0 {
		st.home[0] = k
	}
	for i, c := range g.v.corners[s] {
		if c != 0 && first.board[c] == MakePiece(s, Rook) {
			st.home[i+1] = int16(c)
		}
	}
	st.cur = st.home
	// Follow each piece through the game so far.
	for i, r := range g.records {
		if r.Action != ActMove {
			continue
		}
		before := g.snaps[i].pos
		st.follow(before, r.Move, false)
	}
	st.cur[0] = g.pos.king[s] // the king, whatever happened
	if st.home[0] == 0 {
		st.cur[0] = 0
	}
	g.c4().castle[s] = st
	g.c4CastleRights(s)
}

// follow moves the tracked pieces along move m played in position before;
// with strict set, a tracked piece of the mover that moves away from its
// home (or off it) loses its castling.
func (st *c4Castle) follow(before *Position, m Move, strict bool) {
	from, to := m.from(), m.to()
	cap := to
	if m.IsEnPassant() {
		cap = before.epVictim(to, before.turn)
	}
	moves := [][2]int{{from, to}}
	if c, _ := m.IsCastle(); c {
		rf, rt := m.RookSquares()
		moves = append(moves, [2]int{cell(rf), cell(rt)})
	}
	for i := range st.cur {
		if st.cur[i] != 0 && int(st.cur[i]) == cap && cap != from {
			st.cur[i] = 0 // captured
		}
	}
	for _, mv := range moves {
		for i := range st.cur {
			if st.cur[i] == 0 || int(st.cur[i]) != mv[0] {
				continue
			}
			if strict && !approaches(mv[0], mv[1], int(st.home[i])) {
				st.cur[i] = 0
				continue
			}
			st.cur[i] = int16(mv[1])
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
	df0, dr0 := abs(a%stride-home%stride), abs(a/stride-home/stride)
	df1, dr1 := abs(b%stride-home%stride), abs(b/stride-home/stride)
	return df1 <= df0 && dr1 <= dr0 && (df1 < df0 || dr1 < dr0)
}

// c4TrackCastling follows an acquired army's king and rooks after a move.
func (g *Game) c4TrackCastling(mover Seat, m Move) {
	before := g.snaps[len(g.snaps)-1].pos
	for s := Seat(0); s < NumSeats; s++ {
		if g.c4().ctrl[s] == 0 {
			continue
		}
		st := &g.c4().castle[s]
		if c, _ := m.IsCastle(); c && mover == s {
			*st = c4Castle{} // castled: done
		} else {
			st.follow(before, m, mover == s)
		}
		g.c4CastleRights(s)
	}
}

// c4CastleRights gives acquired seat s the castling rights its king and
// rooks have earned: both on their starting squares, neither having moved
// away since the army was acquired.
func (g *Game) c4CastleRights(s Seat) {
	st := g.c4().castle[s]
	p := g.pos
	p.castle[s] = 0
	if st.cur[0] == 0 || st.cur[0] != st.home[0] || p.king[s] != st.home[0] {
		return
	}
	for i := 1; i < 3; i++ {
		h := st.home[i]
		if h == 0 || st.cur[i] != h {
			continue
		}
		d := abs(int(h) - int(st.home[0]))
		if d == 3 || d == 3*stride {
			p.castle[s] |= castleShort
		} else if d == 4 || d == 4*stride {
			p.castle[s] |= castleLong
		}
	}
}

// c4End ends the game: winners (the last player standing), or a draw
// shared by the players still in.
func (g *Game) c4End(reason string, winners, sharing []Seat) {
	if len(winners) > 0 {
		sharing = nil
	}
	g.result = &Result{Reason: reason, Winners: winners, Points: g.pos.points, Sharing: sharing}
}

// c4Draw ends the game drawn (repetition, the 50-move rule, insufficient
// material) among the players still in.
func (g *Game) c4Draw(reason string) { g.c4End(reason, nil, g.c4Players()) }

// chess4Tag writes a Chess4 result in the text's format ("1/4-1/4-1/4-1/4"):
// each seat's share of the point in seat order (White, Silver, Black,
// Gold = Red, Blue, Yellow, Green): 1 for the winner, 1/n for each of n
// players sharing a draw, 0 for the others.
func (r Result) chess4Tag() string {
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
// check to (Chess4Options.NoKingCapture).
func (v *Variant) compileNoKingCapture() {
	for t := Seat(0); t < NumSeats; t++ {
		royal := false
		for x := Seat(0); x < NumSeats; x++ {
			royal = royal || v.Checks[x][t]
		}
		if !royal {
			continue
		}
		k := MakePiece(t, King)
		for s := Seat(0); s < NumSeats; s++ {
			v.capTab[s][k], v.capTab[s][k.WithPromoted()] = false, false
		}
	}
}

// EliminatedBy returns the player credited with eliminating seat s by
// checkmate (Chess4, rule 6), if any.
func (h *Chess4Hook) EliminatedBy(s Seat) (Seat, bool) { return h.g.eliminatedBy(s) }

// MateMade reports whether the last turn's move checkmated seat s: made a
// mate of s, or re-established one it had lifted (rule 6.3). The player
// it credits eliminates s only at the start of his next turn (rule 1), if
// the mate still stands; this is the move Chess4's notation marks "##"
// ("Qf3xb7#g##bw – Queen on F3 captures on B7, checking Gold and
// checkmating Black and White").
func (h *Chess4Hook) MateMade(s Seat) bool { return s < NumSeats && h.g.c4().made[s] }

// MateCredit returns the player who would be credited if seat s, now
// checkmated, stays so until its turn (Chess4, rule 6).
func (h *Chess4Hook) MateCredit(s Seat) (Seat, bool) { return h.g.mateCredit(s) }

// Controller returns who plays seat s's pieces: s while it plays, the
// player who took its army over (Method 2), or NoSeat once its army is
// static.
func (h *Chess4Hook) Controller(s Seat) Seat { return h.g.controller(s) }

// ArmyChoice returns the Method 2 choice of armies open now: by, who
// eliminated a second opponent, keeps army keep (the default, or his
// choice so far) while other is static. ok is false when no choice is open
// (it is open until the next turn is played).
func (h *Chess4Hook) ArmyChoice() (by, keep, other Seat, ok bool) { return h.g.armyChoice() }

// KeepArmy settles the choice a Method 2 player must make when he
// eliminates a second opponent: keep army s (one of the two) and let the
// other turn static. The choice is open until the next turn is played; it
// is then permanent. It is recorded as a note ("Blue keeps Yellow's
// army", Notes; a later KeepArmy before the next turn replaces it), which
// PGN4 writes after the move and replay carries out (ApplyNote).
func (h *Chess4Hook) KeepArmy(s Seat) error { return h.g.keepArmy(s) }
