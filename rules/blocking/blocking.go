// Package blocking is blocking double chess (the four-player chess essay,
// "Blocking Double Chess"; configs/variants/blocking-double.yaml) as a
// hook of package rules: two individual games of chess on one board, mode
// Double. It registers its mode, its Result tag, its options and its hook
// in init (rules/shipped links it in); its own operations on a game
// (Announce, Reply, ClaimStalemate, …) are methods of BlockingDouble,
// reached through rules.HookIn[*blocking.BlockingDouble](g).
//
// "the White men may only capture Black pieces, and vice-versa, and the
// Red men may only capture Yellow pieces, and vice versa. As well, only
// White may give check to Black, and so on." — the variant's CanCapture
// and Checks matrices say that (YAML key opponents); every seat's
// individual opponent is the one seat it may capture.
//
// "When one of the two games of Chess being played reaches a conclusion
// … the pieces of both teams involved in that game are removed from the
// board, the winner as well as the loser." The match ends when both games
// have ended; "a team wins when it scores either two wins or a win and a
// draw. Two draws, or a win and a loss, make a draw for the team."
//
// "The Red and Yellow players only, because their move is followed by a
// move on the part of their partners, have the privilege of moving their
// Kings into check": BlockingDouble.Announce, Reply (the four replies Unwise,
// I Accept, Another, Impossible), the partner's duty to relieve the
// check, and the capture of a king that was left in check.
//
// The protocol and the agreed draws and claimed stalemates are not turns
// (Records): they are Notes, kept with the game (takeback restores them
// with the turns; an announcement and its replies, Game.AddTurnNote, go
// with the turn they led to) and written to PGN4 as comments that Replay
// carries out again (Game.ApplyNote).
package blocking

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Reply is a partner's answer to an announced move into check.
type Reply uint8

// Double is the mode of blocking-double.yaml (mode: double): two
// individual games of chess on one board between the pairs of seats that
// may capture each other; the other seats' pieces are blocks. A finished
// game's two armies leave the board; the partnerships
// (Options.Side) score the two results.
var Double = rules.RegisterMode("double", "Double")

// The four replies of the essay.
const (
	// ReplyUnwise: "his partner does not wish to relieve the check …, and
	// the player about to move must now make a move that will not expose
	// his king to check".
	ReplyUnwise Reply = iota + 1
	// ReplyAccept: "his partner will relieve the check, and the first
	// player must then make the proposed move, and his partner must make a
	// move that relieves the check".
	ReplyAccept
	// ReplyAnother: "the first player may not make the proposed move, but
	// may, if he wishes, optionally propose a different move which would
	// expose his King to check, or simply make a move which does not do
	// so".
	ReplyAnother
	// ReplyImpossible: "the previous player erred, and the player replying
	// would not, in fact, be able to make a legal move which would relieve
	// the check". The engine checks the claim.
	ReplyImpossible
)

var replyNames = [...]string{"", "Unwise", "I Accept", "Another", "Impossible"}

// Options are blocking-double.yaml's data beyond who captures
// whom (keys partners, under mode double, and move_into_check), read by
// the BlockingDouble hook.
type Options struct {
	// Side[s] numbers seat s's partnership (1, 2; 0 none) where the
	// partnerships are not the seats that may not capture each other: "the
	// White men may only capture Black pieces … Despite this, White and
	// Yellow play as partners against Red and Black."
	Side [rules.NumSeats]uint8
	// MoveIntoCheck[s]: seat s "ha[s] the privilege of moving [its King]
	// into check" after announcing the move and hearing its partner's
	// reply (Announce, Reply), when its partner moves next.
	MoveIntoCheck [rules.NumSeats]bool
}

// readOptions reads Options from a variant file and checks
// that, in mode double, every seat has exactly one opponent and a
// partnership.
func readOptions(src rules.OptionSource, v *rules.Variant) (any, error) {
	var o Options
	seats, err := src.Seats("move_into_check")
	if err != nil {
		return nil, err
	}
	for _, s := range seats {
		o.MoveIntoCheck[s] = true
	}
	if v.Mode != Double {
		return o, nil
	}
	o.Side = src.Partnerships()
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		n := 0
		for t := rules.Seat(0); t < rules.NumSeats; t++ {
			if v.CanCapture[s][t] {
				n++
			}
		}
		if n != 1 || o.Side[s] == 0 {
			return nil, src.Errorf("opponents", "mode double: every seat needs exactly one opponent (opponents) and a partnership (partners)")
		}
	}
	return o, nil
}

// options returns the variant's Options.
func options(v *rules.Variant) Options { return rules.HookOptions[Options](v) }

func init() {
	rules.RegisterResultTag(Double, func(r rules.Result, _ [rules.NumSeats]string) string { return doubleTag(r) })
	rules.RegisterOptions(readOptions)
	rules.RegisterHook(func(v *rules.Variant) rules.Hook {
		if v.Mode != Double {
			return nil
		}
		return &BlockingDouble{}
	})
}

// BlockingDouble is the hook of blocking-double.yaml (mode double): the
// announce-and-reply protocol above the position's moves, the individual
// games' ends, resignations, draws and notes. Its own operations on a
// game (Announce, Reply, ClaimStalemate, Announced, AwaitingReply,
// MustRelieve, GameResults) are reached through HookIn, which binds it to
// the game.
type BlockingDouble struct {
	rules.HookBase
	g *rules.Game // the game HookIn bound the hook to; nil in the variant's hook
}

// BindGame returns the hook bound to g (HookIn).
func (h *BlockingDouble) BindGame(g *rules.Game) *BlockingDouble {
	c := *h
	c.g = g
	return &c
}

// ID returns "blocking-double".
func (*BlockingDouble) ID() string { return "blocking-double" }

// Provides reports the game-level rules the hook decides.
func (*BlockingDouble) Provides(b byte) bool {
	switch b {
	case rules.OnGameMoves, rules.OnSettle, rules.OnLeave, rules.OnDrawAgreement, rules.OnNote, rules.OnState, rules.OnExplain:
		return true
	}
	return false
}

// NewState returns a game's blocking-double state: the announcement
// protocol and the individual games' results.
func (*BlockingDouble) NewState() rules.HookState { return &doubleState{} }

// Copy copies the state; the slices are never appended to in place
// (growSlice), so sharing them is safe.
func (d *doubleState) Copy() rules.HookState { c := *d; return &c }

// TakenBack returns the state to go back to when a turn is taken back:
// that turn's announcement and replies go with it (as their notes do,
// Game.AddTurnNote).
func (d *doubleState) TakenBack() rules.HookState {
	c := *d
	c.ann, c.accepted, c.unwise, c.refused = 0, false, false, nil
	return &c
}

// dbl returns the game's blocking-double state (a blank one outside that
// variant, whose changes are dropped).
func (g game) dbl() *doubleState {
	if st, ok := rules.HookStateIn[*doubleState](g.Game); ok {
		return st
	}
	return &doubleState{}
}

// CaptureBar: "Red plays its game against Yellow, and Green's men only
// block it".
func (*BlockingDouble) CaptureBar(p *rules.Position, s rules.Seat, victim rules.Piece, to square.Square) string {
	v := p.Variant()
	e, name := victim.Seat(), rules.KindName(victim.Kind())
	if e == s || options(v).Side[s] == 0 || options(v).Side[s] == options(v).Side[e] {
		return ""
	}
	var opp []string
	for t := rules.Seat(0); t < rules.NumSeats; t++ {
		if t != s && v.CanCapture[s][t] {
			opp = append(opp, t.String())
		}
	}
	return fmt.Sprintf("%s's %s on %s may not be captured by %s: %s plays its game against %s, and %s's men only block it", e, name, to, s, s, strings.Join(opp, " and "), e)
}

// GameMoves returns the seat to move's moves under the protocol.
func (*BlockingDouble) GameMoves(g *rules.Game) []rules.Move { return game{g}.doubleMoves() }

// CheckMove refuses a move the protocol does not allow now.
func (*BlockingDouble) CheckMove(g *rules.Game, m rules.Move) error {
	return game{g}.doubleCheckMove(m)
}

// Settle applies the end of turn: the individual games and the match.
func (*BlockingDouble) Settle(g *rules.Game, mover rules.Seat, rec *rules.Record) bool {
	return game{g}.settleDouble(mover, rec)
}

// Leave loses the seat's individual game.
func (*BlockingDouble) Leave(g *rules.Game, rec *rules.Record, s rules.Seat, st rules.Status) {
	game{g}.doubleLeave(rec, s, st)
}

// DrawVoters: "draw by agreement" ends one of the two individual games.
func (*BlockingDouble) DrawVoters(g *rules.Game, s rules.Seat) []rules.Seat {
	return []rules.Seat{s, game{g}.doubleOpponent(s)}
}

// AgreeDraw draws the individual game of agreed[0] and its opponent.
func (*BlockingDouble) AgreeDraw(g *rules.Game, agreed []rules.Seat) error {
	return game{g}.agreeGameDraw(agreed[0], game{g}.doubleOpponent(agreed[0]))
}

// ApplyNote carries out an announcement or a reply.
func (*BlockingDouble) ApplyNote(g *rules.Game, text string) (bool, error) {
	return game{g}.doubleApplyNote(text)
}

// String is the reply as the essay words it ("I Accept").
func (r Reply) String() string {
	if int(r) < len(replyNames) && r != 0 {
		return replyNames[r]
	}
	return "?"
}

// ParseReply reads a reply: "unwise", "accept" or "I Accept", "another",
// "impossible" (any case).
func ParseReply(s string) (Reply, error) {
	switch strings.ToLower(strings.Join(strings.Fields(s), " ")) {
	case "unwise":
		return ReplyUnwise, nil
	case "accept", "i accept", "i_accept", "iaccept":
		return ReplyAccept, nil
	case "another":
		return ReplyAnother, nil
	case "impossible":
		return ReplyImpossible, nil
	}
	return 0, fmt.Errorf("reply %q: want unwise, accept, another or impossible", s)
}

// GameResult is the end of one individual game of a Double match.
type GameResult struct {
	// Seats are the two opponents.
	Seats [2]rules.Seat
	// Winner is the winner, or NoSeat for a draw.
	Winner rules.Seat
	// Reason says how it ended: "checkmate", "stalemate", "resignation",
	// "timeout", "king captured", "threefold repetition", "50-move rule",
	// "insufficient material", "agreement".
	Reason string
}

// String writes the result as "Red–Yellow: Yellow wins by checkmate" or
// "Red–Yellow: drawn by stalemate" with the given seat names.
func (r GameResult) String() string { return r.text([rules.NumSeats]string{}) }

func (r GameResult) text(names [rules.NumSeats]string) string {
	n := func(s rules.Seat) string {
		if names[s] != "" {
			return names[s]
		}
		return s.String()
	}
	head := n(r.Seats[0]) + "–" + n(r.Seats[1]) + ": "
	if r.Winner == rules.NoSeat {
		return head + "drawn by " + r.Reason
	}
	return head + n(r.Winner) + " wins by " + r.Reason
}

// doubleState is the game state of mode Double that the position does not
// hold. It is copied into every snapshot; its slices are never appended to
// in place, so snapshots never share a changed element.
type doubleState struct {
	ann      rules.Move // the announced move (0: none)
	annBy    rules.Seat
	accepted bool         // the partner replied "I Accept": ann is the only move
	unwise   bool         // the partner replied "Unwise": no more announcing this turn
	refused  []rules.Move // announced and refused this turn (Another, Impossible)
	relieve  rules.Seat   // 1 + the seat whose king its partner must now relieve (0: none)
	games    []GameResult
}

// growSlice appends x to a copy of s's elements when s has no room, never
// in place: a snapshot's slices are never changed.
func growSlice[T any](s []T, x T) []T { return append(slices.Clip(s), x) }

// game is a game of mode double as the hook works on it.
type game struct{ *rules.Game }

// over reports whether the match has ended.
func (g game) over() bool {
	_, done := g.Result()
	return done
}

// announced is BlockingDouble.Announced on the game.
func (g game) announced() (m rules.Move, by rules.Seat, accepted, ok bool) {
	d := g.dbl()
	return d.ann, d.annBy, d.accepted, d.ann != 0
}

// awaitingReply is BlockingDouble.AwaitingReply on the game.
func (g game) awaitingReply() (rules.Seat, bool) {
	d := g.dbl()
	if d.ann == 0 || d.accepted {
		return rules.NoSeat, false
	}
	return g.LivePosition().NextSeat(d.annBy), true
}

// mustRelieve is BlockingDouble.MustRelieve on the game.
func (g game) mustRelieve() (rules.Seat, bool) {
	if g.dbl().relieve == 0 {
		return rules.NoSeat, false
	}
	return g.dbl().relieve - 1, true
}

// gameResults is BlockingDouble.GameResults on the game.
func (g game) gameResults() []GameResult { return append([]GameResult(nil), g.dbl().games...) }

// doubleOpponent returns the seat s plays its individual game against.
func (g game) doubleOpponent(s rules.Seat) rules.Seat {
	for t := rules.Seat(0); t < rules.NumSeats; t++ {
		if t != s && g.Variant().CanCapture[s][t] {
			return t
		}
	}
	return rules.NoSeat
}

// privileged reports whether seat s may announce a move into check now:
// the variant grants it and its partner, still playing, moves next.
func (g game) privileged(s rules.Seat) bool {
	v := g.Variant()
	if !options(v).MoveIntoCheck[s] || g.Status(s) != rules.Playing || options(v).Side[s] == 0 {
		return false
	}
	n := g.LivePosition().NextSeat(s)
	return n != s && options(v).Side[n] == options(v).Side[s] && g.Status(n) == rules.Playing
}

// doubleMoves lists the moves the seat to move may play: its legal moves
// plus captures of its opponent's king (which end the game, whatever they
// leave behind); only the accepted move after "I Accept"; only moves that
// relieve the partner's king when the partner moved into check with "I
// Accept" (if there are any: otherwise the partner fails to relieve it);
// none while an announcement waits for its reply.
func (g game) doubleMoves() []rules.Move {
	p, d := g.LivePosition(), g.dbl()
	s := p.Turn()
	if d.ann != 0 {
		if d.accepted && d.annBy == s {
			return []rules.Move{d.ann}
		}
		return nil
	}
	if g.Status(s) != rules.Playing {
		return nil
	}
	moves := p.LegalMoves(nil)
	for _, m := range p.PseudoLegal(nil) {
		if q := p.OnCell(m.ToCell()); q.Kind() == rules.King && !q.Dead() && !containsMove(moves, m) {
			moves = append(moves, m)
		}
	}
	if d.relieve != 0 {
		var ok []rules.Move
		for _, m := range moves {
			if g.relieves(m, d.relieve-1) {
				ok = append(ok, m)
			}
		}
		if len(ok) > 0 {
			return ok
		}
	}
	return moves
}

func containsMove(moves []rules.Move, m rules.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

// relieves reports whether m, played by the seat to move, leaves seat a's
// king out of check.
func (g game) relieves(m rules.Move, a rules.Seat) bool {
	p := g.LivePosition()
	u := p.Make(m)
	ok := !p.InCheck(a)
	p.Unmake(m, u)
	return ok
}

// doubleCheckMove refuses a move the seat to move may not play, saying why.
func (g game) doubleCheckMove(m rules.Move) error {
	if containsMove(g.doubleMoves(), m) {
		return nil
	}
	d, p := g.dbl(), g.LivePosition()
	switch {
	case d.ann != 0 && !d.accepted:
		return fmt.Errorf("%s announced %s into check: %s must reply first (unwise, accept, another or impossible)", d.annBy, d.ann, p.NextSeat(d.annBy))
	case d.accepted:
		return fmt.Errorf("%s's partner accepted %s: %s must play it", d.annBy, d.ann, d.annBy)
	case d.relieve != 0 && p.IsLegal(m):
		return fmt.Errorf("%s: %s accepted %s's move into check and must relieve that check", p.MoveText(m), p.Turn(), d.relieve-1)
	}
	err := p.Explain(m)
	if g.privileged(p.Turn()) && containsMove(g.announceable(p.Turn()), m) {
		err = fmt.Errorf("%v (%s may announce a move into check first: its partner replies)", err, p.Turn())
	}
	return err
}

// announce is BlockingDouble.Announce on the game.
func (g game) announce(s rules.Seat, m rules.Move) error {
	if g.over() {
		return rules.ErrGameOver
	}
	d, p := g.dbl(), g.LivePosition()
	switch {
	case g.Variant().Mode != Double:
		return fmt.Errorf("%s has no announcing of moves into check", g.Variant().Name)
	case s != p.Turn():
		return fmt.Errorf("it is %s's turn, not %s's", p.Turn(), s)
	case !g.privileged(s):
		return fmt.Errorf("%s may not move into check: only a seat whose partner moves next has that privilege", s)
	case d.ann != 0 && d.accepted:
		return fmt.Errorf("%s's partner accepted %s: %s must play it", s, d.ann, s)
	case d.ann != 0:
		return fmt.Errorf("%s already announced %s: waiting for %s's reply", s, d.ann, p.NextSeat(s))
	case d.unwise:
		return fmt.Errorf("%s's partner answered Unwise: %s must make a move that does not expose the king to check", s, s)
	case containsMove(d.refused, m):
		return fmt.Errorf("%s was refused already: propose another move or make one that does not move into check", m)
	case !containsMove(p.PseudoLegal(nil), m):
		return p.Explain(m)
	case containsMove(g.doubleMoves(), m):
		return fmt.Errorf("%s does not move into check: just play it", p.MoveText(m))
	case leavesCheckStanding(p, m):
		return fmt.Errorf("%s leaves %s's king in the check it already stands in: the privilege is of moving into check (\"the check that would be so created\"), not of staying in one; answer the check, or announce a king move into check", p.MoveText(m), s)
	}
	d.ann, d.annBy, d.accepted = m, s, false
	g.AddTurnNote(fmt.Sprintf("%s announces %s", s, m))
	return nil
}

// reply is BlockingDouble.Reply on the game.
func (g game) reply(s rules.Seat, r Reply) error {
	if g.over() {
		return rules.ErrGameOver
	}
	d, p := g.dbl(), g.LivePosition()
	switch {
	case d.ann == 0:
		return fmt.Errorf("no move into check has been announced")
	case d.accepted:
		return fmt.Errorf("%s already accepted %s", s, d.ann)
	case s != p.NextSeat(d.annBy):
		return fmt.Errorf("%s announced %s: %s replies, not %s", d.annBy, d.ann, p.NextSeat(d.annBy), s)
	case r < ReplyUnwise || r > ReplyImpossible:
		return fmt.Errorf("reply %d: want unwise, accept, another or impossible", r)
	}
	if r == ReplyImpossible {
		if m, ok := g.reliefAfter(d.ann, d.annBy); ok {
			return fmt.Errorf("not impossible: after %s, %s can relieve the check (for one, %s); reply unwise, accept or another", d.ann, s, m)
		}
	}
	g.AddTurnNote(fmt.Sprintf("%s replies %s", s, r))
	switch r {
	case ReplyAccept:
		d.accepted = true
	case ReplyUnwise:
		d.ann, d.unwise = 0, true
	default:
		d.refused = growSlice(d.refused, d.ann)
		d.ann = 0
	}
	g.settleDouble(rules.NoSeat, nil)
	g.Resnap()
	return nil
}

// reliefAfter reports whether, after seat a plays m, the next seat (a's
// partner) has a legal move that takes a's king out of check, and one.
func (g game) reliefAfter(m rules.Move, a rules.Seat) (string, bool) {
	p := g.LivePosition()
	u := p.Make(m)
	defer p.Unmake(m, u)
	for _, r := range p.LegalMoves(nil) {
		if g.relieves(r, a) {
			return p.MoveText(r), true
		}
	}
	return "", false
}

// claimStalemate is BlockingDouble.ClaimStalemate on the game.
func (g game) claimStalemate(s rules.Seat) error {
	if g.over() {
		return rules.ErrGameOver
	}
	p := g.LivePosition()
	switch {
	case g.Variant().Mode != Double:
		return fmt.Errorf("%s: stalemate is decided by the rules, not claimed", g.Variant().Name)
	case s != p.Turn() || g.Status(s) != rules.Playing:
		return fmt.Errorf("%s is not to move", s)
	case g.dbl().ann != 0:
		return fmt.Errorf("%s announced %s: wait for the reply", s, g.dbl().ann)
	case len(g.doubleMoves()) > 0:
		return fmt.Errorf("%s has legal moves: no stalemate", s)
	case p.InCheck(s):
		return fmt.Errorf("%s is in check: that is checkmate, not stalemate", s)
	}
	g.AddNote(fmt.Sprintf("%s claims stalemate", s), nil)
	g.endGame(nil, s, g.doubleOpponent(s), 2, "stalemate", rules.Stalemated, rules.Finished)
	g.settleDouble(rules.NoSeat, nil)
	g.Resnap()
	return nil
}

// agreeGameDraw ends the individual game of a and b, opponents still
// playing, as a draw by agreement (AgreeDraw in this mode).
func (g game) agreeGameDraw(a, b rules.Seat) error {
	if g.over() {
		return rules.ErrGameOver
	}
	switch {
	case g.Variant().Mode != Double:
		return fmt.Errorf("%s has no draw by agreement of one game", g.Variant().Name)
	case a >= rules.NumSeats || b >= rules.NumSeats || g.doubleOpponent(a) != b:
		return fmt.Errorf("%s and %s do not play a game against each other", a, b)
	case g.Status(a) != rules.Playing || g.Status(b) != rules.Playing:
		return fmt.Errorf("the game %s–%s is over", a, b)
	case len(g.Records()) == 0:
		return fmt.Errorf("a draw can be agreed once the first move is made")
	}
	g.AddNote(fmt.Sprintf("%s and %s agree a draw", a, b), nil)
	g.endGame(nil, a, b, 2, "agreement", rules.Finished, rules.Finished)
	g.settleDouble(rules.NoSeat, nil)
	g.Resnap()
	return nil
}

// doubleApplyNote carries out an announcement, reply, claimed stalemate
// or agreed draw as Notes writes it.
func (g game) doubleApplyNote(text string) (bool, error) {
	f := strings.Fields(text)
	seat := rules.ParseSeat
	switch {
	case len(f) == 3 && f[1] == "announces":
		s, ok := seat(f[0])
		if !ok {
			return false, nil
		}
		m, err := g.findPseudo(f[2])
		if err != nil {
			return true, err
		}
		return true, g.announce(s, m)
	case len(f) >= 3 && f[1] == "replies":
		s, ok := seat(f[0])
		if !ok {
			return false, nil
		}
		r, err := ParseReply(strings.Join(f[2:], " "))
		if err != nil {
			return true, err
		}
		return true, g.reply(s, r)
	case len(f) == 3 && f[1] == "claims" && f[2] == "stalemate":
		s, ok := seat(f[0])
		if !ok {
			return false, nil
		}
		return true, g.claimStalemate(s)
	case len(f) == 6 && f[1] == "and" && f[3] == "agree" && f[4] == "a" && f[5] == "draw":
		a, ok1 := seat(f[0])
		b, ok2 := seat(f[2])
		if !ok1 || !ok2 {
			return false, nil
		}
		return true, g.agreeGameDraw(a, b)
	}
	return false, nil
}

// findPseudo finds the seat to move's pseudo-legal move written "n7-m7"
// or "h13-h14=Q".
func (g game) findPseudo(text string) (rules.Move, error) {
	promo := rules.NoKind
	if i := strings.IndexByte(text, '='); i >= 0 && i+1 < len(text) {
		k, ok := rules.KindFromLetter(text[i+1])
		if !ok {
			return 0, fmt.Errorf("move %q: %q is not a piece", text, text[i+1:])
		}
		promo, text = k, text[:i]
	}
	a, b, _ := strings.Cut(text, "-")
	from, err1 := square.Parse(a)
	to, err2 := square.Parse(b)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("move %q is not from-to squares", text)
	}
	for _, m := range g.LivePosition().PseudoLegal(nil) {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	return g.LivePosition().FindMove(from, to, promo)
}

// doubleLeave is a resignation or time-out: the seat loses its game.
func (g game) doubleLeave(rec *rules.Record, s rules.Seat, st rules.Status) {
	reason := "resignation"
	if st == rules.TimedOut {
		reason = "timeout"
	}
	g.endGame(rec, s, g.doubleOpponent(s), 3, reason, st, rules.Finished)
	g.settleDouble(rules.NoSeat, rec)
}

// endGame ends the individual game of a and b: res is a's result (1 win,
// 2 draw, 3 loss); the two seats take the statuses sa and sb (a seat whose
// king was captured keeps KingCaptured) and both armies leave the board.
func (g game) endGame(rec *rules.Record, a, b rules.Seat, res int, reason string, sa, sb rules.Status) {
	for _, x := range [2]rules.Seat{a, b} {
		st := sa
		if x == b {
			st = sb
		}
		if g.LivePosition().OutSeats()[x] {
			if g.Status(x) == rules.Playing {
				g.SetStatus(x, st)
			}
		} else {
			g.KnockOut(rec, x, st)
		}
		g.RemoveArmy(x)
	}
	gr := GameResult{Seats: [2]rules.Seat{a, b}, Winner: rules.NoSeat, Reason: reason}
	if a > b {
		gr.Seats = [2]rules.Seat{b, a}
	}
	switch res {
	case 1:
		gr.Winner = a
	case 3:
		gr.Winner = b
	}
	g.dbl().games = growSlice(g.dbl().games, gr)
	d := g.dbl()
	if d.ann != 0 && g.LivePosition().OutSeats()[d.annBy] {
		d.ann, d.accepted = 0, false
	}
	if d.relieve != 0 && g.LivePosition().OutSeats()[d.relieve-1] {
		d.relieve = 0
	}
}

// settleDouble applies the consequences of a turn (mover NoSeat and rec
// nil for a reply, claim or agreement): the protocol's bookkeeping, a
// captured king, mate and stalemate of the seat to move, the draws, and
// the end of the match. It reports whether a seat was checkmated.
func (g game) settleDouble(mover rules.Seat, rec *rules.Record) bool {
	p, d := g.LivePosition(), g.dbl()
	moved := rec != nil && rec.Action == rules.ActMove
	if moved {
		if d.relieve != 0 && mover != d.relieve-1 {
			d.relieve = 0 // the partner has had his move
		}
		if d.accepted && d.annBy == mover {
			d.relieve = mover + 1
		}
		d.ann, d.accepted, d.unwise, d.refused = 0, false, false, nil
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if o := g.doubleOpponent(s); g.Status(s) == rules.KingCaptured && o != rules.NoSeat && g.Status(o) == rules.Playing {
			g.endGame(rec, s, o, 3, "king captured", rules.KingCaptured, rules.Finished)
		}
	}
	if moved && g.Status(mover) == rules.Playing {
		if g.TimesSeen() >= 2 { // this occurrence will be the third
			g.endGame(rec, mover, g.doubleOpponent(mover), 2, "threefold repetition", rules.Finished, rules.Finished)
		}
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		o := g.doubleOpponent(s)
		if o == rules.NoSeat || s > o || g.Status(s) != rules.Playing || g.Status(o) != rules.Playing {
			continue
		}
		switch {
		case g.fiftyMoves(s, o, rec):
			g.endGame(rec, s, o, 2, "50-move rule", rules.Finished, rules.Finished)
		case g.insufficientPair(s, o):
			g.endGame(rec, s, o, 2, "insufficient material", rules.Finished, rules.Finished)
		}
	}
	mated := false
	for !g.over() {
		t := p.Turn()
		if g.Status(t) != rules.Playing || d.ann != 0 || len(g.doubleMoves()) > 0 {
			break
		}
		o := g.doubleOpponent(t)
		if p.InCheck(t) {
			if g.mayEscapeMate(t) {
				break // in check, no legal move, but a move into check its partner can relieve: announce it
			}
			g.endGame(rec, t, o, 3, "checkmate", rules.Mated, rules.Finished)
			mated = true
			continue
		}
		if g.mayAnnounce(t) {
			break // stalemated: may move into check, or ClaimStalemate
		}
		g.endGame(rec, t, o, 2, "stalemate", rules.Stalemated, rules.Finished)
	}
	if !g.over() {
		g.matchOver()
	}
	return mated
}

// mayAnnounce reports whether seat t, to move, still has a move it may
// announce into check.
func (g game) mayAnnounce(t rules.Seat) bool {
	return len(g.announceable(t)) > 0
}

// announceable lists the moves seat t, to move, may still announce into
// check this turn: moves the rules otherwise forbid, not refused already,
// that create the check rather than leave one standing.
func (g game) announceable(t rules.Seat) []rules.Move {
	d := g.dbl()
	if !g.privileged(t) || d.unwise {
		return nil
	}
	var out []rules.Move
	legal := g.doubleMoves()
	for _, m := range g.LivePosition().PseudoLegal(nil) {
		if !containsMove(legal, m) && !containsMove(d.refused, m) && !leavesCheckStanding(g.LivePosition(), m) {
			out = append(out, m)
		}
	}
	return out
}

// mayEscapeMate reports whether seat t, to move, in check and with no
// legal move, is not checkmated because of the privilege: it may announce
// a move into check that its partner could then relieve. "The Red and
// Yellow players only, because their move is followed by a move on the
// part of their partners, have the privilege of moving their Kings into
// check": a king that can step into a check the partner will lift is not
// without a move, and the text's words on stalemate ("Using the privilege
// of moving into check to escape from stalemate is permitted, but is
// optional") make the escape optional there, not impossible from check.
func (g game) mayEscapeMate(t rules.Seat) bool {
	for _, m := range g.announceable(t) {
		if _, ok := g.reliefAfter(m, t); ok {
			return true
		}
	}
	return false
}

// leavesCheckStanding reports whether m, a move of the seat to move that
// is not a king move, leaves a check on its king standing: a piece that
// checked the king before m still does after it.
func leavesCheckStanding(p *rules.Position, m rules.Move) bool {
	s := p.Turn()
	k := p.KingCell(s)
	if k == 0 || m.FromCell() == k || !p.InCheck(s) {
		return false
	}
	var before []int
	v, out := p.Variant(), p.OutSeats()
	for _, c := range v.PlayableCells() {
		if pc := p.OnCell(int(c)); pc.IsPiece() && v.AttacksKing(s, pc) && !out[pc.Seat()] && p.PieceAttacks(int(c), k) {
			before = append(before, int(c))
		}
	}
	was := make([]rules.Piece, len(before))
	for i, c := range before {
		was[i] = p.OnCell(c)
	}
	u := p.Make(m)
	defer p.Unmake(m, u)
	for i, c := range before {
		if p.OnCell(c) == was[i] && p.PieceAttacks(c, k) {
			return true
		}
	}
	return false
}

// fiftyMoves applies the essay's 50-move rule to the game of a and b:
// "for the 50 moves involved, there must not be a Pawn move or capture by
// all four players, not merely the two involved in the draw". The
// position's half-move clock counts the moves since any seat's last pawn
// move or capture; a and b must each have made 50 of them (quietMoves).
func (g game) fiftyMoves(a, b rules.Seat, rec *rules.Record) bool {
	if g.LivePosition().HalfMoveClock() < 100 {
		return false
	}
	count := g.QuietMoves(rec)
	return count[a] >= 50 && count[b] >= 50
}

// insufficientPair reports that neither a nor b can mate: both are down
// to the king and at most one knight or bishop between them (K v K, K+N v
// K, K+B v K), as in ordinary chess.
func (g game) insufficientPair(a, b rules.Seat) bool {
	p := g.LivePosition()
	minors := 0
	for _, s := range [2]rules.Seat{a, b} {
		for _, c := range p.PieceCells(s) {
			switch pc := p.OnCell(int(c)); {
			case pc.Dead() || pc.Kind() == rules.King:
			case pc.Kind() == rules.Knight || pc.Kind() == rules.Bishop:
				minors++
			default:
				return false
			}
		}
	}
	return minors <= 1
}

// matchOver ends the match once no seat plays: the team scores its two
// individual results, and "a team wins when it scores either two wins or
// a win and a draw. Two draws, or a win and a loss, make a draw for the
// team."
func (g game) matchOver() {
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if g.Status(s) == rules.Playing || g.Status(s) == rules.Walking {
			return
		}
	}
	var score [3]int // half-points per Side
	var parts []string
	for _, gr := range g.dbl().games {
		parts = append(parts, gr.String())
		for _, s := range gr.Seats {
			switch gr.Winner {
			case s:
				score[options(g.Variant()).Side[s]] += 2
			case rules.NoSeat:
				score[options(g.Variant()).Side[s]]++
			}
		}
	}
	var winners []rules.Seat
	for side := uint8(1); side <= 2; side++ {
		if score[side] > 2 {
			for s := rules.Seat(0); s < rules.NumSeats; s++ {
				if options(g.Variant()).Side[s] == side {
					winners = append(winners, s)
				}
			}
		}
	}
	sort.Slice(winners, func(i, j int) bool { return winners[i] < winners[j] })
	team := "the teams draw"
	if len(winners) >= 2 {
		team = winners[0].String() + " and " + winners[1].String() + " win"
	}
	// The last seat to have had the turn stays unmarked in the position,
	// so that the final position is still a FEN4 with a seat to move.
	g.LivePosition().SetOut(g.LivePosition().Turn(), false)
	g.End(strings.Join(parts, "; ")+"; "+team, winners)
}

// doubleTag is the PGN4 Result tag of a Double match: "1-0" when the
// team of boardd's Red seat wins, "0-1" when the other team wins,
// "1/2-1/2" for a drawn match.
func doubleTag(r rules.Result) string {
	switch {
	case r.Draw():
		return "1/2-1/2"
	case r.Winners[0] == rules.Red:
		return "1-0"
	}
	return "0-1"
}

// Announced returns the move announced into check and the announcing seat,
// and whether the partner has accepted it; ok is false when nothing is
// announced.
func (h *BlockingDouble) Announced() (m rules.Move, by rules.Seat, accepted, ok bool) {
	return game{h.g}.announced()
}

// AwaitingReply returns the seat that must reply to a pending
// announcement (the announcer's partner).
func (h *BlockingDouble) AwaitingReply() (rules.Seat, bool) { return game{h.g}.awaitingReply() }

// MustRelieve returns the seat whose king the seat to move must relieve
// from check (its partner, who moved into check with "I Accept").
func (h *BlockingDouble) MustRelieve() (rules.Seat, bool) { return game{h.g}.mustRelieve() }

// GameResults returns the individual games that have ended, in the order
// they ended (Double).
func (h *BlockingDouble) GameResults() []GameResult { return game{h.g}.gameResults() }

// Announce is seat s announcing that it intends to play m, which exposes
// its own king to check. s must be the seat to move and have the privilege
// (its partner moves next); m must be one of its moves that the rules
// would otherwise forbid because its king would stand in check. The
// partner answers with Reply.
func (h *BlockingDouble) Announce(s rules.Seat, m rules.Move) error { return game{h.g}.announce(s, m) }

// Reply is seat s, the partner of a seat that announced a move into check,
// answering it. "Impossible" is refused when s could in fact relieve the
// check.
func (h *BlockingDouble) Reply(s rules.Seat, r Reply) error { return game{h.g}.reply(s, r) }

// ClaimStalemate is seat s, to move and stalemated, declining the
// privilege of moving into check ("Using the privilege of moving into
// check to escape from stalemate is permitted, but is optional and not
// compulsory"): its game is drawn.
func (h *BlockingDouble) ClaimStalemate(s rules.Seat) error { return game{h.g}.claimStalemate(s) }
