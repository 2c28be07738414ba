package ws2812

import (
	"fmt"
	"testing"

	"boardd/internal/pi"
	"boardd/leds/ledreg"
)

// The driver tells boardd doctor the core clock every Pi whose core clock
// scales needs (Pi 1/Zero/Zero W, Pi 3/Zero 2 W, Pi 4), and nothing for
// the Pis whose SPI clock does not move (Pi 2 at its fixed 250 MHz, Pi 5).
func TestBootSettings(t *testing.T) {
	d := ledreg.Lookup("ws2812")
	if d == nil || d.Boot == nil || d.Strip == nil || d.Pins == nil {
		t.Fatalf("ws2812 registered as %+v", d)
	}
	tests := []struct {
		kind pi.Kind
		want string
	}{
		{pi.Pi1, "[[core_freq 250]]"},
		{pi.Pi2, "none"},
		{pi.Pi3, "[[core_freq 250]]"},
		{pi.Pi4, "[[core_freq 500] [core_freq_min 500]]"},
		{pi.Pi5, "none"},
		{pi.NotPi, "none"},
	}
	for _, tc := range tests {
		got := "none"
		if b := d.Boot(tc.kind); b != nil {
			got = fmt.Sprint(b.Settings)
		}
		if got != tc.want {
			t.Errorf("%v: %s, want %s", tc.kind, got, tc.want)
		}
	}
}
