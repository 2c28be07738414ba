package systest

import (
	"strings"
	"testing"
)

// The fastest hands, at a real-looking pace through the switches, the
// debounce and a 400 ms quiet period: three players move before the
// board is quiet; a capture with a touch of another capturable square in
// the same quiet period, read on one reading and revised when the next
// move shows the other (the board says so, and never stops).
func TestFastHandsScripts(t *testing.T) {
	// Teams: Yellow's bishop on i11 may take Green's knight on k9 or
	// Blue's pawn on b4 (a position from a random game).
	teamsTwoCaptures := "j2-j3 b7-d7 d13-d12 m6-k6 k2-k3 a5-c4 j14-k12 n10-l11 i1-j2 a6-b7 k12-j14 m8-k8 j2-c9 b11-c11 d12-d11 m5-l5 j1-i3 b10-c10 j13-j12 n11-n10 h1-j1 b7-d9 g13-g12 m7-l7 d2-d3 a8-f3 e13-e11 l11-k9 h2-h4 f3-c6 f14-i11 m4-k4 g1-h1 c4-d2"
	for _, tc := range []struct {
		name, variant, prelude, script, want, said string
	}{
		{"three moves in one quiet period", "teams", "",
			"lift h2\nwait 240ms\nplace h3\nwait 150ms\nlift b7\nwait 210ms\nplace c7\nwait 120ms\nlift g13\nwait 260ms\nplace g12\nwait 600ms\n",
			"h2-h3 b7-c7 g13-g12", ""},
		{"three moves, the second player's knight over a pawn touched", "teams", "",
			"lift j1\nwait 300ms\nplace i3\nwait 90ms\nlift b6\nwait 350ms\nplace b6\nwait 200ms\nlift a10\nwait 280ms\nplace c9\nwait 110ms\nlift e13\nwait 330ms\nplace e11\nwait 600ms\n",
			"Nj1-i3 Na10-c9 e13-e11", ""},
		{"a capture and a touch: the reading the next move shows", "teams", teamsTwoCaptures,
			"lift i11\nwait 180ms\nlift k9\nwait 160ms\nplace k9\nwait 140ms\nlift b4\nwait 300ms\nplace b4\nwait 600ms\nlift n8\nwait 250ms\nplace m7\nwait 600ms\n",
			"Bi11xb4 Kn8-m7", "Yellow: Bi11xb4 (revised: Bi11xNk9; both fit the switches"},
		{"a capture and a touch: the reading played stands", "teams", teamsTwoCaptures,
			"lift i11\nwait 180ms\nlift k9\nwait 160ms\nplace k9\nwait 140ms\nlift b4\nwait 300ms\nplace b4\nwait 600ms\nlift k9\nwait 150ms\nlift n6\nwait 250ms\nplace k9\nwait 600ms\n",
			"Bi11xNk9 Bn6xBk9", ""},
		// Issue 27: Red's queen slid g1-h2-i3 (55 ms on h2, both
		// switches closed a moment on landing, contact bounce), Blue
		// lifted the queen on a8 270 ms after the landing and played
		// Qa8-b9.
		{"a quick reply after a slide", "teams", "h2-h3 b9-c9 e13-e12 m6-l6",
			"lift g1\nwait 30ms\nplace h2\nwait 55ms\nplace i3\nwait 10ms\nlift h2\nbounce i3 5\nwait 260ms\nlift a8\nwait 150ms\nplace b9\nwait 600ms\n",
			"Qg1-i3 Qa8-b9", ""},
		// Green's pawn slid m4-l4-k4 (49 ms on l4, a bounce), Red's reply.
		{"a double step slid, then the next move", "ffa", "h2-h3 b9-c9 e13-e12",
			"lift m4\nwait 15ms\nplace l4\nwait 49ms\nplace k4\nwait 15ms\nlift l4\nbounce k4 8\nwait 200ms\nlift h3\nwait 100ms\nplace h4\nwait 600ms\n",
			"m4-k4 h3-h4", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, inStep, said := playScript(t, tc.variant, tc.prelude, tc.script)
			if strings.Join(got, " ") != tc.want || !inStep {
				t.Errorf("read %v (in step %v), want %s; the board said:\n%s", got, inStep, tc.want, said)
			}
			if strings.Contains(said, "!!") || strings.Contains(said, "sensor fault") {
				t.Errorf("the board complained:\n%s", said)
			}
			if tc.said != "" && !strings.Contains(said, tc.said) {
				t.Errorf("the board did not say %q:\n%s", tc.said, said)
			}
		})
	}
}
