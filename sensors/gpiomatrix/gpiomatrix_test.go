package gpiomatrix

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"boardd/rules/square"
	"boardd/sensors"
)

// board is a fake diode matrix: closed[r][c] switches, row pins that
// record their level, column pins whose level follows the selected row.
type board struct {
	trace  []string
	closed [][]bool
	rowOf  func() int // which row is electrically selected, -1 for none
}

type outPin struct {
	gpiotest.Pin
	b *board
}

func (p *outPin) Out(l gpio.Level) error {
	p.b.trace = append(p.b.trace, fmt.Sprintf("%s=%s", p.N, l))
	return p.Pin.Out(l)
}

type colPin struct {
	gpiotest.Pin
	b   *board
	col int
}

func (p *colPin) Read() gpio.Level {
	r := p.b.rowOf()
	p.b.trace = append(p.b.trace, "read "+p.N)
	if p.P != gpio.PullUp {
		return gpio.Low // floating: the driver forgot the pull-up
	}
	if r >= 0 && p.b.closed[r][p.col] {
		return gpio.Low
	}
	return gpio.High
}

func (b *board) cols(n int) []gpio.PinIn {
	out := make([]gpio.PinIn, n)
	for c := range out {
		out[c] = &colPin{Pin: gpiotest.Pin{N: fmt.Sprintf("C%d", c)}, b: b, col: c}
	}
	return out
}

func (b *board) sleep(d time.Duration) { b.trace = append(b.trace, "settle "+d.String()) }

func setBits(f *sensors.Frame, n int) []int {
	var on []int
	for i := 0; i < n; i++ {
		if f.Bit(i) {
			on = append(on, i)
		}
	}
	return on
}

func TestGPIORowsSequence(t *testing.T) {
	b := &board{closed: [][]bool{{false, true}, {true, true}}}
	rows := make([]*outPin, 2)
	pins := make([]gpio.PinOut, 2)
	for i := range rows {
		rows[i] = &outPin{Pin: gpiotest.Pin{N: fmt.Sprintf("R%d", i), L: gpio.Low}, b: b}
		pins[i] = rows[i]
	}
	b.rowOf = func() int {
		sel := -1
		for i, p := range rows {
			if p.L == gpio.Low {
				if sel >= 0 {
					t.Fatal("two rows selected at once")
				}
				sel = i
			}
		}
		return sel
	}
	d, err := New(NewGPIORows(pins...), b.cols(2), &Opts{Sleep: b.sleep})
	if err != nil {
		t.Fatal(err)
	}
	b.trace = nil
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"R0=Low", "settle 20µs", "read C0", "read C1",
		"R0=High", "R1=Low", "settle 20µs", "read C0", "read C1",
		"R0=High", "R1=High",
	}
	if !slices.Equal(b.trace, want) {
		t.Errorf("sequence\n got %v\nwant %v", b.trace, want)
	}
	if got := setBits(&f, d.Bits()); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("closed bits %v, want [1 2 3]", got)
	}
}

func TestDecoderRows(t *testing.T) {
	// 16 rows through a 74HC154 (4 address pins + enable), 10 columns:
	// the 160-square build. Close the switch at row r, column r%10.
	b := &board{}
	for r := 0; r < 16; r++ {
		row := make([]bool, 10)
		row[r%10] = true
		b.closed = append(b.closed, row)
	}
	addr := make([]*outPin, 4)
	pins := make([]gpio.PinOut, 4)
	for i := range addr {
		addr[i] = &outPin{Pin: gpiotest.Pin{N: fmt.Sprintf("A%d", i)}, b: b}
		pins[i] = addr[i]
	}
	en := &outPin{Pin: gpiotest.Pin{N: "EN"}, b: b}
	b.rowOf = func() int {
		if en.L == gpio.High {
			return -1
		}
		r := 0
		for i, p := range addr {
			if p.L == gpio.High {
				r |= 1 << i
			}
		}
		return r
	}
	d, err := New(&DecoderRows{Addr: pins, Enable: en, N: 16}, b.cols(10), &Opts{Sleep: b.sleep, Settle: 5 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	if d.Bits() != 160 {
		t.Fatalf("Bits = %d", d.Bits())
	}
	b.trace = nil
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	var want []int
	for r := 0; r < 16; r++ {
		want = append(want, r*10+r%10)
	}
	if got := setBits(&f, 160); !slices.Equal(got, want) {
		t.Errorf("closed bits %v, want %v", got, want)
	}
	// Row 5 = 0101: disable, address, enable, settle, read.
	i := slices.Index(b.trace, "A2=High")
	if i < 0 {
		t.Fatal("A2 never went high")
	}
	wantRow5 := []string{"EN=High", "A0=High", "A1=Low", "A2=High", "A3=Low", "EN=Low", "settle 5µs", "read C0"}
	found := false
	for k := range b.trace {
		if k+len(wantRow5) <= len(b.trace) && slices.Equal(b.trace[k:k+len(wantRow5)], wantRow5) {
			found = true
		}
	}
	if !found {
		t.Errorf("row 5 selection sequence %v not found in %v", wantRow5, b.trace[:40])
	}
	if last := b.trace[len(b.trace)-1]; last != "EN=High" {
		t.Errorf("scan ends with %s, want the decoder disabled", last)
	}
}

func TestNewErrors(t *testing.T) {
	b := &board{}
	tests := []struct {
		name string
		rows RowSelector
		cols []gpio.PinIn
	}{
		{"no rows", NewGPIORows(), b.cols(2)},
		{"no cols", NewGPIORows(&outPin{b: b}), nil},
		{"too big", &DecoderRows{N: 16}, b.cols(21)}, // 336 > MaxBits
		{"invalid column", NewGPIORows(&outPin{b: b}), []gpio.PinIn{gpio.INVALID}},
	}
	for _, tc := range tests {
		if _, err := New(tc.rows, tc.cols, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestDecoderRowsSixteenBySixteen is the 256-square build: 16 rows through
// a 74HC154, 16 columns, row r = rank r+1 and column c = file c in the
// standard layout of the 16×16 board.
func TestDecoderRowsSixteenBySixteen(t *testing.T) {
	b := &board{}
	for r := 0; r < 16; r++ {
		b.closed = append(b.closed, make([]bool, 16))
	}
	b.closed[0][0], b.closed[3][4], b.closed[15][15] = true, true, true // a1, e4, p16
	addr := make([]*outPin, 4)
	pins := make([]gpio.PinOut, 4)
	for i := range addr {
		addr[i] = &outPin{Pin: gpiotest.Pin{N: fmt.Sprintf("A%d", i)}, b: b}
		pins[i] = addr[i]
	}
	en := &outPin{Pin: gpiotest.Pin{N: "EN"}, b: b}
	b.rowOf = func() int {
		if en.L == gpio.High {
			return -1
		}
		r := 0
		for i, p := range addr {
			if p.L == gpio.High {
				r |= 1 << i
			}
		}
		return r
	}
	d, err := New(&DecoderRows{Addr: pins, Enable: en, N: 16}, b.cols(16), &Opts{Sleep: b.sleep})
	if err != nil {
		t.Fatal(err)
	}
	if d.Bits() != 256 {
		t.Fatalf("Bits = %d, want 256", d.Bits())
	}
	b.trace = nil
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	if got := setBits(&f, 256); !slices.Equal(got, []int{0, 52, 255}) {
		t.Errorf("closed bits %v, want [0 52 255]", got)
	}
	reads := 0
	for _, s := range b.trace {
		if len(s) > 5 && s[:5] == "read " {
			reads++
		}
	}
	if reads != 256 {
		t.Errorf("%d column reads in a scan, want 256", reads)
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
}
