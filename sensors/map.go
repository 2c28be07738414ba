package sensors

import (
	"bytes"
	"fmt"
	"math/bits"
	"os"
	"strconv"
	"strings"

	"boardd/rules/square"
	"go.yaml.in/yaml/v3"
)

// Map says which raw switch bit is which square. The zero Map maps nothing;
// build one with NewMap, StandardMap or ParseMap.
type Map struct {
	bits  int
	sq    [MaxBits]square.Square // square of each bit, or square.None
	bitOf [MaxBits]int16         // bit of each square, or -1
	set   square.Set
	board square.Set // the squares that need a switch: the cross, or NewMapOn's board
}

// NewMap maps bit i to squares[i]; square.None marks an unused bit. It
// checks the result covers the 160 squares of the cross board exactly once.
func NewMap(squares []square.Square) (*Map, error) { return NewMapOn(square.Cross(), squares) }

// NewMapOn is NewMap for a board with other squares than the cross (a
// simulated 16×16 board for Russian Fortress Chess): the map must cover
// board's squares exactly once.
func NewMapOn(board square.Set, squares []square.Square) (*Map, error) {
	if len(squares) > MaxBits {
		return nil, fmt.Errorf("wiring map: %d bits, at most %d", len(squares), MaxBits)
	}
	m := newMap(len(squares))
	m.board = board
	for b, s := range squares {
		if s == square.None {
			continue
		}
		if err := m.add(b, s); err != nil {
			return nil, fmt.Errorf("wiring map: %v", err)
		}
	}
	if err := m.complete(); err != nil {
		return nil, fmt.Errorf("wiring map: %v", err)
	}
	return m, nil
}

func newMap(n int) *Map {
	m := &Map{bits: n, board: square.Cross()}
	for i := range m.sq {
		m.sq[i] = square.None
		m.bitOf[i] = -1
	}
	return m
}

func (m *Map) add(b int, s square.Square) error {
	switch {
	case b < 0 || b >= m.bits:
		return fmt.Errorf("bit %d out of range: the driver reads bits 0-%d", b, m.bits-1)
	case !m.board.Has(s) && m.board == square.Cross():
		return fmt.Errorf("square %s is not on the cross board (a corner or beyond n14)", s)
	case !m.board.Has(s):
		return fmt.Errorf("square %s is not on this board", s)
	case m.sq[b] != square.None:
		return fmt.Errorf("bit %d is mapped twice (%s and %s)", b, m.sq[b], s)
	case m.bitOf[s] >= 0:
		return fmt.Errorf("square %s is mapped twice (bits %d and %d)", s, m.bitOf[s], b)
	}
	m.sq[b] = s
	m.bitOf[s] = int16(b)
	m.set.Add(s)
	return nil
}

func (m *Map) complete() error {
	missing := m.board.AndNot(m.set)
	if n := missing.Len(); n > 0 {
		list := missing.Squares()
		names := make([]string, 0, 8)
		for i, s := range list {
			if i == 8 {
				names = append(names, fmt.Sprintf("… %d more", n-8))
				break
			}
			names = append(names, s.String())
		}
		return fmt.Errorf("%d square(s) have no switch bit: %s", n, strings.Join(names, " "))
	}
	return nil
}

// StandardMap is the layout docs/hardware.md describes: the 160 squares
// rank by rank from rank 1, files a→n within a rank (corners skipped), bit
// 0 first. On a 74HC165 chain that is chip 0 input A = d1 … chip 0 input
// H = k1, chip 1 = d2–k2, chip 2 = d3–k3, then ranks 4–11 take 14 bits each.
func StandardMap() *Map {
	m, err := NewMap(square.Cross().Squares())
	if err != nil {
		panic(err) // the standard layout is the cross itself
	}
	return m
}

// StandardMapBits is StandardMap for a driver that reads nbits ≥ 160
// bits: bits 0–159 as in StandardMap, the rest unused. It suits any driver
// wired in the standard order, such as three MCP23017s as a matrix (168).
func StandardMapBits(nbits int) (*Map, error) { return StandardMapOn(square.Cross(), nbits) }

// StandardMapOn is the standard layout of a board with the given squares
// for a driver that reads nbits bits: the board's squares rank by rank
// from rank 1, files a→p within a rank (squares not on the board
// skipped), bit 0 first, bits beyond the board's squares unused. On the
// cross it is StandardMapBits. On the 16×16 board (square.Full) it is
// bit 16·(rank−1) + file: two 74HC165s per rank (chip 2r inputs A–H =
// files a–h of rank r+1, chip 2r+1 = i–p), or a 16×16 matrix with row r
// = rank r+1 and column c = file c.
func StandardMapOn(board square.Set, nbits int) (*Map, error) {
	n := board.Len()
	if nbits < n || nbits > MaxBits {
		return nil, fmt.Errorf("wiring map: the standard layout of this board's %d squares needs %d-%d bits, the driver reads %d; write a wiring map or fix the driver's size", n, n, MaxBits, nbits)
	}
	sqs := make([]square.Square, nbits)
	for i := range sqs {
		sqs[i] = square.None
	}
	copy(sqs, board.Squares())
	return NewMapOn(board, sqs)
}

// Bits returns how many bits the map spans (the Source's Bits).
func (m *Map) Bits() int { return m.bits }

// Square returns the square wired to bit b, or square.None.
func (m *Map) Square(b int) square.Square {
	if b < 0 || b >= MaxBits {
		return square.None
	}
	return m.sq[b]
}

// Bit returns the bit wired to square s, or -1.
func (m *Map) Bit(s square.Square) int {
	if !s.Valid() {
		return -1
	}
	return int(m.bitOf[s])
}

// Squares returns the set of mapped squares.
func (m *Map) Squares() square.Set { return m.set }

// Apply converts a raw frame into the set of occupied squares. Bits that
// map to no square are ignored. It does not allocate.
func (m *Map) Apply(f *Frame, out *square.Set) {
	*out = square.Set{}
	for w := range f {
		for x := f[w]; x != 0; x &= x - 1 {
			b := w*64 + bits.TrailingZeros64(x)
			if s := m.sq[b]; s != square.None {
				out[s>>6] |= 1 << (uint(s) & 63)
			}
		}
	}
}

// Frame converts a set of occupied squares back into the raw frame a
// Source wired by m would read. Squares the map does not know are dropped.
func (m *Map) Frame(occ square.Set, f *Frame) {
	*f = Frame{}
	for w := range occ {
		for x := occ[w]; x != 0; x &= x - 1 {
			s := w*64 + bits.TrailingZeros64(x)
			if b := m.bitOf[s]; b >= 0 {
				f[b>>6] |= 1 << (uint(b) & 63)
			}
		}
	}
}

// MaxMapSize bounds a wiring map file (the full 160-square map is ~2 KB).
const MaxMapSize = 64 << 10

// ParseMap reads a wiring map from YAML. name (usually the file name)
// prefixes every error, with the line of the offending entry. bits is how
// many bits the driver reads; 0 takes the file's own "bits" key.
//
// The format:
//
//	bits: 160              # optional: bits the driver reads
//	squares:               # bit 0 first, one line per chip or matrix row;
//	  - [d1, e1, f1, g1, h1, i1, j1, k1]   # "-" marks an unused bit
//	  - [d2, e2, f2, g2, h2, i2, j2, k2]
//	  # …
//	bit_map:               # optional, instead of or after "squares":
//	  164: e4              #   explicit "bit: square" entries
//
// Every square of the 160 must appear exactly once, and every bit must be
// below bits.
func ParseMap(name string, data []byte, nbits int) (*Map, error) {
	return ParseMapOn(name, data, nbits, square.Cross())
}

// ParseMapOn is ParseMap for a board with the given squares (square.Full
// for the 16×16 board): every one of them must appear exactly once, and a
// square not on the board is an error naming its line.
func ParseMapOn(name string, data []byte, nbits int, board square.Set) (*Map, error) {
	if len(data) > MaxMapSize {
		return nil, fmt.Errorf("%s: %d bytes; a wiring map is a few kilobytes (at most %d)", name, len(data), MaxMapSize)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: want a mapping with keys bits, squares, bit_map", name, max(doc.Line, 1))
	}
	root := doc.Content[0]
	type entry struct {
		bit  int
		sq   square.Square
		line int
	}
	var entries []entry
	fileBits := -1
	fileBitsLine := 0
	lineOf := map[square.Square]int{}
	bitLine := map[int]int{}
	errAt := func(n *yaml.Node, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", name, n.Line, fmt.Sprintf(format, a...))
	}
	parseSq := func(n *yaml.Node) (square.Square, bool, error) {
		if n.Kind != yaml.ScalarNode {
			return square.None, false, errAt(n, "want a square name like e4, or - for an unused bit")
		}
		if n.Value == "-" || n.Tag == "!!null" {
			return square.None, false, nil
		}
		s, err := square.Parse(n.Value)
		if err != nil {
			return square.None, false, errAt(n, "%v", err)
		}
		return s, true, nil
	}
	next := 0
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			return nil, errAt(k, "key %q appears twice", k.Value)
		}
		seen[k.Value] = true
		switch k.Value {
		case "bits":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n < 1 || n > MaxBits {
				return nil, errAt(v, "bits: want a number 1-%d", MaxBits)
			}
			fileBits, fileBitsLine = n, v.Line
		case "squares":
			if v.Kind != yaml.SequenceNode {
				return nil, errAt(v, "squares: want a list of lists of square names")
			}
			for _, row := range v.Content {
				items := []*yaml.Node{row}
				if row.Kind == yaml.SequenceNode {
					items = row.Content
				}
				for _, it := range items {
					s, ok, err := parseSq(it)
					if err != nil {
						return nil, err
					}
					if ok {
						entries = append(entries, entry{next, s, it.Line})
					}
					next++
				}
			}
		case "bit_map":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "bit_map: want entries like \"12: e4\"")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				bk, bv := v.Content[j], v.Content[j+1]
				b, err := strconv.Atoi(bk.Value)
				if err != nil || bk.Kind != yaml.ScalarNode {
					return nil, errAt(bk, "bit_map: key %q is not a bit number", bk.Value)
				}
				s, ok, err := parseSq(bv)
				if err != nil {
					return nil, err
				}
				if ok {
					entries = append(entries, entry{b, s, bk.Line})
				}
			}
		default:
			return nil, errAt(k, "unknown key %q (want bits, squares, bit_map)", k.Value)
		}
	}
	if nbits == 0 {
		nbits = fileBits
		if nbits < 0 {
			nbits = max(next, 1)
			for _, e := range entries {
				nbits = max(nbits, e.bit+1)
			}
			nbits = min(nbits, MaxBits)
		}
	} else if fileBits >= 0 && fileBits != nbits {
		return nil, fmt.Errorf("%s:%d: bits: %d, but the driver reads %d bits", name, fileBitsLine, fileBits, nbits)
	}
	m := newMap(nbits)
	m.board = board
	for _, e := range entries {
		switch {
		case e.bit < 0 || e.bit >= nbits:
			return nil, fmt.Errorf("%s:%d: bit %d (%s) out of range: the driver reads bits 0-%d", name, e.line, e.bit, e.sq, nbits-1)
		case m.bitOf[e.sq] >= 0:
			return nil, fmt.Errorf("%s:%d: square %s is mapped twice (bit %d, line %d, and bit %d)", name, e.line, e.sq, m.bitOf[e.sq], lineOf[e.sq], e.bit)
		case m.sq[e.bit] != square.None:
			return nil, fmt.Errorf("%s:%d: bit %d is mapped twice (%s, line %d, and %s)", name, e.line, e.bit, m.sq[e.bit], bitLine[e.bit], e.sq)
		}
		if err := m.add(e.bit, e.sq); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, e.line, err)
		}
		lineOf[e.sq] = e.line
		bitLine[e.bit] = e.line
	}
	if err := m.complete(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return m, nil
}

// SourceMap is the wiring map for src on a board with the given squares:
// a wiring map file (sensors.wiring, --wiring) checked against the board
// and the bits src reads; else the map of a source that brings its own
// (a simulated board: Map() *Map); else the board's standard layout for
// as many bits as src reads.
func SourceMap(src Source, board square.Set, wiring string) (*Map, error) {
	if wiring != "" {
		data, err := os.ReadFile(wiring)
		if err != nil {
			return nil, fmt.Errorf("sensors.wiring: %w", err)
		}
		return ParseMapOn(wiring, data, src.Bits(), board)
	}
	if own, ok := src.(interface{ Map() *Map }); ok {
		return own.Map(), nil
	}
	m, err := StandardMapOn(board, src.Bits())
	if err != nil {
		return nil, fmt.Errorf("%v (a wiring map: sensors.wiring, --wiring FILE)", err)
	}
	return m, nil
}
