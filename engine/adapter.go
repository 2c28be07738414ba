package engine

// This file is the engine's only contact with package rules: every call
// into the rules engine goes through the small wrappers below, so a change
// in rules' API touches this file and nothing else. It uses the core API
// only — positions, legal moves, make/unmake, checks, points, the game's
// legal moves and status — plus the variant's seat data (pawn directions,
// promotion squares, who may capture whom).

import (
	"boardd/rules"
	"boardd/rules/blocking"
	"boardd/rules/chess4"
	"boardd/rules/essay"
	"boardd/rules/square"
	"boardd/rules/stevenson"
	"boardd/rules/verney"
)

// Seat, Move and Kind are the rules engine's types, re-exported so callers
// of the engine need not import rules for them.
type (
	// Seat is one of the four players.
	Seat = rules.Seat
	// Move is a move of the rules engine.
	Move = rules.Move
)

const numSeats = rules.NumSeats

// pieceInfo is what the evaluation needs to know about a square's content.
type pieceInfo struct {
	seat  Seat
	kind  uint8 // 1 pawn … 6 king, 0 none
	dead  bool
	promo bool
}

// kinds, matching rules' order (Pawn=1 … King=6).
const (
	kPawn   = uint8(rules.Pawn)
	kKnight = uint8(rules.Knight)
	kBishop = uint8(rules.Bishop)
	kRook   = uint8(rules.Rook)
	kQueen  = uint8(rules.Queen)
	kKing   = uint8(rules.King)
)

// modeKind is the family of goals the search and evaluation distinguish.
type modeKind uint8

const (
	modeTeams      modeKind = iota // two partnerships, first mate wins (chess.com Teams)
	modeFFA                        // singles, points (chess.com FFA)
	modeCaptureAll                 // partnerships, capture every piece (Stevenson)
	modeLast                       // last standing (the essay)
	modeChess4                     // singles, last player left (Chess4)
	modeDouble                     // two games on one board (blocking double)
	modeVerney                     // partnerships, mate both (Verney)
)

// board wraps a rules.Position with what the search needs.
type board struct {
	p       *rules.Position
	v       *rules.Variant
	squares []square.Square // playable squares
	sqIndex [256]int16      // square → index into squares, -1 if none
	mode    modeKind
	// partner[s] is s's partner or rules.NoSeat (singles).
	partner [numSeats]Seat
	// canCapture[a][b] as the variant says.
	canCapture [numSeats][numSeats]bool
	// ordinaryKings: kings are ordinary pieces (no check, no mate).
	ordinaryKings  bool
	promotedOne    bool
	scoresPoints   bool
	armyControl    bool
	stalemateDraws bool              // a stalemate ends the whole game (Chess4, ffa-text)
	claimWin       bool              // two left, a lead of more than 20 points wins (chess.com FFA)
	pawnGoal       [numSeats][]int16 // per square index: steps to promotion (-1 unknown)
	centre         []int16           // per square index: centralisation bonus
	files, ranks   int
	moveBuf        [][]Move

	// cells mirrors the position's pieces by square index, and pieceHash
	// their Zobrist key; make and unmake keep both up to date from the
	// squares a move touches, and rebuild them after moves that may
	// change more (king captures that grey or remove an army, en passant,
	// the essay's pawn swaps).
	cells     []rules.Piece
	pieceHash uint64
	touched   [maxPly + 1][4]int16
	full      [maxPly + 1]bool
}

// newBoard wraps p (which the board then owns) and precomputes the tables
// the evaluation uses.
func newBoard(p *rules.Position) *board {
	v := p.Variant()
	b := &board{p: p, v: v}
	for i := range b.sqIndex {
		b.sqIndex[i] = -1
	}
	b.squares = v.Geometry.Playable.Squares()
	for i, s := range b.squares {
		if s >= 0 && int(s) < len(b.sqIndex) {
			b.sqIndex[s] = int16(i)
		}
	}
	b.files, b.ranks = v.Geometry.Files, v.Geometry.Ranks
	b.canCapture = v.CanCapture
	b.ordinaryKings = v.OrdinaryKings
	b.promotedOne = v.PromotedWorthOne
	for s := Seat(0); s < numSeats; s++ {
		b.partner[s] = rules.NoSeat
	}
	// Partnerships: Side where the variant numbers them (blocking double,
	// whose partners may capture nobody's men but their opponents'), else
	// seats that may not capture each other.
	side := rules.HookOptions[blocking.Options](v).Side
	sided := false
	for s := Seat(0); s < numSeats; s++ {
		if side[s] != 0 {
			sided = true
		}
	}
	for a := Seat(0); a < numSeats; a++ {
		for c := Seat(0); c < numSeats; c++ {
			if a == c {
				continue
			}
			if sided {
				if side[a] != 0 && side[a] == side[c] {
					b.partner[a] = c
				}
			} else if v.Partners(a, c) {
				b.partner[a] = c
			}
		}
	}
	switch v.Mode {
	case rules.FFA:
		b.mode = modeFFA
		b.scoresPoints = true
		b.stalemateDraws = !v.Options.StalemateScoresSelf
		b.claimWin = v.Options.ClaimWin
	case stevenson.CaptureAll:
		b.mode = modeCaptureAll
	case essay.LastStanding:
		b.mode = modeLast
	case chess4.Chess4:
		b.mode = modeChess4
		b.armyControl = rules.HookOptions[chess4.Options](v).ArmyControl
		b.stalemateDraws = true
	case blocking.Double:
		b.mode = modeDouble
	default:
		b.mode = modeTeams
		if rules.HookOptions[verney.Options](v).InertMates {
			b.mode = modeVerney
		}
	}
	b.buildTables()
	b.cells = make([]rules.Piece, len(b.squares))
	b.rebuild()
	b.moveBuf = make([][]Move, maxPly+1)
	for i := range b.moveBuf {
		b.moveBuf[i] = make([]Move, 0, 256)
	}
	return b
}

// buildTables fills the pawn-advancement and centralisation tables from
// the geometry and each seat's pawn direction and promotion squares.
func (b *board) buildTables() {
	n := len(b.squares)
	cf, cr := float64(b.files-1)/2, float64(b.ranks-1)/2
	b.centre = make([]int16, n)
	for i, s := range b.squares {
		df, dr := float64(s.File())-cf, float64(s.Rank())-cr
		if df < 0 {
			df = -df
		}
		if dr < 0 {
			dr = -dr
		}
		d := df + dr
		b.centre[i] = int16(14 - d)
	}
	for seat := Seat(0); seat < numSeats; seat++ {
		sr := b.v.Seats[seat]
		promo := sr.Promotion.Squares()
		goal := make([]int16, n)
		for i, s := range b.squares {
			best := int16(-1)
			for _, ps := range promo {
				var d int
				switch sr.Forward {
				case rules.North:
					if ps.File() != s.File() {
						continue
					}
					d = ps.Rank() - s.Rank()
				case rules.South:
					if ps.File() != s.File() {
						continue
					}
					d = s.Rank() - ps.Rank()
				case rules.East:
					if ps.Rank() != s.Rank() {
						continue
					}
					d = ps.File() - s.File()
				case rules.West:
					if ps.Rank() != s.Rank() {
						continue
					}
					d = s.File() - ps.File()
				}
				if d >= 0 && (best < 0 || int16(d) < best) {
					best = int16(d)
				}
			}
			goal[i] = best
		}
		b.pawnGoal[seat] = goal
	}
}

// piece returns what stands on the square with index i.
func (b *board) piece(i int) pieceInfo {
	pc := b.cells[i]
	if !pc.IsPiece() {
		return pieceInfo{}
	}
	return pieceInfo{seat: pc.Seat(), kind: uint8(pc.Kind()), dead: pc.Dead(), promo: pc.Promoted()}
}

// rebuild reads the whole board into the mirror.
func (b *board) rebuild() {
	b.pieceHash = 0
	for i, s := range b.squares {
		pc := b.p.At(s)
		b.cells[i] = pc
		if pc.IsPiece() {
			b.pieceHash ^= mix(uint64(i)<<8 | uint64(pc))
		}
	}
}

// refresh re-reads the squares with indexes in t into the mirror.
func (b *board) refresh(t *[4]int16) {
	for _, i := range t {
		if i < 0 {
			continue
		}
		old, pc := b.cells[i], b.p.At(b.squares[i])
		if old == pc {
			continue
		}
		if old.IsPiece() {
			b.pieceHash ^= mix(uint64(i)<<8 | uint64(old))
		}
		if pc.IsPiece() {
			b.pieceHash ^= mix(uint64(i)<<8 | uint64(pc))
		}
		b.cells[i] = pc
	}
}

// pieceOn returns what stands on square s.
func (b *board) pieceOn(s square.Square) pieceInfo {
	pc := b.p.At(s)
	if !pc.IsPiece() {
		return pieceInfo{}
	}
	return pieceInfo{seat: pc.Seat(), kind: uint8(pc.Kind()), dead: pc.Dead(), promo: pc.Promoted()}
}

// turn is the seat to move.
func (b *board) turn() Seat { return b.p.Turn() }

// legal appends the legal moves of the side to move to the buffer of ply.
func (b *board) legal(ply int) []Move {
	b.moveBuf[ply] = b.p.LegalMoves(b.moveBuf[ply][:0])
	return b.moveBuf[ply]
}

// inCheck reports whether seat s's king is attacked.
func (b *board) inCheck(s Seat) bool {
	if b.ordinaryKings {
		return false
	}
	return b.p.InCheck(s)
}

// eliminated reports whether seat s has no more turns.
func (b *board) eliminated(s Seat) bool { return b.p.Eliminated(s) }

// points is seat s's score so far.
func (b *board) points(s Seat) int { return b.p.Points(s) }

// undo is what unmake needs.
type undo = rules.Undo

// make plays m at ply and updates the mirror.
func (b *board) make(m Move, ply int) undo {
	t := &b.touched[ply]
	t[0], t[1], t[2], t[3] = int16(b.squareIndex(m.From())), int16(b.squareIndex(m.To())), -1, -1
	if c, _ := m.IsCastle(); c {
		rf, rt := m.RookSquares()
		t[2], t[3] = int16(b.squareIndex(rf)), int16(b.squareIndex(rt))
	}
	sw, _ := m.IsSwap()
	full := m.IsEnPassant() || sw
	if !full {
		if pc := b.p.At(m.To()); pc.IsPiece() && pc.Kind() == rules.King {
			full = true
		}
	}
	b.full[ply] = full
	u := b.p.Make(m)
	if full {
		b.rebuild()
	} else {
		b.refresh(t)
	}
	return u
}

// unmake takes back m, made at ply.
func (b *board) unmake(m Move, u undo, ply int) {
	b.p.Unmake(m, u)
	if b.full[ply] {
		b.rebuild()
	} else {
		b.refresh(&b.touched[ply])
	}
}

// captured returns the piece m takes (seat and kind), for the side to move,
// before m is made. ok is false for a quiet move or a partner pawn swap.
func (b *board) captured(m Move) (pieceInfo, bool) {
	if sw, _ := m.IsSwap(); sw {
		return pieceInfo{}, false
	}
	if m.IsEnPassant() {
		return pieceInfo{kind: kPawn, seat: rules.NoSeat}, true
	}
	if c, _ := m.IsCastle(); c {
		return pieceInfo{}, false
	}
	t := b.pieceOn(m.To())
	if t.kind == 0 || t.seat == b.p.Turn() {
		return pieceInfo{}, false
	}
	return t, true
}

// mover returns the kind of the piece m moves.
func (b *board) mover(m Move) uint8 { return b.pieceOn(m.From()).kind }

// promotion reports whether m promotes a pawn.
func isPromotion(m Move) bool { return m.Promotion() != rules.NoKind }

// squareIndex is the index of s in the playable squares, or -1.
func (b *board) squareIndex(s square.Square) int {
	if s < 0 || int(s) >= len(b.sqIndex) {
		return -1
	}
	return int(b.sqIndex[s])
}

// hash is a Zobrist key of the position: pieces, seat to move, castling
// rights, en-passant entries and eliminated seats. rules' Position.Hash is
// an FNV hash over the whole board, too slow for every node; here each
// occupied square's key is a fixed 64-bit mix (splitmix64) of square and
// piece — Zobrist hashing with the random table computed on the fly — kept
// up to date by make and unmake.
func (b *board) hash() uint64 {
	h := b.pieceHash
	t := b.p.Turn()
	h ^= mix(0x10000 + uint64(t))
	for s := Seat(0); s < numSeats; s++ {
		ks, qs := b.p.CanCastle(s)
		if ks {
			h ^= mix(0x20000 + uint64(s))
		}
		if qs {
			h ^= mix(0x20010 + uint64(s))
		}
		if sk, _ := b.p.EnPassant(s); sk != square.None {
			h ^= mix(0x30000 + uint64(s)<<12 + uint64(uint16(sk)))
		}
		if b.p.Eliminated(s) {
			h ^= mix(0x40000 + uint64(s))
		}
	}
	return h
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// ---- game layer ----

// rootMoves returns the moves the game allows the seat to move now.
func rootMoves(g *rules.Game) []Move { return g.LegalMoves() }

// gamePosition returns a copy of the game's current position.
func gamePosition(g *rules.Game) *rules.Position { return g.Position() }

// controllers returns who plays each seat's army in g (Chess4 Method 2).
func controllers(g *rules.Game) [numSeats]Seat {
	var c [numSeats]Seat
	for s := Seat(0); s < numSeats; s++ {
		c[s] = controller(g, s)
	}
	return c
}

// controller returns who plays seat s's army in g: Chess4's hook knows
// (Method 2 hands an army over); elsewhere a seat still in plays its own
// and a seat that is out nobody's.
func controller(g *rules.Game, s Seat) Seat {
	if h, ok := rules.HookIn[*chess4.Chess4Hook](g); ok {
		return h.Controller(s)
	}
	if st := g.Status(s); st == rules.Playing || st == rules.Walking {
		return s
	}
	return noSeat
}

// MoveText writes m, a legal move in g, as PGN4 (with check and mate
// marks as the game writes them), the form boardd replay reads.
func MoveText(g *rules.Game, m Move) string {
	text := ""
	if err := g.LookAhead(m, func() {
		recs := g.Records()
		if len(recs) > 0 {
			text = recs[len(recs)-1].Text
		}
	}); err != nil || text == "" {
		return g.Position().MoveText(m)
	}
	return text
}
