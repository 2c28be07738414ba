package variants

import (
	"testing"

	"boardd/rules"
)

// Draws by agreement follow each variant's rules text: where it says the
// ordinary rules of chess apply (Verney, Chess4) the players still in may
// agree one; where it lists its draws and agreement is not among them
// (chess.com, Stevenson, the essay's games) they may not. A Chess4 draw is
// shared by the players still in ("1/4-1/4-1/4-1/4").
func TestDrawByAgreementPerVariant(t *testing.T) {
	tests := []struct {
		name string
		has  bool
		tag  string // the result tag of a draw agreed by all four at the start
	}{
		{"teams", false, ""},
		{"ffa", false, ""},
		{"stevenson", false, ""},
		{"essay-partners", false, ""},
		{"verney", true, "1/2-1/2"},
		{"chess4", true, "1/4-1/4-1/4-1/4"},
		{"chess4-m2", true, "1/4-1/4-1/4-1/4"},
		{"blocking-double", true, ""}, // one game at a time: see TestBlockingDraw*
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := rules.NewGame(variantNamed(t, tt.name), "")
			if err != nil {
				t.Fatal(err)
			}
			err = g.AgreeDraw([]rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green})
			if !tt.has {
				if err == nil {
					t.Fatalf("%s: a draw by agreement was accepted", tt.name)
				}
				return
			}
			if tt.tag == "" {
				return // the Double mode's own tests check its draws
			}
			if err != nil {
				t.Fatal(err)
			}
			res, _ := g.Result()
			if got := res.Tag(g.Variant().Mode, [rules.NumSeats]string{}); got != tt.tag || res.Reason != rules.ReasonAgreement {
				t.Errorf("%s: %q (%s), want %q", tt.name, got, res.Reason, tt.tag)
			}
		})
	}
}
