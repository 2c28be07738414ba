// Package handsim simulates human hands on a board of reed switches: it
// turns a game's moves into a switch script (lift, place, wait, bounce)
// that the simulated sensors (sensors/sim) play back, with the untidiness
// of real hands at a chosen noise level. What each move takes off the
// board comes from referee.Hands, so the script cannot disagree with the
// rules or with the referee's own idea of a move by hand. boardd
// pgn2events prints such scripts; the whole-system tests play them on a
// Rig, simulated switches debounced in simulated time (as boardd sim
// --switches does).
package handsim

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/square"
)

// Noise is how untidy the simulated hands are.
type Noise int

// Noise levels for switch scripts.
const (
	None  Noise = iota // clean lifts and places, long pauses
	Light              // contact bounce, random capture and castling order
	Heavy              // also quick replies, slides, nudged neighbours, touches, human pauses
)

// noiseNames are the levels' names, as boardd pgn2events --noise takes them.
var noiseNames = [...]string{None: "none", Light: "light", Heavy: "heavy"}

// String is the level's name: none, light or heavy.
func (n Noise) String() string {
	if n >= 0 && int(n) < len(noiseNames) {
		return noiseNames[n]
	}
	return fmt.Sprintf("Noise(%d)", int(n))
}

// ParseNoise reads a level's name (none, light or heavy).
func ParseNoise(name string) (Noise, error) {
	for n, s := range noiseNames {
		if s == name {
			return Noise(n), nil
		}
	}
	return 0, fmt.Errorf("noise %q: want none, light or heavy", name)
}

// Script turns a game's moves into what hands and reed switches do, as
// a switch script for the simulated board: captures with the victim or the
// mover lifted first, castling king-first or rook-first, the e.p. victim
// lifted, and with noise contact bounce; at heavy noise also pieces slid
// over the empty squares on their way (resting 5-80 ms on each, both
// switches closed a moment or neither between two squares, on leaving
// and on landing too, a capture's victim snatched off in passing, the
// landing bouncing, now and then hard), quick replies (the next player
// starting 100-400 ms after the landing, before the board was quiet), a
// piece lifted and put back before the move (the mover hesitating,
// j'adoube, an opponent's piece looked at, often during the last move's
// quiet period), a neighbour nudged before the move, a piece knocked and
// set back right after it (a neighbour of the landing square, or after a
// capture another piece the mover could have taken: the same board), and
// human pauses longer than the quiet period between the parts of a castle
// or a capture, a piece held in the hand meanwhile. The same seed gives
// the same script. Resignations end it (no switch shows them).
func Script(g *rules.Game, seed int64, noise Noise) (string, error) {
	chunks, err := Chunks(g, seed, noise)
	return strings.Join(chunks, ""), err
}

// QuickReply ends a turn's chunk (after its last wait) when the next
// player moves before the board was quiet.
const QuickReply = "# quick reply\n"

// Chunks is Script cut into one script per turn: chunk i makes
// move i (and ends with the wait before the next; a short wait is a quick
// reply, judged with the next move).
func Chunks(g *rules.Game, seed int64, noise Noise) ([]string, error) {
	rng := rand.New(rand.NewSource(seed))
	// The game as the hands follow it: besides moving pieces they take
	// off what the rules removed (an army whose king was captured), as
	// the board's lights ask.
	played, err := rules.NewGame(g.Variant(), g.StartFEN4())
	if err != nil {
		return nil, err
	}
	var chunks []string
	var b strings.Builder
	quick := false
	hand := func(from, to string) { // one piece carried from one square to another
		fmt.Fprintf(&b, "lift %s\nwait %dms\nplace %s\n", from, 20+rng.Intn(80), to)
		if ms := rng.Intn(6); ms > 0 && noise > None {
			fmt.Fprintf(&b, "bounce %s %d\n", to, ms)
		}
	}
	recs := g.Records()
	// What the players decide between turns (an announcement into check
	// and its reply, a kept army) goes through commands, not switches:
	// notes[i] come before move i.
	notes := map[int][]string{}
	for _, n := range g.Notes() {
		notes[n.After] = append(notes[n.After], n.Text)
	}
	for i, r := range recs {
		if r.Action != rules.ActMove {
			break
		}
		for _, text := range notes[i] {
			if _, err := played.ApplyNote(text); err != nil {
				return nil, fmt.Errorf("before move %s: %s: %v", r.Text, text, err)
			}
		}
		m := r.Move
		p := played.Position()
		// A human pause between the parts of a move: mostly brief, at
		// heavy noise now and then longer than the quiet period, the piece
		// held in the hand or set down meanwhile.
		pause := func() int {
			if noise == Heavy && rng.Intn(3) == 0 {
				return 300 + rng.Intn(1200)
			}
			return 40 + rng.Intn(80)
		}
		if noise == Heavy && rng.Intn(6) == 0 {
			// A piece lifted, held a while and put back on its square: the
			// mover hesitating, j'adoube, a player looking at any piece;
			// after a quick reply's short wait, during the quiet period of
			// the move before.
			occ := p.Occupancy().Squares()
			if x := occ[rng.Intn(len(occ))]; x != m.From() && x != m.To() {
				fmt.Fprintf(&b, "lift %s\nwait %dms\nplace %s\nwait %dms\n", x, 200+rng.Intn(800), x, 100+rng.Intn(300))
			}
		}
		if noise == Heavy && rng.Intn(5) == 0 {
			// A neighbouring piece nudged and set back first.
			occ := p.Occupancy().Squares()
			if x := occ[rng.Intn(len(occ))]; x != m.From() && x != m.To() {
				fmt.Fprintf(&b, "lift %s\nwait %dms\nplace %s\nwait 40ms\n", x, 30+rng.Intn(40), x)
			}
		}
		// What comes off the board is what the referee's hands take off
		// (referee.Hands: a captured piece, en-passant pawns, Chess4's
		// chained en passant, the essay's partner pawn).
		rookFrom := square.None
		if c, _ := m.IsCastle(); c {
			rookFrom, _ = m.RookSquares()
		}
		var victims []string
		for _, h := range referee.Hands(p, m) {
			if h.Lift && h.Square != m.From() && h.Square != rookFrom {
				victims = append(victims, h.Square.String())
			}
		}
		switch c, _ := m.IsCastle(); {
		case c && noise == Heavy && rng.Intn(3) == 0:
			// Both lifted together, set down in either order, pausing.
			rf, rt := m.RookSquares()
			a, b2 := []string{m.From().String(), m.To().String()}, []string{rf.String(), rt.String()}
			if rng.Intn(2) == 0 {
				a, b2 = b2, a
			}
			fmt.Fprintf(&b, "lift %s\nwait %dms\nlift %s\nwait %dms\nplace %s\nwait %dms\nplace %s\n", a[0], 40+rng.Intn(80), b2[0], pause(), a[1], pause(), b2[1])
		case c:
			rf, rt := m.RookSquares()
			first, second := [2]string{m.From().String(), m.To().String()}, [2]string{rf.String(), rt.String()}
			if rng.Intn(2) == 0 {
				first, second = second, first
			}
			if noise == Heavy {
				// King first or rook first, at a human pace: a pause
				// before the second piece and another with it in the hand.
				fmt.Fprintf(&b, "lift %s\nwait %dms\nplace %s\nwait %dms\nlift %s\nwait %dms\nplace %s\n", first[0], pause(), first[1], pause(), second[0], pause(), second[1])
			} else {
				hand(first[0], first[1])
				hand(second[0], second[1])
			}
		// A hand needs well over the 20 ms debounce to take a piece off
		// and put another down: 40-120 ms here. At heavy noise a piece
		// that goes in a line is often slid over the empty squares on its
		// way instead (see slide).
		case len(victims) > 0 && rng.Intn(2) == 0: // victims off first
			for _, v := range victims {
				fmt.Fprintf(&b, "lift %s\nwait %dms\n", v, pause())
			}
			if way := between(p, m); noise == Heavy && len(way) > 0 && rng.Intn(2) == 0 {
				slide(&b, rng, m.From(), way, m.To(), nil)
			} else {
				hand(m.From().String(), m.To().String())
			}
		case len(victims) > 0: // mover first, then the victims, then put down
			if way := between(p, m); noise == Heavy && len(way) > 0 && rng.Intn(2) == 0 {
				// Slid up to the victim, which the other hand snatches
				// off in passing, then on: one motion.
				slide(&b, rng, m.From(), way, m.To(), func() {
					for _, v := range victims {
						fmt.Fprintf(&b, "lift %s\nwait %dms\n", v, 20+rng.Intn(60))
					}
				})
			} else {
				fmt.Fprintf(&b, "lift %s\nwait %dms\n", m.From(), pause())
				for _, v := range victims {
					fmt.Fprintf(&b, "lift %s\nwait %dms\n", v, pause())
				}
				fmt.Fprintf(&b, "place %s\n", m.To())
				if ms := rng.Intn(6); ms > 0 && noise > None {
					fmt.Fprintf(&b, "bounce %s %d\n", m.To(), ms)
				}
			}
		default:
			if way := between(p, m); noise == Heavy && len(way) > 0 && rng.Intn(2) == 0 {
				slide(&b, rng, m.From(), way, m.To(), nil)
			} else {
				hand(m.From().String(), m.To().String())
			}
		}
		// What the hands do between the landing and the next move, in ms
		// after the landing: at heavy noise now and then a piece is
		// knocked and set back (a neighbour of the landing square, or
		// after a capture another piece the mover could have taken, the
		// same board either way: the order of the switches tells).
		since := 0
		if c, _ := m.IsCastle(); noise == Heavy && !c && rng.Intn(4) < 1+min(len(victims), 1) {
			if x, ok := knocked(p, m, rng); ok {
				at, hold := rng.Intn(200), 30+rng.Intn(170)
				fmt.Fprintf(&b, "wait %dms\nlift %s\nwait %dms\nplace %s\n", at+1, x, hold, x)
				since = at + 1 + hold
			}
		}
		swap, swapEP := m.IsSwap()
		if swap = swap && !swapEP; swap {
			// The essay's partner pawn swap: the partner's pawn, lifted
			// above, is set down on the square the mover left.
			fmt.Fprintf(&b, "wait %dms\nplace %s\n", 40+rng.Intn(80), m.From())
		}
		// A promotion to a piece the switches cannot show: the board plays
		// the variant's default, and the player, once it is judged, lifts
		// the promoted piece and puts it back until it is the one wanted
		// (each time the choice moves on to the next piece on offer).
		gestures := promotionPick(played.LegalMoves(), m)
		p.Make(m) // where the hands left the pieces
		if _, err := played.Play(m); err != nil {
			return nil, fmt.Errorf("move %s: %v", r.Text, err)
		}
		// The next move needs the gesture or a command first: nobody
		// rushes it.
		next := i+1 < len(recs) && recs[i+1].Action == rules.ActMove // a move follows
		nextPick := i+1 < len(recs) && recs[i+1].Action == rules.ActMove && (len(notes[i+1]) > 0 || promotionPick(played.LegalMoves(), recs[i+1].Move) > 0)
		switch {
		case gestures > 0:
			b.WriteString("wait 600ms\n")
			for k := 0; k < gestures; k++ {
				fmt.Fprintf(&b, "lift %s\nwait 80ms\nplace %s\nwait 600ms\n", m.To(), m.To())
			}
			quick = false
		case noise == Heavy && !quick && !nextPick && next && p.Occupancy() == played.Position().Occupancy() && rng.Intn(4) == 0:
			// Now and then the next player starts moving 100-400 ms after
			// the landing, before the board was quiet (not while the
			// rules take pieces off), the last piece
			// perhaps still bouncing (never twice in a row: the referee
			// reads at most three moves from one quiet period).
			// (and 100 ms at least after a knocked piece was set back:
			// two hands do not meet on the board)
			fmt.Fprintf(&b, "wait %dms %s", max(100+rng.Intn(300)-since, 100), QuickReply)
			quick = true
		default:
			b.WriteString("wait 600ms\n")
			quick = false
		}
		if gone := p.Occupancy().AndNot(played.Position().Occupancy()); gone.Len() > 0 {
			// The rules took pieces off: the lights show them one at a
			// time and the hands follow.
			for _, q := range gone.Squares() {
				fmt.Fprintf(&b, "lift %s\nwait 300ms\n", q)
			}
			b.WriteString("wait 600ms\n")
		}
		chunks = append(chunks, b.String())
		b.Reset()
	}
	return chunks, nil
}

// promotionPick is how many times the promotion gesture moves the choice
// on from the default to m: m's place among the legal moves with its
// squares (the default first), 0 for a move that is no such choice.
func promotionPick(legal []rules.Move, m rules.Move) int {
	n := 0
	for _, x := range legal {
		if x.From() != m.From() || x.To() != m.To() {
			continue
		}
		if x == m {
			return n
		}
		n++
	}
	return 0
}

// between lists the squares a piece going in a line passes on its way
// (a rider, a king, a pawn's double step), all empty: where a sliding
// hand may rest. Nil for a knight's leap and a step.
func between(p *rules.Position, m rules.Move) []square.Square {
	df, dr := m.To().File()-m.From().File(), m.To().Rank()-m.From().Rank()
	if df != 0 && dr != 0 && df != dr && df != -dr {
		return nil
	}
	sf, sr := cmp.Compare(df, 0), cmp.Compare(dr, 0)
	var out []square.Square
	for f, r := m.From().File()+sf, m.From().Rank()+sr; f != m.To().File() || r != m.To().Rank(); f, r = f+sf, r+sr {
		q := square.At(f, r)
		if p.At(q).IsPiece() || !p.Variant().Geometry.Playable.Has(q) {
			return nil
		}
		out = append(out, q)
	}
	return out
}

// slide writes a hand sliding a piece from one square over the empty
// squares way onto to, as reed switches see it: on each square of the
// way it rests a moment (5-80 ms: long enough for the switch to report
// it, or not), and between two squares it covers both switches a moment
// or neither, on its first square and on landing too; the landing
// bounces. beforeLast, when set, is written before the last step (a
// piece taken off the destination with the mover in the hand).
func slide(b *strings.Builder, rng *rand.Rand, from square.Square, way []square.Square, to square.Square, beforeLast func()) {
	path := append(append([]square.Square{from}, way...), to)
	for k := 1; k < len(path); k++ {
		if k == len(path)-1 && beforeLast != nil {
			beforeLast()
		}
		prev, next := path[k-1], path[k]
		if rng.Intn(3) == 0 { // both covered a moment
			fmt.Fprintf(b, "place %s\nwait %dms\nlift %s\n", next, 5+rng.Intn(35), prev)
		} else {
			fmt.Fprintf(b, "lift %s\nwait %dms\nplace %s\n", prev, rng.Intn(20), next)
		}
		if k < len(path)-1 {
			fmt.Fprintf(b, "wait %dms\n", 5+rng.Intn(75))
		}
	}
	ms := 1 + rng.Intn(8)
	if rng.Intn(5) == 0 {
		ms = 10 + rng.Intn(30) // a hard landing
	}
	fmt.Fprintf(b, "bounce %s %d\n", to, ms)
}

// knocked picks the piece a hand knocks and sets back right after move
// m of position p: after a capture, now and then another piece the mover
// could have taken (the same board either way), else a piece next to the
// landing square. It reports false when there is none.
func knocked(p *rules.Position, m rules.Move, rng *rand.Rand) (square.Square, bool) {
	q := p.Clone()
	q.Make(m)
	if p.At(m.To()).IsPiece() && rng.Intn(2) == 0 {
		var also []square.Square
		for _, x := range p.LegalMoves(nil) {
			if x.From() == m.From() && x.To() != m.To() && p.At(x.To()).IsPiece() && q.Occupancy().Has(x.To()) && !slices.Contains(also, x.To()) {
				also = append(also, x.To())
			}
		}
		if len(also) > 0 {
			return also[rng.Intn(len(also))], true
		}
	}
	var near []square.Square
	for _, x := range q.Occupancy().Squares() {
		if d := max(x.File()-m.To().File(), m.To().File()-x.File(), x.Rank()-m.To().Rank(), m.To().Rank()-x.Rank()); d == 1 {
			near = append(near, x)
		}
	}
	if len(near) == 0 {
		return square.None, false
	}
	return near[rng.Intn(len(near))], true
}
