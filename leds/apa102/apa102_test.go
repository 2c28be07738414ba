package apa102

import (
	"bytes"
	"testing"

	"boardd/leds"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi/spitest"
)

func TestEncodeBytes(t *testing.T) {
	px := []leds.Color{{R: 0x11, G: 0x22, B: 0x33}, {R: 0xFF}}
	got := Encode(nil, px, 31)
	want := []byte{
		0, 0, 0, 0, // start frame: 32 zero bits
		0xFF, 0x33, 0x22, 0x11, // 0b111 + brightness 31, then B, G, R
		0xFF, 0x00, 0x00, 0xFF,
		0, 0, 0, 0, // reset frame: 32 zero bits, on which an SK9822 shows the frame
		0, // end frame: n/2 = 1 zero bit, rounded up to a byte
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Encode = % x\nwant     % x", got, want)
	}
	if b := Encode(nil, px[:1], 3)[4]; b != 0xE3 {
		t.Errorf("brightness byte %#x, want 0xe3", b)
	}
	// 160 LEDs: 4 + 640 + 4 + 10 bytes (reset frame, 80 zero bits).
	if n := len(Encode(nil, make([]leds.Color, 160), 31)); n != 658 || FrameBytes(160) != 658 {
		t.Errorf("160 LEDs encode to %d bytes (FrameBytes %d), want 658", n, FrameBytes(160))
	}
}

func TestDevWritesOneTransaction(t *testing.T) {
	rec := &spitest.Record{}
	d, err := New(rec, 2, 4*physic.MegaHertz)
	if err != nil {
		t.Fatal(err)
	}
	px := []leds.Color{{R: 1, G: 2, B: 3}, {R: 4, G: 5, B: 6}}
	if err := d.Show(px); err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) != 1 || !bytes.Equal(rec.Ops[0].W, Encode(nil, px, 31)) {
		t.Errorf("SPI ops %+v", rec.Ops)
	}
	if err := d.Show(px[:1]); err == nil {
		t.Error("short frame accepted")
	}
}

func BenchmarkEncode160(b *testing.B) {
	px := make([]leds.Color, 160)
	buf := make([]byte, 0, 700)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = Encode(buf[:0], px, 31)
	}
}

// The 16×16 board's 256 LEDs: one transaction of 4 + 1024 + 4 + 16 bytes
// (reset frame, 128 zero bits of end frame), the last LED's bytes where
// they belong.
func TestDev256LEDs(t *testing.T) {
	rec := &spitest.Record{}
	d, err := New(rec, 256, 4*physic.MegaHertz)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]leds.Color, 256)
	px[255] = leds.Color{R: 0xAA, G: 0xBB, B: 0xCC}
	if err := d.Show(px); err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) != 1 || len(rec.Ops[0].W) != 1048 {
		t.Fatalf("SPI ops: %d, %d bytes, want one of 1048", len(rec.Ops), len(rec.Ops[0].W))
	}
	w := rec.Ops[0].W
	if !bytes.Equal(w[4+4*255:4+4*256], []byte{0xFF, 0xCC, 0xBB, 0xAA}) || !bytes.Equal(w[1028:], make([]byte, 20)) {
		t.Errorf("last LED % x, reset and end frame % x", w[4+4*255:4+4*256], w[1028:])
	}
}

// What an SK9822 makes of the bytes: it shows a frame only when it sees
// the next 32 zero bits after LED data. Walk the transaction as the strip
// does and check that each Show's picture is latched within that same
// transaction (not one Show late), for strips of every length up to the
// 16×16 board, and that the trailing bits hold no 0b111 LED header an
// APA102 chain longer than configured could take for a colour.
func TestSK9822LatchesEachFrame(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 16, 63, 64, 160, 256} {
		px := make([]leds.Color, n)
		for i := range px {
			px[i] = leds.Color{R: uint8(i), G: 0x80, B: 0x40}
		}
		b := Encode(nil, px, 31)
		data := b[4 : 4+4*n]
		for i := 0; i < n; i++ {
			if data[4*i]>>5 != 0b111 {
				t.Fatalf("%d LEDs: LED %d header %#x", n, i, data[4*i])
			}
		}
		tail := b[4+4*n:]
		if len(tail) < ResetBytes || !bytes.Equal(tail[:ResetBytes], []byte{0, 0, 0, 0}) {
			t.Errorf("%d LEDs: no 32-bit zero reset frame after the data: % x", n, tail)
		}
		if !bytes.Equal(tail, make([]byte, len(tail))) {
			t.Errorf("%d LEDs: trailing bytes not all zero: % x", n, tail)
		}
		// n/2 clock edges at least after the reset frame reach the last LED.
		if bits := 8 * (len(tail) - ResetBytes); bits < n/2 {
			t.Errorf("%d LEDs: %d end-frame bits, want at least %d", n, bits, n/2)
		}
	}
}
