package doctor

import (
	"errors"
	"strings"
	"testing"

	"boardd/sensors"
	"boardd/sensors/hc165"
)

// flakySource fails every third read with a chain error.
type flakySource struct{ n int }

func (s *flakySource) Bits() int { return 160 }
func (s *flakySource) Read(*sensors.Frame) error {
	s.n++
	if s.n%3 == 0 {
		return &hc165.ChainError{Chips: 20, Got: 0xff, From: 10}
	}
	return nil
}

// boardd doctor's live check reads many times, so a flickering chain
// fails it too, and the error still carries the chain's hint.
func TestDoctorReadsTheChainRepeatedly(t *testing.T) {
	err := ReadRepeatedly(&flakySource{}, 30, 0)
	var ce *hc165.ChainError
	if err == nil || !strings.HasPrefix(err.Error(), "10 of 30 reads failed, the first: hc165: chain check failed") || !errors.As(err, &ce) || ce.Chip() != 9 {
		t.Errorf("flickering chain: %v", err)
	}
	if err := ReadRepeatedly(&flakySource{}, 2, 0); err != nil {
		t.Errorf("two good reads: %v", err)
	}
}
