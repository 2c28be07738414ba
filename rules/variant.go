package rules

import (
	"fmt"
	"slices"
	"strings"

	"boardd/rules/square"
)

// Variants as data: the Variant type (seats, pawn rules, turn order, who
// captures and checks whom, options, the start), chess.com's Teams and FFA
// built in Go, and Compile, which checks the data, builds the move
// generator's lookup tables, asks the registered hook makers for the
// variant's hooks (hooks.go) and computes what the hot path needs from
// what they provide.

// Mode is the family of rules a variant's game layer follows: Teams and
// FFA are the core's; every other mode is registered by the variant
// package whose hook carries it out (RegisterMode), and the variant file
// names it by its key (mode: chess4).
type Mode uint8

// The core's modes.
const (
	// Teams: two partnerships; the first team to checkmate an opponent wins.
	Teams Mode = iota
	// FFA: everyone for themselves, scored in points.
	FFA
)

// modeNames are the modes known: the core's, then those registered, each
// with its key in a variant file and its name as PGN4's Variant tag
// writes it.
var modeNames = []struct{ key, name string }{{"teams", "Teams"}, {"ffa", "FFA"}}

// RegisterMode adds a mode, called from a variant package's package
// variables: key is the variant file's word for it ("chess4"), name the
// mode's name ("Chess4"). It returns the new mode; the package's hook
// carries it out (its maker answers for variants of the mode). A key
// registered twice panics: two packages may not claim one mode.
func RegisterMode(key, name string) Mode {
	for _, m := range modeNames {
		if m.key == key {
			panic(fmt.Sprintf("rules: mode %q registered twice", key))
		}
	}
	modeNames = append(modeNames, struct{ key, name string }{key, name})
	return Mode(len(modeNames) - 1)
}

// ModeByKey returns the mode a variant file names by key, if the core or
// a linked-in variant package knows it.
func ModeByKey(key string) (Mode, bool) {
	for i, m := range modeNames {
		if m.key == key {
			return Mode(i), true
		}
	}
	return 0, false
}

// ModeKeys lists the keys of the modes known: the core's (teams, ffa),
// then the registered ones in alphabetical order.
func ModeKeys() []string {
	var reg []string
	for _, m := range modeNames[FFA+1:] {
		reg = append(reg, m.key)
	}
	slices.Sort(reg)
	return append([]string{modeNames[Teams].key, modeNames[FFA].key}, reg...)
}

// String names the mode as PGN4's Variant tag does.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m].name
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// SeatRules is what differs between seats: which way their pawns go and
// where they double-step and promote.
type SeatRules struct {
	// Forward is the pawns' direction: north for Red, east for Blue,
	// south for Yellow, west for Green.
	Forward Dir
	// DoubleStep holds the squares a pawn may double-step from.
	DoubleStep square.Set
	// Promotion holds the squares on which a pawn promotes.
	Promotion square.Set
	// RookHomes are the two corners of the seat's back line. Castling
	// takes the rook that stands on one of them: kingside is the one three
	// squares from the king, queenside the one four squares away.
	RookHomes [2]square.Square

	// Verney: Reverse holds the squares where a pawn turns round and moves
	// back towards its own side (the partner's back line); Resume the
	// squares where a reversed pawn moves forward again (its own pawn
	// line, and the back line beyond it a leap can reach). Used with
	// verney.Options.PawnReversal.
	Reverse, Resume square.Set
}

// Dir is one of the four orthogonal directions.
type Dir uint8

// Orthogonal directions, as seen from Red's side of the board.
const (
	North Dir = dirN
	East  Dir = dirE
	South Dir = dirS
	West  Dir = dirW
)

// Variant is a rule system as data: the board, the seats, who may capture
// and check whom, and the options. The game layer (Game) adds what data
// cannot say through Mode.
type Variant struct {
	// Name is the variant's short name ("teams", "ffa").
	Name string
	// Mode selects the game layer's scoring and ending rules.
	Mode Mode
	// Geometry is the board.
	Geometry *Geometry
	// Seats holds per-seat pawn rules, indexed by Seat.
	Seats [NumSeats]SeatRules
	// Order is the turn order.
	Order []Seat
	// CanCapture[a][b] says whether a's pieces may capture b's live pieces.
	// Dead pieces may be captured by anyone.
	CanCapture [NumSeats][NumSeats]bool
	// Checks[a][b] says whether a's pieces attack b's king (give check).
	Checks [NumSeats][NumSeats]bool
	// Promotions are the kinds a pawn may promote to, default first.
	Promotions []Kind
	// PromotedWorthOne marks promoted pieces so that capturing them
	// scores one point (chess.com FFA's "1-point queen", written =D).
	PromotedWorthOne bool
	// Castling, DoubleStep and EnPassant switch those moves on.
	Castling, DoubleStep, EnPassant bool
	// KingCaptureGreys makes a captured king's army inert at once, so its
	// pieces no longer attack when the capture's legality is judged (FFA).
	KingCaptureGreys bool
	// OrdinaryKings makes kings ordinary pieces: no check, no mate, a king
	// may be captured like any other piece (Stevenson).
	OrdinaryKings bool
	// KingCaptureRemovesArmy takes every piece of a seat whose king is
	// captured off the board (the essay), instead of greying it.
	KingCaptureRemovesArmy bool

	// Start is the start position in FEN4.
	Start string
	// Options holds the documented choices where the rules texts and
	// chess.com practice differ or are silent.
	Options Options

	capTab      [NumSeats][256]bool                // capTab[s][p]: a piece of s may capture p
	destTab     [NumSeats][256]uint8               // destTab[s][p]: 1 if a piece of s may move onto a cell holding p (empty or capturable)
	pawnCap     [NumSeats][256]uint8               // pawnCap[s][p]: 1 if a piece of s may capture p (a piece, not empty)
	moveMul     [NumSeats][numCells]uint8          // moveMul[s][c]: a pawn of s's moves onto c, the promotion kinds on a promotion cell, else 1
	dblStep     [NumSeats][numCells]uint8          // dblStep[s][c]: 1 if a pawn of s on c may step twice
	atkTab      [NumSeats][256]bool                // atkTab[s][p]: p gives check to s's king
	cells       []int16                            // the playable cells, a1 first
	orderIdx    [NumSeats]int                      // each seat's index in Order
	next        [NumSeats]Seat                     // the seat after each in Order, while every seat plays
	cornerSeat  [numCells]Seat                     // seat+1 whose rook corner the cell is, or 0
	corners     [NumSeats][2]int                   // the rook corners' cells
	along       [NumSeats]int                      // the cell step along each seat's back line
	pawnAtk     [NumSeats][4 * NumSeats]pawnAttack // where enemy pawns attack a king from
	pawnAtkN    [NumSeats]int
	pawnHooks   bool    // a hook changes pawns' moves: one test in the hot loop
	plainCount  bool    // CountLegal may count without generating (nothing changes movement)
	plainGen    bool    // PseudoLegal may use the plain generator (nothing changes movement)
	leaps       [8]bool // leaps[kind]: the kind jumps like a knight (the knight; hooks add others)
	oddLeaps    bool    // a kind other than the knight leaps: attacks take the general test
	hooks       []Hook  // the variant's hooks (hooks.go)
	provides    uint32  // bit b: a hook provides b
	inheritance bool    // an army may pass to a partner (armies.go; the essay's alternate rule)
	hookOpts    []any   // the hooks' own options (SetHookOptions, HookOptions)
	promoCell   [NumSeats][numCells]bool
	dblCell     [NumSeats][numCells]bool
	// Pawns that turn round (SeatRules.Reverse and Resume; Verney)
	pawnTurns bool // some seat has Reverse squares: Make turns pawns
	partner   [NumSeats]Seat
	revCell   [NumSeats][numCells]bool
	resCell   [NumSeats][numCells]bool
}

// Options are the documented rule choices of a variant (see README).
type Options struct {
	// DeadKingWalking: in FFA, a seat that resigns or flags keeps its king
	// live and moving while the rest of its army turns grey (chess.com's
	// DeadKingWalking rule variant). Off: the whole army turns grey and
	// the seat is out at once.
	DeadKingWalking bool
	// ClaimWin: in FFA, when two players remain and one leads by more than
	// 20 points, that player may end the game as the winner
	// (Game.ClaimWin, chess.com's claim win). Off: play continues to mate.
	ClaimWin bool
	// MateAtOnce: in Teams, a checkmate ends the game as soon as it is on
	// the board rather than at the mated player's turn. chess.com waits
	// for the turn (default false), which lets the partner intervene.
	MateAtOnce bool
	// StalemateScoresSelf: in FFA, while three or four play, a stalemated
	// player gains 20 points and is out, and play goes on (chess.com
	// practice: "Stalemating yourself is 20"); with two left the game ends
	// with +10 each. Off (the rules text's other reading): every stalemate
	// ends the game, "the remaining players receive +10 points each".
	StalemateScoresSelf bool
	// CheapQueenChecks: in FFA, checking two kings at once with queens
	// only scores +1 and three +5, while any other checking piece scores
	// +5 and +20 (chess.com practice; the final scores of real games
	// follow it). Off: the rules text's +5 and +20 whatever gives check.
	CheapQueenChecks bool
	// DrawByAgreement: the players still in the game may agree a draw
	// (Game.AgreeDraw). Off where the rules text lists no such draw
	// (chess.com's "The game is a draw in case of stalemate, insufficient
	// material, three-fold repetition or the 50-move rule").
	DrawByAgreement bool
}

// Start arrays in FEN4. Modern is chess.com's default since 2022 ("4PC"):
// Blue K a7 / Q a8, Green K n8 / Q n7. Classic ("4PCo") swaps them: Blue K
// a8 / Q a7, Green K n7 / Q n8.
const (
	StartModern  = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x"
	StartClassic = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bK,bP,10,gP,gQ/bQ,bP,10,gP,gK/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x"
)

// SplitStart reads a start as a game's set-up names it: a start array's
// name ("modern", "text") or a FEN4 (which has '-' and '/'; no array's
// name does). Exactly one of array and fen is set, or neither for "".
func SplitStart(start string) (array, fen string) {
	if strings.ContainsAny(start, "-/") {
		return "", start
	}
	return start, ""
}

// pawnAttack is one way a king can be attacked by a pawn: the pawn pc
// stands at the king's cell plus d.
type pawnAttack struct {
	d  int
	pc Piece
}

// StartFEN4 returns the FEN4 of a named start array: "modern" (or
// chess.com's "4PC") and "classic" ("4PCo").
func StartFEN4(name string) (string, error) {
	switch name {
	case "modern", "4PC", "":
		return StartModern, nil
	case "classic", "4PCo":
		return StartClassic, nil
	}
	return "", fmt.Errorf("unknown start array %q: want modern (4PC) or classic (4PCo)", name)
}

// line returns the set of squares on file f (if f >= 0) or rank r.
func line(g *Geometry, f, r int) square.Set {
	var s square.Set
	for i := 0; i < 16; i++ {
		q := square.At(f, i)
		if f < 0 {
			q = square.At(i, r)
		}
		if g.Has(q) {
			s.Add(q)
		}
	}
	return s
}

func sq(name string) square.Square {
	s, err := square.Parse(name)
	if err != nil {
		panic(err)
	}
	return s
}

// chesscomSeats returns the seat rules of chess.com's board with pawns
// promoting on the given rank counted from each player's side (11 in
// Teams, 8 in FFA).
func chesscomSeats(g *Geometry, promoRank int) [NumSeats]SeatRules {
	p := promoRank - 1
	return [NumSeats]SeatRules{
		Red:    {Forward: North, DoubleStep: line(g, -1, 1), Promotion: line(g, -1, p), RookHomes: [2]square.Square{sq("d1"), sq("k1")}},
		Blue:   {Forward: East, DoubleStep: line(g, 1, -1), Promotion: line(g, p, -1), RookHomes: [2]square.Square{sq("a4"), sq("a11")}},
		Yellow: {Forward: South, DoubleStep: line(g, -1, 12), Promotion: line(g, -1, 13-p), RookHomes: [2]square.Square{sq("d14"), sq("k14")}},
		Green:  {Forward: West, DoubleStep: line(g, 12, -1), Promotion: line(g, 13-p, -1), RookHomes: [2]square.Square{sq("n4"), sq("n11")}},
	}
}

// NewTeams returns chess.com's Teams variant: Red and Yellow against Blue
// and Green, no capturing or checking a partner, promotion on each
// player's 11th rank to queen, rook, bishop or knight.
func NewTeams(start string) (*Variant, error) {
	fen, err := StartFEN4(start)
	if err != nil {
		return nil, err
	}
	g := Cross14()
	v := &Variant{
		Name: "teams", Mode: Teams, Geometry: g,
		Seats:      chesscomSeats(g, 11),
		Order:      []Seat{Red, Blue, Yellow, Green},
		Promotions: []Kind{Queen, Rook, Bishop, Knight},
		Castling:   true, DoubleStep: true, EnPassant: true,
		Start: fen,
	}
	for a := Seat(0); a < NumSeats; a++ {
		for b := Seat(0); b < NumSeats; b++ {
			opp := a%2 != b%2
			v.CanCapture[a][b], v.Checks[a][b] = opp, opp
		}
	}
	return v, v.Compile()
}

// NewFFA returns chess.com's Free-for-All: everyone against everyone,
// promotion on the 8th rank to a one-point queen, points, and captured
// kings grey their army at once.
func NewFFA(start string) (*Variant, error) {
	fen, err := StartFEN4(start)
	if err != nil {
		return nil, err
	}
	g := Cross14()
	v := &Variant{
		Name: "ffa", Mode: FFA, Geometry: g,
		Seats:            chesscomSeats(g, 8),
		Order:            []Seat{Red, Blue, Yellow, Green},
		Promotions:       []Kind{Queen},
		PromotedWorthOne: true,
		Castling:         true, DoubleStep: true, EnPassant: true,
		KingCaptureGreys: true,
		Start:            fen,
		Options:          Options{DeadKingWalking: true, ClaimWin: true, CheapQueenChecks: true, StalemateScoresSelf: true},
	}
	for a := Seat(0); a < NumSeats; a++ {
		for b := Seat(0); b < NumSeats; b++ {
			v.CanCapture[a][b], v.Checks[a][b] = a != b, a != b
		}
	}
	return v, v.Compile()
}

// NewVariant returns a built-in variant by name ("teams" or "ffa") with
// the named start array ("modern" or "classic").
func NewVariant(name, start string) (*Variant, error) {
	switch name {
	case "teams", "Teams", "":
		return NewTeams(start)
	case "ffa", "FFA":
		return NewFFA(start)
	}
	return nil, fmt.Errorf("unknown variant %q: want teams or ffa", name)
}

// Compile checks the variant's data and builds the lookup tables the move
// generator uses. Call it after changing any field.
func (v *Variant) Compile() error {
	if v.Geometry == nil {
		return fmt.Errorf("variant %s: no geometry", v.Name)
	}
	if len(v.Order) == 0 {
		return fmt.Errorf("variant %s: empty turn order", v.Name)
	}
	for s := Seat(0); s < NumSeats; s++ {
		if v.Seats[s].Forward > West {
			return fmt.Errorf("variant %s: %s pawn direction must be north, east, south or west", v.Name, s)
		}
	}
	g := v.Geometry
	v.cells = v.cells[:0]
	for _, q := range g.Playable.Squares() {
		v.cells = append(v.cells, int16(cell(q)))
	}
	for i := range v.orderIdx {
		v.orderIdx[i] = -1
	}
	for i, s := range v.Order {
		if s >= NumSeats || v.orderIdx[s] >= 0 {
			return fmt.Errorf("variant %s: turn order %v names a seat twice or an unknown seat", v.Name, v.Order)
		}
		v.orderIdx[s] = i
	}
	for s := Seat(0); s < NumSeats; s++ {
		v.next[s] = v.Order[(v.orderIdx[s]+1)%len(v.Order)] // a seat not in Order (index -1): the first
	}
	v.cornerSeat = [numCells]Seat{}
	for s := Seat(0); s < NumSeats; s++ {
		sr := &v.Seats[s]
		v.along[s] = 1
		if sr.Forward == East || sr.Forward == West {
			v.along[s] = stride
		}
		for i, h := range sr.RookHomes {
			v.corners[s][i] = 0
			if h == square.None {
				continue
			}
			if !g.Has(h) {
				return fmt.Errorf("variant %s: %s rook corner %s is not on the board", v.Name, s, h)
			}
			v.corners[s][i] = cell(h)
			v.cornerSeat[cell(h)] = s + 1
		}
		v.promoCell[s] = [numCells]bool{}
		v.dblCell[s] = [numCells]bool{}
		for _, q := range sr.Promotion.Squares() {
			v.promoCell[s][cell(q)] = true
		}
		for _, q := range sr.DoubleStep.Squares() {
			v.dblCell[s][cell(q)] = true
		}
	}
	if v.OrdinaryKings {
		v.Checks = [NumSeats][NumSeats]bool{} // no king is royal: nobody gives check
	}
	for s := Seat(0); s < NumSeats; s++ {
		v.pawnAtkN[s] = 0
		for e := Seat(0); e < NumSeats; e++ {
			if !v.Checks[e][s] {
				continue
			}
			for _, di := range pawnDiag[v.Seats[e].Forward] {
				v.pawnAtk[s][v.pawnAtkN[s]] = pawnAttack{d: -dirDelta[di], pc: MakePiece(e, Pawn)}
				v.pawnAtkN[s]++
			}
		}
	}
	for s := Seat(0); s < NumSeats; s++ {
		for p := 0; p < 256; p++ {
			pc := Piece(p)
			if !pc.IsPiece() || pc.Kind() == NoKind || pc.Kind() > King {
				continue
			}
			if pc.Dead() {
				v.capTab[s][p] = true // grey pieces can be captured by anyone
				continue
			}
			v.capTab[s][p] = v.CanCapture[s][pc.Seat()]
			v.atkTab[s][p] = v.Checks[pc.Seat()][s] && !v.OrdinaryKings
		}
	}
	v.pawnTurns = false
	for s := Seat(0); s < NumSeats; s++ {
		v.partner[s] = NoSeat
		for t := Seat(0); t < NumSeats; t++ {
			if v.Partners(s, t) && v.partner[s] == NoSeat {
				v.partner[s] = t
			}
		}
		v.revCell[s] = [numCells]bool{}
		v.resCell[s] = [numCells]bool{}
		for _, q := range v.Seats[s].Reverse.Squares() {
			v.revCell[s][cell(q)] = true
			v.pawnTurns = true
		}
		for _, q := range v.Seats[s].Resume.Squares() {
			v.resCell[s][cell(q)] = true
		}
	}
	v.leaps = [8]bool{Knight: true}
	v.inheritance = false
	if err := v.compileHooks(); err != nil {
		return err
	}
	v.compileDest() // after the hooks, which may change capTab
	v.oddLeaps = false
	for k := Pawn; k <= King; k++ {
		v.oddLeaps = v.oddLeaps || (v.leaps[k] && k != Knight)
	}
	v.pawnHooks = v.provides&pawnHooks != 0
	// The plain count holds where nothing changes how pieces move and
	// kings are royal.
	v.plainCount = !(g.hasWalls || v.oddLeaps || v.provides&movementHooks != 0 || v.OrdinaryKings)
	// The plain generator holds where no barrier and no hook changes how
	// pieces move (the king's safety is LegalMoves' business).
	v.plainGen = !(g.hasWalls || v.oddLeaps || v.provides&(1<<OnPieceMoves|1<<OnPawnCapture|1<<OnPromote) != 0)
	return nil
}

// Partners reports whether a and b are different seats of one side: they
// may not capture each other.
func (v *Variant) Partners(a, b Seat) bool { return a != b && !v.CanCapture[a][b] }

// pawnDir returns the direction pawn pc moves in: its seat's forward
// direction, or the opposite one when it is reversed.
func (v *Variant) pawnDir(pc Piece) int {
	d := int(v.Seats[pc.Seat()].Forward)
	if pc.Reversed() {
		d = opposite[d]
	}
	return d
}

// turnPawn returns the pawn pc of seat s as it stands after landing on
// cell to: reversed on its Reverse squares, forward again on its Resume
// squares.
func (v *Variant) turnPawn(pc Piece, s Seat, to int) Piece {
	if pc.Reversed() {
		if v.resCell[s][to] {
			return pc &^ reversedFlag
		}
	} else if v.revCell[s][to] {
		return pc | reversedFlag
	}
	return pc
}

// compileDest builds destTab and pawnCap from capTab (the cells a piece
// may land on, and a pawn capture onto) and moveMul and dblStep from the
// promotion and double-step cells. Call it after any change to capTab.
func (v *Variant) compileDest() {
	for s := Seat(0); s < NumSeats; s++ {
		for p := 0; p < 256; p++ {
			v.destTab[s][p] = 0
			if Piece(p) == NoPiece || v.capTab[s][p] {
				v.destTab[s][p] = 1
			}
			v.pawnCap[s][p] = 0
			if Piece(p) != NoPiece && v.capTab[s][p] {
				v.pawnCap[s][p] = 1
			}
		}
		for c := 0; c < numCells; c++ {
			v.moveMul[s][c], v.dblStep[s][c] = 1, 0
			if v.promoCell[s][c] {
				v.moveMul[s][c] = uint8(len(v.Promotions))
			}
			if v.DoubleStep && v.dblCell[s][c] {
				v.dblStep[s][c] = 1
			}
		}
	}
}
