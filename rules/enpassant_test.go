package rules

import "testing"

// En passant in four-player chess: the entry of a double-stepping pawn
// lives until its seat moves again (three plies), and any opposing pawn
// attacking the skipped square may take, including pawns moving on the
// perpendicular axis (reference perft conventions).
func TestEnPassantPerpendicularAndLifetime(t *testing.T) {
	pieces := "rK:h1 rP:e2 bK:a7 bP:d4 yK:g14 gK:n8 gP:f4"
	hasEP := func(g *Game, from string) bool {
		for _, m := range g.pos.LegalMoves(nil) {
			if m.IsEnPassant() && m.From().String() == from && m.To().String() == "e3" {
				return true
			}
		}
		return false
	}
	g := newGameAt(t, teams(t), "R", pieces)
	play(t, g, "e2-e4")
	if m, p := g.pos.EnPassant(Red); m.String() != "e3" || p.String() != "e4" {
		t.Fatalf("Red's entry = %s:%s, want e3:e4", m, p)
	}
	if !hasEP(g, "d4") {
		t.Fatal("Blue's d4 pawn (moving east) cannot take e3 en passant")
	}
	play(t, g, "a7-a6")
	play(t, g, "g14-f14")
	if !hasEP(g, "f4") {
		t.Fatal("Green cannot take en passant two plies later")
	}
	rec := play(t, g, "f4-e3")
	if rec.Text != "f4xe3" || g.pos.At(sqMust("e4")) != NoPiece || g.pos.At(sqMust("e3")) != MakePiece(Green, Pawn) {
		t.Errorf("after e.p.: text %q, e4 %v, e3 %v", rec.Text, g.pos.At(sqMust("e4")), g.pos.At(sqMust("e3")))
	}
	if _, err := g.Play(0); err == nil {
		t.Error("the zero move was accepted")
	}

	// Once Red has moved again the entry is gone.
	g = newGameAt(t, teams(t), "R", pieces)
	for _, mv := range []string{"e2-e4", "a7-a6", "g14-f14", "n8-n9", "h1-g1"} {
		play(t, g, mv)
	}
	if hasEP(g, "d4") {
		t.Error("en passant still possible after the pushing seat moved again")
	}
	if m, _ := g.pos.EnPassant(Red); m.Valid() {
		t.Errorf("Red's entry %s survived Red's next move", m)
	}
}
