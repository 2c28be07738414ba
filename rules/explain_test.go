package rules

import (
	"strings"
	"testing"
)

// Errors name the thing that was wrong: "Qd1-h5: the queen's path is
// blocked at f3" (ARCHITECTURE.md conventions).
func TestIllegalMoveExplanations(t *testing.T) {
	start, err := NewGame(teams(t), "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		g    *Game
		mv   string
		want string
	}{
		{"blocked path", start, "g1-g5", "Qg1-g5: the queen's path is blocked at g2"},
		{"empty square", start, "h5-h6", "h5-h6: there is no piece on h5"},
		{"wrong seat", start, "b7-c7", "it is Red's turn, and the pawn on b7 is Blue's"},
		{"own piece", start, "g1-h1", "h1 already holds Red's own king"},
		{"knight shape", start, "j1-j3", "a knight does not move from j1 to j3"},
		{"pawn backwards", start, "h2-h1", "h1 already holds"},
		{"pawn three steps", start, "h2-h5", "a Red pawn cannot move from h2 to h5"},
		{"off the board", start, "h2-b2", "b2 is not a square of the board"},
		{"pinned piece", newGameAt(t, teams(t), "R", "rK:h1 rB:h2 bK:a7 bR:h9 yK:g14 gK:n8"), "h2-g3",
			"it would leave Red's king on h1 in check from Blue's rook on h9"},
		{"king into check", newGameAt(t, teams(t), "R", "rK:h1 bK:a7 bR:g9 yK:g14 gK:n8"), "h1-g1",
			"Red's king would be attacked on g1 by Blue's rook on g9"},
		{"castling through check", mustGame(t, "R-0,0,0,0-1,0,0,0-0,0,0,0-0,0,0,0-0-"+fenOf(t, "R", "rK:h1 rR:k1 bK:a7 bR:i9 yK:g14 gK:n8")[len("R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-"):]), "h1-j1",
			"castling is not possible here"},
		{"wrong promotion", newGameAt(t, ffa(t), "R", "rK:h1 rP:e7 bK:a7 yK:g14 gK:n8"), "e7-e8=N",
			"a pawn may not promote to a knight in ffa"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := findText(tt.g.pos, tt.mv)
			if err == nil {
				t.Fatalf("%s was accepted", tt.mv)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func mustGame(t *testing.T, fen string) *Game {
	t.Helper()
	g, err := NewGame(teams(t), fen)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A captured king ends a Teams game for the capturing team.
func TestTeamsKingCaptureWins(t *testing.T) {
	// Red discovered an attack on Green's king; Yellow takes it before
	// Green's turn.
	g := newGameAt(t, teams(t), "Y", "rK:h1 rP:e2 bK:a7 yK:g14 yB:h13 gK:k10")
	rec := play(t, g, "h13-k10")
	res, over := g.Result()
	if !over || res.Reason != "king captured" || res.Tag(Teams, [4]string{}) != "1-0" {
		t.Fatalf("%+v over=%v", res, over)
	}
	if !strings.HasSuffix(rec.Text, "#") {
		t.Errorf("text %q", rec.Text)
	}
}
