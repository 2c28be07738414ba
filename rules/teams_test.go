package rules

import (
	"strings"
	"testing"
)

// "A teammate's pieces cannot be captured." (chess.com rules, Teams)
func TestTeamsNoCapturingPartner(t *testing.T) {
	g := newGameAt(t, teams(t), "R", "rK:h1 rR:h5 yK:g14 yN:h10 bK:a7 gK:n8")
	texts := moveTexts(g.pos)
	if texts["Rh5xNh10"] || texts["Rh5-h10"] {
		t.Fatal("Red's rook may capture Yellow's knight")
	}
	if !texts["Rh5-h9"] {
		t.Fatal("Red's rook should reach h9")
	}
	_, err := findText(g.pos, "h5-h10")
	if err == nil || !strings.Contains(err.Error(), "partner") {
		t.Errorf("error = %v, want it to name the partner", err)
	}
}

// "Players are allowed to make moves that put their teammate in check."
// A partner's piece gives no check.
func TestTeamsPartnerGivesNoCheck(t *testing.T) {
	g := newGameAt(t, teams(t), "R", "rK:h1 rQ:d3 yK:g14 bK:a7 gK:n8")
	rec := play(t, g, "d3-g6") // Red's queen on Yellow's king's file
	if g.pos.InCheck(Yellow) || strings.Contains(rec.Text, "+") {
		t.Fatalf("Yellow is in check from its partner's queen (%s)", rec.Text)
	}
	// Yellow's king may even step along its partner's queen's lines.
	play(t, g, "a7-b7")
	mustFind(t, g.pos, "g14-g13")
}

// "Pawns promote to queens on the 11th row from each player's
// perspective." Under-promotion is allowed in Teams (all four kinds).
func TestTeamsPromotionOnEleventhRank(t *testing.T) {
	tests := []struct {
		turn, pieces, from, to string
	}{
		{"R", "rK:h1 rP:e10 bK:a7 yK:g14 gK:n8", "e10", "e11"},
		{"B", "rK:h1 bK:a7 bP:j5 yK:g14 gK:n8", "j5", "k5"},
		{"Y", "rK:h1 bK:a7 yK:g14 yP:e5 gK:n8", "e5", "e4"},
		{"G", "rK:h1 bK:a7 yK:g14 gK:n8 gP:e9", "e9", "d9"},
	}
	for _, tt := range tests {
		g := newGameAt(t, teams(t), tt.turn, tt.pieces)
		n := 0
		for _, m := range g.pos.LegalMoves(nil) {
			if m.From().String() == tt.from && m.To().String() == tt.to {
				if m.Promotion() == NoKind {
					t.Errorf("%s %s-%s does not promote", tt.turn, tt.from, tt.to)
				}
				n++
			}
		}
		if n != 4 {
			t.Errorf("%s: %d promotion moves to %s, want 4 (Q, R, B, N)", tt.turn, n, tt.to)
		}
	}
	g := newGameAt(t, teams(t), "R", "rK:h1 rP:e10 bK:a7 yK:g14 gK:n8")
	play(t, g, "e10-e11=N")
	if pc := g.pos.At(sqMust("e11")); pc != MakePiece(Red, Knight) {
		t.Errorf("e11 holds %v, want rN", pc)
	}
	if got := g.records[0].Text; got != "e10-e11=N" {
		t.Errorf("text %q", got)
	}
}

// "Checkmate only takes effect when a player's turn is reached, allowing a
// player's teammate to intervene."
func TestTeamsMateWaitsForTheMatedPlayersTurn(t *testing.T) {
	pieces := "rK:h1 rQ:m11 rR:m4 bK:a7 bR:b8 yK:g14 gK:n8"
	// Red mates Green with Qm11-m8 (supported by Rm4), but Green moves last:
	// Blue, Green's partner, captures the queen first.
	g := newGameAt(t, teams(t), "R", pieces)
	rec := play(t, g, "m11-m8")
	if _, over := g.Result(); over {
		t.Fatal("game over at once; the partner must get to intervene")
	}
	if rec.Text != "Qm11-m8+" {
		t.Errorf("text %q, want Qm11-m8+", rec.Text)
	}
	play(t, g, "b8-m8")
	play(t, g, "g14-f14")
	if _, over := g.Result(); over || len(g.LegalMoves()) == 0 {
		t.Fatal("Green should be free after its partner took the queen")
	}

	// Without the intervention the mate takes effect at Green's turn.
	g = newGameAt(t, teams(t), "R", pieces)
	play(t, g, "m11-m8")
	play(t, g, "a7-a6")
	if _, over := g.Result(); over {
		t.Fatal("over before Green's turn")
	}
	play(t, g, "g14-f14")
	res, over := g.Result()
	if !over || res.Reason != "checkmate" {
		t.Fatalf("result %+v over=%v, want checkmate", res, over)
	}
	// "The first team to checkmate one of the opposing team's players wins."
	if res.Tag(Teams, [4]string{}) != "1-0" || g.Status(Green) != Mated {
		t.Errorf("tag %s status %v", res.Tag(Teams, [4]string{}), g.Status(Green))
	}
	// The mate-at-once option ends it immediately.
	v := teams(t)
	v.Options.MateAtOnce = true
	g = newGameAt(t, v, "R", pieces)
	rec = play(t, g, "m11-m8")
	if _, over := g.Result(); !over || !strings.HasSuffix(rec.Text, "#") {
		t.Errorf("MateAtOnce: over=%v text %q", over, rec.Text)
	}
}

// "The game is a draw in case of stalemate, insufficient material,
// three-fold repetition or the 50-move rule."
func TestTeamsDraws(t *testing.T) {
	t.Run("stalemate", func(t *testing.T) {
		// Blue's king on a4 is boxed in by Red's queen on c5 but not attacked.
		g := newGameAt(t, teams(t), "R", "rK:h1 rQ:c7 bK:a4 yK:g14 gK:n8")
		play(t, g, "c7-c5")
		res, over := g.Result()
		if !over || res.Reason != "stalemate" || !res.Draw() {
			t.Fatalf("result %+v over=%v, want a stalemate draw", res, over)
		}
	})
	t.Run("insufficient material", func(t *testing.T) {
		g := newGameAt(t, teams(t), "R", "rK:h1 rN:e5 bK:a7 bP:f6 yK:g14 gK:n8")
		play(t, g, "e5-f7") // a plain move: not yet
		if _, over := g.Result(); over {
			t.Fatal("over with a pawn on the board")
		}
		g = newGameAt(t, teams(t), "R", "rK:h1 rN:e5 bK:a7 bP:f7 yK:g14 gK:n8")
		play(t, g, "e5-f7") // captures the last pawn: kings and one knight
		if res, over := g.Result(); !over || res.Reason != "insufficient material" {
			t.Fatalf("result %+v over=%v", res, over)
		}
	})
	t.Run("threefold repetition", func(t *testing.T) {
		g := newGameAt(t, teams(t), "R", "rK:h1 rR:d1 bK:a7 bR:a4 yK:g14 yR:d14 gK:n8 gR:n4")
		round := []string{"h1-g1", "a7-a8", "g14-f14", "n8-n9", "g1-h1", "a8-a7", "f14-g14", "n9-n8"}
		for i := 0; i < 2; i++ {
			for _, mv := range round {
				if _, over := g.Result(); over {
					t.Fatalf("over early at %s", mv)
				}
				play(t, g, mv)
			}
		}
		if res, over := g.Result(); !over || res.Reason != "threefold repetition" {
			t.Fatalf("result %+v over=%v", res, over)
		}
	})
	t.Run("50-move rule", func(t *testing.T) {
		g := newGameAt(t, teams(t), "R", "rK:h1 rR:d1 bK:a7 bR:a4 yK:g14 yR:d14 gK:n8 gR:n4")
		g.pos.halfmove = 199 // 50 moves by each of four players is 200 plies
		g.reps = map[uint64]int{}
		play(t, g, "d1-d2")
		if res, over := g.Result(); !over || res.Reason != "50-move rule" {
			t.Fatalf("result %+v over=%v", res, over)
		}
	})
}

// Resigning in Teams loses for the team.
func TestTeamsResign(t *testing.T) {
	g, err := NewGame(teams(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Resign(Yellow); err != nil {
		t.Fatal(err)
	}
	res, over := g.Result()
	if !over || res.Tag(Teams, [4]string{}) != "0-1" || res.Reason != "resignation" {
		t.Fatalf("%+v", res)
	}
	if _, err := g.Play(g.pos.LegalMoves(nil)[0]); err != ErrGameOver {
		t.Errorf("move after the end: %v", err)
	}
}
