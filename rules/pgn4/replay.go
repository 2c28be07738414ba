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
	for _, rd := range pg.Rounds {
		for _, sl := range rd.Slots {
			seat := g.Turn()
			if _, over := g.Result(); over {
				return g, notes, &ReplayError{Round: rd.Number, Seat: seat, Token: sl.Text, Err: fmt.Errorf("the game is already over (%s)", resultText(g))}
			}
			note, err := playSlot(g, sl)
			if err == nil {
				err = applyComments(g, sl)
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

func resultText(g *rules.Game) string {
	r, _ := g.Result()
	return r.Reason
}
