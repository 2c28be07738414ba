package sensors_test

import (
	"slices"
	"testing"

	"boardd/sensors"
)

// bitsSource is a fixed Source for tests.
type bitsSource struct {
	n  int
	on []int
}

func (s bitsSource) Bits() int { return s.n }
func (s bitsSource) Read(f *sensors.Frame) error {
	*f = sensors.Frame{}
	for _, b := range s.on {
		f.Set(b, true)
	}
	return nil
}

func TestConcat(t *testing.T) {
	src, err := sensors.Concat(bitsSource{112, []int{0, 111}}, bitsSource{56, []int{0, 55}})
	if err != nil {
		t.Fatal(err)
	}
	if src.Bits() != 168 {
		t.Errorf("Bits = %d", src.Bits())
	}
	var f sensors.Frame
	if err := src.Read(&f); err != nil {
		t.Fatal(err)
	}
	var on []int
	for b := 0; b < sensors.MaxBits; b++ {
		if f.Bit(b) {
			on = append(on, b)
		}
	}
	if want := []int{0, 111, 112, 167}; !slices.Equal(on, want) {
		t.Errorf("bits %v, want %v", on, want)
	}
	if _, err := sensors.Concat(bitsSource{200, nil}, bitsSource{130, nil}); err == nil {
		t.Error("330 bits accepted")
	}
}
