package pgn4

import (
	"fmt"
	"strings"

	"boardd/rules"
)

// ReplayError reports the first move of a game that could not be played:
// its round number, the seat whose turn it was, the token as written and
// why it was refused.
type ReplayError struct {
	Round int
	Seat  rules.Seat
	Token string
	Err   error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("move %d (%s) %s: %v", e.Round, e.Seat, e.Token, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// Lookup builds a variant by its short name and the name of one of its
// start arrays ("" for the variant's default). boardd passes one backed by
// the variant catalog (configs/variants); nil means the built-in teams and
// ffa only.
type Lookup func(name, start string) (*rules.Variant, error)

// Setup returns the variant and start FEN4 a game's tags call for:
// Variant ("Teams", "FFA" or another variant's name, or the override when
// not empty), StartFen4 (4PC, 4PCo, a FEN4, or absent for the variant's
// default) and RuleVariants (a tag without DeadKingWalking turns that rule
// off in FFA).
func Setup(g *Game, override string, lookup Lookup) (*rules.Variant, string, error) {
	name := override
	if name == "" {
		name = g.Get("Variant")
	}
	if name == "" {
		return nil, "", fmt.Errorf("the game has no Variant tag: say --variant teams or --variant ffa")
	}
	switch name = strings.ToLower(name); name {
	case "free-for-all", "freeforall":
		name = "ffa"
	case "team":
		name = "teams"
	}
	start := g.Get("StartFen4")
	array, fen := "", ""
	switch start {
	case "":
	case "4PC":
		array = "modern"
	case "4PCo":
		array = "classic"
	default:
		if !strings.Contains(start, "-") {
			return nil, "", fmt.Errorf("StartFen4 %q is neither a named start (4PC, 4PCo) nor a FEN4", start)
		}
		fen = start
	}
	if lookup == nil {
		lookup = builtin
	}
	v, err := lookup(name, array)
	if err != nil {
		return nil, "", err
	}
	if rv, ok := g.Lookup("RuleVariants"); ok && v.Mode == rules.FFA {
		v.Options.DeadKingWalking = strings.Contains(rv, "DeadKingWalking")
	}
	if err := v.Compile(); err != nil {
		return nil, "", err
	}
	if fen == "" {
		fen = v.Start
	}
	return v, fen, nil
}

func builtin(name, start string) (*rules.Variant, error) {
	if name != "teams" && name != "ffa" {
		return nil, fmt.Errorf("variant %q is not built in: want Teams or FFA", name)
	}
	return rules.NewVariant(name, start)
}

// Replay plays a PGN4 game move by move with full legality and returns
// the game as the rules engine sees it. The first move that cannot be
// played stops the replay with a *ReplayError; notes lists harmless
// differences (check marks the file and the engine count differently).
func Replay(pg *Game, variant string) (*rules.Game, []string, error) {
	return ReplayWith(pg, variant, nil)
}

// ReplayWith is Replay with variants resolved by lookup.
func ReplayWith(pg *Game, variant string, lookup Lookup) (*rules.Game, []string, error) {
	v, fen, err := Setup(pg, variant, lookup)
	if err != nil {
		return nil, nil, err
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return nil, nil, fmt.Errorf("StartFen4: %w", err)
	}
	var notes []string
	var after endTokens // the status tokens read after the game's end
	for ri, rd := range pg.Rounds {
		for si, sl := range rd.Slots {
			seat := g.Turn()
			if _, over := g.Result(); over {
				note, err := after.read(g, sl, onlyStatusFrom(pg, ri, si))
				if err != nil {
					return g, notes, &ReplayError{Round: rd.Number, Seat: seat, Token: sl.Text, Err: err}
				}
				if note != "" {
					notes = append(notes, fmt.Sprintf("move %d %s: %s", rd.Number, sl.Text, note))
				}
				continue
			}
			before := statuses(g)
			note, err := playSlot(g, sl)
			if err == nil {
				err = applyComments(g, sl)
			}
			if _, over := g.Result(); over {
				after.ended(g, before)
			}
			if err != nil {
				return g, notes, &ReplayError{Round: rd.Number, Seat: seat, Token: sl.Text, Err: err}
			}
			if note != "" {
				notes = append(notes, fmt.Sprintf("move %d (%s) %s: %s", rd.Number, seat, sl.Text, note))
			}
		}
	}
	return g, notes, nil
}

// playSlot carries out one slot for the seat to move. It returns a note
// when the file's check marks differ from the engine's.
func playSlot(g *rules.Game, sl Slot) (string, error) {
	seat := g.Turn()
	mv := sl.Move
	switch mv.Kind {
	case Resign:
		_, err := g.Resign(seat)
		return "", err
	case Timeout:
		_, err := g.Timeout(seat)
		return "", err
	case Stalemate, Eliminated:
		// chess.com writes S or # in the slot of a seat the game has just
		// removed; the engine removed it already.
		recs := g.Records()
		if n := len(recs); n > 0 && len(recs[n-1].Out) > 0 {
			return "", nil
		}
		what := "stalemated"
		if mv.Kind == Eliminated {
			what = "checkmated"
		}
		return "", fmt.Errorf("%s is still playing: nobody was just %s", seat, what)
	}
	// The game's moves, not only the position's: some variants let a
	// mated player move into check.
	m, err := mv.resolve(g.Position(), g.LegalMoves(), sl.Text)
	if err != nil {
		return "", err
	}
	var rec rules.Record
	leave := map[byte]rules.Action{'R': rules.ActResign, 'T': rules.ActTimeout}
	a, leaves := leave[mv.Then]
	if leaves && g.KingWalksOn(seat) {
		// "Kj8xNj9T": the seat left on its turn and its king, walking on,
		// made the move (every such token in chess.com's exports is a king
		// move, and the move scores nothing).
		recs, err := g.LeaveAndWalk(a, m)
		if err != nil {
			return "", err
		}
		rec, leaves = recs[1], false
	} else if rec, err = g.Play(m); err != nil {
		return "", err
	}
	note := ""
	if got := strings.Count(rec.Text, "+"); got != mv.Checks {
		note = "the engine writes " + rec.Text
	}
	if _, over := g.Result(); leaves && over {
		// The move ended the game: the R or T written after it changes
		// nothing.
		if note != "" {
			note += "; "
		}
		return note + fmt.Sprintf("the %c after the move that ended the game (%s) changes nothing", mv.Then, resultText(g)), nil
	}
	if leaves {
		// No king walks on (Teams, or FFA without it): the move, then the
		// seat leaves.
		if a == rules.ActTimeout {
			_, err = g.Timeout(seat)
		} else {
			_, err = g.Resign(seat)
		}
	}
	return note, err
}

// isStatus reports whether a token is a lone status token: R, T, S or #
// (R# and T# too).
func isStatus(m Move) bool {
	switch m.Kind {
	case Resign, Timeout, Stalemate, Eliminated:
		return true
	}
	return false
}

// onlyStatusFrom reports whether the game's slots from round ri, slot si
// on are all lone status tokens.
func onlyStatusFrom(pg *Game, ri, si int) bool {
	for ; ri < len(pg.Rounds); ri, si = ri+1, 0 {
		for _, sl := range pg.Rounds[ri].Slots[si:] {
			if !isStatus(sl.Move) {
				return false
			}
		}
	}
	return true
}

// endTokens reads what chess.com writes after a game has ended: the
// status of the seats the end left as they were, in their slots ("95.
// Qd8-d9+ .. S": Red's move stalemated Blue with two players left, which
// ended the game, and the export still gives Blue's slot its S). Such
// tokens are read when nothing but status tokens follows and each agrees
// with how the game ended: S a seat the last turn stalemated, # one it
// checkmated or whose king it took, R or T a seat still in the game when
// it ended (it changes nothing). A move, or a token the end does not bear out, is
// refused: the game is over.
type endTokens struct {
	ending [rules.NumSeats]bool // seats whose status the game's last turn changed
	used   [rules.NumSeats]bool // seats an S or # already named
}

// statuses returns every seat's status in g.
func statuses(g *rules.Game) [rules.NumSeats]rules.Status {
	var out [rules.NumSeats]rules.Status
	for s := range out {
		out[s] = g.Status(rules.Seat(s))
	}
	return out
}

// ended notes the seats the game's last turn changed (before: their
// statuses before it): an S or # after the end names one of them.
func (e *endTokens) ended(g *rules.Game, before [rules.NumSeats]rules.Status) {
	for s := range before {
		e.ending[s] = before[s] != g.Status(rules.Seat(s))
	}
}

// read checks one slot after the end; rest says whether only status
// tokens follow from it. It returns a note for the replay's notes.
func (e *endTokens) read(g *rules.Game, sl Slot, rest bool) (string, error) {
	over := fmt.Errorf("the game is already over (%s)", resultText(g))
	if !rest {
		return "", over
	}
	var want func(rules.Status) bool
	what := ""
	switch sl.Move.Kind {
	case Stalemate:
		want, what = func(st rules.Status) bool { return st == rules.Stalemated }, "stalemated"
	case Eliminated:
		want, what = func(st rules.Status) bool { return st == rules.Mated || st == rules.KingCaptured }, "checkmated"
	default: // R, T: a seat still in the game at its end
		want, what = func(st rules.Status) bool { return st == rules.Playing || st == rules.Walking }, "still in the game"
	}
	named := sl.Move.Kind == Stalemate || sl.Move.Kind == Eliminated
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if e.used[s] || !want(g.Status(s)) || named && !e.ending[s] {
			continue
		}
		if named {
			e.used[s] = true
			return "", nil // chess.com's record of how the game ended
		}
		return fmt.Sprintf("after the end of the game (%s): changes nothing", resultText(g)), nil
	}
	if named {
		what += " by the last move"
	}
	return "", fmt.Errorf("%w, and no seat is %s as %s says", over, what, sl.Text)
}

func resultText(g *rules.Game) string {
	r, _ := g.Result()
	return r.Reason
}
