package referee

import (
	"strings"
	"testing"

	"boardd/leds"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// refAfter is a referee on variant name's game after the moves given as
// PGN4 tokens.
func refAfter(t *testing.T, name, moves string) *Referee {
	t.Helper()
	v, err := rules.NewVariant(name, "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range strings.Fields(moves) {
		m, err := pgn4.Resolve(g, mv)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return New(g)
}

// step is some touches ("-h2 +h4") and then a quiet board.
type step struct {
	touches string
	want    string // the events Quiet returns: "move h2-h4", "revised O-O", … joined by ", "
}

// events writes Quiet's events for a test's want.
func events(evs []Event) string {
	var out []string
	for _, e := range evs {
		s := e.Kind.String()
		if e.Kind == EvMove || e.Kind == EvRevised {
			s += " " + e.Record.Text
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// runSteps feeds the steps to r, each followed by a quiet board, and
// checks what the referee said after each; the board must end in step.
func runSteps(t *testing.T, r *Referee, steps []step) {
	t.Helper()
	for i, s := range steps {
		if got := events(feed(r, s.touches)); got != s.want {
			t.Fatalf("step %d %q: events %q, want %q", i+1, s.touches, got, s.want)
		}
	}
	if !r.InStep() {
		t.Errorf("the board is left in correction (%v)", r.fix.Kind)
	}
}

const ffaCastle = "h2-h3 b7-c7 d13-d12 m5-l5 k2-k3 Na5-c6 e13-e12 m4-l4 j2-j3 Ba6-b7 f13-f12 m6-l6 d2-d3"

// Touches are not moves: a piece lifted and put back by anyone (the next
// player included, before or after the last move was judged), j'adoube,
// a piece dragged across squares, a knocked neighbour set back, an
// opponent's piece picked up to look at it. No error, no phantom move, no
// stop; the moves made are read.
func TestRefereeTouchesAreNotMoves(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"j'adoube", []step{{"-h2 +h2", ""}, {"-h2 +h4", "move h2-h4"}}},
		{"the opponent's piece looked at", []step{{"-b7", ""}, {"+b7", ""}, {"-h2 +h3", "move h2-h3"}}},
		{"the opponent's piece looked at during the move", []step{{"-h2 -b7 +b7 +h3", "move h2-h3"}}},
		{"next player's piece held during the quiet period, put back, then moved", []step{{"-j2 +j3 -b6", ""}, {"+b6 -a10 +c9", "move j2-j3, move Na10-c9"}}},
		{"next player's piece held, put back, then a quiet board", []step{{"-j2 +j3 -b6", ""}, {"+b6", "move j2-j3"}, {"-a10 +c9", "move Na10-c9"}}},
		{"next player's piece lifted and put back after the move was read", []step{{"-j2 +j3", "move j2-j3"}, {"-b6 +b6", ""}, {"-a10 +c9", "move Na10-c9"}}},
		{"slid across an empty square", []step{{"-h2 +h3 -h3 +h4", "move h2-h4"}}},
		{"a neighbour knocked and set back", []step{{"-h2 -g2 +g2 +h4", "move h2-h4"}}},
		{"a neighbour knocked and set back after the move", []step{{"-h2 +h4 -g2 +g2", "move h2-h4"}}},
		{"a neighbour knocked, held, set back", []step{{"-h2 +h4 -g2", ""}, {"+g2", "move h2-h4"}}},
		{"someone else's piece held while the mover moves", []step{{"-e13", ""}, {"-h2 +h4", ""}, {"+e13", "move h2-h4"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, refAfter(t, "teams", ""), tc.steps)
		})
	}
}

// Castling in either order, at any pace, with a piece held in the hand:
// O-O, never a rook move left in the game and never a refusal. A rook
// move read before the same seat's king completes the castle is revised
// (EvRevised) and the LEDs show the castle as the last move.
func TestRefereeCastlingAtAnyPace(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"together", []step{{"-a7 +a5 -a4 +a6", "move O-O"}}},
		{"king first, a pause", []step{{"-a7 +a5", ""}, {"-a4 +a6", "move O-O"}}},
		{"king first, the rook held", []step{{"-a7 +a5 -a4", ""}, {"+a6", "move O-O"}}},
		{"king held", []step{{"-a7", ""}, {"+a5", ""}, {"-a4", ""}, {"+a6", "move O-O"}}},
		{"rook first", []step{{"-a4 +a6", "move Ra4-a6"}, {"-a7 +a5", "revised O-O"}}},
		{"rook first, the king held", []step{{"-a4 +a6", "move Ra4-a6"}, {"-a7", ""}, {"+a5", "revised O-O"}}},
		{"both lifted, rook down first", []step{{"-a7 -a4", ""}, {"+a6", ""}, {"+a5", "move O-O"}}},
		{"both lifted, king down first", []step{{"-a4 -a7", ""}, {"+a5", ""}, {"+a6", "move O-O"}}},
		{"rook first, slid across a square", []step{{"-a4 +a5 -a5 +a6", "move Ra4-a6"}, {"-a7 +a5", "revised O-O"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refAfter(t, "ffa", ffaCastle)
			runSteps(t, r, tc.steps)
			recs := r.Game().Records()
			if last := recs[len(recs)-1]; last.Text != "O-O" || len(recs) != 14 {
				t.Fatalf("the game ends with %s (%d turns)", last.Text, len(recs))
			}
			var f leds.Frame
			r.Frame(&f)
			if f.At(sq("a7")) != r.Palette.LastMove || f.At(sq("a5")) != r.Palette.LastMove {
				t.Error("the castle is not lit as the last move")
			}
		})
	}
}

// The rook's part read, then the king's part with the next seat's quick
// reply before the board was quiet: the castle and the reply.
func TestRefereeRevisionWithAQuickReply(t *testing.T) {
	r := refAfter(t, "ffa", ffaCastle)
	runSteps(t, r, []step{{"-a4 +a6", "move Ra4-a6"}, {"-a7 +a5 -e12 +e11", "revised O-O, move e12-e11"}})
}

// A castle half made is lit: the rook still to move on its square, its
// destination as a destination.
func TestRefereeHalfCastleLit(t *testing.T) {
	r := refAfter(t, "ffa", ffaCastle)
	if evs := feed(r, "-a7 +a5"); len(evs) != 0 {
		t.Fatalf("king part: %v", kinds(evs))
	}
	var f leds.Frame
	r.Frame(&f)
	if f.At(sq("a4")) != r.Palette.Lifted || f.At(sq("a6")) != r.Palette.Destination {
		t.Errorf("the rook's part is not lit: a4 %v a6 %v", f.At(sq("a4")), f.At(sq("a6")))
	}
}

// Once the next seat has moved, the rook move stands: a king moved two
// squares then is no castle, and the board says why.
func TestRefereeNoRevisionAfterTheNextSeatMoved(t *testing.T) {
	r := refAfter(t, "ffa", ffaCastle)
	runSteps(t, r, []step{{"-a4 +a6", "move Ra4-a6"}, {"-e12 +e11", "move e12-e11"}})
	evs := feed(r, "-a7 +a5")
	if len(evs) != 1 || evs[0].Kind != EvIllegal {
		t.Fatalf("king part after Yellow moved: %v", kinds(evs))
	}
	if recs := r.Game().Records(); recs[13].Text != "Ra4-a6" {
		t.Errorf("the rook move was revised after the next seat moved: %s", recs[13].Text)
	}
}

// After any refusal, once the board shows the game after one legal move of
// the seat to move, that move is read: nobody has to put the pieces back.
func TestRefereeReadsALegalMoveAfterARefusal(t *testing.T) {
	for _, tc := range []struct {
		name           string
		refused, fixed string // the touches refused, the touches that then show a legal move
		want           string
	}{
		{"a pawn three squares, then put on its fourth rank", "-h2 +h5", "-h5 +h4", "h2-h4"},
		{"a knight misplaced, then on a legal square", "-j1 +j4", "-j4 +i3", "Nj1-i3"},
		{"a pawn pushed, another moved by mistake, then put back", "-h2 +h4 -b7 +d8", "-d8 +b7", "h2-h4"},
		{"a pawn three squares, then put back and another moved", "-h2 +h5", "-h5 +h2 -g2 +g3", "g2-g3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refAfter(t, "teams", "")
			if evs := feed(r, tc.refused); len(evs) != 1 || evs[0].Kind != EvIllegal && evs[0].Kind != EvOutOfTurn {
				t.Fatalf("%s: %v, want a refusal", tc.refused, kinds(evs))
			}
			evs := feed(r, tc.fixed)
			if got := events(evs); got != "corrected, move "+tc.want {
				t.Fatalf("%s then %s: %q", tc.refused, tc.fixed, got)
			}
			if !r.InStep() {
				t.Error("still in correction")
			}
		})
	}
}

// Every refusal on the switches says why when the changed squares fit one
// move the rules forbid: the typed path's explanation.
func TestRefereeRefusalSaysWhy(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	for _, tc := range []struct {
		name, pieces, touches, want string
		from                        string // the square the piece must go back to (lit to fill)
	}{
		{"pinned bishop", "rK:h1 rB:h2 bK:a7 bR:h9 yK:g14 gK:n8", "-h2 +g3", "Bh2-g3: it would leave Red's king on h1 in check from Blue's rook on h9", "h2"},
		{"pinned pawn", "rK:h1 rP:g2 bK:a7 bB:e4 yK:g14 gK:n8", "-g2 +g3", "g2-g3: it would leave Red's king on h1 in check from Blue's bishop on e4", "g2"},
		{"rook through a piece", "rK:h1 rR:d3 rP:d4 bK:a7 yK:g14 gK:n8", "-d3 +d6", "Rd3-d6: the rook's path is blocked at d4", "d3"},
		{"a capture by a blocked rook", "rK:h1 rR:d3 rP:d4 bK:a7 bN:d8 yK:g14 gK:n8", "-d8 -d3 +d8", "Rd3xd8: the rook's path is blocked at d4", "d3"},
		{"king into check", "rK:h1 bK:a7 bR:i9 yK:g14 gK:n8", "-h1 +i1", "Kh1-i1: Red's king would be attacked on i1 by Blue's rook on i9", "h1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRef(t, v, crossFEN(t, "R", tc.pieces))
			evs := feed(r, tc.touches)
			if len(evs) != 1 || evs[0].Kind != EvIllegal || evs[0].Why != tc.want {
				t.Fatalf("events %+v, want illegal with %q", evs, tc.want)
			}
			// The way back is lit: the piece's new square to empty, its
			// own to fill.
			var f leds.Frame
			r.Frame(&f)
			if f.At(sq(tc.from)) != r.Palette.Missing {
				t.Errorf("the way back is not lit: %s %v", tc.from, f.At(sq(tc.from)))
			}
		})
	}
}

// BenchmarkDecide times the referee's decision once the board is quiet
// after the last place event (Referee.Quiet: inference, the checks for a
// move still being made, a revision, a refusal's reason, a doubt opened
// or settled, three quick moves). The touches
// before (prepare: judged first, like the rook's part of a castle read
// before its king's part) and putting the game back after are not timed.
func BenchmarkDecide(b *testing.B) {
	v, _ := rules.NewTeams("modern")
	at := func(pieces string) *Referee {
		p, err := rules.ParsePlacement(v, rules.Red, pieces)
		if err != nil {
			b.Fatal(err)
		}
		g, err := rules.NewGame(v, p.FEN4())
		if err != nil {
			b.Fatal(err)
		}
		return New(g)
	}
	t := &testing.T{}
	cases := []struct {
		name    string
		r       *Referee
		prepare string // touches judged before the timed ones
		touches string
		want    EventKind
	}{
		{"capture", at("rK:h1 rQ:e4 bK:a7 bR:e8 bN:h7 yK:g14 gK:n8"), "", "-e8 -e4 +e8", EvMove},
		{"quick reply after a touch", refAfter(t, "teams", ""), "-j2 +j3 -b6", "+b6 -a10 +c9", EvMove},
		{"castle revised", refAfter(t, "ffa", ffaCastle), "-a4 +a6", "-a7 +a5", EvRevised},
		{"refused with a reason", at("rK:h1 rB:h2 bK:a7 bR:h9 yK:g14 gK:n8"), "", "-h2 +g3", EvIllegal},
		{"capture with a touch kept in doubt", refAfter(t, "ffa", ffaTwoCaptures), "", "-l11 -n9 +n9 -k10 +k10", EvMove},
		{"doubt settled by the next move", refAfter(t, "ffa", ffaTwoCaptures), "-l11 -n9 +n9 -k10 +k10", "-n9 +m10", EvRevised},
		{"three moves in one quiet period", refAfter(t, "teams", ""), "", "-j1 +i3 -b6 +b6 -a10 +c9 -e13 +e11", EvMove},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			r, g := c.r, c.r.Game()
			tr := trace(c.touches)
			base, occ := len(g.Records()), r.Occupancy()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if c.prepare != "" {
					feed(r, c.prepare)
				}
				for _, x := range tr {
					r.Touch(x)
				}
				b.StartTimer()
				evs := r.Quiet()
				b.StopTimer()
				if len(evs) == 0 || evs[0].Kind != c.want {
					b.Fatalf("events %v, want %v", kinds(evs), c.want)
				}
				for len(g.Records()) > base {
					g.Takeback()
				}
				r.Resync(occ)
				b.StartTimer()
			}
		})
	}
}

// A piece set down on an empty square and left there is the piece that
// moved: it cannot also have landed elsewhere. Red's queen to e7, Blue's
// piece on e12 lifted and put back, Blue's bishop takes the queen: not
// Qe8xe12 and Bj2-e7, which the occupancy and the order of lifts and
// places alone would also allow.
func TestInferThePieceSetDownIsThePieceThatMoved(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rQ:e8 bK:a7 bN:e12 bB:j2 yK:g14 gK:n8")
	if err != nil {
		t.Fatal(err)
	}
	tr := trace("-e8 +e7 -e12 +e12 -e7 -j2 +e7")
	got := Infer(p, p.LegalMoves(nil), Observation{Trace: tr, Final: replay(p.Occupancy(), tr)})
	if got.Kind != Moved || got.Move.String() != "e8-e7" || len(got.Then) != 1 || got.Then[0].String() != "j2-e7" {
		t.Fatalf("verdict %v %v then %v, want e8-e7 then j2-e7", got.Kind, got.Move, got.Then)
	}
}

// A remote seat's move the board waits for (Expect): a promotion is made
// as the remote seat chose it, another move is refused.
func TestRefereeExpectedPromotion(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rP:e10 bK:a7 yK:g14 gK:n8 gR:n4")
	if err != nil {
		t.Fatal(err)
	}
	r := newRef(t, v, p.FEN4())
	m, err := pgn4.ResolveAmong(p, r.Game().LegalMoves(), "e10-e11=N")
	if err != nil {
		t.Fatal(err)
	}
	r.Expect = m
	if got := events(feed(r, "-h1 +i1")); got != "illegal" {
		t.Fatalf("another move than the remote one: %q", got)
	}
	feed(r, "-i1 +h1")
	if got := events(feed(r, "-e10 +e11")); got != "move e10-e11=N" {
		t.Fatalf("the remote promotion made: %q", got)
	}
}

// A remote seat's move is expected (a bot's, or a player's from afar):
// another move on the board is refused, and the refusal says who asked
// for which move and what the board shows (issue 27: a bot seat's wrong
// move got only "no legal move explains the board").
func TestRefereeAnotherMoveThanTheExpectedOne(t *testing.T) {
	for _, tc := range []struct {
		name, by, touches, want string
	}{
		{"a bot's move, another legal move made", "Red's bot (level 3)", "-h2 +h3", "Red's bot (level 3) asked for h2-h4, not h2-h3"},
		{"nobody named, another legal move made", "", "-h2 +h3", "Red asked for h2-h4, not h2-h3"},
		{"a bot's move, no legal move made", "Red's bot (level 3)", "-h2 +h6", "Red's bot (level 3) asked for h2-h4, not another move"},
		{"a bot's move, a move the rules forbid", "Red's bot (level 3)", "-h1 +h2", "Red's bot (level 3) asked for h2-h4, not another move"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refAfter(t, "teams", "")
			m, err := pgn4.Resolve(r.Game(), "h2-h4")
			if err != nil {
				t.Fatal(err)
			}
			r.Expect, r.ExpectBy = m, tc.by
			evs := feed(r, tc.touches)
			if len(evs) != 1 || evs[0].Kind != EvIllegal || !strings.HasPrefix(evs[0].Why, tc.want) {
				t.Fatalf("events %+v, want illegal saying %q", evs, tc.want)
			}
		})
	}
}

// A capture, then the next player touches another piece the capturing
// piece could also have taken, and moves: read as such, rather than as a
// piece held through the whole capture by a second hand (the same lifts
// and places). With the capturing piece lifted first the touch may as
// well have been the mover's, piece in hand: the capture read is the one
// whose touch came after the piece came down (a hand that has just put
// its piece down, or the next player's), and the other stays open (Others,
// kept as a doubt by the referee).
func TestInferCaptureThenATouch(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rQ:e4 bK:a7 bN:e8 bB:b4 bP:b7 yK:g14 gK:n8")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		trace, want string
	}{
		{"-e8 -e4 +e8 -b4 +b4 -b7 +c7", "moved e4-e8 b7-c7 (or e4-b4)"}, // victim first
		{"-e4 -e8 +e8 -b4 +b4 -b7 +c7", "moved e4-e8 b7-c7 (or e4-b4)"}, // mover first
		{"-e4 -b4 +b4 -e8 +e8 -b7 +c7", "moved e4-b4 b7-c7 (or e4-e8)"}, // the other way round
	} {
		tr := trace(tc.trace)
		got := Infer(p, p.LegalMoves(nil), Observation{Trace: tr, Final: replay(p.Occupancy(), tr)})
		s := got.Kind.String()
		if got.Kind == Moved {
			s += " " + got.Move.String()
			for _, m := range got.Then {
				s += " " + m.String()
			}
		}
		for _, m := range got.Candidates {
			s += " " + m.String()
		}
		for _, m := range got.Others {
			s += " (or " + m.String() + ")"
		}
		if s != tc.want {
			t.Errorf("%s: %s, want %s", tc.trace, s, tc.want)
		}
	}
}
