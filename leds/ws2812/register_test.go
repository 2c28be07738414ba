package ws2812

import (
	"fmt"
	"testing"

	"boardd/internal/pi"
	"boardd/leds/ledreg"
)

// The driver tells boardd doctor the core clock a Pi 3 or 4 needs, and
// nothing for the Pis whose SPI clock does not follow it.
func TestBootSettings(t *testing.T) {
	d := ledreg.Lookup("ws2812")
	if d == nil || d.Boot == nil || d.Strip == nil || d.Pins == nil {
		t.Fatalf("ws2812 registered as %+v", d)
	}
	tests := []struct {
		kind pi.Kind
		want string
	}{
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
