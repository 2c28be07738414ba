package variants

// Russian Four-Player Fortress Chess (configs/variants/russian-fortress.yaml):
// the rules text is the essay's section "Russian Four-Player Fortress
// Chess" in shared/seeds/four-player-chess-essay.txt; each test quotes the
// line it checks.

import (
	"math/rand"
	"sort"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/fortress"
	"boardd/rules/square"
)

func fortressVariant(t *testing.T) *rules.Variant { return variantNamed(t, "russian-fortress") }

// startHeader is the FEN4 header of a start position: Red to move, every
// castling right.
const startHeader = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-"

// board16 writes a 16×16 FEN4 board from "rK:i3 …" placements.
func board16(t *testing.T, pieces string) string {
	t.Helper()
	at := map[square.Square]string{}
	for _, f := range strings.Fields(pieces) {
		pc, name, _ := strings.Cut(f, ":")
		q, err := square.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		if at[q] != "" {
			t.Fatalf("%s placed twice", name)
		}
		at[q] = pc
	}
	var rows []string
	for r := 15; r >= 0; r-- {
		var toks []string
		run := 0
		for f := 0; f < 16; f++ {
			if pc := at[square.At(f, r)]; pc != "" {
				if run > 0 {
					toks = append(toks, itoa(run))
					run = 0
				}
				toks = append(toks, pc)
				continue
			}
			run++
		}
		if run > 0 {
			toks = append(toks, itoa(run))
		}
		rows = append(rows, strings.Join(toks, ","))
	}
	return strings.Join(rows, "/")
}

// fGame starts a game from placements; turn is "R", "B", "Y" or "G", out
// the eliminated flags ("0,0,0,0"); no castling rights.
func fGame(t *testing.T, v *rules.Variant, turn, out, pieces string) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(v, turn+"-"+out+"-0,0,0,0-0,0,0,0-0,0,0,0-0-"+board16(t, pieces))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// kings out of the way of every test position below.
const farKings = "rK:h1 bK:a8 yK:h16 gK:p8 yR:o16"

// dests lists the sorted destinations of the legal moves from one square.
func dests(g *rules.Game, from string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range g.LegalMoves() {
		if m.From().String() == from && !seen[m.To().String()] {
			seen[m.To().String()] = true
			out = append(out, m.To().String())
		}
	}
	sort.Strings(out)
	return out
}

func words(s string) []string {
	w := strings.Fields(s)
	sort.Strings(w)
	return w
}

func sameWords(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") }

// Square names and FEN4 on the 16×16 board: files a–p, ranks 1–16.
func TestFortressSquaresAndFEN4(t *testing.T) {
	for _, c := range []struct {
		name      string
		file, rnk int
	}{{"a1", 0, 0}, {"o15", 14, 14}, {"p16", 15, 15}, {"p1", 15, 0}, {"a16", 0, 15}, {"n14", 13, 13}} {
		q, err := square.Parse(c.name)
		if err != nil || q.File() != c.file || q.Rank() != c.rnk || q.String() != c.name {
			t.Errorf("%s: parsed %v (file %d rank %d), err %v", c.name, q, q.File(), q.Rank(), err)
		}
	}
	for _, bad := range []string{"q1", "a17", "a0", "p"} {
		if _, err := square.Parse(bad); err == nil {
			t.Errorf("%s parsed as a square", bad)
		}
	}
	v := fortressVariant(t)
	p, err := rules.ParseFEN4(v, v.Start)
	if err != nil {
		t.Fatal(err)
	}
	if p.FEN4() != v.Start {
		t.Errorf("start FEN4 does not round-trip:\n%s\n%s", p.FEN4(), v.Start)
	}
	if n := strings.Count(v.Start, "/") + 1; n != 16 {
		t.Errorf("start FEN4 has %d ranks, want 16", n)
	}
	for name, want := range map[string]string{"e3": "rR", "i3": "rK", "h3": "rQ", "h14": "yK", "i14": "yQ", "c8": "bK", "c9": "bQ", "n9": "gK", "n8": "gQ", "m4": "rN", "d13": "yN", "p16": "", "o15": ""} {
		got := p.At(sqr(t, name))
		if (want == "" && got != rules.NoPiece) || (want != "" && got.String() != want) {
			t.Errorf("start: %s holds %v, want %q", name, got, want)
		}
	}
	// Pieces in the far corners and on files o, p and ranks 15, 16 write
	// and read back.
	g := fGame(t, v, "B", "0,0,0,0", farKings+" rQ:p16 bN:o15 yP:a15 gR:p1 rP:o2")
	fen := g.Position().FEN4()
	q, err := rules.ParseFEN4(v, fen)
	if err != nil || q.FEN4() != fen || q.At(sqr(t, "p16")).String() != "rQ" || q.At(sqr(t, "o15")).String() != "bN" {
		t.Errorf("corner pieces: %v %s", err, fen)
	}
}

// fortressRule rebuilds the barriers from the rule written in the YAML:
// every step between a fortress square and a square outside it is walled,
// except from a gate square outside to a gate square inside.
func TestFortressBarriersFollowTheGateRule(t *testing.T) {
	v := fortressVariant(t)
	forts := []struct {
		seat          rules.Seat
		lo, hi        string
		gateIn, gateO string
	}{
		{rules.Red, "m1", "p4", "m3 m4", "l3 l4"},
		{rules.Green, "m13", "p16", "m13 n13", "m12 n12"},
		{rules.Yellow, "a13", "d16", "d13 d14", "e13 e14"},
		{rules.Blue, "a1", "d4", "c4 d4", "c5 d5"},
	}
	want := map[string]bool{}
	for _, f := range forts {
		lo, hi := sqr(t, f.lo), sqr(t, f.hi)
		in := func(q square.Square) bool {
			return q.File() >= lo.File() && q.File() <= hi.File() && q.Rank() >= lo.Rank() && q.Rank() <= hi.Rank()
		}
		var set square.Set
		for x := lo.File(); x <= hi.File(); x++ {
			for y := lo.Rank(); y <= hi.Rank(); y++ {
				set.Add(square.At(x, y))
				for dx := -1; dx <= 1; dx++ {
					for dy := -1; dy <= 1; dy++ {
						o := square.At(x+dx, y+dy)
						if o == square.None || in(o) {
							continue
						}
						q := square.At(x, y)
						if strings.Contains(" "+f.gateIn+" ", " "+q.String()+" ") && strings.Contains(" "+f.gateO+" ", " "+o.String()+" ") {
							continue
						}
						want[q.String()+"|"+o.String()] = true
					}
				}
			}
		}
		if rules.HookOptions[fortress.Options](v).Fortresses[f.seat] != set {
			t.Errorf("%s's fortress is %v, want %s-%s", f.seat, rules.HookOptions[fortress.Options](v).Fortresses[f.seat], f.lo, f.hi)
		}
	}
	got := map[string]bool{}
	for _, b := range v.Geometry.Barriers {
		k := b.A.String() + "|" + b.B.String()
		if !want[k] {
			k = b.B.String() + "|" + b.A.String()
		}
		got[k] = true
		if !want[k] {
			t.Errorf("barrier %s|%s is not a fortress wall", b.A, b.B)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("wall %s is missing", k)
		}
	}
	if len(v.Geometry.Barriers) != 68 {
		t.Errorf("%d barriers, want 68 (17 per fortress)", len(v.Geometry.Barriers))
	}
}

// "heavy red lines … act as a complete barrier to all movement, just as the
// edge of the board does" and "any player's pieces may enter it, provided
// the approach is made from a direction not blocked by the barrier."
// "For determining whether or not a Knight move is prevented by the
// barrier, the Knight's move is thought of as being composed of one
// orthogonal step followed by one diagonal step."
func TestFortressMovementAtBarriers(t *testing.T) {
	v := fortressVariant(t)
	for _, c := range []struct {
		why, pieces, from, want string
	}{
		{"a rook inside Red's fortress stops at the north wall and cannot leave west through the wall", "rR:m2", "m2",
			"m1 m3 m4 n2 o2 p2"},
		{"a rook on the gate row leaves through the gate", "rR:n3", "n3",
			"l3 k3 j3 i3 h3 g3 f3 e3 m3 o3 p3 n1 n2 n4"},
		{"a rook outside stops at the wall (d2|e2): the wall is like the board's edge", "rR:e2", "e2",
			"e1 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 e14 e15 e16 f2 g2 h2 i2 j2 k2 l2"},
		{"a bishop slides through the gate diagonally (l4-m3) but not past the wall end (l2-m3)", "rB:k5", "k5",
			"l4 m3 n2 o1 j4 i3 h2 g1 l6 m7 n8 o9 p10 j6 i7 h8 g9 f10 e11 d12"},
		{"a knight on k2: m3 (l2 then m3) and m1 (l2 then m1) cross the wall", "rN:k2", "k2",
			"i1 i3 j4 l4"},
		{"a knight on l5: n4 (m5 then n4) crosses the wall, m3 (l4 then m3) goes round it through the gate", "rN:l5", "l5",
			"j4 j6 k3 k7 m3 m7 n6"},
		{"a knight inside: l1 (m2 then l1), l5 (m4 then l5) and n5 (m4 then n5) cross walls; k2 and k4 leave through the gate (l3)", "rN:m3", "m3",
			"k2 k4 n1 o2 o4"},
		{"a king in the fortress cannot step over the wall", "rK:m4", "m4",
			"l3 l4 m3 n3 n4"},
	} {
		pieces := strings.Replace(farKings, "rK:h1", "rK:a16", 1)
		if strings.HasPrefix(c.pieces, "rK") {
			pieces = strings.Replace(farKings, "rK:h1 ", "", 1)
		}
		g := fGame(t, v, "R", "0,0,0,0", pieces+" "+c.pieces)
		if got := dests(g, c.from); !sameWords(got, words(c.want)) {
			t.Errorf("%s:\n got %v\nwant %v", c.why, got, words(c.want))
		}
	}
}

// Attacks and checks obey the barriers too: "a complete barrier to all
// movement". Red's king stands on m4, the inner corner of its fortress.
func TestFortressChecksThroughBarriers(t *testing.T) {
	v := fortressVariant(t)
	for _, c := range []struct {
		attacker string
		check    bool
		why      string
	}{
		{"gR:m9", false, "a rook down the m-file is stopped by the wall m5|m4"},
		{"gR:a4", false, "a rook along rank 4 is stopped by the wall d4|e4 (Blue's fortress)"},
		{"gR:i4", true, "a rook along rank 4 from i4 enters through the gate l4|m4"},
		{"gB:p7", false, "a bishop on the diagonal p7-m4 is stopped at n5|m4"},
		{"gB:i8", false, "a bishop on i8-l5 is stopped at the wall end l5|m4"},
		{"gB:j1", true, "a bishop on j1-l3 enters through the gate l3|m4"},
		{"gN:k5", false, "a knight k5-l5-m4: the diagonal l5|m4 is walled"},
		{"gN:n6", false, "a knight n6-n5-m4: the diagonal n5|m4 is walled"},
		{"gN:k3", true, "a knight k3-l3-m4: both steps are open"},
		{"gQ:k3", true, "the queen also jumps as a knight: k3-l3-m4"},
		{"gQ:k5", false, "the queen's jump k5-l5-m4 is walled like a knight's"},
		{"gP:n5", false, "Green's pawn on n5 captures south-west onto m4 across the wall"},
		{"bP:l3", true, "Blue's pawn on l3 captures north-east onto m4 through the gate"},
		{"bP:l5", false, "Blue's pawn on l5 captures south-east onto m4 across the wall end"},
		{"gK:m5", false, "kings on either side of the wall m4|m5 do not touch"},
	} {
		pieces := "rK:m4 bK:a8 yK:h16 gK:p8"
		if strings.HasPrefix(c.attacker, "gK") {
			pieces = "rK:m4 bK:a8 yK:h16"
		}
		g := fGame(t, v, "R", "0,0,0,0", pieces+" "+c.attacker)
		if got := g.Position().InCheck(rules.Red); got != c.check {
			t.Errorf("%s: Red in check %v, want %v", c.why, got, c.check)
		}
	}
}

// "The Queen also moves as the Knight, this being the Queen move in normal
// Chess in Russia at the time of this game's invention."
func TestFortressQueenJumps(t *testing.T) {
	v := fortressVariant(t)
	g := fGame(t, v, "R", "0,0,0,0", farKings+" rQ:h8 rP:h9 rP:h7 rP:g8 rP:i8 rP:g9 rP:i9 rP:g7 rP:i7")
	if got, want := dests(g, "h8"), words("f7 f9 g6 g10 i6 i10 j7 j9"); !sameWords(got, want) {
		t.Errorf("a boxed-in queen jumps as a knight: got %v, want %v", got, want)
	}
	// A queen's knight jump gives check, and the checked seat must answer
	// it: the Blue queen on g5 checks Red's king on h3 over the pawns.
	g = fGame(t, v, "R", "0,0,0,0", "rK:h3 rP:g4 rP:h4 rP:i4 rR:e1 bK:a8 yK:h16 gK:p8 bQ:g5")
	if !g.Position().InCheck(rules.Red) {
		t.Fatal("the queen's knight jump g5-h3 does not give check")
	}
	for _, m := range g.LegalMoves() {
		if m.From().String() == "e1" {
			t.Errorf("%v leaves the king in check from the queen's jump", m)
		}
	}
	p := g.Position()
	if _, err := p.FindMove(sqr(t, "e1"), sqr(t, "e2"), rules.NoKind); err == nil || !strings.Contains(err.Error(), "queen on g5") {
		t.Errorf("the refusal should name the checking queen: %v", err)
	}
}

// "Pawns cannot capture the Pawns that appear en prise to them in the
// initial layout."
func TestFortressInitialPawnTruce(t *testing.T) {
	v := fortressVariant(t)
	if got, want := fortress.TrucePairs(v), words("e4xd5 d5xe4 l4xm5 m5xl4 e13xd12 d12xe13 l13xm12 m12xl13"); !sameWords(words(strings.Join(got, " ")), want) {
		t.Errorf("truce pairs %v, want %v", got, want)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range g.LegalMoves() {
		if m.From().String() == "e4" && m.To().String() == "d5" || m.From().String() == "l4" && m.To().String() == "m5" {
			t.Errorf("start: %v captures a pawn that stood en prise in the initial layout", m)
		}
	}
	p := g.Position()
	if _, err := p.FindMove(sqr(t, "e4"), sqr(t, "d5"), rules.NoKind); err == nil || !strings.Contains(err.Error(), "en prise") {
		t.Errorf("e4xd5 refused with %v, want the truce explained", err)
	}
	for _, c := range []struct {
		why, turn, pieces, from, to string
		legal                       bool
	}{
		{"the pair itself, Red's side", "R", "rP:e4 bP:d5", "e4", "d5", false},
		{"the pair itself, Blue's side", "B", "rP:e4 bP:d5", "d5", "e4", false},
		{"the pair on the other corners", "G", "rP:l4 gP:m5", "m5", "l4", false},
		{"Yellow and Blue", "Y", "yP:e13 bP:d12", "e13", "d12", false},
		{"a pawn that did not stand en prise to it: Blue d6 takes Red e5", "B", "rP:e5 bP:d6", "d6", "e5", true},
		{"the truce is between pawns: Red's e4 pawn may take a knight on d5", "R", "rP:e4 bN:d5", "e4", "d5", true},
		{"the truce is between pawns: a Red knight may take the d5 pawn", "R", "rN:c3 bP:d5 rP:e4", "c3", "d5", true},
	} {
		g := fGame(t, v, c.turn, "0,0,0,0", farKings+" "+c.pieces)
		got := false
		for _, d := range dests(g, c.from) {
			got = got || d == c.to
		}
		if got != c.legal {
			t.Errorf("%s: %s-%s legal %v, want %v", c.why, c.from, c.to, got, c.legal)
		}
	}
}

// "Allied pawns that meet head on are simply blocked until a capture
// intervenes." Red's pawn on h9 meets Yellow's on h10: neither steps
// forward; each may still capture diagonally, which unblocks the other.
func TestFortressAlliedPawnsHeadOn(t *testing.T) {
	v := fortressVariant(t)
	g := fGame(t, v, "R", "0,0,0,0", farKings+" rP:h9 yP:h10 bN:g10")
	if got := dests(g, "h9"); !sameWords(got, []string{"g10"}) {
		t.Errorf("Red's blocked pawn: %v, want only the capture g10", got)
	}
	playCross(t, g, "h9", "g10")
	playCross(t, g, "a8", "a9") // Blue
	if got := dests(g, "h10"); !sameWords(got, []string{"h9"}) {
		t.Errorf("Yellow's pawn after the capture: %v, want h9", got)
	}
}

// "each player places a third Rook, a third Bishop, and a third Knight
// anywhere within the fortress to the right of his initial array".
func TestFortressStartPlacement(t *testing.T) {
	v := fortressVariant(t)
	if err := fortress.CheckStart(v, v.Start); err != nil {
		t.Fatalf("the default placement: %v", err)
	}
	start, _ := rules.ParseFEN4(v, v.Start)
	// The start array outside the fortresses, as placements.
	var base []string
	for _, q := range v.Geometry.Playable.Squares() {
		inFort := false
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			inFort = inFort || rules.HookOptions[fortress.Options](v).Fortresses[s].Has(q)
		}
		if pc := start.At(q); pc != rules.NoPiece && !inFort {
			base = append(base, pc.String()+":"+q.String())
		}
	}
	placed := func(extra string) string {
		return startHeader + board16(t, strings.Join(base, " ")+" "+extra)
	}
	def := "rN:m4 rB:m3 rR:n3 gN:m13 gB:n13 gR:n14 yN:d13 yB:d14 yR:c14 bN:d4 bB:c4 bR:c3"
	if placed(def) != v.Start {
		t.Fatalf("test helper: %s\n!= %s", placed(def), v.Start)
	}
	other := "rR:p1 rB:o2 rN:n3 gR:p16 gB:o15 gN:m16 yR:a16 yB:b15 yN:a13 bR:a1 bB:b2 bN:d1"
	for _, c := range []struct {
		why, extra, err string
	}{
		{"another placement", other, ""},
		{"Red's knight outside its fortress", strings.Replace(def, "rN:m4", "rN:l5", 1), "holds Red's knight"},
		{"Red's knight in Green's fortress", strings.Replace(def, "rN:m4", "rN:p16", 1), "Green's fortress holds Red's knight"},
		{"two bishops, no knight", strings.Replace(def, "rN:m4", "rB:m4", 1), "1 rooks, 2 bishops and 0 knights"},
		{"a queen in the fortress", strings.Replace(def, "rN:m4", "rQ:m4", 1), "only Red's third rook"},
		{"a pawn in the fortress", def + " rP:p4", "only Red's third rook"},
		{"Blue's rook missing", strings.Replace(def, "bR:c3", "", 1), "Blue's fortress"},
	} {
		err := fortress.CheckStart(v, placed(c.extra))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.why, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.why, err, c.err)
		}
	}
	if err := fortress.CheckStart(v, strings.Replace(placed(def), "R-", "B-", 1)); err == nil {
		t.Error("a start with Blue to move passed")
	}
	// Any legal placement is a playable start: random placements pass the
	// check, start a game and play on.
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 30; i++ {
		var extra []string
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			sq := rules.HookOptions[fortress.Options](v).Fortresses[s].Squares()
			rng.Shuffle(len(sq), func(a, b int) { sq[a], sq[b] = sq[b], sq[a] })
			for k, kind := range "RBN" {
				extra = append(extra, string("rbyg"[s])+string(kind)+":"+sq[k].String())
			}
		}
		fen := placed(strings.Join(extra, " "))
		if err := fortress.CheckStart(v, fen); err != nil {
			t.Fatalf("%v: %v", extra, err)
		}
		g, err := rules.NewGame(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 40; ply++ {
			if _, over := g.Result(); over {
				break
			}
			moves := g.LegalMoves()
			if _, err := g.Play(moves[rng.Intn(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Turn order clockwise: Red, Blue, Yellow, Green (assumption; the essay's
// general rule for the traditional games).
func TestFortressTurnOrder(t *testing.T) {
	seen := firstTurns(t, fortressVariant(t), 8)
	want := []rules.Seat{rules.Red, rules.Blue, rules.Yellow, rules.Green, rules.Red, rules.Blue, rules.Yellow, rules.Green}
	if !equalSeats(seen, want) {
		t.Errorf("turn order %v, want %v", seen, want)
	}
}

// Castling toward the fortress (assumption: as in chess, with the array's
// rooks): Red's king on i3 castles short to k3 with the rook from l3 to
// j3, then walks into the fortress through the gate.
func TestFortressCastlingAndPromotion(t *testing.T) {
	v := fortressVariant(t)
	g, err := rules.NewGame(v, startHeader+board16(t, "rK:i3 rR:l3 rR:e3 bK:a8 yK:h16 gK:p8 rP:g15 rP:d15 rP:b12 yR:o16"))
	if err != nil {
		t.Fatal(err)
	}
	got := dests(g, "i3")
	if !sameWords(got, words("g3 h2 h3 h4 i2 i4 j2 j3 j4 k3")) {
		t.Errorf("king on i3: %v, want both castlings among its moves", got)
	}
	for _, m := range g.LegalMoves() {
		if c, short := m.IsCastle(); c && short {
			rf, rt := m.RookSquares()
			if m.To().String() != "k3" || rf.String() != "l3" || rt.String() != "j3" {
				t.Errorf("O-O: king to %s, rook %s-%s; want k3, l3-j3", m.To(), rf, rt)
			}
		}
	}
	// "Pawns promote when they reach the last rank" (assumption: rank 16
	// for Red, inside a fortress too); a pawn stopped by a fortress wall
	// is simply blocked.
	var promos []string
	for _, m := range g.LegalMoves() {
		if m.Promotion() != rules.NoKind {
			promos = append(promos, m.String())
		}
	}
	if want := words("d15-d16=Q d15-d16=R d15-d16=B d15-d16=N g15-g16=Q g15-g16=R g15-g16=B g15-g16=N"); !sameWords(words(strings.Join(promos, " ")), want) {
		t.Errorf("promotions %v, want %v", promos, want)
	}
	if got := dests(g, "b12"); len(got) != 0 {
		t.Errorf("Red's pawn on b12 under Yellow's fortress wall moves to %v", got)
	}
}

// "The rule that the pieces of a checkmated side are removed from the
// board is also a feature of … the Russian four-player Fortress Chess."
// Green mates Red against the wall of Blue's fortress (d1|e1, d2|e1): at
// Red's turn Red is out and its pieces leave the board; Yellow plays on
// alone. Blue then mates Yellow the same way against Yellow's fortress and
// Blue and Green win.
func TestFortressMateRemovesArmy(t *testing.T) {
	v := fortressVariant(t)
	g := fGame(t, v, "G", "0,0,0,0", "rK:e1 rP:e2 rP:f2 rN:k9 rR:k10 bK:a8 yK:e16 yP:e15 yP:f15 gK:p8 gR:h5 bR:h10")
	rec := playCross(t, g, "h5", "h1")
	if len(rec.Out) != 1 || rec.Out[0] != rules.Red || !strings.HasSuffix(rec.Text, "#") {
		t.Fatalf("Rh5-h1: out %v, text %q; want Red mated", rec.Out, rec.Text)
	}
	p := g.Position()
	for _, name := range []string{"e1", "e2", "f2", "k9", "k10"} {
		if p.At(sqr(t, name)) != rules.NoPiece {
			t.Errorf("%s still holds %v after Red's mate", name, p.At(sqr(t, name)))
		}
	}
	if g.Status(rules.Red) != rules.Mated || g.Turn() != rules.Blue {
		t.Errorf("Red %v, turn %v; want Red checkmated and Blue to move", g.Status(rules.Red), g.Turn())
	}
	if _, over := g.Result(); over {
		t.Fatal("the game ended with Yellow still playing")
	}
	if !strings.HasPrefix(p.FEN4(), "B-1,0,0,0-") {
		t.Errorf("FEN4 after the mate: %s", p.FEN4())
	}
	playCross(t, g, "h10", "h16") // Blue mates Yellow: e16 is walled off d15 and d16
	res, over := g.Result()
	if !over || res.Reason != "last side standing" || !equalSeats(res.Winners, []rules.Seat{rules.Blue, rules.Green}) {
		t.Errorf("result %+v over %v; want Blue and Green as last side standing", res, over)
	}
	if g.Position().At(sqr(t, "e16")) != rules.NoPiece {
		t.Error("Yellow's king is still on the board")
	}
}

// perft from the default start.
//
// Depth 1 = 64, by hand: Red's pawns e4–l4 step and double-step (16; e4xd5
// and l4xm5 are the truce); rooks e3 and l3 go down to ranks 2 and 1 (2
// each; d3 is behind the wall, m3 holds the fortress bishop), the fortress
// rook n3 goes to n4 (n5 walled), n2, n1, o3, p3 (5); knight f3 to e1, g1,
// h2, e5, g5 (d2 and d4 are walled), knight k3 to l1, j1, i2, j5, l5 (m2
// walled), the fortress knight m4 to n2, o3 and k5 (north is walled, l2
// walled) — 13; bishops g3 and j3 four each down the board, the fortress
// bishop m3 to n4, n2, o1 (11); the queen h3 slides to h2, h1, i2, j1, g2, f1
// and jumps as a knight to g1, i1, f2, j2, g5, i5 (12); the king i3 to h2,
// i2, j2 (3). 16+9+13+11+12+3 = 64.
//
// Depth 2 = 4089: Blue's position is Red's turned a quarter, so Blue has 64
// replies except after seven Red moves. Nf3-e5 and e4-e5 block Blue's d5
// pawn (−2: e5 and the double step) and give Blue's d6 pawn a capture on
// e5 (+1): 63 each. e4-e6 gives d5 a capture on e6 (+1), blocks d6 (−2),
// and lets d6 take en passant on e5 (+1) and d7 take on e6 (+1): 65. f4-f5
// and f4-f6 block the double steps of d5 and d6: 63 each. g4-g5 and g4-g6
// open the queen's diagonal h3-d7 to Blue's king on c8 and pin Blue's d7
// pawn (−2): 62 each. 57×64 + 2×63 + 65 + 2×63 + 2×62 = 4089.
//
// Depth 3 is the engine's count (pinned here against regressions).
func TestFortressPerftStart(t *testing.T) {
	v := fortressVariant(t)
	p, err := rules.ParseFEN4(v, v.Start)
	if err != nil {
		t.Fatal(err)
	}
	for depth, want := range []uint64{1: 64, 2: 4089, 3: 261248} {
		if depth == 0 {
			continue
		}
		if got := p.Perft(depth, true); got != want {
			t.Errorf("perft(%d) = %d, want %d", depth, got, want)
		}
	}
}

// A draw (here insufficient material: four bare kings) has no winners in
// a partnership game.
func TestFortressDrawHasNoWinners(t *testing.T) {
	g := fGame(t, fortressVariant(t), "R", "0,0,0,0", "rK:h1 bK:a8 yK:h16 gK:p8")
	res, over := g.Result()
	if !over || res.Reason != "insufficient material" || !res.Draw() {
		t.Errorf("result %+v over %v; want a draw by insufficient material", res, over)
	}
}

// A move refused because of a barrier says so.
func TestFortressBarrierExplained(t *testing.T) {
	v := fortressVariant(t)
	g := fGame(t, v, "R", "0,0,0,0", farKings+" rR:e2 rN:k2 rQ:k5")
	p := g.Position()
	for _, c := range []struct{ from, to, want string }{
		{"e2", "d2", "a barrier between e2 and d2"},
		{"e2", "a2", "a barrier between e2 and d2"},
		{"k2", "m3", "a barrier stands in the way (a knight's jump is one orthogonal step, then one diagonal step"},
		{"k5", "m4", "a barrier stands in the way (a queen's jump"},
		{"k5", "m3", ""},
	} {
		_, err := p.FindMove(sqr(t, c.from), sqr(t, c.to), rules.NoKind)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s-%s: %v", c.from, c.to, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s-%s: %v, want %q", c.from, c.to, err, c.want)
		}
	}
}
