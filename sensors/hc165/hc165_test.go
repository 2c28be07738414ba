package hc165

import (
	"errors"
	"fmt"
	"strings"
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
	pb.DontPanic = true
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
	read[0] = 0xFE            // chip 0 input A closed
	read[2] = 0x7F            // chip 2 input H closed
	read[19] = 0x00           // chip 19 all closed
	read = append(read, 0x00) // the check byte: zeros from the last chip's grounded SER
	d, port, tr := newRig(t, nil, read, read)
	if port.speed != physic.MegaHertz || port.mode != spi.Mode2 || port.bitsPerWd != 8 {
		t.Errorf("Connect(%v, %v, %d), want 1MHz Mode2 8 bits", port.speed, port.mode, port.bitsPerWd)
	}
	var f sensors.Frame
	for range 2 {
		if err := d.Read(&f); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"GPIO25=High", "GPIO25=Low", "GPIO25=High", "tx w21 r21", "GPIO25=Low", "GPIO25=High", "tx w21 r21"}
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
		{"lsb first", Opts{Chips: 2, LSBFirst: true}, []byte{0xFE, 0xBF, 0}, []int{7, 9}},
		{"active high", Opts{Chips: 2, ActiveHigh: true}, []byte{0x81, 0x00, 0}, []int{0, 7}},
		{"21 chips", Opts{Chips: 21}, append(bytesOf(20, 0xFF), 0xFE, 0), []int{160}},
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

// The check byte after the chain: 0x00 is a sound chain; anything else is
// a *ChainError naming the byte and what to check, and the frame keeps
// its previous contents. The SPI mode: mode 2 by default, 0 and 3 on
// request, 1 refused; the bytes on the wire do not depend on it.
func TestChainCheckAndMode(t *testing.T) {
	mode := func(m spi.Mode) *spi.Mode { return &m }
	tests := []struct {
		name     string
		mode     *spi.Mode
		check    byte
		wantMode spi.Mode
		wantErr  string
	}{
		{"sound chain, default mode 2", nil, 0x00, spi.Mode2, ""},
		{"sound chain, mode 0", mode(spi.Mode0), 0x00, spi.Mode0, ""},
		{"sound chain, mode 3", mode(spi.Mode3), 0x00, spi.Mode3, ""},
		{"MISO floating high", nil, 0xFF, spi.Mode2, "hc165: chain check failed: the byte after 3 chips read 0xff, want 0x00"},
		{"a fourth chip, chips: 3", nil, 0xFE, spi.Mode2, "the byte after 3 chips read 0xfe"},
		{"one bit of noise", mode(spi.Mode0), 0x01, spi.Mode0, "read 0x01"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			read := []byte{0xFE, 0xFF, 0x7F, tc.check}
			d, port, tr := newRig(t, &Opts{Chips: 3, Mode: tc.mode}, read)
			if port.mode != tc.wantMode {
				t.Errorf("connected in mode %d, want %d", port.mode, tc.wantMode)
			}
			var f sensors.Frame
			f.Set(5, true) // the previous scan's frame
			err := d.Read(&f)
			if want := []string{"GPIO25=High", "GPIO25=Low", "GPIO25=High", "tx w4 r4"}; fmt.Sprint(*tr) != fmt.Sprint(want) {
				t.Errorf("sequence %v, want %v", *tr, want)
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !f.Bit(0) || !f.Bit(23) || f.Bit(5) || f.Bit(24) {
					t.Errorf("frame %x, want bits 0 and 23", f)
				}
				return
			}
			var ce *ChainError
			if !errors.As(err, &ce) || ce.Got != tc.check || ce.Chips != 3 || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want a *ChainError containing %q", err, tc.wantErr)
			}
			if !f.Bit(5) || f.Bit(0) {
				t.Errorf("a failed check changed the frame: %x", f)
			}
		})
	}
	if _, err := New(&spitest.Playback{}, &gpiotest.Pin{N: "GPIO25"}, &Opts{Mode: mode(spi.Mode1)}); err == nil || !strings.Contains(err.Error(), "SPI mode 1") {
		t.Errorf("mode 1: %v, want refused", err)
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
	out := make([]byte, 21) // 20 chips and the check byte
	for i := range out[:20] {
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
	read = append(read, 0x00)
	d, port, tr := newRig(t, &Opts{Chips: 32}, read)
	if d.Bits() != 256 {
		t.Fatalf("Bits = %d, want 256", d.Bits())
	}
	var f sensors.Frame
	if err := d.Read(&f); err != nil {
		t.Fatal(err)
	}
	if want := []string{"GPIO25=High", "GPIO25=Low", "GPIO25=High", "tx w33 r33"}; fmt.Sprint(*tr) != fmt.Sprint(want) {
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
	bytes := make([]byte, 33) // 32 chips and the check byte
	for i := range bytes[:32] {
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

// cut is what a 20-chip chain shifts out when the link into chip k's SER
// is open and the floating input reads level: chips 0..k read their own
// inputs, every byte after them (chip k+1's onwards and the check byte)
// passes through the open SER. k = -1 is MISO itself floating.
func cut(bytes []byte, k int, level byte) []byte {
	out := append([]byte(nil), bytes...)
	for i := k + 1; i < len(out); i++ {
		out[i] = level
	}
	return out
}

// A broken chain names the chip and the wire to check first, from where
// the bytes start to read like the check byte, whatever the open input
// floats to.
func TestChainErrorNamesTheChip(t *testing.T) {
	start := chainBytes(sim.StartPosition()) // chips 2 and 17 (ranks 3 and 12) read 0xff: no piece there
	tests := []struct {
		name     string
		bytes    []byte
		wantFrom int
		wantHint string
	}{
		{"link into chip 9's SER open, floating high", cut(start, 9, 0xFF), 10, "check the wire from chip 10's QH (pin 9) to chip 9's SER (pin 10) first"},
		{"link into chip 9's SER open, floating at 0x5a", cut(start, 9, 0x5A), 10, "chips 10 to 19 read 0x5a"},
		{"link into chip 0's SER open", cut(start, 0, 0xFF), 1, "between chip 0 and chip 1"},
		// Chip 2's squares are all empty and read 0xff like the floating
		// input: the hint starts one chip early and says to go on.
		{"link into chip 2's SER open: chip 2 reads empty", cut(start, 2, 0xFF), 2, "between chip 1 and chip 2 or further along"},
		{"last chip's SER not grounded", cut(start, 19, 0xFF), 20, "tie the last chip's (chip 19's) SER (pin 10) to GND"},
		{"MISO floating", cut(start, -1, 0xFF), 0, "no chip answers: check the wire from chip 0's QH (pin 9) to MISO"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := New(&chainPort{bytes: tc.bytes}, &gpiotest.Pin{N: "GPIO25"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var f sensors.Frame
			err = d.Read(&f)
			var ce *ChainError
			if !errors.As(err, &ce) {
				t.Fatalf("Read: %v, want a *ChainError", err)
			}
			if ce.From != tc.wantFrom || ce.Chip() != tc.wantFrom-1 {
				t.Errorf("From %d, Chip %d; want %d, %d", ce.From, ce.Chip(), tc.wantFrom, tc.wantFrom-1)
			}
			if !strings.Contains(err.Error(), tc.wantHint) || !strings.HasPrefix(err.Error(), "hc165: chain check failed: the byte after 20 chips read") {
				t.Errorf("error %q\nwant it to contain %q", err, tc.wantHint)
			}
		})
	}
}

// Through the scanner: a chain cut while the board is in play raises one
// Unreadable fault carrying the *ChainError and keeps the last good state;
// mended, it clears once and reports what moved meanwhile.
func TestBrokenChainIsAFault(t *testing.T) {
	start := sim.StartPosition()
	p := &chainPort{bytes: chainBytes(start)}
	d, err := New(p, &gpiotest.Pin{N: "GPIO25"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var events []sensors.Event
	sc, err := sensors.NewScanner(d, sensors.StandardMap(), sensors.Config{OnEvent: func(e sensors.Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	scan := func(n int) (failed int) {
		for range n {
			now = now.Add(sensors.DefaultPeriod)
			if sc.Step(now) != nil {
				failed++
			}
		}
		return failed
	}
	scan(10)
	p.bytes = cut(p.bytes, 9, 0xFF)
	if n := scan(200); n != 200 {
		t.Fatalf("%d of 200 scans failed on a cut chain", n)
	}
	if len(events) != 1 || events[0].Kind != sensors.Fault || events[0].Cause != sensors.Unreadable {
		t.Fatalf("events %v, want one unreadable fault", events)
	}
	var ce *ChainError
	if !errors.As(events[0].Err, &ce) || ce.Chip() != 9 {
		t.Errorf("fault's error %v, want the chain error at chip 9", events[0].Err)
	}
	if occ, _ := sc.Snapshot(); occ != start {
		t.Error("the cut chain's scans changed the board")
	}
	moved := start
	h2, _ := square.Parse("h2")
	moved.Remove(h2)
	p.bytes = chainBytes(moved) // mended, and h2 lifted meanwhile
	if n := scan(400); n != 0 {
		t.Fatalf("%d scans failed on a mended chain", n)
	}
	if fmt.Sprint(events[1:]) != "[lift h2 restored]" {
		t.Errorf("events after mending %v, want the lift and one restored", events[1:])
	}
}
