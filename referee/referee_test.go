package referee

import (
	"slices"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/leds"
	"boardd/rules"
	"boardd/rules/essay"
	"boardd/rules/square"
	"boardd/rules/variants"
)

func newRef(t *testing.T, v *rules.Variant, fen string) *Referee {
	t.Helper()
	g, err := rules.NewGame(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return New(g)
}

func feed(r *Referee, tr string) []Event {
	for _, x := range trace(tr) {
		r.Touch(x)
	}
	return r.Quiet()
}

func kinds(evs []Event) []EventKind {
	var out []EventKind
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

func TestRefereeMovesAndLEDs(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, "")
	var f leds.Frame
	// "Legal destinations must appear within one scan of the lift."
	r.Touch(Touch{Square: sq("h2"), Lift: true})
	r.Frame(&f)
	if f.At(sq("h2")) != r.Palette.Lifted || f.At(sq("h3")) != r.Palette.Destination || f.At(sq("h4")) != r.Palette.Destination || f.At(sq("h5")) != leds.Off {
		t.Errorf("lifted h2: h2 %v h3 %v h4 %v h5 %v", f.At(sq("h2")), f.At(sq("h3")), f.At(sq("h4")), f.At(sq("h5")))
	}
	r.Touch(Touch{Square: sq("h4")})
	evs := r.Quiet()
	if len(evs) != 1 || evs[0].Kind != EvMove || evs[0].Record.Text != "h2-h4" || evs[0].Seq != 1 {
		t.Fatalf("events %+v", evs)
	}
	r.Frame(&f)
	if f.At(sq("h2")) != r.Palette.LastMove || f.At(sq("h4")) != r.Palette.LastMove {
		t.Error("last move not lit")
	}
	if f.At(sq("a4")) != r.Palette.Turn[rules.Blue] || f.At(sq("a11")) != r.Palette.Turn[rules.Blue] {
		t.Error("Blue's turn not shown on its back-line corners")
	}
	// A piece lifted and put back: nothing happens.
	if evs := feed(r, "-b7 +b7"); len(evs) != 0 {
		t.Errorf("lift and put back: %v", kinds(evs))
	}
}

func TestRefereeIllegalAndCorrection(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, "")
	evs := feed(r, "-h2 +h5")
	if len(evs) != 1 || evs[0].Kind != EvIllegal || r.InStep() {
		t.Fatalf("events %v in step %v", kinds(evs), r.InStep())
	}
	var f leds.Frame
	r.Frame(&f)
	if f.At(sq("h5")) != r.Palette.Wrong || f.At(sq("h2")) != r.Palette.Missing {
		t.Errorf("way back not shown: h5 %v h2 %v", f.At(sq("h5")), f.At(sq("h2")))
	}
	if evs := feed(r, "-h5"); len(evs) != 0 {
		t.Errorf("half corrected: %v", kinds(evs))
	}
	r.Frame(&f)
	if f.At(sq("h5")) != leds.Off || f.At(sq("h2")) != r.Palette.Missing {
		t.Errorf("after the piece left h5: h5 %v h2 %v", f.At(sq("h5")), f.At(sq("h2")))
	}
	evs = feed(r, "+h2")
	if len(evs) != 1 || evs[0].Kind != EvCorrected || !r.InStep() {
		t.Fatalf("after putting it back: %v", kinds(evs))
	}
	if len(r.Game().Records()) != 0 {
		t.Error("an illegal attempt was recorded as a move")
	}
	// Out of turn: Blue moves while Red is to move.
	evs = feed(r, "-b7 +c7")
	if len(evs) != 1 || evs[0].Kind != EvOutOfTurn || evs[0].Seat != rules.Blue {
		t.Fatalf("out of turn: %+v", evs)
	}
	feed(r, "-c7 +b7")
	if !r.InStep() {
		t.Error("not back in step")
	}
}

// Several things wrong at once: the lights show one fix at a time, the
// nearest piece to take away and square to fill first.
func TestRefereeOneFixAtATime(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, "")
	occ := r.Game().Position().Occupancy()
	occ.Remove(sq("d1")) // a rook knocked off
	occ.Remove(sq("h2")) // a pawn lifted and put down two squares on
	occ.Add(sq("h4"))
	occ.Add(sq("k7")) // a stray piece
	r.Resync(occ)
	tests := []struct {
		extra, missing string // what the lights show next ("" none)
		then           string // what the hands do
	}{
		{"h4", "h2", "-h4 +h2"},
		{"k7", "d1", "-k7 +d1"},
	}
	for i, tc := range tests {
		e, m := r.NextFix()
		if e.String() != tc.extra && !(e == square.None && tc.extra == "") || m.String() != tc.missing && !(m == square.None && tc.missing == "") {
			t.Fatalf("step %d: next fix %v→%v, want %s→%s", i+1, e, m, tc.extra, tc.missing)
		}
		var f leds.Frame
		r.Frame(&f)
		lit := 0
		for _, q := range r.Game().Variant().Geometry.Playable.Squares() {
			if f.At(q) != leds.Off {
				lit++
			}
		}
		if tc.then != "" && lit != 2 {
			t.Errorf("step %d: %d squares lit, want the 2 of the fix", i+1, lit)
		}
		feed(r, tc.then)
	}
	if !r.InStep() {
		t.Error("not in step after the fixes")
	}
}

func TestRefereePromotionChoice(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rP:e10 bK:a7 yK:g14 gK:n8 gR:n4")
	if err != nil {
		t.Fatal(err)
	}
	r := newRef(t, v, p.FEN4())
	evs := feed(r, "-e10 +e11")
	if len(evs) != 2 || evs[0].Kind != EvPromotionChoice || evs[1].Record.Text != "e10-e11=Q+" || evs[1].Record.TurnAfter != rules.Blue {
		t.Fatalf("events %+v", evs)
	}
	var f leds.Frame
	r.Frame(&f)
	if f.At(sq("e11")) != r.Palette.Promotion {
		t.Error("the promotion square is not lit for the choice")
	}
	rec, err := r.ChoosePromotion(rules.Knight)
	if err != nil || rec.Text != "e10-e11=N" {
		t.Fatalf("choose knight: %v %v", rec.Text, err)
	}
	if pc := r.Game().Position().At(sq("e11")); pc != rules.MakePiece(rules.Red, rules.Knight) {
		t.Errorf("e11 holds %v", pc)
	}
	// The gesture: lift the promoted piece and put it back, and the choice
	// moves on to the next piece on offer, round to where it started.
	seen := map[rules.Kind]bool{}
	for i := 0; i < 4; i++ {
		evs := feed(r, "-e11 +e11")
		if len(evs) != 1 || evs[0].Kind != EvPromotionChanged {
			t.Fatalf("lift and replace %d: %+v", i+1, evs)
		}
		k := evs[0].Record.Move.Promotion()
		if pc := r.Game().Position().At(sq("e11")); pc != rules.MakePiece(rules.Red, k) {
			t.Errorf("gesture %d: %s, but e11 holds %v", i+1, evs[0].Record.Text, pc)
		}
		seen[k] = true
		if i == 3 && k != rules.Knight {
			t.Errorf("four gestures end on %v, want the knight again", k)
		}
	}
	if len(seen) != 4 {
		t.Errorf("the gestures offered %v, want Q, R, B and N", seen)
	}
	// The next move closes the choice: the gesture is a plain lift again.
	feed(r, "-a7 +a8")
	if _, err := r.ChoosePromotion(rules.Rook); err == nil {
		t.Error("a change accepted after the next move")
	}
	if evs := feed(r, "-e11 +e11"); len(evs) != 0 {
		t.Errorf("lift and replace after the choice closed: %v", kinds(evs))
	}
}

func TestRefereeGameOver(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	// Red mates Green (Qm11-m8, supported by Rm4); Green's turn comes after
	// Blue's and Yellow's.
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rQ:m11 rR:m4 bK:a7 yK:g14 gK:n8")
	if err != nil {
		t.Fatal(err)
	}
	r := newRef(t, v, p.FEN4())
	feed(r, "-m11 +m8")
	feed(r, "-a7 +a6")
	evs := feed(r, "-g14 +f14")
	if len(evs) != 2 || evs[1].Kind != EvGameOver || evs[1].Result.Reason != "checkmate" {
		t.Fatalf("events %+v", evs)
	}
	var f leds.Frame
	r.Frame(&f)
	if f.At(sq("n8")) != r.Palette.Out {
		t.Errorf("the mated king is lit %v, want the eliminated colour", f.At(sq("n8")))
	}
}

// "takeback: restoring the previous position undoes the last move when the
// config allows it (club setting: off, on, or ask)"
func TestRefereeTakeback(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	tests := []struct {
		mode TakebackMode
		want []EventKind
	}{
		{TakebackOff, []EventKind{EvIllegal}}, // a pawn stepping back is nobody's legal move
		{TakebackOn, []EventKind{EvTakeback}},
		{TakebackAsk, []EventKind{EvTakebackAsked}},
	}
	for _, tt := range tests {
		r := newRef(t, v, "")
		r.Takeback = tt.mode
		feed(r, "-h2 +h3")
		evs := feed(r, "-h3 +h2")
		if got := kinds(evs); len(got) != len(tt.want) || got[0] != tt.want[0] {
			t.Errorf("mode %d: events %v, want %v", tt.mode, got, tt.want)
			continue
		}
		switch tt.mode {
		case TakebackOn:
			if len(r.Game().Records()) != 0 || r.Game().Turn() != rules.Red || !r.InStep() {
				t.Errorf("after takeback: %d records, turn %v", len(r.Game().Records()), r.Game().Turn())
			}
		case TakebackAsk:
			if len(r.Game().Records()) != 1 {
				t.Error("took back without confirmation")
			}
			evs, err := r.ConfirmTakeback()
			if err != nil || len(evs) != 1 || evs[0].Kind != EvTakeback || len(r.Game().Records()) != 0 || !r.InStep() {
				t.Errorf("confirm: %v %v, %d records", kinds(evs), err, len(r.Game().Records()))
			}
		}
	}
}

// "several quick moves by different players before the board was quiet
// (evaluate only after a configurable quiet period; keep the event trace)"
func TestRefereeQuickReplies(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, "")
	evs := feed(r, "-h2 +h4 -b7 +c7")
	if len(evs) != 2 || evs[0].Record.Text != "h2-h4" || evs[1].Record.Text != "b7-c7" || evs[1].Seq != 2 {
		t.Fatalf("events %+v", evs)
	}
	if r.Game().Turn() != rules.Yellow {
		t.Errorf("turn %v", r.Game().Turn())
	}
}

// A player holding a piece while thinking: the board is quiet but nothing
// has been put down, so nothing is judged and the destinations stay lit.
func TestRefereeWaitsForAPieceInTheHand(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	r := newRef(t, v, "")
	for _, tr := range []string{"-h2", "-h2 -g2"} { // one piece in the air; two (a second lifted by mistake)
		t.Run(tr, func(t *testing.T) {
			r := newRef(t, v, "")
			if evs := feed(r, tr); len(evs) != 0 || !r.InStep() {
				t.Fatalf("%s then quiet: %v, in step %v", tr, kinds(evs), r.InStep())
			}
		})
	}
	if evs := feed(r, "-h2"); len(evs) != 0 {
		t.Fatalf("lift then quiet: %v", kinds(evs))
	}
	var f leds.Frame
	r.Frame(&f)
	if f.At(sq("h2")) != r.Palette.Lifted || f.At(sq("h4")) != r.Palette.Destination {
		t.Error("the held piece's square and destinations are not lit")
	}
	if evs := feed(r, "+h4"); len(evs) != 1 || evs[0].Kind != EvMove || evs[0].Record.Text != "h2-h4" {
		t.Fatalf("placed after the pause: %v", kinds(evs))
	}
}

// Every colour name the config takes is one the palette has.
func TestPaletteSetColor(t *testing.T) {
	for _, name := range configs.ColourNames {
		p := DefaultPalette
		if err := p.SetColor(name, leds.Color{R: 1, G: 2, B: 3}); err != nil || p == DefaultPalette {
			t.Errorf("%s: %v (changed %v)", name, err, p != DefaultPalette)
		}
	}
	p := DefaultPalette
	if err := p.SetColor("glow", leds.Color{}); err == nil {
		t.Error("an unknown colour name was accepted")
	}
}

// A swap made by hand on the live referee: with one hand the first pawn
// waits on the partner's square while the other is fetched (longer than the
// quiet period: the referee must wait, not read a capture or an illegal
// move), then the swap is played and written h5~i6. Afterwards a piece
// lifted and put back is not a takeback, although the board also matches
// the position before the swap.
func TestRefereePawnSwapByHand(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	v.SetHookOptions(essay.Options{PartnerPawnSwap: true})
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rP:h5 yP:i6 bP:g6 bK:a7 yK:g14 gK:n8")
	if err != nil {
		t.Fatal(err)
	}
	r := newRef(t, v, p.FEN4())
	r.Takeback = TakebackOn
	if evs := feed(r, "-i6 -h5 +i6"); len(evs) != 0 {
		t.Fatalf("half-made swap judged: %v", kinds(evs))
	}
	evs := feed(r, "+h5")
	if len(evs) != 1 || evs[0].Kind != EvMove || evs[0].Record.Text != "h5~i6" {
		t.Fatalf("events %+v", evs)
	}
	if evs := feed(r, "-a7 +a7"); len(evs) != 0 {
		t.Errorf("lift and put back after a swap: %v", kinds(evs))
	}
	if len(r.Game().Records()) != 1 {
		t.Errorf("records %v", r.Game().Records())
	}
}

// The essay's alternate rule: on Yellow's turn, a piece of White's army
// (boardd's red seat, its king captured) is Yellow's to move, so lifting
// it lights its destinations.
func TestRefereeInheritedArmyLifted(t *testing.T) {
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	d, err := variants.Find(cat, "essay-partners-alternate")
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(v, rules.Yellow, "rN:d1 yK:f14 bK:a8 gK:n7")
	if err != nil {
		t.Fatal(err)
	}
	r := newRef(t, v, strings.Replace(p.FEN4(), "Y-0,0,0,0-", "Y-1,0,0,0-", 1))
	r.Touch(Touch{Square: sq("d1"), Lift: true})
	var f leds.Frame
	r.Frame(&f)
	if f.At(sq("d1")) != r.Palette.Lifted || f.At(sq("e3")) != r.Palette.Destination || f.At(sq("f2")) != r.Palette.Destination {
		t.Errorf("White's knight lifted on Yellow's turn: d1 %v e3 %v f2 %v", f.At(sq("d1")), f.At(sq("e3")), f.At(sq("f2")))
	}
	r.Touch(Touch{Square: sq("e3")})
	if evs := r.Quiet(); len(evs) != 1 || evs[0].Kind != EvMove || evs[0].Record.Text != "Nd1-e3" || evs[0].Record.Seat != rules.Yellow {
		t.Errorf("events %+v", evs)
	}
}

// "When the first of the two Kings … is captured, then all the other
// pieces belonging to that team are removed from the board" (the essay):
// players who know it take the army off at once, before the board was
// quiet. The move is still read — and a piece merely held in the hand is
// still no move.
func TestRefereeArmyTakenOffBeforeTheMoveWasJudged(t *testing.T) {
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	d, err := variants.Find(cat, "essay-partners")
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant("")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rQ:d4 yK:g14 bK:a7 bR:a8 bP:b9 gK:n7")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		trace  string
		moved  string // the move recorded, "" for none
		inStep bool   // the board matches the game afterwards
	}{
		{"army off before the board was quiet", "-a7 -d4 +a7 -a8 -b9", "Qd4xKa7", true},
		{"mover first, army off", "-d4 -a7 +a7 -b9 -a8", "Qd4xKa7", true},
		{"army off after the lights asked", "-a7 -d4 +a7", "Qd4xKa7", false},
		{"the queen held in the hand", "-d4", "", true},
		{"victim off, queen in the hand", "-a7 -d4", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRef(t, v, p.FEN4())
			evs := feed(r, tt.trace)
			recs := r.Game().Records()
			switch {
			case tt.moved == "" && len(recs) != 0:
				t.Fatalf("phantom move %s (events %v)", recs[0].Text, kinds(evs))
			case tt.moved != "" && (len(recs) != 1 || !strings.HasPrefix(recs[0].Text, tt.moved)):
				t.Fatalf("records %v, events %v; want %s", recs, kinds(evs), tt.moved)
			}
			if r.InStep() != tt.inStep {
				t.Fatalf("in step %v, want %v", r.InStep(), tt.inStep)
			}
			if tt.moved != "" && !tt.inStep {
				// The lights ask for the army; taking it off corrects.
				if got := kinds(feed(r, "-a8 -b9")); len(got) != 1 || got[0] != EvCorrected {
					t.Fatalf("army taken off after the move: %v", got)
				}
			}
		})
	}
}

// A correction no move caused (the board differed from the game at a new
// game or a restart) and the seat to move starting at once, inside the
// quiet period that would have ended it: the move is read from the moment
// the board showed the game, never from a piece set up on a wrong square.
func TestRefereeMoveRightAfterACorrection(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	start := func(t *testing.T, wrong, missing string) *Referee {
		r := newRef(t, v, "")
		occ := r.Game().Position().Occupancy()
		occ.Remove(sq(missing))
		occ.Add(sq(wrong))
		r.Resync(occ)
		if r.InStep() {
			t.Fatal("a board unlike the game is not a correction")
		}
		return r
	}
	for _, tc := range []struct {
		name, wrong, missing, hands string
		want                        []EventKind
		move                        string
	}{
		{"put right, then Red's move at once", "h3", "h2", "-h3 +h2 -g2 +g3", []EventKind{EvCorrected, EvMove}, "g2-g3"},
		{"put right, then a knight's move at once", "h3", "h2", "-h3 +h2 -e1 +f3", []EventKind{EvCorrected, EvMove}, "Ne1-f3"},
		{"put right, a piece touched, then the move", "h3", "h2", "-h3 +h2 -a5 +a5 -i2 +i4", []EventKind{EvCorrected, EvMove}, "i2-i4"},
		// The knight set up on f3, never on e1: the board shows the game
		// after Ne1-f3, but nobody played it.
		{"a piece set up on a wrong square", "f3", "e1", "-a5 +a5", nil, ""},
		{"put right wrongly, then a move", "h3", "h2", "-h3 +h4 -g2 +g3", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := start(t, tc.wrong, tc.missing)
			evs := feed(r, tc.hands)
			if got := kinds(evs); !slices.Equal(got, tc.want) {
				t.Fatalf("events %v, want %v", got, tc.want)
			}
			if tc.move == "" {
				if r.InStep() || len(r.Game().Records()) != 0 {
					t.Errorf("in step %v, records %v: want the correction kept and no move", r.InStep(), r.Game().Records())
				}
				return
			}
			if evs[1].Record.Text != tc.move || !r.InStep() {
				t.Errorf("read %q (in step %v), want %s", evs[1].Record.Text, r.InStep(), tc.move)
			}
		})
	}
}
