package hc165

import (
	"errors"
	"strings"
	"testing"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"boardd/configs"
	"boardd/internal/pi"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
)

// simChain is a bit-level model of a 74HC165 chain behind one SPI
// controller, from the facts the driver relies on: SH/LD low loads every
// chip's inputs; each rising clock edge while SH/LD is high shifts the
// chain one place towards MISO (74HC165 datasheet); the controller samples
// MISO once per bit, before that bit's shift takes effect (mode 2: on the
// falling edge; modes 0 and 3: on the rising edge, the chip's propagation
// delay keeping the old bit). An auxiliary controller (spi-bcm2835aux)
// clears CPOL after every message, so in a CPOL=1 mode the clock rises
// once as a message starts, before the first bit: one extra shift.
type simChain struct {
	inputs    []byte // per board chip, H as bit 7, chip 0 (on MISO) first
	checkChip bool
	aux       bool
	mode      spi.Mode
	reg       []bool // the chain's bits, chip 0's QH first
}

func (s *simChain) String() string                    { return "simChain" }
func (s *simChain) Close() error                      { return nil }
func (s *simChain) LimitSpeed(physic.Frequency) error { return nil }
func (s *simChain) Duplex() conn.Duplex               { return conn.Full }
func (s *simChain) TxPackets([]spi.Packet) error      { return errors.New("not used") }
func (s *simChain) Connect(_ physic.Frequency, m spi.Mode, _ int) (spi.Conn, error) {
	if s.aux && m&spi.Mode1 != 0 {
		return nil, errors.New("spi-bcm2835aux: CPHA not supported") // mode_bits has no SPI_CPHA
	}
	s.mode = m
	return s, nil
}

// load is SH/LD low: every chip takes its inputs.
func (s *simChain) load() {
	s.reg = s.reg[:0]
	bytes := s.inputs
	if s.checkChip {
		bytes = append(append([]byte{}, bytes...), CheckPattern)
	}
	for _, b := range bytes {
		for i := 7; i >= 0; i-- {
			s.reg = append(s.reg, b>>i&1 == 1)
		}
	}
}

func (s *simChain) shift() {
	if len(s.reg) > 0 {
		s.reg = s.reg[1:] // the last SER is grounded: zeros come in behind
	}
}

func (s *simChain) Tx(w, r []byte) error {
	if s.aux && s.mode&spi.Mode2 != 0 {
		s.shift() // the clock rises from its low idle as the message starts
	}
	for i := range r {
		var b byte
		for range 8 {
			b <<= 1
			if len(s.reg) > 0 && s.reg[0] {
				b |= 1
			}
			s.shift()
		}
		r[i] = b
	}
	return nil
}

// latchPin loads the chain when driven low.
type latchPin struct {
	gpiotest.Pin
	s *simChain
}

func (p *latchPin) Out(l gpio.Level) error {
	if l == gpio.Low {
		p.s.load()
	}
	return p.Pin.Out(l)
}

// On the auxiliary controller, mode 2 loses chip 0's input H and moves
// every square one bit along; with grounded SER the check byte still
// reads 0x00 (the scan passes, wrong). The check chip's pattern arrives
// one bit along and the scan is refused, naming the slip; mode 0 — what
// ModeFor picks there — reads the board as it is. A full controller reads
// it right in mode 2.
func TestAuxControllerSlipsInMode2(t *testing.T) {
	// Chip 0's input H closed (reads 0, active low), everything else open.
	inputs := []byte{0x7F, 0xFF, 0xFF}
	read := func(aux, checkChip bool, mode spi.Mode) (sensors.Frame, error) {
		s := &simChain{inputs: inputs, aux: aux, checkChip: checkChip}
		d, err := New(s, &latchPin{Pin: gpiotest.Pin{N: "GPIO16"}, s: s}, &Opts{Chips: 3, Mode: &mode, CheckChip: checkChip})
		if err != nil {
			return sensors.Frame{}, err
		}
		var f sensors.Frame
		return f, d.Read(&f)
	}
	// Bit 7 is chip 0's H; a one-bit slip reads it as bit 6... and the
	// closed H disappears (H is shifted out before the first sample).
	only := func(f sensors.Frame, bit int) bool {
		for b := range 24 {
			if f.Bit(b) != (b == bit) {
				return false
			}
		}
		return true
	}
	f, err := read(true, false, spi.Mode2)
	if err != nil || only(f, 7) {
		t.Errorf("aux, mode 2, grounded SER: %v, frame %x: want the wrong frame to pass (the blind spot the check chip closes)", err, f)
	}
	_, err = read(true, true, spi.Mode2)
	var ce *ChainError
	if !errors.As(err, &ce) || ce.Slip != 1 || !strings.Contains(ce.Hint(), "spi_mode: auto") {
		t.Errorf("aux, mode 2, check chip: %v, want a ChainError with Slip 1 naming spi_mode", err)
	}
	for _, tc := range []struct {
		aux  bool
		mode spi.Mode
	}{{true, ModeFor(pi.Pi4, 1)}, {true, ModeFor(pi.Pi1, 1)}, {false, ModeFor(pi.Pi5, 1)}, {false, ModeFor(pi.Pi4, 6)}, {false, spi.Mode0}, {false, spi.Mode3}} {
		f, err := read(tc.aux, true, tc.mode)
		if err != nil || !only(f, 7) {
			t.Errorf("aux %v, mode %d: %v, frame %x: want only chip 0's H (bit 7)", tc.aux, tc.mode, err, f)
		}
	}
	if _, err := read(true, true, spi.Mode3); err == nil || !strings.Contains(err.Error(), "CPHA") {
		t.Errorf("aux, mode 3: %v, want the kernel's refusal", err)
	}
}

// The check chip's pattern reads differently for each slip of 1 to 7 bits,
// so the error says by how much.
func TestCheckPatternNamesEverySlip(t *testing.T) {
	for k := 1; k < 8; k++ {
		s := &simChain{inputs: []byte{0xFF, 0xFF}, checkChip: true}
		var mode = spi.Mode0
		d, err := New(s, &latchPin{Pin: gpiotest.Pin{N: "GPIO16"}, s: s}, &Opts{Chips: 2, Mode: &mode, CheckChip: true})
		if err != nil {
			t.Fatal(err)
		}
		d.latch.Out(gpio.Low)
		d.latch.Out(gpio.High)
		for range k {
			s.shift()
		}
		d.c.Tx(d.w, d.r)
		var ce *ChainError
		if err := d.check(); !errors.As(err, &ce) || ce.Slip != k {
			t.Errorf("slip %d: %v", k, err)
		}
	}
}

// The mode per controller: auto is 0 on the auxiliary controller (SPI1
// and SPI2 of a Pi 1-4 and the Zeros) and 2 on a full one; mode 2 there
// slips and mode 3 is refused by the kernel; mode 1 is refused everywhere.
func TestModeOnController(t *testing.T) {
	tests := []struct {
		kind    pi.Kind
		bus     int
		setting string
		want    spi.Mode
		wantErr string
	}{
		{pi.Pi1, 1, "auto", spi.Mode0, ""},
		{pi.Pi3, 1, "", spi.Mode0, ""},
		{pi.Pi4, 1, "auto", spi.Mode0, ""},
		{pi.Pi4, 6, "auto", spi.Mode2, ""},
		{pi.Pi5, 1, "auto", spi.Mode2, ""},
		{pi.Pi4, 0, "auto", spi.Mode2, ""},
		{pi.Pi4, 1, "0", spi.Mode0, ""},
		{pi.Pi5, 1, "2", spi.Mode2, ""},
		{pi.Pi5, 1, "3", spi.Mode3, ""},
		{pi.Pi3, 0, "3", spi.Mode3, ""},
		{pi.Pi2, 1, "2", 0, "mode 2 on SPI1 of a Pi 2 loses a bit"},
		{pi.Pi1, 1, "2", 0, "loses a bit"},
		{pi.Pi4, 1, "3", 0, "the kernel refuses mode 3"},
		{pi.Pi5, 1, "1", 0, `"1": want auto`},
	}
	for _, tc := range tests {
		m, err := modeOn(tc.kind, tc.bus, tc.setting)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s SPI%d %q: %v, want %q", tc.kind, tc.bus, tc.setting, err, tc.wantErr)
			}
			continue
		}
		if err != nil || m != tc.want {
			t.Errorf("%s SPI%d %q: mode %d, %v; want %d", tc.kind, tc.bus, tc.setting, m, err, tc.want)
		}
	}
}

// The config check on a Pi refuses a mode that Pi's controller cannot do;
// on a machine that is not a Pi it refuses only what no controller does.
func TestConfigCheckReadsTheModel(t *testing.T) {
	defer func(f func() pi.Kind) { thisPi = f }(thisPi)
	cfg := "sensors:\n  driver: hc165\n  hc165:\n    spi_mode: 2\n"
	for _, tc := range []struct {
		kind    pi.Kind
		wantErr string
	}{{pi.Pi4, "line 4: sensors.hc165.spi_mode: mode 2 on SPI1 of a Pi 4 loses a bit"}, {pi.Pi3, "loses a bit"}, {pi.Pi5, ""}, {pi.NotPi, ""}} {
		thisPi = func() pi.Kind { return tc.kind }
		_, err := configs.Parse("f.yaml", []byte(cfg), sensorreg.Check)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: %v, want %q", tc.kind, err, tc.wantErr)
		}
	}
}
