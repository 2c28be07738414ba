package ws2812

import (
	"bytes"
	"testing"

	"boardd/leds"

	"periph.io/x/conn/v3/spi/spitest"
)

func TestEncodeNRZ(t *testing.T) {
	tests := []struct {
		b    byte
		want [3]byte
	}{
		{0x00, [3]byte{0x92, 0x49, 0x24}}, // 100 ×8
		{0xFF, [3]byte{0xDB, 0x6D, 0xB6}}, // 110 ×8
		{0x80, [3]byte{0xD2, 0x49, 0x24}}, // 110 then 100 ×7
		{0x01, [3]byte{0x92, 0x49, 0x26}}, // 100 ×7 then 110
	}
	for _, tt := range tests {
		if expand[tt.b] != tt.want {
			t.Errorf("expand[%#02x] = % x, want % x", tt.b, expand[tt.b], tt.want)
		}
	}
	got := Encode(nil, []leds.Color{{R: 0xFF, G: 0x00, B: 0x80}})
	want := append(append(append([]byte{0, 0, 0}, 0x92, 0x49, 0x24), 0xDB, 0x6D, 0xB6), 0xD2, 0x49, 0x24) // G, R, B
	want = append(want, make([]byte, ResetBytes)...)
	if !bytes.Equal(got, want) {
		t.Errorf("Encode = % x\nwant     % x", got, want)
	}
}

// nrzMSB3 is periph nrzled's bit-shift derivation of the same symbols,
// an independent oracle for the table built in init.
func nrzMSB3(b byte) [3]byte {
	out := uint32(0x924924)
	for i := 7; i >= 0; i-- {
		out |= uint32(b>>i&1) << (3*i + 1)
	}
	return [3]byte{byte(out >> 16), byte(out >> 8), byte(out)}
}

func TestExpandMatchesPeriph(t *testing.T) {
	for b := 0; b < 256; b++ {
		if want := nrzMSB3(byte(b)); expand[b] != want {
			t.Fatalf("expand[%#02x] = % x, periph's nrzled gives % x", b, expand[b], want)
		}
	}
}

func TestDev(t *testing.T) {
	rec := &spitest.Record{}
	d, err := New(rec, 1)
	if err != nil {
		t.Fatal(err)
	}
	px := []leds.Color{{R: 9}}
	if err := d.Show(px); err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) != 1 || !bytes.Equal(rec.Ops[0].W, Encode(nil, px)) || len(rec.Ops[0].W) != LeadBytes+9+ResetBytes {
		t.Errorf("SPI ops %+v", rec.Ops)
	}
}

func BenchmarkEncode160(b *testing.B) {
	px := make([]leds.Color, 160)
	buf := make([]byte, 0, LeadBytes+9*160+ResetBytes)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = Encode(buf[:0], px)
	}
}

// The 16×16 board's 256 LEDs fit one spidev transfer (under its default
// 4096-byte buffer).
func TestDev256LEDs(t *testing.T) {
	rec := &spitest.Record{}
	d, err := New(rec, 256)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]leds.Color, 256)
	px[255] = leds.Color{G: 0x80}
	if err := d.Show(px); err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) != 1 || !bytes.Equal(rec.Ops[0].W, Encode(nil, px)) || len(rec.Ops[0].W) != LeadBytes+9*256+ResetBytes || len(rec.Ops[0].W) > 4096 {
		t.Errorf("SPI ops: %d, want one of %d bytes", len(rec.Ops), LeadBytes+9*256+ResetBytes)
	}
}
