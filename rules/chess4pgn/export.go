package chess4pgn

import (
	"fmt"
	"strings"

	"boardd/rules"
	"boardd/rules/chess4"
	"boardd/rules/square"
)

// Info is what a game's headers say beyond its moves.
type Info struct {
	// Names are the players, indexed by seat (Red = White …).
	Names [rules.NumSeats]string
	// Date, DateStarted and DateEnded as the text writes them
	// ("2013.09.18"); empty when unknown. DateStarted defaults to Date.
	Date, DateStarted, DateEnded string
	// Extra headers follow the standard ones.
	Extra []Header
}

// Export writes g in Chess4 notation.
func Export(g *rules.Game, info Info) (string, error) {
	pg, err := FromGame(g, info)
	if err != nil {
		return "", err
	}
	return pg.String(), nil
}

// FromGame turns a game played in the rules engine into a Chess4 Game
// (see the package comment for the choices made).
func FromGame(g *rules.Game, info Info) (*Game, error) {
	v := g.Variant()
	if err := checkOrder(v); err != nil {
		return nil, err
	}
	ng, err := rules.NewGame(v, g.StartFEN4())
	if err != nil {
		return nil, err
	}
	out := &Game{}
	var elim [rules.NumSeats]string
	cursor, round := 0, 0
	add := func(t Turn) {
		if cursor == 0 {
			round++
		}
		t.Round, t.Colour = round, order[cursor]
		if round == 1 {
			t.ColourNote = t.Colour
		}
		out.Turns = append(out.Turns, t)
		cursor = (cursor + 1) % len(order)
	}
	note := func(c string) {
		if n := len(out.Turns); n > 0 {
			out.Turns[n-1].Comments = append(out.Turns[n-1].Comments, c)
		} else {
			out.Lead = append(out.Lead, c)
		}
	}
	notes := g.Notes() // decisions between turns (a Method 2 kept army): comments, replayed by ApplyNote
	for i, r := range g.Records() {
		var rec rules.Record
		switch r.Action {
		case rules.ActMove:
			p := ng.Position()
			legal := ng.LegalMoves()
			text := sanText(p, legal, r.Move)
			var before [rules.NumSeats]bool
			for s := rules.Seat(0); s < rules.NumSeats; s++ {
				before[s] = p.InCheck(s)
			}
			if rec, err = ng.Play(r.Move); err != nil {
				return nil, fmt.Errorf("record %d: %v", i, err)
			}
			for order[cursor] != r.Seat {
				add(Turn{Token: "0", Skip: true, From: square.None, To: square.None, ColourNote: rules.NoSeat})
			}
			add(Turn{Token: text + marks(ng, r.Seat, rec, before), From: r.Move.From(), To: r.Move.To(), ColourNote: rules.NoSeat})
		case rules.ActResign, rules.ActTimeout:
			word := "resigns"
			if r.Action == rules.ActTimeout {
				rec, err = ng.Timeout(r.Seat)
				word = "flags"
			} else {
				rec, err = ng.Resign(r.Seat)
			}
			if err != nil {
				return nil, fmt.Errorf("record %d: %v", i, err)
			}
			note(Colours[r.Seat] + " " + word)
		}
		for k, s := range rec.Out {
			switch st := ng.Status(s); {
			case st == rules.Mated && k < len(rec.By) && rec.By[k] != rules.NoSeat:
				elim[s] = Colours[rec.By[k]] // the player credited with the mate (rule 6)
			case (st == rules.Mated || st == rules.KingCaptured) && rec.Action == rules.ActMove && rec.Seat != s:
				elim[s] = Colours[rec.Seat]
			case rec.Action == rules.ActResign:
				elim[s] = rules.Resigned.String()
			case rec.Action == rules.ActTimeout:
				elim[s] = rules.TimedOut.String()
			default:
				elim[s] = st.String()
			}
		}
		for ; len(notes) > 0 && notes[0].After <= i+1; notes = notes[1:] {
			if _, err := ng.ApplyNote(notes[0].Text); err != nil {
				return nil, fmt.Errorf("note after record %d {%s}: %v", i, notes[0].Text, err)
			}
			note(notes[0].Text)
		}
	}
	started := info.DateStarted
	if started == "" {
		started = info.Date
	}
	for s, c := range Colours {
		out.Headers = append(out.Headers, Header{c, info.Names[s]})
	}
	out.Headers = append(out.Headers, Header{"Date", info.Date}, Header{"Date-Started", started}, Header{"Date-Ended", info.DateEnded})
	for s, c := range Colours {
		out.Headers = append(out.Headers, Header{c + "-Eliminated-By", elim[s]})
	}
	out.Headers = append(out.Headers, Header{"Result", resultTag(g)}, Header{"Variant", v.Name})
	if g.StartFEN4() != v.Start {
		out.Headers = append(out.Headers, Header{"FEN4", g.StartFEN4()})
	}
	out.Headers = append(out.Headers, info.Extra...)
	return out, nil
}

// marks writes the check and mate marks of a move by mover that made rec;
// ng is the game after it and before the kings in check before it.
//
// "##" names the colours the move checkmated: "Qf3xb7#g##bw – Queen on F3
// captures on B7, checking Gold and checkmating Black and White". Under
// Chess4's rule 1 the mated player is out only when the checkmating
// player's next turn begins, a turn or more later; the mark stays on the
// mating move (chess4.Chess4Hook.MateMade), not on the move after which the
// elimination is recorded. Elsewhere a mate puts its seat out on the move
// itself (rec.Out); a king captured counts as mated.
func marks(ng *rules.Game, mover rules.Seat, rec rules.Record, before [rules.NumSeats]bool) string {
	p := ng.Position()
	var checked, mated []byte
	made := map[rules.Seat]bool{}
	waiting := map[rules.Seat]bool{} // checkmated, not out yet (Chess4)
	c4, isC4 := rules.HookIn[*chess4.Chess4Hook](ng)
	isC4 = isC4 && ng.Variant().Mode == chess4.Chess4
	for _, s := range rec.Out {
		if st := ng.Status(s); st == rules.KingCaptured || (st == rules.Mated && !isC4) {
			made[s] = true
		}
	}
	if isC4 {
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			if c4.MateMade(s) {
				made[s] = true
			}
			if _, ok := c4.MateCredit(s); ok {
				waiting[s] = true
			}
		}
	}
	idx := 0
	for i, s := range order {
		if s == mover {
			idx = i
		}
	}
	opponentsLeft := false
	for k := 1; k < len(order); k++ {
		s := order[(idx+k)%len(order)]
		st := ng.Status(s)
		switch {
		case made[s]:
			mated = append(mated, ColourLetter(s))
		case st == rules.Playing || st == rules.Walking:
			if p.InCheck(s) && !before[s] {
				checked = append(checked, ColourLetter(s))
			}
			if !ng.Variant().Partners(mover, s) && !waiting[s] {
				opponentsLeft = true
			}
		}
	}
	var b strings.Builder
	if len(checked) > 0 {
		b.WriteByte('#')
		b.Write(checked)
	}
	switch {
	case len(mated) >= 2 && !opponentsLeft:
		b.WriteString("###")
	case len(mated) > 0:
		b.WriteString("##")
		b.Write(mated)
	}
	return b.String()
}

// resultTag is "*" for a game in progress, else one point shared by the
// winners in White-Silver-Black-Gold order. A drawn Chess4 game is shared
// by the players still in when it ends (rules.Result.Tag, as PGN4 writes
// it: an eliminated player lost and gets nothing); a draw of another
// variant, which eliminates nobody before it, by all four.
func resultTag(g *rules.Game) string {
	res, over := g.Result()
	if !over {
		return "*"
	}
	if g.Variant().Mode == chess4.Chess4 {
		return res.Tag(chess4.Chess4, [rules.NumSeats]string{})
	}
	win := res.Winners
	if len(win) == 0 {
		win = order[:]
	}
	parts := make([]string, rules.NumSeats)
	for s := range parts {
		parts[s] = "0"
	}
	for _, s := range win {
		if len(win) == 1 {
			parts[s] = "1"
		} else {
			parts[s] = fmt.Sprintf("1/%d", len(win))
		}
	}
	return strings.Join(parts, "-")
}

// String writes the game in the text's layout.
func (g *Game) String() string {
	var b strings.Builder
	for _, h := range g.Headers {
		v := strings.ReplaceAll(h.Value, "\n", " ") // a value is one line
		v = strings.ReplaceAll(v, `\`, `\\`)
		v = `"` + strings.ReplaceAll(v, `"`, `\"`) + `"`
		fmt.Fprintf(&b, "[ %-20s %-54s ]\n", h.Key, v)
	}
	for _, c := range g.Lead {
		fmt.Fprintf(&b, "{ %s }\n", c)
	}
	indent := ""
	for i, t := range g.Turns {
		var line strings.Builder
		if i == 0 || t.Round != g.Turns[i-1].Round {
			num := fmt.Sprintf("%d. ", t.Round)
			indent = strings.Repeat(" ", len(num))
			line.WriteString(num)
		} else {
			line.WriteString(indent)
		}
		line.WriteString(t.Token)
		line.WriteString(strings.Repeat(" ", max(1, 8-len(t.Token))))
		if t.From != square.None {
			fmt.Fprintf(&line, "{ %-3s > %-3s } ", upperName(t.From), upperName(t.To))
		}
		if t.ColourNote != rules.NoSeat {
			fmt.Fprintf(&line, "{ %-6s } ", Colours[t.ColourNote])
		}
		for _, c := range t.Comments {
			fmt.Fprintf(&line, "{ %s } ", c)
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
