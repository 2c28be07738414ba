package sensors_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/rules/square"
	"boardd/sensors"
)

// rowsYAML writes the standard layout as "squares:" rows of 8 (one per
// 74HC165), one line per chip.
func rowsYAML() string {
	var b strings.Builder
	sqs := square.Cross().Squares()
	for i := 0; i < len(sqs); i += 8 {
		b.WriteString("  - [")
		for j, q := range sqs[i : i+8] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q.String())
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestParseMapStandard(t *testing.T) {
	m, err := sensors.ParseMap("wiring.yaml", []byte("# 20 chips\nbits: 160\nsquares:\n"+rowsYAML()), 160)
	if err != nil {
		t.Fatal(err)
	}
	std := sensors.StandardMap()
	for b := 0; b < 160; b++ {
		if m.Square(b) != std.Square(b) {
			t.Fatalf("bit %d: %s, standard %s", b, m.Square(b), std.Square(b))
		}
	}
	for b, want := range map[int]string{0: "d1", 7: "k1", 8: "d2", 24: "a4", 37: "n4", 159: "k14"} {
		if got := m.Square(b).String(); got != want {
			t.Errorf("bit %d = %s, want %s", b, got, want)
		}
	}
	if m.Bit(sq(t, "a4")) != 24 {
		t.Errorf("Bit(a4) = %d", m.Bit(sq(t, "a4")))
	}
}

func TestParseMapBitMapAndUnused(t *testing.T) {
	// Square d1 moved from bit 0 to bit 163 (a 21st chip), bit 0 unused.
	y := strings.Replace("bits: 168\nsquares:\n"+rowsYAML(), "[d1,", "[-,", 1) + "bit_map:\n  163: d1\n"
	m, err := sensors.ParseMap("w.yaml", []byte(y), 168)
	if err != nil {
		t.Fatal(err)
	}
	if m.Square(0) != square.None || m.Square(163) != sq(t, "d1") || m.Bits() != 168 {
		t.Errorf("bit 0 = %s, bit 163 = %s, bits %d", m.Square(0), m.Square(163), m.Bits())
	}
	var f sensors.Frame
	f.Set(163, true)
	f.Set(0, true)
	var occ square.Set
	m.Apply(&f, &occ)
	if occ.String() != "{d1}" {
		t.Errorf("Apply = %v, want {d1}", occ)
	}
}

func TestParseMapErrors(t *testing.T) {
	rows := rowsYAML()
	tests := []struct {
		name, yaml string
		bits       int
		want       string // substring of the error
	}{
		{"square twice", "squares:\n" + strings.Replace(rows, "e1,", "d1,", 1), 160, "w.yaml:2: square d1 is mapped twice (bit 0, line 2, and bit 1)"},
		{"missing square", "squares:\n" + strings.Replace(rows, "e1,", "-,", 1), 160, "w.yaml: 1 square(s) have no switch bit: e1"},
		{"bit out of range", "squares:\n" + strings.Replace(rows, "[d1,", "[-,", 1) + "bit_map:\n  170: d1\n", 168, "w.yaml:23: bit 170 (d1) out of range: the driver reads bits 0-167"},
		{"bit twice", "squares:\n" + rows + "bit_map:\n  3: d1\n", 160, "w.yaml:23: square d1 is mapped twice"},
		{"corner square", "squares:\n" + strings.Replace(rows, "e1,", "a1,", 1), 160, "w.yaml:2: square a1 is not on the cross board"},
		{"bad name", "squares:\n" + strings.Replace(rows, "e1,", "z9,", 1), 160, "w.yaml:2: square \"z9\": off the board"},
		{"unknown key", "bitz: 3\n", 160, "w.yaml:1: unknown key \"bitz\""},
		{"bits disagree", "bits: 168\nsquares:\n" + rows, 160, "w.yaml:1: bits: 168, but the driver reads 160 bits"},
		{"not a mapping", "- d1\n", 160, "w.yaml:1: want a mapping"},
		{"bad yaml", "squares: [d1\n", 160, "w.yaml: yaml:"},
		{"bad bit key", "bit_map:\n  x: d1\n", 160, "w.yaml:2: bit_map: key \"x\" is not a bit number"},
		{"too many bits", "bits: 999\n", 0, "w.yaml:1: bits: want a number 1-320"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sensors.ParseMap("w.yaml", []byte(tc.yaml), tc.bits)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\n does not contain %q", err, tc.want)
			}
		})
	}
}

func FuzzParseMap(f *testing.F) {
	f.Add([]byte("bits: 160\nsquares:\n"+rowsYAML()), 160)
	f.Add([]byte("bit_map:\n  3: d1\n  4: e1\n"), 0)
	f.Add([]byte("squares: [[d1, -, ~], e1]\n"), 8)
	f.Fuzz(func(t *testing.T, data []byte, bits int) {
		if bits < 0 || bits > sensors.MaxBits {
			bits = 0
		}
		m, err := sensors.ParseMap("fuzz.yaml", data, bits)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		if m.Squares() != square.Cross() {
			t.Errorf("accepted a map that misses squares: %v", square.Cross().AndNot(m.Squares()))
		}
	})
}

func TestStandardMapBits(t *testing.T) {
	m, err := sensors.StandardMapBits(168)
	if err != nil {
		t.Fatal(err)
	}
	if m.Bits() != 168 || m.Square(159).String() != "k14" || m.Square(160) != square.None {
		t.Errorf("bits %d, bit 159 %s, bit 160 %s", m.Bits(), m.Square(159), m.Square(160))
	}
	if _, err := sensors.StandardMapBits(112); err == nil {
		t.Error("112 bits accepted")
	}
}

// rowsYAMLOn writes a board's standard layout as rows of 8 (one per
// 74HC165), one line per chip.
func rowsYAMLOn(board square.Set) string {
	var b strings.Builder
	sqs := board.Squares()
	for i := 0; i < len(sqs); i += 8 {
		b.WriteString("  - [")
		for j, q := range sqs[i : i+8] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q.String())
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// The 16×16 board (board_shape: square16): the standard layout is bit
// 16·rank + file, two 74HC165s per rank, and a wiring map file is checked
// against that board, not the cross.
func TestStandardMapOnSixteenBySixteen(t *testing.T) {
	m, err := sensors.StandardMapOn(square.Full(), 256)
	if err != nil {
		t.Fatal(err)
	}
	for b, want := range map[int]string{0: "a1", 7: "h1", 8: "i1", 15: "p1", 16: "a2", 52: "e4", 255: "p16"} {
		if got := m.Square(b).String(); got != want {
			t.Errorf("bit %d = %s, want %s", b, got, want)
		}
	}
	if m.Bits() != 256 || m.Squares() != square.Full() {
		t.Errorf("bits %d, %d squares", m.Bits(), m.Squares().Len())
	}
	if _, err := sensors.StandardMapOn(square.Full(), 160); err == nil || !strings.Contains(err.Error(), "256 squares needs 256-320 bits, the driver reads 160") {
		t.Errorf("a 160-bit driver under a 16×16 board: %v", err)
	}
	if _, err := sensors.StandardMapOn(square.Full(), 280); err != nil { // five MCP23017s as a matrix read 280 bits
		t.Errorf("280 bits: %v", err)
	} else if m, _ := sensors.StandardMapOn(square.Full(), 256); m.Square(255).String() != "p16" {
		t.Error("p16 not at bit 255")
	}
	c, err := sensors.StandardMapOn(square.Cross(), 168)
	if std, _ := sensors.StandardMapBits(168); err != nil || c.Square(0) != std.Square(0) || c.Square(159) != std.Square(159) {
		t.Errorf("the cross's StandardMapOn differs from StandardMapBits: %v", err)
	}

	y := []byte("bits: 256\nsquares:\n" + rowsYAMLOn(square.Full()))
	p, err := sensors.ParseMapOn("w16.yaml", y, 256, square.Full())
	if err != nil {
		t.Fatal(err)
	}
	for b := 0; b < 256; b++ {
		if p.Square(b) != m.Square(b) {
			t.Fatalf("bit %d: file %s, standard %s", b, p.Square(b), m.Square(b))
		}
	}
	for _, tc := range []struct {
		name  string
		data  string
		board square.Set
		bits  int
		want  string
	}{
		// a 16×16 file on the cross board: a1 is the first square outside it (line 3)
		{"16×16 file, cross board", string(y), square.Cross(), 256, "w.yaml:3: square a1 is not on the cross board"},
		// a cross file on the 16×16 board misses the corners and files o, p
		{"cross file, 16×16 board", "squares:\n" + rowsYAML(), square.Full(), 160, "w.yaml: 96 square(s) have no switch bit: a1 b1 c1 l1 m1 n1 o1 p1 … 88 more"},
		{"square beyond p16", "squares:\n" + strings.Replace(rowsYAMLOn(square.Full()), "p16", "q16", 1), square.Full(), 256, "w.yaml:33: square \"q16\""},
		{"square twice", "squares:\n" + strings.Replace(rowsYAMLOn(square.Full()), "b1,", "a1,", 1), square.Full(), 256, "w.yaml:2: square a1 is mapped twice (bit 0, line 2, and bit 1)"},
	} {
		_, err := sensors.ParseMapOn("w.yaml", []byte(tc.data), tc.bits, tc.board)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant an error containing %q", tc.name, err, tc.want)
		}
	}
}

// ownMap is a source that brings its own wiring map, as a simulated board.
type ownMap struct {
	bitsSource
	m *sensors.Map
}

func (o ownMap) Map() *sensors.Map { return o.m }

// SourceMap takes the wiring file first, then the source's own map, then
// the board's standard layout for the source's bits.
func TestSourceMap(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "wiring.yaml")
	os.WriteFile(file, []byte("squares:\n"+rowsYAML()), 0o644)
	dup := filepath.Join(dir, "dup.yaml")
	os.WriteFile(dup, []byte("squares:\n  - [d1, d1]\n"), 0o644)
	std, err := sensors.StandardMapOn(square.Cross(), 160)
	if err != nil {
		t.Fatal(err)
	}
	own, err := sensors.StandardMapOn(square.Cross(), 168)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		src    sensors.Source
		wiring string
		bits   int    // of the map answered
		err    string // substring of the error
	}{
		{"wiring file", bitsSource{n: 160}, file, 160, ""},
		{"wiring file over the source's own", ownMap{bitsSource{n: 160}, own}, file, 160, ""},
		{"wiring file with a mistake", bitsSource{n: 160}, dup, 0, "dup.yaml:2: square d1 is mapped twice"},
		{"missing wiring file", bitsSource{n: 160}, filepath.Join(dir, "none.yaml"), 0, "sensors.wiring: open "},
		{"the source's own", ownMap{bitsSource{n: 168}, own}, "", 168, ""},
		{"standard layout", bitsSource{n: 160}, "", std.Bits(), ""},
		{"too few bits for the standard layout", bitsSource{n: 100}, "", 0, "(a wiring map: sensors.wiring, --wiring FILE)"},
	}
	for _, tc := range tests {
		m, err := sensors.SourceMap(tc.src, square.Cross(), tc.wiring)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case m.Bits() != tc.bits:
			t.Errorf("%s: a map of %d bits, want %d", tc.name, m.Bits(), tc.bits)
		}
	}
}
