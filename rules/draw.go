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
	if g.v.Mode == Double {
		// "draw by agreement" ends one of the two individual games.
		return []Seat{s, g.doubleOpponent(s)}
	}
	var out []Seat
	for t := Seat(0); t < NumSeats; t++ {
		if g.status[t] == Playing {
			out = append(out, t)
		}
	}
	return out
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
	switch g.v.Mode {
	case Double:
		return g.agreeGameDraw(agreed[0], g.doubleOpponent(agreed[0]))
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
