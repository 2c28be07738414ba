package rules

import (
	"fmt"
	"strings"
	"testing"

	"boardd/rules/square"
)

// "Pawns promote to 1-point queens on the 8th row from each player's
// perspective." (chess.com rules, FFA)
func TestFFAPromotionOnEighthRank(t *testing.T) {
	tests := []struct{ turn, pieces, mv, text string }{
		{"R", "rK:h1 rP:e7 bK:a7 yK:g14 gK:n8", "e7-e8", "e7-e8=D"},
		{"B", "rK:h1 bK:a7 bP:g5 yK:g14 gK:n8", "g5-h5", "g5-h5=D"},
		{"Y", "rK:h1 bK:a7 yK:g14 yP:e8 gK:n8", "e8-e7", "e8-e7=D"},
		{"G", "rK:h1 bK:a7 yK:g14 gK:n8 gP:h9", "h9-g9", "h9-g9=D"},
	}
	for _, tt := range tests {
		g := newGameAt(t, ffa(t), tt.turn, tt.pieces)
		n := 0
		for _, m := range g.pos.LegalMoves(nil) {
			if m.Promotion() != NoKind {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d promotion moves, want 1 (queen only)", tt.turn, n)
		}
		rec := play(t, g, tt.mv)
		if !strings.HasPrefix(rec.Text, tt.text) { // a check mark may follow
			t.Errorf("%s: text %q, want %q", tt.turn, rec.Text, tt.text)
		}
		to := mustFindSquare(tt.mv[strings.IndexByte(tt.mv, '-')+1:])
		if pc := g.pos.At(to); pc.Kind() != Queen || !pc.Promoted() {
			t.Errorf("%s: %v on %s, want a promoted queen", tt.turn, pc, to)
		}
	}
}

func mustFindSquare(s string) square.Square { return sqMust(s) }

// "Capturing active pieces: queen (+9), rook (+5), bishop (+5), knight
// (+3), pawn (+1), promoted pawn as queen (+1)"
func TestFFACapturePoints(t *testing.T) {
	tests := []struct {
		name, pieces, mv string
		want             int
	}{
		{"queen", "rK:h1 rR:h3 bQ:h6 bK:a7 yK:g14 gK:n8", "h3-h6", 9},
		{"rook", "rK:h1 rR:h3 bR:h6 bK:a7 yK:g14 gK:n8", "h3-h6", 5},
		{"bishop", "rK:h1 rR:h3 yB:h6 bK:a7 yK:g14 gK:n8", "h3-h6", 5},
		{"knight", "rK:h1 rR:h3 gN:h6 bK:a7 yK:g14 gK:n8", "h3-h6", 3},
		{"pawn", "rK:h1 rR:h3 gP:h6 bK:a7 yK:g14 gK:n8", "h3-h6", 1},
		// "Pieces become inert when a player is eliminated and they no
		// longer award any points when captured."
		{"dead rook", "rK:h1 rR:h3 dbR:h6 bK:a7 yK:g14 gK:n8", "h3-h6", 0},
	}
	for _, tt := range tests {
		g := newGameAt(t, ffa(t), "R", tt.pieces)
		rec := play(t, g, tt.mv)
		if rec.Gained[Red] != tt.want || g.pos.Points(Red) != tt.want {
			t.Errorf("%s: gained %d (total %d), want %d", tt.name, rec.Gained[Red], g.pos.Points(Red), tt.want)
		}
	}
	// A promoted queen is worth one point.
	g := newGameAt(t, ffa(t), "B", "rK:h1 rR:h3 bK:a7 bP:g6 yK:g14 gK:n8")
	play(t, g, "g6-h6")
	play(t, g, "g14-f14")
	play(t, g, "n8-n9")
	if rec := play(t, g, "h3-h6"); rec.Gained[Red] != 1 {
		t.Errorf("capturing a promoted queen gained %d, want 1", rec.Gained[Red])
	}
}

// "Checking two players simultaneously (+5)", "Checking three players
// simultaneously (+20)" (rules text). chess.com scores checks given by
// queens alone lower: +1 for two kings, +5 for three (CheapQueenChecks,
// on by default because real games' final scores follow it).
func TestFFAMultipleChecks(t *testing.T) {
	tests := []struct {
		name, pieces, mv, text string
		cheap                  bool
		want                   int
	}{
		{"queen, two kings, chess.com", "rK:d1 rQ:h2 bK:a7 yK:g14 gK:n7", "h2-h7", "Qh2-h7++", true, 1},
		{"queen, three kings, chess.com", "rK:d1 rQ:e4 bK:a7 yK:h14 gK:n7", "e4-h7", "Qe4-h7+++", true, 5},
		{"queen, two kings, rules text", "rK:d1 rQ:h2 bK:a7 yK:g14 gK:n7", "h2-h7", "Qh2-h7++", false, 5},
		{"queen, three kings, rules text", "rK:d1 rQ:e4 bK:a7 yK:h14 gK:n7", "e4-h7", "Qe4-h7+++", false, 20},
		{"knight fork, chess.com", "rK:h1 rP:e2 rN:h6 bK:e9 yK:h14 gK:g9", "h6-f7", "Nh6-f7++", true, 5},
		// a walking (resigned) king is no longer a player: no bonus
		{"queen and a walking king", "rK:d1 rQ:h2 bK:a7 yK:g14 gK:n7", "h2-h7", "Qh2-h7++", false, 0},
	}
	for _, tt := range tests {
		v := ffa(t)
		v.Options.CheapQueenChecks = tt.cheap
		g := newGameAt(t, v, "R", tt.pieces)
		if tt.want == 0 {
			g.status[Green] = Walking
		}
		rec := play(t, g, tt.mv)
		if rec.Gained[Red] != tt.want || rec.Text != tt.text {
			t.Errorf("%s: gained %d text %q, want %d and %q", tt.name, rec.Gained[Red], rec.Text, tt.want, tt.text)
		}
	}
}

// "Checkmate (+20)"; a mated player is out at once in FFA: its pieces turn
// grey (inert) and its turns are skipped.
func TestFFACheckmateEliminatesAtOnce(t *testing.T) {
	g := newGameAt(t, ffa(t), "R", "rK:h1 rQ:m11 rR:m4 bK:a7 yK:f14 gK:n8 gR:j4")
	rec := play(t, g, "m11-m8")
	if rec.Text != "Qm11-m8+#" {
		t.Errorf("text %q, want Qm11-m8+#", rec.Text)
	}
	if rec.Gained[Red] != 20 || g.Status(Green) != Mated || !g.pos.Eliminated(Green) {
		t.Fatalf("gained %d, Green %v", rec.Gained[Red], g.Status(Green))
	}
	if pc := g.pos.At(sqMust("j4")); !pc.Dead() {
		t.Errorf("Green's rook is %v, want grey", pc)
	}
	play(t, g, "a7-a6")
	play(t, g, "f14-e14")
	if g.Turn() != Red {
		t.Fatalf("turn %v after Yellow, want Red (Green skipped)", g.Turn())
	}
	// The grey rook is worth nothing and can be captured.
	if rec := play(t, g, "m4-j4"); rec.Gained[Red] != 0 {
		t.Errorf("capturing a grey rook gained %d", rec.Gained[Red])
	}
	if !strings.Contains(g.pos.FEN4(), "dgK") || !strings.HasPrefix(g.pos.FEN4(), "B-0,0,0,1-") {
		t.Errorf("FEN4 does not show Green out and grey: %s", g.pos.FEN4())
	}
}

// Position.WithOut takes a seat out as the game does when it is mated
// (army grey, turns skipped), without the game's points: what a search
// needs to look past a mate.
func TestWithOutAsTheGameTakesASeatOut(t *testing.T) {
	g := newGameAt(t, ffa(t), "R", "rK:h1 rQ:m11 rR:m4 bK:a7 yK:f14 gK:n8 gR:j4")
	p := g.Position()
	p.Make(mustFind(t, p, "m11-m8"))
	before := p.FEN4()
	q := p.WithOut(Green)
	if p.FEN4() != before || p.Eliminated(Green) {
		t.Fatal("WithOut changed the position it was called on")
	}
	play(t, g, "m11-m8")
	for _, c := range g.v.cells {
		if got, want := q.board[c], g.pos.board[c]; got != want {
			t.Errorf("cell %d: %v, the game has %v", c, got, want)
		}
	}
	for s := Seat(0); s < NumSeats; s++ {
		if q.Eliminated(s) != g.pos.Eliminated(s) {
			t.Errorf("%s eliminated %v, the game %v", s, q.Eliminated(s), g.pos.Eliminated(s))
		}
	}
	if q.Turn() != g.Turn() || q.Points(Red) != 0 {
		t.Errorf("turn %s, points %d; want the game's turn %s and no points", q.Turn(), q.Points(Red), g.Turn())
	}
	// The seat to move taken out passes the turn on.
	if r := g.Position().WithTurn(Green).WithOut(Green); r.Turn() != Red {
		t.Errorf("Green to move and taken out: turn %s, want Red", r.Turn())
	}
}

// A king may be captured even by a player standing in check from that
// king's army, because that army greys at once (reference games README).
func TestFFAKingCaptureGreysAtOnce(t *testing.T) {
	pieces := "yK:e14 yB:h13 gK:k10 gR:e5 rK:h1 bK:a7"
	g := newGameAt(t, ffa(t), "Y", pieces)
	rec := play(t, g, "h13-k10")
	if g.Status(Green) != KingCaptured || rec.Gained[Yellow] != 20 {
		t.Errorf("Green %v, Yellow gained %d; want king captured and 20", g.Status(Green), rec.Gained[Yellow])
	}
	// In Teams the rook still attacks, so the capture leaves Yellow in check.
	g = newGameAt(t, teams(t), "Y", pieces)
	if _, err := findText(g.pos, "h13-k10"); err == nil || !strings.Contains(err.Error(), "check") {
		t.Errorf("Teams: capture allowed or wrong reason: %v", err)
	}
}

// "When a player resigns or times out, leaving two or more active players
// on the board, that player's king remains "alive" and is still worth +20
// to whoever can capture it. The last remaining player will be given +20
// for each king of all resigned or timed out players that is still on the
// board." and "The game ends when three players have been eliminated."
func TestFFADeadKingWalking(t *testing.T) {
	g := newGameAt(t, ffa(t), "R", "rK:h5 rR:e1 bQ:b5 bK:a7 yK:g14 gK:n8")
	if _, err := g.Resign(Red); err != nil {
		t.Fatal(err)
	}
	if g.Status(Red) != Walking || g.pos.At(sqMust("h5")).Dead() || !g.pos.At(sqMust("e1")).Dead() {
		t.Fatalf("Red %v, king %v, rook %v", g.Status(Red), g.pos.At(sqMust("h5")), g.pos.At(sqMust("e1")))
	}
	if g.Turn() != Blue {
		t.Fatalf("turn %v", g.Turn())
	}
	rec := play(t, g, "b5-h5")
	if rec.Gained[Blue] != 20 || g.Status(Red) != KingCaptured {
		t.Errorf("capturing the walking king gained %d, Red %v", rec.Gained[Blue], g.Status(Red))
	}

	// Three resignations end the game; the last player collects 20 per
	// walking king still on the board.
	g, _ = NewGame(ffa(t), "")
	for _, s := range []Seat{Red, Yellow, Green} {
		if _, over := g.Result(); over {
			t.Fatalf("over before %s resigned", s)
		}
		if _, err := g.Resign(s); err != nil {
			t.Fatal(err)
		}
	}
	res, over := g.Result()
	if !over || res.Reason != "last player standing" {
		t.Fatalf("%+v over=%v", res, over)
	}
	// Red and Yellow walk; Green's resignation left one other player, so
	// its army greyed, but its king is still on the board: 3 × 20.
	if res.Points[Blue] != 60 || len(res.Winners) != 1 || res.Winners[0] != Blue {
		t.Errorf("points %v winners %v, want Blue with 60 (three resigned kings)", res.Points, res.Winners)
	}

	// With Dead King Walking off, a resigning army is grey at once.
	v := ffa(t)
	v.Options.DeadKingWalking = false
	g, _ = NewGame(v, "")
	g.Resign(Red)
	if g.Status(Red) != Resigned || !g.pos.At(sqMust("h1")).Dead() {
		t.Errorf("Red %v king %v", g.Status(Red), g.pos.At(sqMust("h1")))
	}
}

// FFA stalemate, both readings. chess.com's text: "In case of stalemate,
// insufficient material, three-fold repetition or the 50-move rule, the
// remaining players receive +10 points each." chess.com practice (its
// in-game rules summary: "If a player is stalemated, then they are
// eliminated from the game unless there are only 2 players left, then the
// game ends in a draw between those 2 players … Stalemating yourself is
// 20"; real exports go on after a seat's S) is the default; the text's
// reading, every stalemate ends the game, is StalemateScoresSelf off.
func TestFFAStalemateBothSettings(t *testing.T) {
	// Red's c7-c5 leaves Blue (Ka4), who moves next, stalemated: the queen
	// covers a5, b4 and b5 (a3 and b3 are off the cross).
	four := "rK:h1 rQ:c7 bK:a4 yK:g14 gK:n8"
	two := "rK:h1 rQ:c7 bK:a4 dyK:g14 dgK:n8"
	tests := []struct {
		name     string
		chesscom bool
		pieces   string
		over     bool
		points   [NumSeats]int
		blue     Status
		turn     Seat
		out      []Seat
	}{
		{"default, four playing: Blue out with +20, play goes on", true, four, false, [NumSeats]int{0, 20, 0, 0}, Stalemated, Yellow, []Seat{Blue}},
		{"default, two playing: the game ends, +10 each", true, two, true, [NumSeats]int{10, 10, 0, 0}, Stalemated, Blue, nil},
		{"the text, four playing: the game ends, +10 each", false, four, true, [NumSeats]int{10, 10, 10, 10}, Stalemated, Blue, nil},
		{"the text, two playing: the game ends, +10 each", false, two, true, [NumSeats]int{10, 10, 0, 0}, Stalemated, Blue, nil},
	}
	for _, tt := range tests {
		v := ffa(t)
		if !v.Options.StalemateScoresSelf {
			t.Fatal("ffa: StalemateScoresSelf is off by default; chess.com practice is the default")
		}
		v.Options.StalemateScoresSelf = tt.chesscom
		fen := fenOf(t, "R", tt.pieces)
		if tt.pieces == two { // Yellow and Green are out already
			fen = strings.Replace(fen, "R-0,0,0,0-", "R-0,0,1,1-", 1)
		}
		g, err := NewGame(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		rec := play(t, g, "c7-c5")
		res, over := g.Result()
		if over != tt.over || (over && res.Reason != "stalemate") {
			t.Errorf("%s: over=%v %+v", tt.name, over, res)
		}
		if got := [NumSeats]int{g.pos.Points(Red), g.pos.Points(Blue), g.pos.Points(Yellow), g.pos.Points(Green)}; got != tt.points {
			t.Errorf("%s: points %v, want %v", tt.name, got, tt.points)
		}
		if g.Status(Blue) != tt.blue || (!over && g.Turn() != tt.turn) || fmt.Sprint(rec.Out) != fmt.Sprint(tt.out) {
			t.Errorf("%s: Blue %v, turn %v, out %v", tt.name, g.Status(Blue), g.Turn(), rec.Out)
		}
	}
}

func TestTakeback(t *testing.T) {
	g, _ := NewGame(ffa(t), "")
	before := g.pos.FEN4()
	play(t, g, "h2-h4")
	play(t, g, "b7-d7")
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if g.pos.FEN4() != before || len(g.Records()) != 0 {
		t.Errorf("takeback did not restore the start: %s", g.pos.FEN4())
	}
	if err := g.Takeback(); err == nil {
		t.Error("takeback at the start succeeded")
	}
}

// "the claim-win rule when two remain and one leads by more than 20"
// (chess.com practice, Options.ClaimWin).
func TestFFAClaimWin(t *testing.T) {
	g := newGameAt(t, ffa(t), "R", "rK:h1 rR:h3 bQ:h6 bK:a7 yK:g14 gK:n8")
	if err := g.ClaimWin(Red); err == nil {
		t.Fatal("claim with four players accepted")
	}
	play(t, g, "h3-h6") // Red +9
	if _, err := g.Resign(Yellow); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Resign(Green); err != nil {
		t.Fatal(err)
	}
	// Yellow resigned with two others active: walking; Green's resignation
	// leaves one other, so Green is out. Two players remain: Red and Blue.
	if err := g.ClaimWin(Red); err == nil || !strings.Contains(err.Error(), "more than 20") {
		t.Fatalf("claim with a 9-point lead: %v", err)
	}
	g.pos.points[Red] = 30
	if err := g.ClaimWin(Red); err != nil {
		t.Fatal(err)
	}
	res, over := g.Result()
	if !over || res.Reason != "claim win" || res.Winners[0] != Red {
		t.Errorf("%+v", res)
	}
}

func TestFFAClaimWinOff(t *testing.T) {
	v := ffa(t)
	v.Options.ClaimWin = false
	g := newGameAt(t, v, "R", "rK:h1 rR:h3 bQ:h6 bK:a7 yK:g14 gK:n8")
	g.status[Yellow], g.status[Green] = Resigned, Resigned
	g.pos.points[Red] = 40
	if err := g.ClaimWin(Red); err == nil || !strings.Contains(err.Error(), "no claim-win rule") {
		t.Errorf("claim with the option off: %v", err)
	}
}

// "In case of stalemate, insufficient material, three-fold repetition or
// the 50-move rule, the remaining players receive +10 points each."
func TestFFADrawPoints(t *testing.T) {
	t.Run("insufficient material", func(t *testing.T) {
		g := newGameAt(t, ffa(t), "R", "rK:h1 rB:e3 bK:a7 bN:b9 yK:g14 gK:n8 gP:h6")
		play(t, g, "e3-h6") // takes the last pawn: kings and single minor pieces
		res, over := g.Result()
		if !over || res.Reason != "insufficient material" {
			t.Fatalf("%+v over=%v", res, over)
		}
		// Red: 1 for the pawn, then 10 like everyone still playing.
		want := [NumSeats]int{11, 10, 10, 10}
		if res.Points != want {
			t.Errorf("points %v, want %v", res.Points, want)
		}
	})
	t.Run("50-move rule", func(t *testing.T) {
		g := newGameAt(t, ffa(t), "R", "rK:h1 rR:d1 bK:a7 bR:a4 yK:g14 yR:d14 gK:n8 gR:n4")
		g.pos.halfmove = 199
		g.reps = map[uint64]int{}
		play(t, g, "d1-d2")
		res, over := g.Result()
		if !over || res.Reason != "50-move rule" || res.Points != [NumSeats]int{10, 10, 10, 10} {
			t.Fatalf("%+v over=%v", res, over)
		}
	})
}

// A walking king that flags on its own turn keeps walking, and the turn
// passes.
func TestFFAWalkingKingFlagsOnItsTurn(t *testing.T) {
	g, _ := NewGame(ffa(t), "")
	if _, err := g.Resign(Red); err != nil {
		t.Fatal(err)
	}
	play(t, g, "b7-c7")
	play(t, g, "g13-g12")
	play(t, g, "m8-l8")
	if g.Turn() != Red || g.Status(Red) != Walking {
		t.Fatalf("turn %v, Red %v", g.Turn(), g.Status(Red))
	}
	if _, err := g.Timeout(Red); err != nil {
		t.Fatal(err)
	}
	if g.Turn() != Blue || g.Status(Red) != Walking {
		t.Errorf("after the walking king flagged: turn %v, Red %v", g.Turn(), g.Status(Red))
	}
}

// The family of a player who leaves an FFA game under Dead King Walking
// (resigns or times out; a disconnected player's clock runs out, so a
// disconnect is a time-out to the rules). The rules text: "When a player
// resigns or times out, leaving two or more active players on the board,
// that player's king remains "alive" and is still worth +20 to whoever can
// capture it. The last remaining player will be given +20 for each king of
// all resigned or timed out players that is still on the board." and "In
// case of stalemate, insufficient material, three-fold repetition or the
// 50-move rule, the remaining players receive +10 points each." What it
// leaves unsaid follows chess.com's real games (rules/pgn4's
// TestReplayWalkingKings): the walking king's moves score nothing; a
// walking king stalemated, or still on the board when the game is drawn,
// has its 20 shared by the players still playing, rounded up.
func TestFFAWalkingKingFamily(t *testing.T) {
	for _, a := range []Action{ActResign, ActTimeout} {
		name := map[Action]string{ActResign: "resigns", ActTimeout: "times out"}[a]
		t.Run("Red "+name+" and its king walks on at once, scoring nothing", func(t *testing.T) {
			// Blue's knight on i2 is a live piece next to Red's king; Red's
			// own rook e1 turns grey.
			g := newGameAt(t, ffa(t), "R", "rK:h1 rR:e1 bK:a7 bN:i2 yK:g14 gK:n8 gR:e8")
			if !g.KingWalksOn(Red) {
				t.Fatal("Red's king would not walk on with three others playing")
			}
			recs, err := g.LeaveAndWalk(a, mustFind(t, g.pos, "h1-i2"))
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2 || recs[0].Action != a || recs[0].TurnAfter != Red || recs[1].Seat != Red || recs[1].Gained != [NumSeats]int{} {
				t.Fatalf("records %+v: want the leaving (turn kept), then the king's move gaining nothing", recs)
			}
			if g.Status(Red) != Walking || g.Turn() != Blue || g.pos.Points(Red) != 0 || !g.pos.At(sqMust("e1")).Dead() {
				t.Errorf("Red %v, turn %v, Red's points %d, rook e1 %v", g.Status(Red), g.Turn(), g.pos.Points(Red), g.pos.At(sqMust("e1")))
			}
			// The king is "still worth +20 to whoever can capture it"; its
			// grey army is worth nothing ("Pieces become inert … they no
			// longer award any points when captured").
			play(t, g, "a7-a6")
			play(t, g, "g14-h14")
			if rec := play(t, g, "e8xe1"); rec.Gained != [NumSeats]int{} {
				t.Errorf("capturing Red's grey rook gained %v", rec.Gained)
			}
		})
	}
	t.Run("the same move by a live king scores", func(t *testing.T) {
		g := newGameAt(t, ffa(t), "R", "rK:h1 bK:a7 bN:i2 yK:g14 yR:d14 gK:n8")
		if rec := play(t, g, "h1-i2"); rec.Gained[Red] != 3 {
			t.Errorf("gained %v", rec.Gained)
		}
	})
	t.Run("refused, nothing changes", func(t *testing.T) {
		noDKW := ffa(t)
		noDKW.Options.DeadKingWalking = false
		tests := []struct {
			name   string
			v      *Variant
			fen    string
			mv     string
			reason string
		}{
			{"Dead King Walking off", noDKW, fenOf(t, "R", "rK:h1 bK:a7 yK:g14 yR:d14 gK:n8"), "h1-i2", "would not walk on"},
			// Two others out: Red's leaving leaves one, so no king walks.
			{"one other left", ffa(t), strings.Replace(fenOf(t, "R", "rK:h1 dbK:a7 yK:g14 yR:d14 dgK:n8"), "R-0,0,0,0-", "R-0,1,0,1-", 1), "h1-i2", "would not walk on"},
			{"not a king's move", ffa(t), fenOf(t, "R", "rK:h1 rP:e2 bK:a7 yK:g14 yR:d14 gK:n8"), "e2-e3", "walking king"},
		}
		for _, tt := range tests {
			g, err := NewGame(tt.v, tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			before := g.Position().FEN4()
			_, err = g.LeaveAndWalk(ActTimeout, mustFind(t, g.pos, tt.mv))
			if err == nil || !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("%s: %v, want …%s…", tt.name, err, tt.reason)
			}
			if g.Position().FEN4() != before || len(g.Records()) != 0 || g.Status(Red) != Playing || g.Turn() != Red {
				t.Errorf("%s: the refusal changed the game: %d records, Red %v", tt.name, len(g.Records()), g.Status(Red))
			}
		}
	})

	// Red's king on d1 (c1 and c2 are off the cross) with Yellow's rook on
	// the e-file: Green's rook closing rank 2 leaves it no move on its turn.
	const cornered = "rK:d1 yK:g14 yR:e14 gK:n8 gR:k5"
	t.Run("a walking king stalemated: 20 shared, rounded up", func(t *testing.T) {
		tests := []struct {
			name  string
			blue  string
			flags string
			moves []string // after Red resigned, up to Red's turn
			want  [NumSeats]int
		}{
			{"three play on: 7 each", "bK:a7", "R-0,0,0,0-", []string{"a7-a8", "g14-h14", "k5-k2"}, [NumSeats]int{0, 7, 7, 7}},
			{"two play on: 10 each", "dbK:a7", "R-0,1,0,0-", []string{"g14-h14", "k5-k2"}, [NumSeats]int{0, 0, 10, 10}},
		}
		for _, tt := range tests {
			fen := strings.Replace(fenOf(t, "R", cornered+" "+tt.blue), "R-0,0,0,0-", tt.flags, 1)
			g, err := NewGame(ffa(t), fen)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.Resign(Red); err != nil {
				t.Fatal(err)
			}
			var rec Record
			for _, mv := range tt.moves {
				rec = play(t, g, mv)
			}
			if g.Status(Red) != Stalemated || rec.Gained != tt.want || fmt.Sprint(rec.Out) != "[Red]" {
				t.Errorf("%s: Red %v, the last move (%s) gained %v, out %v; want %v", tt.name, g.Status(Red), rec.Text, rec.Gained, rec.Out, tt.want)
			}
			if _, over := g.Result(); over {
				t.Errorf("%s: the game ended", tt.name)
			}
			// Out, the king is grey like its army: capturing it scores
			// nothing (its 20 was shared).
			if !g.pos.At(sqMust("d1")).Dead() {
				t.Errorf("%s: Red's stalemated king is live", tt.name)
			}
			if tt.blue != "bK:a7" {
				continue
			}
			for _, mv := range []string{"a8-a7", "e14-e1", "k2-k3", "a7-a8"} {
				play(t, g, mv)
			}
			if rec := play(t, g, "e1xd1"); rec.Gained != [NumSeats]int{} || len(rec.Out) != 0 {
				t.Errorf("%s: capturing Red's grey king gained %v, out %v", tt.name, rec.Gained, rec.Out)
			}
		}
	})

	t.Run("a draw with a walking king on the board: +10 each and its 20 shared", func(t *testing.T) {
		// Red resigns and walks; Blue's Bf4xh6 takes the last pawn: kings
		// and single minor pieces (Red's queen is grey).
		g := newGameAt(t, ffa(t), "R", "rK:h1 rQ:e3 bK:a7 bB:f4 yK:g14 gK:n8 gP:h6")
		if _, err := g.Resign(Red); err != nil {
			t.Fatal(err)
		}
		play(t, g, "f4xh6")
		res, over := g.Result()
		// Blue: 1 for the pawn; three remain: 10 + 7 each.
		if want := [NumSeats]int{0, 18, 17, 17}; !over || res.Reason != "insufficient material" || res.Points != want {
			t.Errorf("over=%v %s %v, want insufficient material %v", over, res.Reason, res.Points, want)
		}
	})

	t.Run("two left: a resignation ends the game, every king still on the board is the last player's", func(t *testing.T) {
		// Red walks (three others), then Yellow leaves Blue and Green:
		// Yellow walks too; Green's resignation leaves Blue alone, so
		// Green's king does not walk, but it is on the board: 3 × 20.
		g, _ := NewGame(ffa(t), "")
		for _, s := range []Seat{Red, Yellow, Green} {
			if _, err := g.Timeout(s); err != nil {
				t.Fatal(err)
			}
		}
		res, _ := g.Result()
		if res.Reason != "last player standing" || res.Points != [NumSeats]int{0, 60, 0, 0} || g.Status(Green) != TimedOut {
			t.Errorf("%s %v, Green %v", res.Reason, res.Points, g.Status(Green))
		}
	})

	t.Run("claim win: no text or game shares a walking king", func(t *testing.T) {
		g := newGameAt(t, ffa(t), "R", "rK:h1 rR:e1 bK:a7 yK:g14 gK:n8")
		g.Resign(Yellow) // walks: three others
		g.Resign(Green)  // one other: out
		g.pos.points[Red] = 30
		if err := g.ClaimWin(Red); err != nil {
			t.Fatal(err)
		}
		if res, _ := g.Result(); res.Points != [NumSeats]int{30, 0, 0, 0} {
			t.Errorf("points %v", res.Points)
		}
	})
}
