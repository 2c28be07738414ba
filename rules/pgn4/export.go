package pgn4

import (
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/blocking"
	"boardd/rules/chess4"
)

// FromGame writes a game played in the rules engine as PGN4, in
// chess.com's layout: tags (the given ones, plus Variant and StartFen4 when
// absent), then one round per line. A seat that resigns or flags on its
// turn is a lone R or T; when its walking king moves in that same turn
// (Game.LeaveAndWalk) the R or T follows the king's move ("Ke12-e13T"), as
// chess.com writes it. A seat removed because it has no move on its turn
// gets a lone S, and so does, in FFA, the seat whose stalemate ended the
// game (chess.com's "95. Qd8-d9+ .. S"). A resignation out of turn has no place in chess.com's
// notation: it is written as a comment "{Yellow resigns}" (or "flags")
// after the slot it followed, which Replay understands; where no king
// walks on (Teams, FFA without Dead King Walking) one right after the
// seat's own move is appended to it instead ("Qd1-d4R").
func FromGame(g *rules.Game, tags []Tag) (*Game, error) {
	return FromGameWith(g, tags, nil)
}

// FromGameWith is FromGame with a comment for each move: comment(i, rec)
// is called for the game's i-th record when it is a move, and a non-empty
// result follows the move in braces (the archive writes the mover's clock
// there, "[%clk 0:00:58]", as the PGN supplement of 2001 does).
func FromGameWith(g *rules.Game, tags []Tag, comment func(i int, rec rules.Record) string) (*Game, error) {
	out := &Game{Tags: append([]Tag(nil), tags...)}
	v := g.Variant()
	if _, ok := out.Lookup("Variant"); !ok {
		name := v.Name
		switch v.Name {
		case "teams":
			name = "Teams"
		case "ffa":
			name = "FFA"
		}
		out.Set("Variant", name)
	}
	if _, ok := out.Lookup("StartFen4"); !ok {
		chesscom := v.Name == "teams" || v.Name == "ffa" // the named starts are chess.com's
		switch {
		case chesscom && g.StartFEN4() == rules.StartModern:
			out.Set("StartFen4", "4PC")
		case chesscom && g.StartFEN4() == rules.StartClassic:
			out.Set("StartFen4", "4PCo")
		default:
			out.Set("StartFen4", g.StartFEN4())
		}
	}
	order := map[rules.Seat]int{}
	for i, s := range v.Order {
		order[s] = i
	}
	recs := g.Records()
	lastSeat := -1
	var last *Slot
	var bad error
	parse := func(text string) Move {
		m, err := ParseMove(text)
		if err != nil && bad == nil {
			bad = fmt.Errorf("the engine wrote a token PGN4 cannot read: %v", err)
		}
		return m
	}
	add := func(seat rules.Seat, text string) {
		if len(out.Rounds) == 0 || order[seat] <= lastSeat {
			out.Rounds = append(out.Rounds, Round{Number: len(out.Rounds) + 1})
		}
		r := &out.Rounds[len(out.Rounds)-1]
		r.Slots = append(r.Slots, Slot{Text: text, Move: parse(text)})
		last = &r.Slots[len(r.Slots)-1]
		lastSeat = order[seat]
	}
	onTurn := g.StartTurn()
	notes := g.Notes() // decisions between turns (blocking double chess's protocol, a Chess4 kept army)
	// Where kings walk on, a trailing R or T reads as "left, then the
	// walking king moved" (Game.LeaveAndWalk), so a move followed by its
	// player's resignation is written with a comment instead.
	walks := v.Mode == rules.FFA && v.Options.DeadKingWalking
	then := "" // an R or T that goes after the next move (LeaveAndWalk)
	var wroteS [rules.NumSeats]bool
	for i, r := range recs {
		switch {
		case r.Action != rules.ActMove && r.Seat == onTurn && r.TurnAfter == r.Seat &&
			i+1 < len(recs) && recs[i+1].Action == rules.ActMove && recs[i+1].Seat == r.Seat:
			then = r.Text // "Kj8xNj9T": the seat left and its king walked at once
		case r.Action == rules.ActMove:
			add(r.Seat, r.Text+then)
			then = ""
			if comment != nil {
				if c := comment(i, r); c != "" {
					last.Comments = append(last.Comments, c)
				}
			}
		case !walks && i > 0 && recs[i-1].Action == rules.ActMove && recs[i-1].Seat == r.Seat && last != nil:
			last.Text += r.Text // "R" or "T" right after the seat's own move
			last.Move = parse(last.Text)
		case r.Seat == onTurn:
			add(r.Seat, r.Text)
		default:
			word := "resigns"
			if r.Action == rules.ActTimeout {
				word = "flags"
			}
			if last != nil {
				last.Comments = append(last.Comments, r.Seat.String()+" "+word)
			}
		}
		for _, s := range r.Out {
			if g.Status(s) == rules.Stalemated && r.Seat != s {
				add(s, "S")
				wroteS[s] = true
			}
		}
		onTurn = r.TurnAfter
		for ; len(notes) > 0 && notes[0].After <= i+1 && last != nil; notes = notes[1:] {
			last.Comments = append(last.Comments, notes[0].Text)
		}
	}
	if res, over := g.Result(); over && v.Mode == rules.FFA && res.Reason == "stalemate" {
		// The stalemate that ended the game (two left): chess.com still
		// gives the stalemated seat its S ("95. Qd8-d9+ .. S").
		for _, s := range v.Order {
			if g.Status(s) == rules.Stalemated && !wroteS[s] {
				add(s, "S")
			}
		}
	}
	if res, over := g.Result(); over && v.Mode == blocking.Double {
		out.Set("Result", res.Tag(blocking.Double, [rules.NumSeats]string{}))
		out.Set("Termination", res.Reason)
	}
	if res, over := g.Result(); over && (v.Mode == rules.Teams || v.Mode == chess4.Chess4) {
		out.Set("Result", res.Tag(v.Mode, [rules.NumSeats]string{}))
	}
	return out, bad
}

// outOfTurn reads a FromGame comment "<Seat> resigns" or "<Seat> flags".
func outOfTurn(c string) (rules.Seat, rules.Action, bool) {
	name, word, ok := strings.Cut(c, " ")
	if !ok || (word != "resigns" && word != "flags") {
		return 0, 0, false
	}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if s.String() == name {
			if word == "flags" {
				return s, rules.ActTimeout, true
			}
			return s, rules.ActResign, true
		}
	}
	return 0, 0, false
}

// applyComments carries out the notes (rules.Game.ApplyNote) and the
// out-of-turn resignations a slot's
// comments record.
func applyComments(g *rules.Game, sl Slot) error {
	for _, c := range sl.Comments {
		if ok, err := g.ApplyNote(c); ok {
			if err != nil {
				return fmt.Errorf("comment {%s}: %v", c, err)
			}
			continue
		}
		s, a, ok := outOfTurn(c)
		if !ok {
			continue
		}
		var err error
		if a == rules.ActTimeout {
			_, err = g.Timeout(s)
		} else {
			_, err = g.Resign(s)
		}
		if err != nil {
			return fmt.Errorf("comment {%s}: %v", c, err)
		}
	}
	return nil
}
