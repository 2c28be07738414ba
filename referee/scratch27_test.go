package referee

import (
	"testing"
)

func TestScratch27(t *testing.T) {
	for _, tc := range []struct{ variant, moves, tr string }{
		{"teams", "h2-h3 b9-c9 e13-e12 m6-l6", "-g1 +h2 +i3 -h2 -a8 +b9"},
		{"teams", "h2-h3 b9-c9 e13-e12 m6-l6", "+h2 -g1 -h2 +i3 -a8 +b9"},
		{"teams", "h2-h3 b9-c9 e13-e12 m6-l6", "+h2 -g1 +i3 -h2 -a8 +b9"},
		{"ffa", "h2-h3 b9-c9 e13-e12", "-m4 +l4 +k4 -l4"},
		{"ffa", "h2-h3 b9-c9 e13-e12", "+l4 -m4 +k4 -l4"},
		{"ffa", "h2-h3 b9-c9 e13-e12", "-m4 +l4 +k4 -l4 -h3 +h4"},
		{"ffa", "h2-h3 b9-c9 e13-e12", "-m4 +l4 -l4 +k4 -h3 +h4"},
		{"ffa", "h2-h3 b9-c9 e13-e12", "-m4 +l4 -l4 +k4 -k4 +k4 -l4 +l4"},
		{"ffa", "h2-h3 b9-c9 e13-e12", "-m4 +l4 -l4 +k4 -l4 +l4"},
	} {
		r := refAfter(t, tc.variant, tc.moves)
		evs := feed(r, tc.tr)
		t.Logf("%s: %s %v", tc.tr, events(evs), evs)
	}
}
