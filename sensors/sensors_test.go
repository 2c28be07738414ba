package sensors

import "testing"

// A rate check suggests the roundest rate that fits.
func TestRoundRate(t *testing.T) {
	for max, want := range map[float64]int{357: 200, 200: 200, 150: 100, 43: 25, 40: 25, 24.9: 10, 3: 10} {
		if got := RoundRate(max); got != want {
			t.Errorf("RoundRate(%v) = %d, want %d", max, got, want)
		}
	}
}
