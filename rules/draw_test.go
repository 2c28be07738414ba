package rules

import (
	"strings"
	"testing"
)

// withDraws returns v with draws by agreement switched on.
func withDraws(t *testing.T, v *Variant) *Variant {
	t.Helper()
	v.Options.DrawByAgreement = true
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	return v
}

// A draw by agreement needs every seat still playing; a seat that is out
// has no say, and the game ends drawn (Teams: 1/2-1/2).
func TestAgreeDraw(t *testing.T) {
	tests := []struct {
		name    string
		v       func(*testing.T) *Variant
		out     []Seat // resigned before the offer (FFA keeps playing)
		agreed  []Seat
		wantErr string // "" = the game ends drawn
	}{
		{"all four", func(t *testing.T) *Variant { return withDraws(t, teams(t)) }, nil, []Seat{Red, Blue, Yellow, Green}, ""},
		{"one missing", func(t *testing.T) *Variant { return withDraws(t, teams(t)) }, nil, []Seat{Red, Blue, Yellow}, "agreement of Green too"},
		{"two missing", func(t *testing.T) *Variant { return withDraws(t, teams(t)) }, nil, []Seat{Red, Yellow}, "agreement of Blue and Green too"},
		{"a seat that is out has no say", func(t *testing.T) *Variant {
			v := withDraws(t, ffa(t))
			v.Options.DeadKingWalking = false
			return v
		}, []Seat{Blue}, []Seat{Red, Yellow, Green}, ""},
		{"not in this variant", func(t *testing.T) *Variant { return teams(t) }, nil, []Seat{Red, Blue, Yellow, Green}, "teams has no draw by agreement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(tt.v(t), "")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.out {
				if _, err := g.Resign(s); err != nil {
					t.Fatal(err)
				}
			}
			err = g.AgreeDraw(tt.agreed)
			res, over := g.Result()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("AgreeDraw(%v) = %v, want an error with %q", tt.agreed, err, tt.wantErr)
				}
				if over {
					t.Fatalf("a refused draw ended the game: %+v", res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !over || res.Reason != ReasonAgreement {
				t.Fatalf("result %+v (over %v), want %q", res, over, ReasonAgreement)
			}
			if g.Variant().Mode == Teams && res.Tag(Teams, [NumSeats]string{}) != "1/2-1/2" {
				t.Errorf("Teams tag %q, want 1/2-1/2", res.Tag(Teams, [NumSeats]string{}))
			}
			if _, err := g.DrawNeeds(tt.agreed); err != ErrGameOver {
				t.Errorf("DrawNeeds after the game ended: %v", err)
			}
			if err := g.AgreeDraw(tt.agreed); err != ErrGameOver {
				t.Errorf("a second agreement: %v, want ErrGameOver", err)
			}
		})
	}
}

// Taking back an agreed draw reopens the game where it stood: the moves
// before it stay.
func TestTakebackOfAgreedDraw(t *testing.T) {
	g, err := NewGame(withDraws(t, teams(t)), "")
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, "h2-h3")
	if err := g.AgreeDraw([]Seat{Red, Blue, Yellow, Green}); err != nil {
		t.Fatal(err)
	}
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if _, over := g.Result(); over {
		t.Fatal("the game is still over after taking the draw back")
	}
	if n := len(g.Records()); n != 1 || g.Turn() != Blue {
		t.Fatalf("after the takeback: %d records, %s to move; want Red's move kept and Blue to move", n, g.Turn())
	}
	play(t, g, "b7-c7")
}
