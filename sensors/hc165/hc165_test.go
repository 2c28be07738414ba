package hc165

import (
	"fmt"
	"testing"
	"time"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

// trace records pin changes and SPI transactions in the order they happen.
type trace []string

type tracePin struct {
	gpiotest.Pin
	t *trace
}

func (p *tracePin) Out(l gpio.Level) error {
	*p.t = append(*p.t, fmt.Sprintf("%s=%s", p.N, l))
	return p.Pin.Out(l)
}

type tracePort struct {
	*spitest.Playback
	t         *trace
	speed     physic.Frequency
	mode      spi.Mode
	bitsPerWd int
}

func (p *tracePort) Connect(f physic.Frequency, m spi.Mode, bits int) (spi.Conn, error) {
	p.speed, p.mode, p.bitsPerWd = f, m, bits
	c, err := p.Playback.Connect(f, m, bits)
	return &traceConn{c, p.t}, err
}

type traceConn struct {
	spi.Conn
	t *trace
}

func (c *traceConn) Tx(w, r []byte) error {
	*c.t = append(*c.t, fmt.Sprintf("tx w%d r%d", len(w), len(r)))
	return c.Conn.Tx(w, r)
}

func newRig(t *testing.T, o *Opts, reads ...[]byte) (*Dev, *tracePort, *trace) {
	t.Helper()
	tr := &trace{}
	pb := &spitest.Playback{}
	for _, r := range reads {
		pb.Ops = append(pb.Ops, conntest.IO{W: make([]byte, len(r)), R: r})
	}
	port := &tracePort{Playback: pb, t: tr}
	latch := &tracePin{Pin: gpiotest.Pin{N: "GPIO25", Num: 25}, t: tr}
	d, err := New(port, latch, o)
	if err != nil {
		t.Fatal(err)
	}
	return d, port, tr
}

func TestProtocol(t *testing.T) {
	read := make([]byte, 20)
	for i := range read {
		read[i] = 0xFF // all open: pull-ups read 1
	}
	read[0] = 0xFE  // chip 0 input A closed
	read[2] = 0x7F  // chip 2 input H closed
	read[19] = 0x00 // chip 19 all closed
	d, port, tr := newRig(t, nil, read, read)
	if port.speed != physic.MegaHertz || port.mode != spi.Mode0 || port.bitsPerWd != 8 {
		t.Errorf("Connect(%v, %v, %d), want 1MHz Mode0 8 bits", port.speed, port.mode, port.bitsPerWd)
	}
	var f sensors.Frame
	for range 2 {
		if err := d.Read(&f); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"GPIO25=High", "GPIO25=Low", "GPIO25=High", "tx w20 r20", "GPIO25=Low", "GPIO25=High", "tx w20 r20"}
	if fmt.Sprint(*tr) != fmt.Sprint(want) {
		t.Errorf("sequence\n got %v\nwant %v", *tr, want)
	}
	if err := port.Close(); err != nil {
		t.Errorf("not every expected transaction happened: %v", err)
	}
	var on []int
	for b := 0; b < sensors.MaxBits; b++ {
		if f.Bit(b) {
			on = append(on, b)
		}
	}
	wantOn := []int{0, 23, 152, 153, 154, 155, 156, 157, 158, 159}
	if fmt.Sprint(on) != fmt.Sprint(wantOn) {
		t.Errorf("closed bits %v, want %v", on, wantOn)
	}
	if d.Bits() != 160 {
		t.Errorf("Bits = %d", d.Bits())
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Opts
		read []byte
		want []int // set frame bits
	}{
		{"lsb first", Opts{Chips: 2, LSBFirst: true}, []byte{0xFE, 0xBF}, []int{7, 9}},
		{"active high", Opts{Chips: 2, ActiveHigh: true}, []byte{0x81, 0x00}, []int{0, 7}},
		{"21 chips", Opts{Chips: 21}, append(bytesOf(20, 0xFF), 0xFE), []int{160}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, _, _ := newRig(t, &tc.opts, tc.read)
			var f sensors.Frame
			if err := d.Read(&f); err != nil {
				t.Fatal(err)
			}
			var on []int
			for b := 0; b < d.Bits(); b++ {
				if f.Bit(b) {
					on = append(on, b)
				}
			}
			if fmt.Sprint(on) != fmt.Sprint(tc.want) {
				t.Errorf("closed bits %v, want %v", on, tc.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	tr := &trace{}
	latch := &tracePin{Pin: gpiotest.Pin{N: "GPIO25"}, t: tr}
	if _, err := New(&spitest.Playback{}, latch, &Opts{Chips: 41}); err == nil {
		t.Error("41 chips accepted")
	}
	if _, err := New(nil, latch, nil); err == nil {
		t.Error("nil port accepted")
	}
}

// chainPort fakes the whole chain for a scan benchmark: it answers each
// read with the bytes a 20-chip board wired in the standard map would
// shift out for the occupancy in occ.
type chainPort struct {
	spitest.RecordRaw
	bytes []byte
}

func (p *chainPort) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) { return p, nil }
func (p *chainPort) Tx(w, r []byte) error                                      { copy(r, p.bytes); return nil }
func (p *chainPort) TxPackets([]spi.Packet) error                              { return nil }

func chainBytes(occ square.Set) []byte {
	var f sensors.Frame
	sensors.StandardMap().Frame(occ, &f)
	out := make([]byte, 20)
	for i := range out {
		out[i] = ^byte(f[i>>3] >> (8 * uint(i&7)))
	}
	return out
}

func TestScanThroughChain(t *testing.T) {
	start := sim.StartPosition()
	p := &chainPort{bytes: chainBytes(start)}
	d, err := New(p, &gpiotest.Pin{N: "GPIO25"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sensors.NewScanner(d, sensors.StandardMap(), sensors.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Step(t0); err != nil {
		t.Fatal(err)
	}
	if got, _ := sc.Snapshot(); got != start {
		t.Errorf("snapshot %v, want the start position", got)
	}
}

// BenchmarkScan is one full scan + debounce step on the simulated SPI
// chain: latch pulse, 20-byte transaction, decode, map, debounce.
func BenchmarkScan(b *testing.B) {
	start := sim.StartPosition()
	moved := start
	e2, _ := square.Parse("e2")
	e4, _ := square.Parse("e4")
	moved.Remove(e2)
	moved.Add(e4)
	frames := [][]byte{chainBytes(start), chainBytes(moved)}
	p := &chainPort{bytes: frames[0]}
	d, err := New(p, &gpiotest.Pin{N: "GPIO25"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	events := 0
	sc, err := sensors.NewScanner(d, sensors.StandardMap(), sensors.Config{OnEvent: func(sensors.Event) { events++ }})
	if err != nil {
		b.Fatal(err)
	}
	now := t0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p.bytes = frames[(i/50)&1] // a move every 50 scans
		now = now.Add(sensors.DefaultPeriod)
		if err := sc.Step(now); err != nil {
			b.Fatal(err)
		}
	}
	if b.N > 100 && events == 0 {
		b.Fatal("no events: the benchmark did not exercise debounce")
	}
}

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func bytesOf(n int, b byte) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// The 16×16 board (board_shape: square16): 32 chips, two per rank, read
// in one 32-byte transaction; byte k is chip k, and the standard layout
// makes chip 2r files a–h of rank r+1 and chip 2r+1 files i–p.
func TestThirtyTwoChipsSixteenBySixteen(t *testing.T) {
	read := bytesOf(32, 0xFF)
	read[0] = 0xFE  // chip 0 input A: a1
	read[1] = 0x7F  // chip 1 input H: p1
	read[6] = 0xEF  // chip 6 input E: e4 (rank 4 is chips 6 and 7)
	read[31] = 0x00 // chip 31: i16–p16
	d, port, tr := newRig(t, &Opts{Chips: 32}, read)
	if d.Bits() != 256 {
		t.Fatalf("Bits = %d, want 256", d.Bits())
	}
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	if want := []string{"GPIO25=High", "GPIO25=Low", "GPIO25=High", "tx w32 r32"}; fmt.Sprint(*tr) != fmt.Sprint(want) {
		t.Errorf("sequence\n got %v\nwant %v", *tr, want)
	}
	if err := port.Close(); err != nil {
		t.Errorf("not every expected transaction happened: %v", err)
	}
	var on []int
	for b := 0; b < sensors.MaxBits; b++ {
		if f.Bit(b) {
			on = append(on, b)
		}
	}
	if want := []int{0, 15, 52, 248, 249, 250, 251, 252, 253, 254, 255}; fmt.Sprint(on) != fmt.Sprint(want) {
		t.Errorf("closed bits %v, want %v", on, want)
	}
	m, err := sensors.StandardMapOn(square.Full(), d.Bits())
	if err != nil {
		t.Fatal(err)
	}
	var occ square.Set
	m.Apply(&f, &occ)
	if got := occ.String(); got != "{a1 p1 e4 i16 j16 k16 l16 m16 n16 o16 p16}" {
		t.Errorf("squares %s", got)
	}
}

// A whole 16×16 position through the 32-chip chain and the scanner.
func TestScanThroughThirtyTwoChips(t *testing.T) {
	var occ square.Set
	for f := 0; f < 16; f++ {
		for _, r := range []int{2, 3, 12, 13} { // the Fortress arrays' ranks, fortresses included
			occ.Add(square.At(f, r))
		}
	}
	m, err := sensors.StandardMapOn(square.Full(), 256)
	if err != nil {
		t.Fatal(err)
	}
	var fr sensors.Frame
	m.Frame(occ, &fr)
	bytes := make([]byte, 32)
	for i := range bytes {
		bytes[i] = ^byte(fr[i>>3] >> (8 * uint(i&7)))
	}
	if bytes[4] != 0x00 || bytes[0] != 0xFF { // rank 3 a–h all closed, rank 1 open
		t.Errorf("chain bytes %x", bytes)
	}
	d, err := New(&chainPort{bytes: bytes}, &gpiotest.Pin{N: "GPIO25"}, &Opts{Chips: 32})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sensors.NewScanner(d, m, sensors.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Step(t0); err != nil {
		t.Fatal(err)
	}
	if got, _ := sc.Snapshot(); got != occ || got.Len() != 64 {
		t.Errorf("snapshot %v, want %v", got, occ)
	}
}
