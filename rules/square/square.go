// Package square names the squares of a four-player chess board and holds
// sets of them.
//
// A Square is a file and a rank on a grid of at most 16×16 (files a–p,
// ranks 1–16). The standard board is chess.com's 14×14 cross: files a–n,
// ranks 1–14, the 3×3 corners cut away, 160 playable squares, Red at the
// bottom. Every package that talks about squares (rules, sensors, leds)
// uses these types, so a square means the same thing from the reed switch
// to the PGN4 file.
package square

import (
	"fmt"
	"math/bits"
	"strconv"
)

// MaxFiles and MaxRanks bound every board geometry.
const (
	MaxFiles = 16
	MaxRanks = 16
)

// Square is a square on the grid: rank*16 + file, both counted from 0.
// None is "no square".
type Square int16

// None is the zero-value-free marker for "no square".
const None Square = -1

// At returns the square on file f and rank r (both from 0), or None when
// they are off the 16×16 grid.
func At(f, r int) Square {
	if f < 0 || f >= MaxFiles || r < 0 || r >= MaxRanks {
		return None
	}
	return Square(r*MaxFiles + f)
}

// File returns the square's file, 0 for a.
func (s Square) File() int { return int(s) % MaxFiles }

// Rank returns the square's rank, 0 for rank 1.
func (s Square) Rank() int { return int(s) / MaxFiles }

// Valid reports whether s lies on the 16×16 grid.
func (s Square) Valid() bool { return s >= 0 && s < MaxFiles*MaxRanks }

// String returns the square's name as chess.com writes it ("a1", "n14"),
// or "-" for None.
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string(rune('a'+s.File())) + strconv.Itoa(s.Rank()+1)
}

// Parse reads a square name such as "h1" or "n14".
func Parse(name string) (Square, error) {
	if len(name) < 2 || len(name) > 3 {
		return None, fmt.Errorf("square %q: want a file letter a-p and a rank 1-16, like h1 or n14", name)
	}
	f := int(name[0]) - 'a'
	r, err := strconv.Atoi(name[1:])
	if err != nil || name[1] == '0' || name[1] == '+' || name[1] == '-' {
		return None, fmt.Errorf("square %q: rank %q is not a number 1-16", name, name[1:])
	}
	s := At(f, r-1)
	if s == None {
		return None, fmt.Errorf("square %q: off the board (files a-p, ranks 1-16)", name)
	}
	return s, nil
}

// Set is a set of squares on the 16×16 grid. The zero Set is empty.
type Set [4]uint64

// Has reports whether s is in the set.
func (b Set) Has(s Square) bool {
	return s.Valid() && b[s>>6]&(1<<(uint(s)&63)) != 0
}

// Add puts s into the set; an invalid square is ignored.
func (b *Set) Add(s Square) {
	if s.Valid() {
		b[s>>6] |= 1 << (uint(s) & 63)
	}
}

// Remove takes s out of the set.
func (b *Set) Remove(s Square) {
	if s.Valid() {
		b[s>>6] &^= 1 << (uint(s) & 63)
	}
}

// Len returns the number of squares in the set.
func (b Set) Len() int {
	return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) + bits.OnesCount64(b[2]) + bits.OnesCount64(b[3])
}

// And returns the squares in both sets.
func (b Set) And(o Set) Set { return Set{b[0] & o[0], b[1] & o[1], b[2] & o[2], b[3] & o[3]} }

// Or returns the squares in either set.
func (b Set) Or(o Set) Set { return Set{b[0] | o[0], b[1] | o[1], b[2] | o[2], b[3] | o[3]} }

// AndNot returns the squares of b that are not in o.
func (b Set) AndNot(o Set) Set {
	return Set{b[0] &^ o[0], b[1] &^ o[1], b[2] &^ o[2], b[3] &^ o[3]}
}

// Squares returns the squares of the set in ascending order (a1, b1, …).
func (b Set) Squares() []Square {
	out := make([]Square, 0, b.Len())
	for w := 0; w < 4; w++ {
		for x := b[w]; x != 0; x &= x - 1 {
			out = append(out, Square(w*64+bits.TrailingZeros64(x)))
		}
	}
	return out
}

// String lists the squares, like "{a4 d1}".
func (b Set) String() string {
	s := "{"
	for i, q := range b.Squares() {
		if i > 0 {
			s += " "
		}
		s += q.String()
	}
	return s + "}"
}

// Cross returns the 160 squares of chess.com's four-player board: the
// 14×14 grid a1–n14 without its four 3×3 corners.
func Cross() Set {
	var s Set
	for r := 0; r < 14; r++ {
		for f := 0; f < 14; f++ {
			if (f < 3 || f > 10) && (r < 3 || r > 10) {
				continue
			}
			s.Add(At(f, r))
		}
	}
	return s
}

// Full returns all 256 squares of the 16×16 grid, a1–p16: the board of
// Russian four-player Fortress Chess (every square playable, the corner
// fortresses walled by barriers between squares, not cut away).
func Full() Set { return Set{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }
