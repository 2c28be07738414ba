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
		0xFF, 0xFF, 0xFF, 0xFF, // end frame: at least n/2 one bits (4 bytes minimum)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Encode = % x\nwant     % x", got, want)
	}
	if b := Encode(nil, px[:1], 3)[4]; b != 0xE3 {
		t.Errorf("brightness byte %#x, want 0xe3", b)
	}
	// 160 LEDs: 4 + 640 + 10 bytes (80 one bits).
	if n := len(Encode(nil, make([]leds.Color, 160), 31)); n != 654 {
		t.Errorf("160 LEDs encode to %d bytes, want 654", n)
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

// The 16×16 board's 256 LEDs: one transaction of 4 + 1024 + 16 bytes
// (128 one bits of end frame), the last LED's bytes where they belong.
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
	if len(rec.Ops) != 1 || len(rec.Ops[0].W) != 1044 {
		t.Fatalf("SPI ops: %d, %d bytes, want one of 1044", len(rec.Ops), len(rec.Ops[0].W))
	}
	w := rec.Ops[0].W
	if !bytes.Equal(w[4+4*255:4+4*256], []byte{0xFF, 0xCC, 0xBB, 0xAA}) || !bytes.Equal(w[1028:], bytes.Repeat([]byte{0xFF}, 16)) {
		t.Errorf("last LED % x, end frame % x", w[4+4*255:4+4*256], w[1028:])
	}
}
