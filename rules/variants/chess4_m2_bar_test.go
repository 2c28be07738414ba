package variants

import (
	"strings"
	"testing"

	"boardd/rules"
)

// Method 2: a player and the army he acquired do not capture each other,
// and the refusal says so, naming who plays which army (rules text,
// Method 2: the eliminating player "controls" the eliminated player's
// pieces; boardd keeps the two from taking each other's pieces).
func TestChess4Method2CaptureBarNamesTheArmy(t *testing.T) {
	v := variantNamed(t, "chess4-m2")
	// As in TestChess4Method2NoSecondHandArmy: Gold's queen d4-a4 mates
	// Silver, and at Gold's next turn Gold plays Silver's army.
	g := crossGame(t, v, "G", "0,0,0,0",
		"bK:a8 bP:b7 bP:b8 bP:b9 bR:a11 gQ:d4 gK:n7 gP:m6 gP:m7 gP:m8 gR:n11 yQ:h4 yK:g14 rK:j1 rN:e4")
	playLine(t, g, "d4-a4 j1-i1 g14-f14")
	if c := chess4Of(g).Controller(rules.Blue); c != rules.Green || g.Turn() != rules.Green {
		t.Fatalf("Silver's army is played by %v, turn %v; want Gold, Gold to move", c, g.Turn())
	}
	_, err := g.Position().FindMove(sqr(t, "a4"), sqr(t, "a8"), rules.NoKind)
	want := "Blue's king on a8 may not be captured by Green: Green plays Blue's army" // Silver = Blue, Gold = Green
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Gold's queen a4xa8: %v\nwant it refused: %q", err, want)
	}
}
