package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
	"boardd/sensors/sim"
)

const runSimHelp = `Simulated board: type a move (h2-h4, Nj1xBi3, O-O), or switch lines
(lift h2, place h4, wait 100ms); the referee judges once the board is still.`

// readSim plays lines from r on the simulated board: whole moves by hand,
// or single switch lines as the sim's scripts take them.
func (d *boardDaemon) readSim(ctx context.Context, r io.Reader, w io.Writer) {
	fmt.Fprintln(w, runSimHelp)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if ctx.Err() != nil {
			return
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := d.simLine(ctx, line); err != nil {
			fmt.Fprintln(w, "??", err)
		}
	}
}

func (d *boardDaemon) simLine(ctx context.Context, line string) error {
	st, ok, err := sim.ParseLine(line)
	if err == nil && ok {
		return st.Apply(d.simBoard, sim.SleepWait(ctx))
	}
	tok := strings.TrimPrefix(line, "move ")
	p, err := d.position()
	if err != nil {
		return err
	}
	steps, err := handsFor(p, tok)
	if err != nil {
		return err
	}
	for _, s := range steps {
		if s.lift {
			d.simBoard.Lift(s.sq)
		} else {
			d.simBoard.Place(s.sq)
		}
		select { // long enough for the debounce to see each step
		case <-time.After(40 * time.Millisecond):
		case <-ctx.Done():
			return nil
		}
	}
	return nil
}

// position is the live game's position now.
func (d *boardDaemon) position() (*rules.Position, error) {
	st := d.live.State()
	v, err := loadVariant(st.Variant, "")
	if err != nil {
		return nil, err
	}
	return rules.ParseFEN4(v, st.FEN4)
}

// hand is one lift or place of a move made by hand.
type hand struct {
	sq   square.Square
	lift bool
}

// handsFor resolves a PGN4 move token in p and returns how a human makes
// it: the captured piece (or en-passant pawn) off first, the piece moved,
// the rook for castling.
func handsFor(p *rules.Position, text string) ([]hand, error) {
	tok, err := pgn4.ParseMove(text)
	if err != nil {
		return nil, fmt.Errorf("%q: %v (want a move such as h2-h4, or lift/place SQ)", text, err)
	}
	promo := rules.NoKind
	if tok.Promotion != 0 {
		promo, _ = rules.KindFromLetter(tok.Promotion)
	}
	var m rules.Move
	for _, x := range p.LegalMoves(nil) {
		c, short := x.IsCastle()
		switch {
		case tok.Kind == pgn4.CastleShort && c && short, tok.Kind == pgn4.CastleLong && c && !short:
			m = x
		case tok.Kind == pgn4.Normal && x.From() == tok.From && x.To() == tok.To && (promo == rules.NoKind || x.Promotion() == promo):
			if m == 0 {
				m = x
			}
		}
	}
	if m == 0 {
		if tok.Kind == pgn4.Normal {
			if x, err := p.FindMove(tok.From, tok.To, promo); err != nil {
				return nil, err
			} else if err := p.Explain(x); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("%s: not a legal move for %s now", text, p.Turn())
	}
	var out []hand
	if m.IsEnPassant() {
		for e := rules.Seat(0); e < rules.NumSeats; e++ {
			if sk, pw := p.EnPassant(e); sk == m.To() && pw != square.None {
				out = append(out, hand{pw, true})
			}
		}
	}
	if p.At(m.To()).IsPiece() {
		out = append(out, hand{m.To(), true})
	}
	out = append(out, hand{m.From(), true}, hand{m.To(), false})
	if c, _ := m.IsCastle(); c {
		rf, rt := m.RookSquares()
		out = append(out, hand{rf, true}, hand{rt, false})
	}
	return out, nil
}
