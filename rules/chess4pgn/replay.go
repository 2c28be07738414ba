package chess4pgn

import (
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// ReplayError names the turn that could not be played: its round, the
// colour whose line it is, the token as written and what is wrong.
type ReplayError struct {
	Round  int
	Colour rules.Seat
	Token  string
	Err    error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("round %d, %s: %s: %v", e.Round, Colours[e.Colour], e.Token, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// Read parses text and replays it on v.
func Read(text string, v *rules.Variant) (*rules.Game, *Game, error) {
	pg, err := Parse(text)
	if err != nil {
		return nil, nil, err
	}
	g, err := Replay(pg, v)
	return g, pg, err
}

// Replay plays a parsed game on v from the FEN4 header's position, or v's
// start array without one, and returns the game. Each turn must be the
// colour's own: a move when the engine has that colour to move, "0" when
// it does not. A from/to comment decides the move and the token must
// describe the same move; without the comment the token alone decides.
// On an error the game so far is returned with a *ReplayError.
func Replay(pg *Game, v *rules.Variant) (*rules.Game, error) {
	if err := checkOrder(v); err != nil {
		return nil, err
	}
	g, err := rules.NewGame(v, pg.Get("FEN4"))
	if err != nil {
		return nil, fmt.Errorf("FEN4 header: %w", err)
	}
	for _, c := range pg.Lead {
		if err := applyNote(g, c); err != nil {
			return g, fmt.Errorf("before round 1: %w", err)
		}
	}
	for _, t := range pg.Turns {
		if err := playTurn(g, t); err != nil {
			return g, &ReplayError{Round: t.Round, Colour: t.Colour, Token: t.Token, Err: err}
		}
		for _, c := range t.Comments {
			if err := applyNote(g, c); err != nil {
				return g, &ReplayError{Round: t.Round, Colour: t.Colour, Token: t.Token, Err: err}
			}
		}
	}
	return g, nil
}

func playTurn(g *rules.Game, t Turn) error {
	name := Colours[t.Colour]
	if t.ColourNote != rules.NoSeat && t.ColourNote != t.Colour {
		return fmt.Errorf("the comment { %s } names another colour: this line is %s's (the order is White, Silver, Black, Gold)", Colours[t.ColourNote], name)
	}
	if res, over := g.Result(); over && !t.Skip {
		return fmt.Errorf("the game is already over (%s)", res.Reason)
	}
	if t.Skip {
		if _, over := g.Result(); !over && g.Turn() == t.Colour {
			return fmt.Errorf("%s is still playing and it is %s's turn: 0 is only for a colour that does not move", name, name)
		}
		return nil
	}
	if g.Turn() != t.Colour {
		switch st := g.Status(t.Colour); st {
		case rules.Playing:
		case rules.Walking:
			return fmt.Errorf("%s resigned and its king walks on, but this turn passed: write 0 for it", name)
		default:
			return fmt.Errorf("%s is out (%s): write 0 for its turn", name, st)
		}
		return fmt.Errorf("it is %s's turn, not %s's (a 0 missing or too many?)", Colours[g.Turn()], name)
	}
	s, err := parseSAN(t.Token)
	if err != nil {
		return err
	}
	p := g.Position()
	legal := g.LegalMoves()
	var m rules.Move
	if t.From != square.None {
		m, err = byFromTo(p, legal, t.From, t.To, s.promo)
		if err != nil {
			return fmt.Errorf("{ %s > %s }: %v", upperName(t.From), upperName(t.To), err)
		}
		if !s.matches(p, m) {
			return fmt.Errorf("the comment { %s > %s } is %s, not %s", upperName(t.From), upperName(t.To), sanText(p, legal, m), t.Token)
		}
	} else if m, err = s.resolve(p, legal, t.Colour); err != nil {
		return err
	}
	_, err = g.Play(m)
	return err
}

// byFromTo finds the legal move from one square to another (the default
// promotion unless promo is given), or explains why there is none.
func byFromTo(p *rules.Position, legal []rules.Move, from, to square.Square, promo rules.Kind) (rules.Move, error) {
	def := rules.NoKind
	if pr := p.Variant().Promotions; len(pr) > 0 {
		def = pr[0]
	}
	for _, m := range legal {
		if m.From() != from || m.To() != to {
			continue
		}
		if k := m.Promotion(); k == rules.NoKind || k == promo || (promo == rules.NoKind && k == def) {
			return m, nil
		}
	}
	_, err := p.FindMove(from, to, promo)
	if err == nil {
		err = fmt.Errorf("not a legal move")
	}
	return 0, err
}

// applyNote carries out a note of the rules (rules.Game.ApplyNote: "{
// Blue keeps Yellow's army }", in boardd's seat names as the rules write
// it) or a "{ Silver resigns }" or "{ Silver flags }" comment; other
// comments are ignored.
func applyNote(g *rules.Game, c string) error {
	if ok, err := g.ApplyNote(c); ok {
		if err != nil {
			return fmt.Errorf("{ %s }: %v", c, err)
		}
		return nil
	}
	f := strings.Fields(c)
	if len(f) != 2 || (f[1] != "resigns" && f[1] != "flags") {
		return nil
	}
	s, ok := colourByName(f[0])
	if !ok {
		return nil
	}
	var err error
	if f[1] == "flags" {
		_, err = g.Timeout(s)
	} else {
		_, err = g.Resign(s)
	}
	if err != nil {
		return fmt.Errorf("{ %s }: %v", c, err)
	}
	return nil
}
