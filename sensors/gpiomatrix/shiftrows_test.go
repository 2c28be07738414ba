package gpiomatrix

import (
	"testing"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

// TestShiftRowsBytes checks the exact bytes for 16 rows on two 74HC595s.
func TestShiftRowsBytes(t *testing.T) {
	pb := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: []conntest.IO{
		{W: []byte{0xFF, 0xFF}}, // Release
		{W: []byte{0xFF, 0xFE}}, // row 0: chip 0 Q0
		{W: []byte{0xFF, 0x7F}}, // row 7: chip 0 Q7
		{W: []byte{0xFE, 0xFF}}, // row 8: chip 1 Q0
		{W: []byte{0xBF, 0xFF}}, // row 14: chip 1 Q6
	}}}
	c, err := pb.Connect(physic.MegaHertz, spi.Mode0, 8)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewShiftRows(c, 16)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Release(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []int{0, 7, 8, 14} {
		if err := s.Select(r); err != nil {
			t.Fatalf("row %d: %v", r, err)
		}
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}
