package rules

import (
	"fmt"
	"hash"
	"reflect"

	"boardd/rules/square"
)

// Variant hooks: what a variant's data cannot say, as one small interface
// with an embeddable no-op base (the shape of mochi-mqtt's Hook, HookBase
// and Provides).
//
// A variant file (configs/variants/NAME.yaml) is data: board, seats, who
// captures and checks whom, options. Rules that data cannot express live
// in a hook, in a variant package of its own (rules/verney for
// verney.yaml, rules/blocking for blocking-double.yaml), linked in by
// rules/shipped. Each registers a maker (RegisterHook) that looks
// at a compiled variant's data and returns the hook when the variant
// calls for it. Variant.Compile asks
// every maker, keeps the hooks that answer, lets each adjust the variant's
// tables (Hook.Compile), and records what they provide: the core asks a
// hook only for what it Provides, and the hot path's needs (whether the
// last ply may be counted without generating it, whether pawns need more
// than the plain rules) are computed from those answers.
//
// A hook implements only the methods it Provides; HookBase answers the
// others with "not provided" and the plain rules' result.

// What a hook may provide (Hook.Provides).
const (
	// OnPieceMoves: Hook.PieceMoves generates a piece's pseudo-legal
	// moves in place of the plain rules, when it says so.
	OnPieceMoves byte = iota
	// OnPawnCapture: Hook.PawnCapture may refuse a pawn's capture.
	OnPawnCapture
	// OnPromote: Hook.Promote decides what a pawn reaching its promotion
	// square becomes.
	OnPromote
	// OnExplain: Hook.Explain names the variant's own rule that refuses a
	// move.
	OnExplain
	// OnReduced: Hook.Reduced decides whether a seat plays by normal mate
	// rules (mode last_standing).
	OnReduced
	// OnMated: Hook.Mated is told of a seat checkmated out of the game.
	OnMated
	// OnSettle: Hook.Settle applies the variant's end-of-turn rules in
	// place of its mode's (checkmates, stalemates, the end of the game).
	OnSettle
	// OnLegalMoves: Hook.LegalMoves drops moves the variant forbids
	// beyond the mover's own king's safety.
	OnLegalMoves
	// OnRefuse: Hook.Refuse names the variant's rule that refuses a
	// pseudo-legal move.
	OnRefuse
	// OnDraws: Hook.Draws says whether a draw by insufficient material
	// can arise.
	OnDraws
	// OnMustMove: Hook.MustMove says whether a seat with no legal move
	// must still make one that leaves its king in check.
	OnMustMove
	// OnRead: Hook.Read completes a position just read from FEN4 with what
	// the variant infers from it.
	OnRead
	// OnLeave: Hook.Leave applies a resignation or a time-out.
	OnLeave
	// OnDrawEnd: Hook.DrawEnd ends the game drawn by a rule or by
	// agreement (who shares the draw).
	OnDrawEnd
	// OnDrawAgreement: Hook.DrawVoters and Hook.AgreeDraw decide what a
	// draw by agreement concerns and does.
	OnDrawAgreement
	// OnGameMoves: Hook.GameMoves and Hook.CheckMove decide the moves of
	// the game as a whole (a protocol above the position's legal moves).
	OnGameMoves
	// OnNote: Hook.ApplyNote carries out a note between turns.
	OnNote
	// OnState: Hook.NewState gives the hook's own state in a new game.
	OnState
	// OnEnPassant: the variant keeps en-passant rights of its own in the
	// position (Hook.EnPassantOpen, EnPassantTo, EnPassantVictim, Made,
	// Unmade, HashInto).
	OnEnPassant
	// OnMakeMove: Hook.MakeMove and Hook.UnmakeMove play and take back the
	// moves of the hook's own kind that its PieceMoves generates (a flag
	// the core only passes on).
	OnMakeMove

	numProvides
)

// movementHooks are the capabilities that change which moves exist:
// where any is provided, the last ply of perft is counted by generating
// the moves (Position.CountLegal), not by the plain shortcut.
const movementHooks = 1<<OnPieceMoves | 1<<OnPawnCapture | 1<<OnPromote | 1<<OnLegalMoves

// exclusive are the capabilities only one hook of a variant may provide:
// the core asks only the first.
const exclusive = 1<<OnPieceMoves | 1<<OnPawnCapture | 1<<OnPromote | 1<<OnReduced | 1<<OnMated |
	1<<OnSettle | 1<<OnDraws | 1<<OnMustMove | 1<<OnLeave | 1<<OnDrawEnd |
	1<<OnDrawAgreement | 1<<OnGameMoves | 1<<OnNote | 1<<OnEnPassant | 1<<OnMakeMove

// pawnHooks are the capabilities the pawn generator must ask about.
const pawnHooks = 1<<OnPieceMoves | 1<<OnPawnCapture | 1<<OnPromote

// Hook is a variant's rules that its data cannot express. Embed HookBase
// and implement only what Provides names.
type Hook interface {
	// ID names the hook (its variant file's name, "russian-fortress").
	ID() string
	// Provides reports whether the hook implements the method that the
	// On… constant b stands for.
	Provides(b byte) bool
	// Compile prepares the hook for its variant and may adjust the
	// variant's lookup tables (called by Variant.Compile once the plain
	// tables are built).
	Compile(v *Variant) error

	// PieceMoves appends the pseudo-legal moves of the live piece pc on
	// cell c of the side to move and reports true, or reports false to
	// let the plain rules append the piece's moves after those it
	// appended (OnPieceMoves). anyEP says whether an en-passant capture
	// may be open.
	PieceMoves(p *Position, moves []Move, c int, pc Piece, anyEP bool) ([]Move, bool)
	// PawnCapture reports whether the pawn on cell c may capture the
	// piece on cell t that the capture table allows (OnPawnCapture).
	PawnCapture(p *Position, c, t int) bool
	// Promote appends the moves of a pawn of seat s from c onto its
	// promotion cell t (OnPromote).
	Promote(p *Position, moves []Move, c, t int, s Seat) []Move
	// Explain says which of the variant's rules refuses moving pc from
	// one square to another with promotion promo, or "" (OnExplain).
	Explain(p *Position, pc Piece, from, to square.Square, promo Kind) string
	// CaptureBar says which of the variant's rules keeps seat s from
	// capturing the live piece victim on to, which the capture table
	// forbids, or "" (OnExplain).
	CaptureBar(p *Position, s Seat, victim Piece, to square.Square) string
	// LegalMoves drops from moves, the side to move's moves that keep its
	// king safe, those the variant forbids, compacting in place and
	// returning what is kept (OnLegalMoves).
	LegalMoves(p *Position, moves []Move) []Move
	// Refuse names the variant's rule that refuses the pseudo-legal move
	// m, or returns "" (OnRefuse).
	Refuse(p *Position, m Move) string

	// Reduced reports whether seat s plays by chess's normal mate and
	// stalemate rules (mode last_standing; OnReduced).
	Reduced(g *Game, s Seat) bool
	// Mated is told that seat s was checkmated out of the game (OnMated).
	Mated(g *Game, s Seat)
	// Settle applies the variant's rules after a turn by mover and
	// reports whether a seat was checkmated (OnSettle).
	Settle(g *Game, mover Seat, rec *Record) bool
	// Draws reports whether the game can end by insufficient material
	// (OnDraws).
	Draws(g *Game) bool
	// MustMove reports whether seat s, having no legal move, must still
	// make one that leaves its king in check (OnMustMove).
	MustMove(g *Game, s Seat) bool
	// Read completes a position just read from FEN4 (OnRead).
	Read(p *Position)
	// Leave applies seat s's resignation or time-out (status st) to the
	// game and to the turn's record rec (OnLeave); the core records the
	// turn.
	Leave(g *Game, rec *Record, s Seat, st Status)
	// DrawEnd ends the game drawn for the reason given (OnDrawEnd).
	DrawEnd(g *Game, reason string)
	// DrawVoters lists the seats whose agreement a draw offered by s
	// needs (OnDrawAgreement).
	DrawVoters(g *Game, s Seat) []Seat
	// AgreeDraw carries out a draw the seats agreed (OnDrawAgreement).
	AgreeDraw(g *Game, agreed []Seat) error
	// GameMoves returns the moves of the seat to move (OnGameMoves).
	GameMoves(g *Game) []Move
	// CheckMove returns why m may not be played now, or nil
	// (OnGameMoves).
	CheckMove(g *Game, m Move) error
	// ApplyNote carries out a note as Game.Notes writes it, reporting
	// false for text that is no note of the variant's (OnNote).
	ApplyNote(g *Game, text string) (bool, error)
	// NewState returns the hook's state at the start of a game (OnState):
	// kept with every turn, restored by Takeback and LookAhead.
	NewState() HookState

	// EnPassantOpen reports whether seat s holds an en-passant right of
	// the variant's own (OnEnPassant).
	EnPassantOpen(p *Position, s Seat) bool
	// EnPassantTo reports whether such a right lets seat s take en
	// passant onto the empty cell t (OnEnPassant).
	EnPassantTo(p *Position, t int, s Seat) bool
	// EnPassantVictim returns the cell of the pawn that seat s's en-passant
	// capture onto t takes (OnEnPassant).
	EnPassantVictim(p *Position, t int, s Seat) int
	// Made updates the variant's position state after seat s's move m
	// (piece pc, captured piece's cell capCell) is made (OnEnPassant).
	Made(p *Position, m Move, s Seat, pc Piece, capCell int)
	// Unmade restores what Made changed (OnEnPassant).
	Unmade(p *Position)
	// HashInto adds the variant's position state to a repetition hash
	// (OnEnPassant).
	HashInto(p *Position, h hash.Hash64)

	// MakeMove plays m, a move of the hook's own kind, for Make, which
	// has filled u with what it saves for every move, and returns what
	// UnmakeMove needs (OnMakeMove).
	MakeMove(p *Position, m Move, u Undo) Undo
	// UnmakeMove takes back MakeMove (OnMakeMove).
	UnmakeMove(p *Position, m Move, u Undo)
}

// HookState is a hook's own state in one game (OnState): the game keeps a
// copy with every turn, so that taking turns back and looking ahead
// restore it with the position.
type HookState interface {
	// Copy returns a copy that later changes to either do not touch.
	Copy() HookState
	// TakenBack returns the state to restore when the turn after it is
	// taken back (Game.Takeback; LookAhead restores the copy as it was).
	TakenBack() HookState
}

// PositionExt is position state a hook keeps in the position's one
// extension slot (Position.Ext, SetExt; Chess4's deferred en-passant
// rights): Make and Unmake change it through the hook (OnEnPassant: Made,
// Unmade), Clone copies it.
type PositionExt interface {
	// CopyExt returns an independent copy without the Unmake history.
	CopyExt() PositionExt
}

// HookBase is the no-op Hook to embed: it provides nothing, and each of
// its methods gives the plain rules' answer.
type HookBase struct{}

// ID returns "base".
func (HookBase) ID() string { return "base" }

// Provides reports false: the base provides nothing.
func (HookBase) Provides(byte) bool { return false }

// Compile does nothing.
func (HookBase) Compile(*Variant) error { return nil }

// PieceMoves leaves the piece to the plain rules.
func (HookBase) PieceMoves(_ *Position, moves []Move, _ int, _ Piece, _ bool) ([]Move, bool) {
	return moves, false
}

// PawnCapture allows the capture.
func (HookBase) PawnCapture(*Position, int, int) bool { return true }

// Promote appends the variant's promotions.
func (HookBase) Promote(p *Position, moves []Move, c, t int, _ Seat) []Move {
	return p.plainPromotions(moves, c, t)
}

// Explain names no rule.
func (HookBase) Explain(*Position, Piece, square.Square, square.Square, Kind) string { return "" }

// CaptureBar names no rule.
func (HookBase) CaptureBar(*Position, Seat, Piece, square.Square) string { return "" }

// LegalMoves keeps every move.
func (HookBase) LegalMoves(_ *Position, moves []Move) []Move { return moves }

// Refuse names no rule.
func (HookBase) Refuse(*Position, Move) string { return "" }

// Reduced leaves the decision to the mode's rule.
func (HookBase) Reduced(g *Game, s Seat) bool { return g.partnersReduced(s) }

// Mated does nothing.
func (HookBase) Mated(*Game, Seat) {}

// Settle does nothing and reports no mate.
func (HookBase) Settle(*Game, Seat, *Record) bool { return false }

// Draws allows the draw.
func (HookBase) Draws(*Game) bool { return true }

// MustMove reports false: a seat with no legal move is mated or
// stalemated.
func (HookBase) MustMove(*Game, Seat) bool { return false }

// Read does nothing.
func (HookBase) Read(*Position) {}

// Leave does nothing.
func (HookBase) Leave(*Game, *Record, Seat, Status) {}

// DrawEnd ends the game with no winner.
func (HookBase) DrawEnd(g *Game, reason string) { g.end(reason, nil) }

// DrawVoters lists the seats still playing.
func (HookBase) DrawVoters(g *Game, _ Seat) []Seat { return g.playingSeats() }

// AgreeDraw ends the game drawn by agreement.
func (HookBase) AgreeDraw(g *Game, _ []Seat) error {
	g.v.hook(OnDrawEnd).DrawEnd(g, ReasonAgreement)
	return nil
}

// GameMoves returns the position's legal moves.
func (HookBase) GameMoves(g *Game) []Move { return g.pos.LegalMoves(nil) }

// CheckMove accepts a legal move.
func (HookBase) CheckMove(g *Game, m Move) error { return g.pos.Explain(m) }

// ApplyNote knows no note.
func (HookBase) ApplyNote(*Game, string) (bool, error) { return false, nil }

// NewState returns nil: no state.
func (HookBase) NewState() HookState { return nil }

// EnPassantOpen reports false.
func (HookBase) EnPassantOpen(*Position, Seat) bool { return false }

// EnPassantTo reports false.
func (HookBase) EnPassantTo(*Position, int, Seat) bool { return false }

// EnPassantVictim returns the pawn of the plain entry naming t.
func (HookBase) EnPassantVictim(p *Position, t int, s Seat) int {
	for e := Seat(0); e < NumSeats; e++ {
		if int(p.ep[e].target) == t && e != s {
			return int(p.ep[e].pawn)
		}
	}
	return t
}

// Made does nothing.
func (HookBase) Made(*Position, Move, Seat, Piece, int) {}

// Unmade does nothing.
func (HookBase) Unmade(*Position) {}

// HashInto adds nothing.
func (HookBase) HashInto(*Position, hash.Hash64) {}

// MakeMove is never asked: no move has the hook flag without a hook that
// provides OnMakeMove. It returns u.
func (HookBase) MakeMove(_ *Position, _ Move, u Undo) Undo { return u }

// UnmakeMove does nothing.
func (HookBase) UnmakeMove(*Position, Move, Undo) {}

// hookMakers are the registered hook makers, one per variant file that
// needs one (registerHook, called from each hook file's init).
var hookMakers []func(v *Variant) Hook

// registerHook adds a maker: given a variant whose data tables are built,
// it returns the variant's hook, or nil when the variant does not call for
// it.
func registerHook(make func(v *Variant) Hook) { hookMakers = append(hookMakers, make) }

// compileHooks builds v's hooks and what they provide.
func (v *Variant) compileHooks() error {
	v.hooks = nil // a fresh slice: a copied variant (Chess4's control) must not overwrite its original's
	v.provides = 0
	for _, mk := range hookMakers {
		if h := mk(v); h != nil {
			v.hooks = append(v.hooks, h)
		}
	}
	for _, h := range v.hooks {
		for b := byte(0); b < numProvides; b++ {
			if !h.Provides(b) {
				continue
			}
			if v.provides&(1<<b) != 0 && exclusive&(1<<b) != 0 {
				return fmt.Errorf("variant %s: two hooks (%s and another) both decide the same rule (hook method %d); a variant has one hook per rule", v.Name, h.ID(), b)
			}
			v.provides |= 1 << b
		}
		if err := h.Compile(v); err != nil {
			return err
		}
	}
	if len(v.hooks) == 0 {
		v.hooks = nil // a variant without hooks compares equal however it was built
	}
	return nil
}

// Provides reports whether one of the variant's hooks provides b.
func (v *Variant) Provides(b byte) bool { return v.provides&(1<<b) != 0 }

// Hooks returns the variant's hooks, in registration order.
func (v *Variant) Hooks() []Hook { return append([]Hook(nil), v.hooks...) }

// hook returns the first hook providing b, or the no-op base.
func (v *Variant) hook(b byte) Hook {
	if v.provides&(1<<b) != 0 {
		for _, h := range v.hooks {
			if h.Provides(b) {
				return h
			}
		}
	}
	return HookBase{}
}

// HookOf returns v's hook of type T, the typed way to reach a variant's
// own operations (for example the Russian fortress's truce pairs,
// rules.HookOf[*fortress.RussianFortress](v)).
func HookOf[T Hook](v *Variant) (T, bool) {
	for _, h := range v.hooks {
		if t, ok := h.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// GameHook is a hook with operations of its own on one game (blocking
// double's announcements, Chess4's army control): BindGame returns the
// hook bound to the game (a copy that remembers g; exported so that a
// hook in a variant package of its own can be one).
type GameHook[T any] interface {
	Hook
	BindGame(g *Game) T
}

// HookIn returns g's hook of type T bound to g, the typed way to reach a
// variant's own operations on a game:
//
//	if d, ok := rules.HookIn[*blocking.BlockingDouble](g); ok {
//		err = d.Announce(s, m)
//	}
//
// ok is false when g's variant has no such hook. The core Game offers only
// what every variant shares.
func HookIn[T GameHook[T]](g *Game) (T, bool) {
	h, ok := HookOf[T](g.v)
	if !ok {
		return h, false
	}
	return h.BindGame(g), true
}

// OptionSource is a variant file as a hook reads its own options from it
// (ReadHookOptions). Package rules/variants implements it over the YAML
// file; its errors name the file, the line and the key. Keys are dotted
// paths ("pawn_leap", "options.partner_pawn_swap"); a key a hook reads is
// a known key of the file.
type OptionSource interface {
	// Bool reads the true or false at key; false where the key is absent.
	Bool(key string) (bool, error)
	// Seats reads the list of seat names at key; nil where absent.
	Seats(key string) ([]Seat, error)
	// SeatSquares reads, for each seat, the squares listed at
	// seats.SEAT.key; empty sets where absent.
	SeatSquares(key string) ([NumSeats]square.Set, error)
	// Partnerships numbers each seat's partnership (partners:, from 1), 0
	// for a seat in none.
	Partnerships() [NumSeats]uint8
	// Errorf makes an error at key.
	Errorf(key, format string, a ...any) error
}

// optionReaders are the registered hooks' option readers
// (registerOptions, called from each hook file's init).
var optionReaders []func(src OptionSource, v *Variant) (any, error)

// registerOptions adds a hook's option reader: it reads the hook's own
// keys from src for the variant v being built (its core data filled in,
// not yet compiled) and returns the hook's options value, or nil when the
// file sets none of them.
func registerOptions(read func(src OptionSource, v *Variant) (any, error)) {
	optionReaders = append(optionReaders, read)
}

// ReadHookOptions lets every hook read its own options from src into v
// (SetHookOptions). The loader calls it before Compile; the keys the hooks
// read are the file's hook keys.
func ReadHookOptions(v *Variant, src OptionSource) error {
	for _, read := range optionReaders {
		o, err := read(src, v)
		if err != nil {
			return err
		}
		if o != nil {
			v.SetHookOptions(o)
		}
	}
	return nil
}

// SetHookOptions sets one hook's options on v (a value such as
// verney.Options or essay.Options), replacing those of the same type; a zero
// value removes them. Call Compile after.
func (v *Variant) SetHookOptions(o any) {
	t := reflect.TypeOf(o)
	var out []any // a fresh slice: a copied variant shares the old one
	for _, x := range v.hookOpts {
		if reflect.TypeOf(x) != t {
			out = append(out, x)
		}
	}
	if !reflect.ValueOf(o).IsZero() {
		out = append(out, o)
	}
	v.hookOpts = out
}

// HookOptions returns v's options of type T (verney.Options, essay.Options,
// …), or T's zero value when the variant sets none.
func HookOptions[T any](v *Variant) T {
	for _, x := range v.hookOpts {
		if o, ok := x.(T); ok {
			return o
		}
	}
	var zero T
	return zero
}

// boolKey is a boolean option's key and the field it fills.
type boolKey struct {
	key string
	f   *bool
}

// boolOptions reads the boolean keys into their fields.
func boolOptions(src OptionSource, keys ...boolKey) error {
	for _, k := range keys {
		b, err := src.Bool(k.key)
		if err != nil {
			return err
		}
		*k.f = b
	}
	return nil
}
