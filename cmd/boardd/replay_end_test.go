package main

import (
	"strings"
	"testing"
)

// boardd replay reads the status token chess.com writes after a game has
// ended ("95. Qd8-d9+ .. S": the stalemate that ended an FFA game with two
// left still gives the stalemated seat its S): rules/pgn4/testdata/end.
func TestReplayStatusAfterTheEnd(t *testing.T) {
	code, out, errOut := runCmd("replay", "../../rules/pgn4/testdata/end/ffa-stalemate-two-left.pgn4")
	if code != 0 || !strings.Contains(out, "game over: stalemate; points R 41 B 32 Y 5 G 12") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
