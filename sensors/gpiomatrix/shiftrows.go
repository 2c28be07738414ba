package gpiomatrix

import (
	"errors"
	"fmt"

	"periph.io/x/conn/v3/spi"
)

// ShiftRows drives rows through a chain of 74HC595 shift registers on an
// SPI port: MOSI to the first chip's SER, SCLK to every SRCLK, the port's
// chip select to every RCLK (the outputs latch as CS rises at the end of
// the transaction), OE to GND, SRCLR to 3.3 V. Row r is output Q(r mod 8)
// of chip r/8, chip 0 nearest the Pi; the selected row is low, the others
// high. Each Select is one transaction of (rows+7)/8 bytes.
type ShiftRows struct {
	c   spi.Conn
	n   int
	buf []byte
}

// NewShiftRows returns a selector for rows rows on c (connected in
// spi.Mode0, 8 bits per word, MSB first).
func NewShiftRows(c spi.Conn, rows int) (*ShiftRows, error) {
	if c == nil || rows < 1 {
		return nil, errors.New("gpiomatrix: ShiftRows needs an SPI connection and at least one row")
	}
	return &ShiftRows{c: c, n: rows, buf: make([]byte, (rows+7)/8)}, nil
}

// Rows implements RowSelector.
func (s *ShiftRows) Rows() int { return s.n }

// Select implements RowSelector.
func (s *ShiftRows) Select(r int) error {
	for i := range s.buf {
		s.buf[i] = 0xFF
	}
	// The first byte shifted ends in the last chip: chip k is byte n-1-k.
	s.buf[len(s.buf)-1-r/8] &^= 1 << (uint(r) % 8)
	if err := s.c.Tx(s.buf, nil); err != nil {
		return fmt.Errorf("74HC595 rows: %w", err)
	}
	return nil
}

// Release implements RowSelector: every output high.
func (s *ShiftRows) Release() error {
	for i := range s.buf {
		s.buf[i] = 0xFF
	}
	if err := s.c.Tx(s.buf, nil); err != nil {
		return fmt.Errorf("74HC595 rows: %w", err)
	}
	return nil
}
