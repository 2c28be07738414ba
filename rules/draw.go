package rules

import (
	"fmt"
	"strings"
)

// ReasonAgreement is the Result.Reason of a game drawn by agreement.
const ReasonAgreement = "draw by agreement"

// DrawVoters returns the seats whose agreement a draw needs: every seat
// still playing. It is empty when the variant has no draw by agreement or
// the game is over.
func (g *Game) DrawVoters() []Seat {
	if g.result != nil || !g.v.Options.DrawByAgreement {
		return nil
	}
	var out []Seat
	for s := Seat(0); s < NumSeats; s++ {
		if g.status[s] == Playing {
			out = append(out, s)
		}
	}
	return out
}

// AgreeDraw ends the game drawn by agreement when every seat still
// playing is among agreed (see DrawVoters). It changes nothing and says
// who is missing otherwise, or why the game cannot be drawn this way.
// A Takeback right after it reopens the game without undoing a turn.
func (g *Game) AgreeDraw(agreed []Seat) error {
	if g.result != nil {
		return ErrGameOver
	}
	if !g.v.Options.DrawByAgreement {
		return fmt.Errorf("%s has no draw by agreement", g.v.Name)
	}
	var missing []string
	for _, s := range g.DrawVoters() {
		found := false
		for _, a := range agreed {
			found = found || a == s
		}
		if !found {
			missing = append(missing, s.String())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("a draw needs the agreement of %s too", strings.Join(missing, " and "))
	}
	switch g.v.Mode {
	case FFA:
		g.endFFA(ReasonAgreement, 0)
	case Chess4:
		g.c4Draw(ReasonAgreement) // shared by the players still in
	default:
		g.end(ReasonAgreement, nil)
	}
	g.agreed = true
	return nil
}
