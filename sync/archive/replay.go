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
	recs := g.Records()
	slotClocks := clocksByRecord(pg, g.StartTurn(), recs)
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
		if i > 0 {
			if ms, ok := slotClocks[i-1]; ok {
				clocks[recs[i-1].Seat] = ms
			}
		}
		plies[i].ClockMS = append([]int64(nil), clocks...)
	}
	out.Plies = plies
	return out, nil
}

// clocksByRecord matches the file's [%clk] comments to the game's records:
// the clock in a slot is the time left to the seat whose turn the slot
// records, after that turn. Slots and records do not pair one to one — a
// resignation out of turn is a comment ("{Yellow resigns}") and a record
// without a slot, "Kj8xNj9T" one slot and two records, "Qd1-d4R" a move
// and its player's resignation, a lone S or # a slot without a record;
// draws, claims and notes are neither — so each slot is matched to the
// record it stands for: a move slot to the game's next move, a lone R or T
// to the next resignation or time-out of the seat on turn. The answer maps
// record indexes to milliseconds; a slot that matches nothing (a file the
// game does not follow) ends the matching, keeping the clocks before it.
func clocksByRecord(pg *pgn4.Game, start rules.Seat, recs []rules.Record) map[int]int64 {
	out := map[int]int64{}
	onTurn := func(j int) rules.Seat {
		if j == 0 {
			return start
		}
		return recs[j-1].TurnAfter
	}
	next := 0 // the first record no slot has claimed
	for _, rd := range pg.Rounds {
		for _, sl := range rd.Slots {
			var match func(j int) bool
			switch sl.Move.Kind {
			case pgn4.Stalemate, pgn4.Eliminated:
				continue // the seat was removed by the turn before: no record of its own
			case pgn4.Resign, pgn4.Timeout:
				match = func(j int) bool { return recs[j].Action != rules.ActMove && recs[j].Seat == onTurn(j) }
			default:
				match = func(j int) bool { return recs[j].Action == rules.ActMove }
			}
			j := next
			for j < len(recs) && !match(j) {
				j++
			}
			if j == len(recs) {
				return out
			}
			if sl.HasClock {
				out[j] = sl.Clock.Milliseconds()
			}
			next = j + 1
		}
	}
	return out
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
