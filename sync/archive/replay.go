package archive

import (
	"bytes"
	"fmt"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// Replayed is an archived game stepped through turn by turn, for a viewer
// that draws each position as the live display does.
type Replayed struct {
	Tags    map[string]string `json:"tags"`
	Variant string            `json:"variant"`
	// Squares and Walls are the board, as in referee.State.
	Squares []string    `json:"squares"`
	Walls   [][2]string `json:"walls,omitempty"`
	// Plies are the positions: Plies[0] is the start, Plies[i] the
	// position after the i-th turn.
	Plies []Ply `json:"plies"`
}

// Ply is one position of a Replayed game and the turn that led to it.
type Ply struct {
	Seat string `json:"seat,omitempty"` // who moved ("" at the start)
	Move string `json:"move,omitempty"` // the PGN4 token ("Nj1-i3", "R")
	// Pieces, LastMove and Checks are as in referee.State.
	Pieces   map[string]string `json:"pieces"`
	LastMove []string          `json:"last_move,omitempty"`
	Checks   []string          `json:"checks,omitempty"`
	Turn     string            `json:"turn"`
	// Points, Status and ClockMS are per seat (Red, Blue, Yellow,
	// Green); a clock is -1 where the file records none yet.
	Points  []int    `json:"points"`
	Status  []string `json:"status"`
	ClockMS []int64  `json:"clock_ms"`
}

// Replay plays an archived PGN4 file (its first game) with full legality
// and returns every position. lookup finds variants (nil: the built-in
// ones).
func Replay(data []byte, lookup pgn4.Lookup) (*Replayed, error) {
	games, _, err := pgn4.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("no game in the file")
	}
	pg := games[0]
	g, _, err := pgn4.ReplayWith(pg, "", lookup)
	if err != nil {
		return nil, err
	}
	v := g.Variant()
	out := &Replayed{Tags: map[string]string{}, Variant: v.Name, Squares: []string{}}
	for _, t := range pg.Tags {
		out.Tags[t.Name] = t.Value
	}
	for _, q := range v.Geometry.Playable.Squares() {
		out.Squares = append(out.Squares, q.String())
	}
	for _, b := range v.Geometry.Barriers {
		out.Walls = append(out.Walls, [2]string{b.A.String(), b.B.String()})
	}
	var slots []pgn4.Slot
	for _, rd := range pg.Rounds {
		slots = append(slots, rd.Slots...)
	}
	recs := g.Records()
	if len(slots) != len(recs) {
		slots = nil // clocks cannot be matched to turns
	}
	// Take the game back turn by turn from the end: each takeback
	// restores the position before the turn exactly.
	plies := make([]Ply, len(recs)+1)
	for i := len(recs); ; i-- {
		plies[i] = ply(g)
		if i > 0 {
			rec := recs[i-1]
			plies[i].Seat, plies[i].Move = rec.Seat.String(), rec.Text
			if rec.Action == rules.ActMove {
				plies[i].LastMove = []string{rec.Move.From().String(), rec.Move.To().String()}
			}
		}
		if i == 0 {
			break
		}
		if err := g.Takeback(); err != nil {
			return nil, fmt.Errorf("stepping back from turn %d: %v", i, err)
		}
	}
	clocks := []int64{-1, -1, -1, -1}
	for i := range plies {
		if i > 0 && slots != nil && slots[i-1].HasClock {
			clocks[recs[i-1].Seat] = slots[i-1].Clock.Milliseconds()
		}
		plies[i].ClockMS = append([]int64(nil), clocks...)
	}
	out.Plies = plies
	return out, nil
}

func ply(g *rules.Game) Ply {
	p := g.Position()
	pl := Ply{Pieces: map[string]string{}, Turn: g.Turn().String()}
	for _, q := range g.Variant().Geometry.Playable.Squares() {
		if pc := p.At(q); pc.IsPiece() {
			pl.Pieces[q.String()] = referee.PieceCode(pc)
		}
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		pl.Points = append(pl.Points, p.Points(s))
		pl.Status = append(pl.Status, g.Status(s).String())
		if k := p.KingSquare(s); k.Valid() && !p.Eliminated(s) && p.InCheck(s) {
			pl.Checks = append(pl.Checks, k.String())
		}
	}
	return pl
}
