package rules

import (
	"fmt"

	"boardd/rules/square"
)

// The surface a variant package uses: what a hook in its own package
// (rules/stevenson, …) reads and changes in the core, beyond the Hook
// interface and the core API. See the package doc, "Variant packages".
// Everything here is a thin exported name for what the core's own files
// use; none of it is on the plain hot path (a hook's methods run only
// behind a bit of Variant.provides).

// RegisterHook adds a hook maker, called from a variant package's init:
// given a variant whose data tables are built, make returns the variant's
// hook, or nil when the variant does not call for it. Variant.Compile
// asks every maker.
func RegisterHook(make func(v *Variant) Hook) { registerHook(make) }

// RegisterOptions adds a hook's option reader, called from a variant
// package's init: read reads the hook's own keys from src for the variant
// v being built (its core data filled in, not yet compiled) and returns
// the hook's options value (a struct of the package's), or nil when the
// file sets none of them. A key no reader reads is an unknown key of the
// variant file, so a file whose package is not linked in fails to load
// with an error naming the key.
func RegisterOptions(read func(src OptionSource, v *Variant) (any, error)) {
	registerOptions(read)
}

// resultTags are the registered writers of a mode's PGN4 Result tag
// (RegisterResultTag).
var resultTags = map[Mode]func(r Result, names [NumSeats]string) string{}

// RegisterResultTag makes tag the writer of Result.Tag for the games of
// mode m, called from a variant package's init where its mode's result
// is not Teams' "1-0" or FFA's scores (Chess4's point shares).
func RegisterResultTag(m Mode, tag func(r Result, names [NumSeats]string) string) {
	resultTags[m] = tag
}

// BoolKey is a boolean option's key in a variant file and the field it
// fills (ReadBools).
type BoolKey struct {
	// Key is the option's dotted key ("king_moves_as_queen").
	Key string
	// Field is where its value goes.
	Field *bool
}

// ReadBools reads each boolean key into its field.
func ReadBools(src OptionSource, keys ...BoolKey) error {
	for _, k := range keys {
		if err := boolOptions(src, boolKey{k.Key, k.Field}); err != nil {
			return err
		}
	}
	return nil
}

// Cells: the hooks' methods name squares by cell, the index of the padded
// mailbox (Position and Variant hand them out); these convert and step.

// CellOf returns the cell of square sq.
func CellOf(sq square.Square) int { return cell(sq) }

// SquareOf returns the square of cell c.
func SquareOf(c int) square.Square { return squareOf(c) }

// Step returns the cell offset of one step in direction d.
func (d Dir) Step() int { return dirDelta[d] }

// Opposite returns the direction opposite d.
func (d Dir) Opposite() Dir { return Dir(opposite[d]) }

// NewMove returns the plain move from cell from to cell to, promoting to
// promo (NoKind for none), as a hook's PieceMoves or Promote appends it.
func NewMove(from, to int, promo Kind) Move { return newMove(from, to, promo, flagNormal) }

// KindName returns the kind's name as the rules texts write it ("pawn").
func KindName(k Kind) string { return kindNames[k] }

// OnCell returns the piece on cell c (NoPiece for an empty cell, Wall off
// the board).
func (p *Position) OnCell(c int) Piece { return p.board[c] }

// PieceCells returns the cells of seat s's pieces, live and grey, in no
// order. The slice is the position's own: read it, do not keep it across
// a Make or Unmake.
func (p *Position) PieceCells(s Seat) []int16 { return p.plist[s][:p.pcount[s]] }

// NextSeat returns the seat after s in turn order that is still playing,
// or s itself when nobody else is.
func (p *Position) NextSeat(s Seat) Seat { return p.nextSeat(s) }

// SetTurn gives the move to seat s (a hook's Settle passing a turn).
func (p *Position) SetTurn(s Seat) { p.turn = s }

// QueenMoves appends the moves of a piece of seat s on cell c that moves
// as a queen, whatever its kind (Stevenson's king).
func (p *Position) QueenMoves(moves []Move, c int, s Seat) []Move {
	return p.slide(moves, c, dirN, dirNW+1, &p.v.capTab[s], p.v.Geometry.hasWalls)
}

// PlayableCells returns the variant's playable cells, a1 first. The slice
// is the variant's own: read it only.
func (v *Variant) PlayableCells() []int16 { return v.cells }

// IsPromotionCell reports whether cell c is one of seat s's promotion
// squares.
func (v *Variant) IsPromotionCell(s Seat, c int) bool { return v.promoCell[s][c] }

// Game operations for a hook's Settle, Leave and the like. They change
// the game as the core's own end-of-turn rules do; a front end plays
// through Play, Resign and the other Game methods instead.

// LivePosition returns the game's own position, not a copy (Position),
// for a hook to read and change between turns.
func (g *Game) LivePosition() *Position { return g.pos }

// KnockOut eliminates seat s with status st (its army turns grey, it has
// no more turns) and records it in the turn's record rec (nil: none).
func (g *Game) KnockOut(rec *Record, s Seat, st Status) { g.knockOut(rec, s, st) }

// SideOf lists seat s and its partners.
func (g *Game) SideOf(s Seat) []Seat { return g.sideOf(s) }

// OpponentOf returns a seat of the other side than s.
func (g *Game) OpponentOf(s Seat) Seat { return g.opponentOf(s) }

// HasMoves reports whether seat s would have a legal move if it were its
// turn.
func (g *Game) HasMoves(s Seat) bool { return g.hasMoves(s) }

// End ends the game for the reason given, won by winners (nil: drawn).
func (g *Game) End(reason string, winners []Seat) { g.end(reason, winners) }

// CheckDraws ends the game on threefold repetition, the 50-move rule or
// insufficient material (as the hooks allow) after turn rec (nil: none).
func (g *Game) CheckDraws(rec *Record) { g.checkDraws(rec) }

// CellStride is the cell offset of one rank: cell c+CellStride is the
// square north of c, c+1 the square east of it.
const CellStride = stride

// PawnCaptureSteps returns the cell offsets of the two diagonal captures
// of a pawn moving in direction d.
func (d Dir) PawnCaptureSteps() [2]int {
	return [2]int{dirDelta[pawnDiag[d][0]], dirDelta[pawnDiag[d][1]]}
}

// FromCell returns the cell the move starts on.
func (m Move) FromCell() int { return m.from() }

// ToCell returns the cell the move ends on.
func (m Move) ToCell() int { return m.to() }

// HasWalls reports whether the variant's board has barriers between
// squares.
func (v *Variant) HasWalls() bool { return v.Geometry.hasWalls }

// Partner returns seat s's one partner, or NoSeat.
func (v *Variant) Partner(s Seat) Seat { return v.partner[s] }

// Captures reports whether a piece of seat s may capture the piece pc.
func (v *Variant) Captures(s Seat, pc Piece) bool { return v.capTab[s][pc] }

// AttacksKing reports whether the piece pc gives check to seat s's king.
func (v *Variant) AttacksKing(s Seat, pc Piece) bool { return v.atkTab[s][pc] }

// PawnDir returns the direction the pawn pc moves in: its seat's forward
// direction, or the opposite one when it is reversed.
func (v *Variant) PawnDir(pc Piece) Dir { return Dir(v.pawnDir(pc)) }

// AddPawnAttack records, from a hook's Compile, one more way seat s's
// king can be attacked by a pawn: the pawn pc standing at the king's cell
// plus step (Verney's reversed pawns). The attack tests read it.
func (v *Variant) AddPawnAttack(s Seat, step int, pc Piece) error {
	if v.pawnAtkN[s] == len(v.pawnAtk[s]) {
		return fmt.Errorf("variant %s: more than %d ways for a pawn to attack %s's king", v.Name, len(v.pawnAtk[s]), s)
	}
	v.pawnAtk[s][v.pawnAtkN[s]] = pawnAttack{d: step, pc: pc}
	v.pawnAtkN[s]++
	return nil
}

// AddPawnMove appends seat s's pawn move from cell c to cell t, with the
// variant's promotions (or its hook's) where t is a promotion square.
func (p *Position) AddPawnMove(moves []Move, c, t int, s Seat) []Move {
	return p.addPawnMove(moves, c, t, s)
}

// KingCell returns the cell of seat s's king, 0 when it has none.
func (p *Position) KingCell(s Seat) int { return int(p.king[s]) }

// OutSeats returns which seats take no more turns (Eliminated, each).
func (p *Position) OutSeats() [NumSeats]bool { return p.out }

// SetOutSeats sets which seats take no more turns (a hook restoring what
// it changed with SetOut).
func (p *Position) SetOutSeats(out [NumSeats]bool) { p.out = out }

// SetOut sets whether seat s takes no more turns, its army left on the
// board as it stands (Verney's inert mates; Game.KnockOut greys it).
func (p *Position) SetOut(s Seat, out bool) { p.out[s] = out }

// ClearEnPassant drops the plain en-passant right seat s's last double
// step gave.
func (p *Position) ClearEnPassant(s Seat) { p.ep[s] = epEntry{} }

// SetStatus sets seat s's status in the game (a hook's Settle mating or
// releasing a seat without taking its army off; Game.KnockOut eliminates).
func (g *Game) SetStatus(s Seat, st Status) { g.status[s] = st }

// AddLeaper makes the slider kind k (bishop, rook or queen) also jump
// like a knight, from a hook's Compile (the Russian fortress's queen):
// the move generator, the attack tests and the refusals treat the jump as
// a knight's, barriers included.
func (v *Variant) AddLeaper(k Kind) error {
	if k != Bishop && k != Rook && k != Queen {
		return fmt.Errorf("variant %s: only a bishop, rook or queen can be given a knight's jump, not a %s", v.Name, kindNames[k])
	}
	v.leaps[k] = true
	return nil
}

// Walled reports whether a barrier stands across the one step from cell
// c to cell c+step (step one of the king's or the knight's offsets);
// false on a board without barriers.
func (v *Variant) Walled(c, step int) bool {
	for i := 0; i < 16; i++ {
		if dirDelta[i] == step {
			return v.Geometry.blocked[c]&(1<<i) != 0
		}
	}
	return false
}

// RemoveArmy takes every piece of seat s off the board (a hook's Mated:
// "the pieces of a checkmated side are removed from the board").
func (g *Game) RemoveArmy(s Seat) { g.removeArmy(s) }

// EnableInheritance switches on, from a hook's Compile, the core's armies
// played by another seat (armies.go): a seat whose king is captured
// leaves its army to a partner still playing, who moves it on its own
// turns; FEN4 restores it (a seat written eliminated with live pieces and
// no king).
func (v *Variant) EnableInheritance() { v.inheritance = true }

// Reduced reports whether seat s plays by chess's normal mate and
// stalemate rules (the hook providing OnReduced decides, else its
// partners are all out or, alone, two seats remain).
func (g *Game) Reduced(s Seat) bool { return g.reduced(s) }

// Checkmate knocks seat s out as checkmated (KnockOut with Mated) and
// tells the hook that provides OnMated, as a hook's Settle does when a
// mate counts.
func (g *Game) Checkmate(rec *Record, s Seat) {
	g.knockOut(rec, s, Mated)
	g.v.hook(OnMated).Mated(g, s)
}

// Consistent returns the first disagreement between the board and the
// piece lists (PieceCells), or nil: for the tests of a hook that makes
// its own moves (MakeSwap) or changes a position.
func (p *Position) Consistent() error {
	var seen [numCells]bool
	for s := Seat(0); s < NumSeats; s++ {
		for i, c := range p.plist[s][:p.pcount[s]] {
			pc := p.board[c]
			if !pc.IsPiece() || pc.Seat() != s || int(p.pidx[c]) != i || seen[c] {
				return fmt.Errorf("piece list of %s wrong at %s (%v): %s", s, squareOf(int(c)), pc, p.FEN4())
			}
			seen[c] = true
		}
	}
	for _, c := range p.v.cells {
		if p.board[c].IsPiece() && !seen[c] {
			return fmt.Errorf("%v on %s missing from the lists: %s", p.board[c], squareOf(int(c)), p.FEN4())
		}
	}
	return nil
}

// LineStep returns the cell offset of one step along the queen line from
// cell from towards cell to, and false when the two are the same cell or
// share no rank, file or diagonal (Verney's opened lines).
func LineStep(from, to int) (int, bool) {
	df, dr := to%stride-from%stride, to/stride-from/stride
	if (df == 0 && dr == 0) || (df != 0 && dr != 0 && abs(df) != abs(dr)) {
		return 0, false
	}
	return sign(dr)*stride + sign(df), true
}

// Ext returns the hook's state in the position's extension slot
// (PositionExt), nil when the slot is empty.
func (p *Position) Ext() PositionExt { return p.ext }

// SetExt fills the position's extension slot (from a hook's Made, the
// first time it needs state of its own there).
func (p *Position) SetExt(x PositionExt) { p.ext = x }

// EnPassantCells returns seat s's plain en-passant entry as cells: the
// square its pawn skipped and the square the pawn stands on, 0 twice for
// none (EnPassant gives them as squares).
func (p *Position) EnPassantCells(s Seat) (skipped, pawn int) {
	return int(p.ep[s].target), int(p.ep[s].pawn)
}

// PawnPushes appends the forward moves only of seat s's pawn on cell c:
// one step, and two from its double-step squares (Chess4's passed pawn,
// which "may not capture … but it may move").
func (p *Position) PawnPushes(moves []Move, c int, s Seat) []Move {
	v := p.v
	fwdDir := int(v.Seats[s].Forward)
	fwd := dirDelta[fwdDir]
	walls := v.Geometry.hasWalls
	blocked := &v.Geometry.blocked
	t := c + fwd
	if p.board[t] != NoPiece || (walls && blocked[c]&(1<<fwdDir) != 0) {
		return moves
	}
	moves = p.addPawnMove(moves, c, t, s)
	if v.DoubleStep && v.dblCell[s][c] && p.board[t+fwd] == NoPiece && !(walls && blocked[t]&(1<<fwdDir) != 0) {
		moves = append(moves, newMove(c, t+fwd, NoKind, flagDouble))
	}
	return moves
}

// Lift takes the piece on cell c off the board, as a hand lifting it: for
// a hook's what-if on a copy (Clone) of a position, such as Chess4's mate
// lifted in the middle of a move. It cannot be made undone.
func (p *Position) Lift(c int) {
	pc := p.board[c]
	if !pc.IsPiece() {
		return
	}
	p.removePiece(pc.Seat(), c)
	p.board[c] = NoPiece
	if pc.Kind() == King && int(p.king[pc.Seat()]) == c {
		p.king[pc.Seat()] = 0
	}
}

// Revive brings seat s's grey army back to life and gives it turns again,
// undoing Game.Eliminate's greying (Chess4's kept army).
func (p *Position) Revive(s Seat) {
	for _, c := range p.plist[s][:p.pcount[s]] {
		p.board[c] &^= deadFlag
	}
	p.out[s] = false
}

// SetCastling sets seat s's castling rights (Chess4's acquired army,
// whose king and rooks earn them back).
func (p *Position) SetCastling(s Seat, kingside, queenside bool) {
	p.castle[s] = 0
	if kingside {
		p.castle[s] |= castleShort
	}
	if queenside {
		p.castle[s] |= castleLong
	}
}

// CornerCells returns the cells of seat s's two rook corners
// (SeatRules.RookHomes), 0 where it has none.
func (v *Variant) CornerCells(s Seat) [2]int { return v.corners[s] }

// ForbidCapture forbids, from a hook's Compile, seat s's pieces to
// capture the piece pc (Chess4's active king).
func (v *Variant) ForbidCapture(s Seat, pc Piece) { v.capTab[s][pc] = false }

// Copy returns a copy of v to change (its exported tables: CanCapture,
// Checks, …) and Compile, as Chess4's army control does for one game
// (Game.PlayBy); v itself is left as it is.
func (v *Variant) Copy() *Variant {
	nv := *v
	nv.cells = nil
	return &nv
}

// PlayBy gives the game's live position the rules of v, a compiled Copy
// of the game's variant (Chess4's army control: who captures and checks
// whom changes in play); nil restores the game's own variant.
func (g *Game) PlayBy(v *Variant) {
	if v == nil {
		v = g.v
	}
	g.pos.v = v
}

// HookStateIn returns g's hook state of type S (Hook.NewState), the way a
// hook reaches its own state in a game.
func HookStateIn[S HookState](g *Game) (S, bool) { return hookState[S](g) }

// PositionBefore returns the position before turn i was played (0: the
// start; during a hook's Settle, PositionBefore(len(g.Records())) is the
// one before the turn being settled). It is the game's own record: read
// it, do not change it.
func (g *Game) PositionBefore(i int) *Position { return g.snaps[i].pos }

// SetTurnAfter records the live position's turn as the last turn's
// TurnAfter, after a hook changed whose turn it is between turns
// (Chess4's KeepArmy).
func (g *Game) SetTurnAfter() { g.records[len(g.records)-1].TurnAfter = g.pos.turn }

// AddNote records a note after the turns played so far (Notes), first
// dropping the last note when it was made at the same moment and replaces
// (nil: never) reports true for its text: a later choice of the same turn
// replacing an earlier one.
func (g *Game) AddNote(text string, replaces func(old string) bool) {
	if n := len(g.notes); n > 0 && replaces != nil && g.notes[n-1].After == len(g.records) && replaces(g.notes[n-1].Text) {
		g.notes = g.notes[: n-1 : n-1]
	}
	g.note(text)
}

// Eliminate takes seat s out with status st: its army turns grey, it
// has no more turns (KnockOut also records it in the turn's record).
func (g *Game) Eliminate(s Seat, st Status) { g.eliminate(s, st) }

// EndShared ends the game drawn, shared by the seats listed (Chess4's
// draws among the players still in).
func (g *Game) EndShared(reason string, sharing []Seat) {
	g.result = &Result{Reason: reason, Points: g.pos.points, Sharing: sharing}
}

// ParseSeat finds a seat by its name ("Red"), as notes write it.
func ParseSeat(name string) (Seat, bool) { return seatByName(name) }

// AddTurnNote records a note that belongs to the turn it precedes (blocking
// double's announcement of a move into check and the partner's reply):
// taking that turn back takes the note back too.
func (g *Game) AddTurnNote(text string) {
	g.addNote(Note{After: len(g.records), Text: text, withTurn: true})
}

// Resnap brings the game's record of the current state up to date after a
// hook changed the game between turns (a reply, a claim): Takeback and
// LookAhead restore from it. AddNote and AddTurnNote do it themselves.
func (g *Game) Resnap() { g.resnap() }

// TimesSeen returns how often the live position occurred before in the
// game (the repetition count; during a hook's Settle, without the turn
// being settled).
func (g *Game) TimesSeen() int { return g.reps[g.pos.Hash()] }

// QuietMoves shares the live position's half-move clock out among the
// seats: how many of the plies since the last pawn move or capture each
// seat made, rec's turn (being settled; nil: none) included (the essay's
// 50-move rule for one of blocking double's games).
func (g *Game) QuietMoves(rec *Record) [NumSeats]int { return g.quietMoves(rec) }

// PieceAttacks reports whether the piece on cell c attacks cell t by its
// kind's movement (barriers and blocking pieces included; whose piece
// stands on t is not asked).
func (p *Position) PieceAttacks(c, t int) bool { return p.pieceAttacks(c, t) }
