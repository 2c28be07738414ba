package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ReasonAgreement is the Result.Reason of a game drawn by agreement.
const ReasonAgreement = "draw by agreement"

// DrawNeeds says whose agreement a draw offered by the seats in agreed
// still needs: every seat still playing, or in a Double game the offering
// seat's individual opponent (agreed[0] names the offering seat). It is
// an error when the variant has no draw by agreement, the game is over,
// or a seat in agreed is not playing.
func (g *Game) DrawNeeds(agreed []Seat) ([]Seat, error) {
	if g.result != nil {
		return nil, ErrGameOver
	}
	if !g.v.Options.DrawByAgreement {
		return nil, fmt.Errorf("%s has no draw by agreement", g.v.Name)
	}
	if len(agreed) == 0 {
		return nil, errors.New("no seat offers a draw")
	}
	for _, s := range agreed {
		if s >= NumSeats || g.status[s] != Playing {
			return nil, fmt.Errorf("%s is not playing", s)
		}
	}
	voters := g.drawVoters(agreed[0])
	var missing []Seat
	for _, s := range voters {
		if !slices.Contains(agreed, s) {
			missing = append(missing, s)
		}
	}
	return missing, nil
}

// drawVoters are the seats a draw offered by s concerns.
func (g *Game) drawVoters(s Seat) []Seat {
	return g.v.hook(OnDrawAgreement).DrawVoters(g, s)
}

// AgreeDraw draws by agreement what the seats in agreed may draw (see
// DrawNeeds): the whole game, or in a Double game the individual game of
// agreed[0] and its opponent. It changes nothing and names who is missing
// otherwise. A Takeback right after a whole game's draw reopens the game
// without undoing a turn.
func (g *Game) AgreeDraw(agreed []Seat) error {
	missing, err := g.DrawNeeds(agreed)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, s := range missing {
			names[i] = s.String()
		}
		return fmt.Errorf("a draw needs the agreement of %s too", strings.Join(names, " and "))
	}
	switch {
	case g.v.provides&(1<<OnDrawAgreement) != 0:
		return g.v.hook(OnDrawAgreement).AgreeDraw(g, agreed)
	case g.v.Mode == FFA:
		g.endFFA(ReasonAgreement, 0)
	default:
		g.v.hook(OnDrawEnd).DrawEnd(g, ReasonAgreement) // Chess4: shared by the players still in
	}
	g.agreed = true
	return nil
}
