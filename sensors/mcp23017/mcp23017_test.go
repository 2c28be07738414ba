package mcp23017

import (
	"slices"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

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
		// Set-up, chip 0x20 then 0x21: IOCON in either bank, IPOL, OLAT,
		// IODIR, GPPU (A and B in one write).
		{Addr: 0x20, W: []byte{0x05, 0x00}},
		{Addr: 0x20, W: []byte{0x0A, 0x00}},
		{Addr: 0x20, W: []byte{0x02, 0x00, 0x00}},
		{Addr: 0x20, W: []byte{0x14, 0x00, 0x00}},
		{Addr: 0x20, W: []byte{0x00, 0x7F, 0x7F}},
		{Addr: 0x20, W: []byte{0x0C, 0x7F, 0x7F}},
		{Addr: 0x21, W: []byte{0x05, 0x00}},
		{Addr: 0x21, W: []byte{0x0A, 0x00}},
		{Addr: 0x21, W: []byte{0x02, 0x00, 0x00}},
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
		{Addr: 0x22, W: []byte{0x05, 0x00}},
		{Addr: 0x22, W: []byte{0x0A, 0x00}},
		{Addr: 0x22, W: []byte{0x02, 0x00, 0x00}},
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
	if len(bus.Ops) != 18 {
		t.Fatalf("%d set-up writes, want 18", len(bus.Ops))
	}
	for i, op := range bus.Ops {
		if want := uint16(0x20 + i/6); op.Addr != want {
			t.Errorf("write %d to %#x, want %#x", i, op.Addr, want)
		}
		if i%6 == 4 && !slices.Equal(op.W, []byte{IODIRA, 0x00, 0x7F}) {
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
			i2ctest.IO{Addr: a, W: []byte{0x05, 0x00}},
			i2ctest.IO{Addr: a, W: []byte{0x0A, 0x00}},
			i2ctest.IO{Addr: a, W: []byte{0x02, 0x00, 0x00}},
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

// A chip left in IOCON.BANK = 1 by another program (the Pi rebooted, the
// chips kept power) is put back into bank 0 by the first write, before any
// register is addressed the bank-0 way; a chip in bank 0 takes that write
// as GPINTENB = 0, its power-on value. The registers are simulated both
// ways and the chip must end configured the same.
func TestIOCONFromEitherBank(t *testing.T) {
	for _, startBank1 := range []bool{false, true} {
		chip := &fakeChip{bank1: startBank1}
		chip.regs[0x0A] = 0x80 // IOCON as a previous program left it (BANK = 1 or not)
		if startBank1 {
			chip.regs[0x05] = 0x80
		}
		chip.regs[0x02], chip.regs[0x03] = 0xFF, 0xFF // inverted inputs left behind
		if _, err := New(chip, Direct, 0x20); err != nil {
			t.Fatal(err)
		}
		if chip.bank1 {
			t.Errorf("started in bank %v: still in bank 1", startBank1)
		}
		want := map[byte]byte{IOCON: 0x00, IPOLA: 0, IPOLB: 0, IODIRA: 0x7F, IODIRB: 0x7F, GPPUA: 0x7F, GPPUB: 0x7F, OLATA: 0, OLATB: 0}
		for r, v := range want {
			if chip.regs[r] != v {
				t.Errorf("started in bank 1: %v: register %#02x = %#02x, want %#02x", startBank1, r, chip.regs[r], v)
			}
		}
	}
}

// fakeChip is an MCP23017's register file with both bank layouts and
// sequential addressing, enough for the set-up writes.
type fakeChip struct {
	i2ctest.Record
	bank1 bool
	regs  [0x16]byte // bank-0 addresses
}

func (c *fakeChip) Tx(addr uint16, w, r []byte) error {
	if len(w) == 0 {
		return nil
	}
	a := w[0]
	for _, v := range w[1:] {
		reg := a
		if c.bank1 { // bank 1: A registers 0x00-0x0A, B registers 0x10-0x1A
			if a >= 0x10 {
				reg = 2*(a-0x10) + 1
			} else {
				reg = 2 * a
			}
		}
		if int(reg) < len(c.regs) {
			c.regs[reg] = v
			if reg == IOCON || reg == IOCON+1 {
				c.regs[IOCON], c.regs[IOCON+1] = v, v
				c.bank1 = v&0x80 != 0
			}
		}
		a++
	}
	return nil
}

// Scan time from the bytes on the bus: a 3-chip matrix at the Pi's default
// 100 kHz takes ~19 ms (too slow for 100 Hz), at 400 kHz ~6 ms (fine for
// 100 Hz, not 200 Hz); a direct chip is a fraction of a millisecond.
func TestScanTime(t *testing.T) {
	tests := []struct {
		mode     Mode
		chips    int
		hz       physic.Frequency
		min, max time.Duration
		maxRate  float64
	}{
		{Matrix, 3, 100 * physic.KiloHertz, 18 * time.Millisecond, 20 * time.Millisecond, 40},
		{Matrix, 3, 400 * physic.KiloHertz, 5 * time.Millisecond, 7 * time.Millisecond, 120},
		{Matrix, 5, 400 * physic.KiloHertz, 8 * time.Millisecond, 11 * time.Millisecond, 70},
		{Direct, 8, 400 * physic.KiloHertz, time.Millisecond, 2 * time.Millisecond, 400},
	}
	for _, tc := range tests {
		got := ScanTime(tc.mode, tc.chips, tc.hz)
		if got < tc.min || got > tc.max {
			t.Errorf("%v × %d at %v: %v, want %v to %v", tc.mode, tc.chips, tc.hz, got, tc.min, tc.max)
		}
		if r := MaxRate(tc.mode, tc.chips, tc.hz); r < tc.maxRate || r > 2*tc.maxRate {
			t.Errorf("%v × %d at %v: max rate %.0f, want about %.0f", tc.mode, tc.chips, tc.hz, r, tc.maxRate)
		}
	}
}
