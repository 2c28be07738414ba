package mcp23017

import (
	"slices"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"boardd/rules/square"
	"boardd/sensors"
)

func closedBits(f *sensors.Frame, n int) []int {
	var on []int
	for i := 0; i < n; i++ {
		if f.Bit(i) {
			on = append(on, i)
		}
	}
	return on
}

// TestDirect checks every byte on the bus for two chips wired directly.
func TestDirect(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		// Set-up, chip 0x20 then 0x21: OLAT, IODIR, GPPU (A and B in one write).
		{Addr: 0x20, W: []byte{0x14, 0x00, 0x00}},
		{Addr: 0x20, W: []byte{0x00, 0x7F, 0x7F}},
		{Addr: 0x20, W: []byte{0x0C, 0x7F, 0x7F}},
		{Addr: 0x21, W: []byte{0x14, 0x00, 0x00}},
		{Addr: 0x21, W: []byte{0x00, 0x7F, 0x7F}},
		{Addr: 0x21, W: []byte{0x0C, 0x7F, 0x7F}},
		// Scan: GPIOA+GPIOB of each chip. Closed reads 0; bit 7 (an
		// output) reads whatever and must be ignored.
		{Addr: 0x20, W: []byte{0x12}, R: []byte{0xFE, 0x3F}}, // GPA0, GPB6 closed
		{Addr: 0x21, W: []byte{0x12}, R: []byte{0x7F, 0xFE}}, // GPA7 low (output), GPB0 closed
	}}
	d, err := New(bus, Direct, 0x20, 0x21)
	if err != nil {
		t.Fatal(err)
	}
	if d.Bits() != 28 {
		t.Errorf("Bits = %d, want 28", d.Bits())
	}
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
	if got := closedBits(&f, 28); !slices.Equal(got, []int{0, 13, 21}) {
		t.Errorf("closed bits %v, want [0 13 21]", got)
	}
}

// TestMatrix checks the row-by-row protocol of one chip.
func TestMatrix(t *testing.T) {
	ops := []i2ctest.IO{
		{Addr: 0x22, W: []byte{0x14, 0xFF, 0x00}},
		{Addr: 0x22, W: []byte{0x00, 0x00, 0x7F}},
		{Addr: 0x22, W: []byte{0x0C, 0x00, 0x7F}},
	}
	for r := 0; r < 8; r++ {
		col := byte(0xFF) // GPB7 reads high, ignored
		if r == 2 {
			col = 0xFF &^ (1 << 3) // row 2, column 3 closed
		}
		if r == 7 {
			col = 0x7F &^ 1 // row 7, column 0 closed
		}
		ops = append(ops,
			i2ctest.IO{Addr: 0x22, W: []byte{0x14, ^byte(1 << r)}},
			i2ctest.IO{Addr: 0x22, W: []byte{0x13}, R: []byte{col}})
	}
	ops = append(ops, i2ctest.IO{Addr: 0x22, W: []byte{0x14, 0xFF}})
	bus := &i2ctest.Playback{DontPanic: true, Ops: ops}
	d, err := New(bus, Matrix, 0x22)
	if err != nil {
		t.Fatal(err)
	}
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
	if got := closedBits(&f, d.Bits()); !slices.Equal(got, []int{2*7 + 3, 7 * 7}) {
		t.Errorf("closed bits %v, want [17 49]", got)
	}
}

// TestMatrixBoard checks the 160-square build: three chips, set-up writes
// to each in turn, 168 bits.
func TestMatrixBoard(t *testing.T) {
	bus := &i2ctest.Record{}
	dev, err := New(bus, Matrix, 0x20, 0x21, 0x22)
	if err != nil {
		t.Fatal(err)
	}
	if dev.Bits() != 168 {
		t.Errorf("Bits = %d, want 168", dev.Bits())
	}
	if len(bus.Ops) != 9 {
		t.Fatalf("%d set-up writes, want 9", len(bus.Ops))
	}
	for i, op := range bus.Ops {
		if want := uint16(0x20 + i/3); op.Addr != want {
			t.Errorf("write %d to %#x, want %#x", i, op.Addr, want)
		}
		if i%3 == 1 && !slices.Equal(op.W, []byte{IODIRA, 0x00, 0x7F}) {
			t.Errorf("IODIR write %d = % x", i, op.W)
		}
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name  string
		addrs []uint16
		want  string
	}{
		{"none", nil, "mcp23017: no chip addresses"},
		{"out of range", []uint16{0x28}, "mcp23017: address 0x28: want 0x20-0x27"},
		{"twice", []uint16{0x20, 0x20}, "mcp23017: address 0x20 listed twice"},
	}
	for _, tc := range tests {
		_, err := New(&i2ctest.Record{}, Direct, tc.addrs...)
		if err == nil || err.Error()[:len(tc.want)] != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// A chip that does not answer is named.
	_, err := New(&i2ctest.Playback{DontPanic: true}, Direct, 0x24)
	if err == nil || err.Error()[:21] != "mcp23017 at 0x24 on p" {
		t.Errorf("missing chip: %v", err)
	}
}

// TestMatrixSixteenBySixteen checks the 256-square build: five chips at
// 0x20-0x24 as a matrix (280 bits, the first 256 in the standard order of
// the 16×16 board), every byte on the bus of the set-up and one scan.
func TestMatrixSixteenBySixteen(t *testing.T) {
	addrs := []uint16{0x20, 0x21, 0x22, 0x23, 0x24}
	var ops []i2ctest.IO
	for _, a := range addrs {
		ops = append(ops,
			i2ctest.IO{Addr: a, W: []byte{0x14, 0xFF, 0x00}},
			i2ctest.IO{Addr: a, W: []byte{0x00, 0x00, 0x7F}},
			i2ctest.IO{Addr: a, W: []byte{0x0C, 0x00, 0x7F}})
	}
	// Closed: a1 (bit 0: chip 0, row 0, column 0), e4 (bit 52: chip 0,
	// row 7, column 3) and p16 (bit 255 = 56·4 + 7·4 + 3: chip 4, row 4,
	// column 3).
	closed := map[[3]int]bool{{0, 0, 0}: true, {0, 7, 3}: true, {4, 4, 3}: true}
	for k, a := range addrs {
		for r := 0; r < 8; r++ {
			col := byte(0xFF)
			for c := 0; c < 7; c++ {
				if closed[[3]int{k, r, c}] {
					col &^= 1 << c
				}
			}
			ops = append(ops,
				i2ctest.IO{Addr: a, W: []byte{0x14, ^byte(1 << r)}},
				i2ctest.IO{Addr: a, W: []byte{0x13}, R: []byte{col}})
		}
		ops = append(ops, i2ctest.IO{Addr: a, W: []byte{0x14, 0xFF}})
	}
	bus := &i2ctest.Playback{DontPanic: true, Ops: ops}
	d, err := New(bus, Matrix, addrs...)
	if err != nil {
		t.Fatal(err)
	}
	if d.Bits() != 280 {
		t.Fatalf("Bits = %d, want 280", d.Bits())
	}
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
	if got := closedBits(&f, d.Bits()); !slices.Equal(got, []int{0, 52, 255}) {
		t.Errorf("closed bits %v, want [0 52 255]", got)
	}
	m, err := sensors.StandardMapOn(square.Full(), d.Bits())
	if err != nil {
		t.Fatal(err)
	}
	var occ square.Set
	m.Apply(&f, &occ)
	if occ.String() != "{a1 e4 p16}" {
		t.Errorf("squares %v, want {a1 e4 p16}", occ)
	}
	if _, err := New(&i2ctest.Record{}, Matrix, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25); err == nil {
		t.Error("six chips as a matrix (336 bits) accepted")
	}
}
