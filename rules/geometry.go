package rules

import (
	"fmt"

	"boardd/rules/square"
)

// The engine works on a padded mailbox: a 20×20 grid of cells holding the
// 16×16 square grid with two rings of walls around it, so that a knight's
// jump or a slider's next step off the board lands on a Wall cell and the
// hot loops need no edge tests. The mailbox arrays hold 512 cells, the
// 400 of the grid and walls beyond, so that an index masked with cellMask
// is provably in range and the hot loops carry no bounds checks.
const (
	stride   = 20
	pad      = 2
	numCells = 512 // stride*stride rounded up to a power of two
	cellMask = numCells - 1
)

// cell converts a square to its mailbox index.
func cell(s square.Square) int { return (s.Rank()+pad)*stride + s.File() + pad }

// squareOf converts a mailbox index back to its square.
func squareOf(c int) square.Square { return square.At(c%stride-pad, c/stride-pad) }

// Directions: the eight king steps, then the eight knight jumps.
const (
	dirN = iota
	dirE
	dirS
	dirW
	dirNE
	dirSE
	dirSW
	dirNW
	numKingDirs
)

var dirDelta = [16]int{
	stride, 1, -stride, -1, stride + 1, -stride + 1, -stride - 1, stride - 1,
	// knight jumps; each is listed with its orthogonal first step and
	// diagonal second step (used where barriers exist).
	2*stride + 1, 2*stride - 1, -2*stride + 1, -2*stride - 1,
	stride + 2, -stride + 2, stride - 2, -stride - 2,
}

// opposite[i] is the direction that undoes direction i.
var opposite = [16]int{dirS, dirW, dirN, dirE, dirSW, dirNW, dirNE, dirSE, 11, 10, 9, 8, 15, 14, 13, 12}

// knightPath gives, for knight jump i (8..15), the orthogonal first step
// and the diagonal second step.
var knightPath = [16][2]int{
	8: {dirN, dirNE}, 9: {dirN, dirNW}, 10: {dirS, dirSE}, 11: {dirS, dirSW},
	12: {dirE, dirNE}, 13: {dirE, dirSE}, 14: {dirW, dirNW}, 15: {dirW, dirSW},
}

// Barrier is a wall between two adjacent squares (orthogonally or
// diagonally): no piece may step across it, and no piece attacks across it.
type Barrier struct{ A, B square.Square }

// Geometry is the shape of a board: which squares of the grid exist and
// which steps between them are walled off.
type Geometry struct {
	// Name identifies the geometry ("cross14").
	Name string
	// Files and Ranks give the grid's size (at most 16×16).
	Files, Ranks int
	// Playable holds the squares that exist.
	Playable square.Set
	// Barriers lists walls between adjacent squares.
	Barriers []Barrier

	blocked  [numCells]uint16 // bit i: the step/jump in direction i is walled
	hasWalls bool
}

// Cross14 returns chess.com's four-player board: 14×14 without its 3×3
// corners, 160 squares, no barriers.
func Cross14() *Geometry {
	g, err := NewGeometry("cross14", 14, 14, square.Cross(), nil)
	if err != nil {
		panic(err)
	}
	return g
}

// NewGeometry checks and prepares a board shape.
func NewGeometry(name string, files, ranks int, playable square.Set, barriers []Barrier) (*Geometry, error) {
	if files < 1 || files > square.MaxFiles || ranks < 1 || ranks > square.MaxRanks {
		return nil, fmt.Errorf("geometry %s: size %d×%d is outside 1×1 to 16×16", name, files, ranks)
	}
	for _, s := range playable.Squares() {
		if s.File() >= files || s.Rank() >= ranks {
			return nil, fmt.Errorf("geometry %s: square %s lies outside the %d×%d grid", name, s, files, ranks)
		}
	}
	g := &Geometry{Name: name, Files: files, Ranks: ranks, Playable: playable, Barriers: barriers}
	for _, b := range barriers {
		if !playable.Has(b.A) || !playable.Has(b.B) {
			return nil, fmt.Errorf("geometry %s: barrier %s|%s names a square that is not on the board", name, b.A, b.B)
		}
		da, ok := stepDir(b.A, b.B)
		if !ok {
			return nil, fmt.Errorf("geometry %s: barrier %s|%s: the squares are not adjacent", name, b.A, b.B)
		}
		db, _ := stepDir(b.B, b.A)
		g.blocked[cell(b.A)] |= 1 << da
		g.blocked[cell(b.B)] |= 1 << db
		g.hasWalls = true
	}
	if g.hasWalls {
		// A knight's move is one orthogonal then one diagonal step for
		// barrier purposes (Russian Fortress Chess).
		for c := 0; c < numCells; c++ {
			for i := 8; i < 16; i++ {
				o, d := knightPath[i][0], knightPath[i][1]
				mid := c + dirDelta[o]
				if mid < 0 || mid >= numCells {
					continue
				}
				if g.blocked[c]&(1<<o) != 0 || g.blocked[mid]&(1<<d) != 0 {
					g.blocked[c] |= 1 << i
				}
			}
		}
	}
	return g, nil
}

// stepDir returns the king direction that leads from a to b.
func stepDir(a, b square.Square) (int, bool) {
	d := cell(b) - cell(a)
	for i := 0; i < numKingDirs; i++ {
		if dirDelta[i] == d {
			return i, true
		}
	}
	return 0, false
}

// Has reports whether s is a playable square.
func (g *Geometry) Has(s square.Square) bool { return g.Playable.Has(s) }
