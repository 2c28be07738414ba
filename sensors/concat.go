package sensors

import "fmt"

// Concat joins sources into one: the first source's bits come first, the
// next source's bits follow. Use it for a board split over two buses (two
// sets of MCP23017s wired directly, two SPI chains).
func Concat(srcs ...Source) (Source, error) {
	n := 0
	for _, s := range srcs {
		n += s.Bits()
	}
	if n > MaxBits {
		return nil, fmt.Errorf("sensors: the sources read %d bits together, at most %d", n, MaxBits)
	}
	return &concat{srcs: srcs, n: n}, nil
}

type concat struct {
	srcs []Source
	n    int
	tmp  Frame
}

func (c *concat) Bits() int { return c.n }

func (c *concat) Read(f *Frame) error {
	*f = Frame{}
	off := 0
	for i, s := range c.srcs {
		if err := s.Read(&c.tmp); err != nil {
			return fmt.Errorf("source %d: %w", i, err)
		}
		for b := 0; b < s.Bits(); b++ {
			if c.tmp[b>>6]&(1<<(uint(b)&63)) != 0 {
				o := off + b
				f[o>>6] |= 1 << (uint(o) & 63)
			}
		}
		off += s.Bits()
	}
	return nil
}
