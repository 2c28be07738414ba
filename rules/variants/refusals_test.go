package variants

import (
	"strings"
	"testing"

	"boardd/rules"
)

// refusal returns why the seat to move may not play from-to (promo: the
// kind asked for, NoKind for none): the game's answer when the move is
// one of the piece's moves (blocking double adds its protocol), else the
// position's explanation.
func refusal(t *testing.T, g *rules.Game, from, to string, promo rules.Kind) string {
	t.Helper()
	f, tt := sqr(t, from), sqr(t, to)
	for _, m := range g.Position().PseudoLegal(nil) {
		if m.From() == f && m.To() == tt && (m.Promotion() == promo || promo == rules.NoKind && m.Promotion() <= rules.Queen) {
			if _, err := g.Play(m); err != nil {
				return err.Error()
			}
			t.Fatalf("%s-%s was played", from, to)
		}
	}
	_, err := g.Position().FindMove(f, tt, promo)
	if err == nil {
		t.Fatalf("%s-%s is legal", from, to)
	}
	return err.Error()
}

// Every variant's special refusals give the rule that refuses, not a
// neighbouring one ("would leave the king in check" for a capture the
// rules forbid, "partner" for a seat that is not one). Each case quotes
// the rule it checks.
func TestRefusalsNameTheirRule(t *testing.T) {
	tests := []struct {
		variant, turn, out, pieces string
		from, to                   string
		promo                      rules.Kind
		want                       string // the reason, word for word
		rule                       string
	}{
		// chess.com Teams: "a partner's pieces can neither be captured".
		{"teams", "R", "0,0,0,0", "rK:h1 rQ:h5 yN:h9 yK:g14 bK:a7 gK:n8", "h5", "h9", 0,
			"Qh5xh9: Yellow's knight on h9 may not be captured by Red (partner)", "Teams partners"},
		// The essay's partnership game: partners sit opposite, as in Teams.
		{"essay-partners", "R", "0,0,0,0", "rK:h1 rQ:h5 yN:h9 yK:g14 bK:a7 gK:n8", "h5", "h9", 0,
			"Qh5xh9: Yellow's knight on h9 may not be captured by Red (partner)", "essay partners"},
		// chess.com FFA: grey pieces "cannot move"; "Pawns promote to
		// 1-point queens".
		{"ffa", "R", "0,1,0,0", "rK:h1 dbN:e5 dbK:a7 yK:g14 gK:n8", "e5", "f7", 0,
			"Ne5-f7: the knight on e5 is dead (grey) and cannot move", "grey armies"},
		{"ffa", "R", "0,0,0,0", "rK:h1 rP:e7 bK:a7 yK:g14 gK:n8", "e7", "e8", rules.Rook,
			"e7-e8=R: a pawn may not promote to a rook in ffa", "promotion to a queen only"},
		// Verney: "while his pieces are inert … they are not liable to
		// capture by the adversaries"; "An opponent having checkmated a
		// player … cannot in the same move by which he releases the mate,
		// take any of the Pieces or Pawns of the adversary so released."
		{"verney", "R", "0,1,0,0", "rR:a9 rR:b10 bK:a4 bN:d9 yK:g14 gK:n7 rK:h1", "a9", "d9", 0,
			`Ra9xd9: Blue's knight on d9 belongs to a checkmated army: "they are not liable to capture by the adversaries", and a move that releases the mate may not "take any of the Pieces or Pawns of the adversary so released"`, "release capture"},
		{"verney", "R", "0,1,0,0", "rR:a9 rR:b10 bK:a4 bN:d9 bB:e11 yK:g14 gK:n7 rK:h1", "b10", "e10", 0,
			"", "a legal move in the same position (control)"},
		// "The Pieces of the partner thus released regain life, resume
		// their functions": a release that leaves the releaser's king in
		// the released knight's range is refused for that.
		{"verney", "R", "0,1,0,0", "rR:a9 rR:b10 bK:a4 bN:d9 yK:g14 gK:n7 rK:f8", "a9", "c9", 0,
			`Ra9-c9: it releases Blue from checkmate, and the released pieces ("regain life, resume their functions") would attack Red's king on f8`, "release into the released army's range"},
		// "No player is allowed to move a Piece or Pawn, which move would
		// open his partner's King to a check from either of his
		// adversaries".
		{"verney", "R", "0,0,0,0", "rK:e1 rR:h10 yK:h14 gR:h3 bK:a7 gK:n7", "h10", "d10", 0,
			`Rh10-d10: it would open Yellow's king on h14 (Red's partner) to a check: "No player is allowed to move a Piece or Pawn, which move would open his partner's King to a check"`, "the partner's king"},
		// Kings are never captured; a king with no escape is mated.
		{"verney", "R", "0,0,0,0", "rK:e1 rR:k7 yK:h14 yR:n10 bK:a7 gK:n7", "k7", "n7", 0,
			"Rk7xn7: Green's king on n7 may not be captured: kings are never taken in this game, a king with no escape is checkmated", "no king capture"},
		// Chess4 rule 4: "It is an illegal move to capture an active
		// player's King."
		{"chess4", "R", "0,0,0,0", "rK:h1 rQ:d7 bK:a7 yK:g14 gK:n8", "d7", "a7", 0,
			`Qd7xa7: Blue's king on a7 may not be captured: "It is an illegal move to capture an active player's King" (Blue must be checkmated instead)`, "Chess4 rule 4"},
		{"chess4-m2", "R", "0,0,0,0", "rK:h1 rQ:d7 bK:a7 yK:g14 gK:n8", "d7", "a7", 0,
			`Qd7xa7: Blue's king on a7 may not be captured: "It is an illegal move to capture an active player's King" (Blue must be checkmated instead)`, "Chess4 rule 4, Method 2"},
		// Blocking double chess: "the White men may only capture Black
		// pieces … To the Black and White pieces, the Red and Yellow pieces
		// simply act as blocks"; White and Yellow are partners.
		{"blocking-double", "R", "0,0,0,0", "rK:h1 gK:n7 yK:h14 bK:a7 rQ:e5 yN:e9 gN:h5 bN:c5", "e5", "h5", 0,
			"Qe5xh5: Green's knight on h5 may not be captured by Red: Red plays its game against Yellow, and Green's men only block it", "a block of the other game"},
		{"blocking-double", "R", "0,0,0,0", "rK:h1 gK:n7 yK:h14 bK:a7 rQ:e5 yN:e9 gN:h5 bN:c5", "e5", "c5", 0,
			"Qe5xc5: Blue's knight on c5 may not be captured by Red (partner)", "White's partner"},
		// "have the privilege of moving their Kings into check": the hint
		// to announce comes with a move into check, not with a move that
		// leaves a check standing ("the check that would be so created").
		{"blocking-double", "G", "0,0,0,0", "rK:h1 rQ:d2 gK:n4 gN:l8 yK:h14 yQ:d13 bK:a7 bR:n11 bR:m10", "n4", "n5", 0,
			"Kn4-n5: Green's king on n4 is in check and would still be attacked on n5 (Green may announce a move into check first: its partner replies)", "the privilege's hint"},
		{"blocking-double", "G", "0,0,0,0", "rK:h1 rQ:d2 gK:n4 gN:l8 yK:h14 yQ:d13 bK:a7 bR:n11", "l8", "k6", 0,
			"Nl8-k6: it would leave Green's king on n4 in check from Blue's rook on n11", "no hint for staying in check"},
	}
	for _, tt := range tests {
		g := crossGame(t, variantNamed(t, tt.variant), tt.turn, tt.out, tt.pieces)
		if tt.want == "" {
			if _, err := g.Position().FindMove(sqr(t, tt.from), sqr(t, tt.to), tt.promo); err != nil {
				t.Errorf("%s, %s: %s-%s refused: %v", tt.variant, tt.rule, tt.from, tt.to, err)
			}
			continue
		}
		if got := refusal(t, g, tt.from, tt.to, tt.promo); got != tt.want {
			t.Errorf("%s, %s:\n got %s\nwant %s", tt.variant, tt.rule, got, tt.want)
		}
	}
}

// Stevenson: "Pawns promote upon reaching the far side of the board, but
// only to previously captured pieces of their own eight-piece team. If
// there are no pieces available for promotion, then upon reaching the far
// side, the Pawn is stuck and may no longer move." "A Pawn head-to-head
// with a friendly Pawn is stuck until one of them is captured." Squares in
// the text's own coordinates; the reasons name the cross board's.
func TestRefusalsStevenson(t *testing.T) {
	v := stevenson(t)
	tests := []struct {
		pieces, from, to string
		promo            rules.Kind
		want             string
	}{
		{"rP:c7 rR:a1 rN:h1 bP:a8 gP:h5 yP:e8", "c7", "c8", rules.Rook,
			`f10-f11=R: pawns promote "only to previously captured pieces", and no rook of Red's has been captured`},
		{"rP:c7 rQ:b1 rR:a1 rB:c1 rN:d1 bP:a8 gP:h5 yP:e8", "c7", "c8", rules.Queen,
			`f10-f11=Q: no piece of Red's has been captured, so the pawn arrives unpromoted: "If there are no pieces available for promotion, then upon reaching the far side, the Pawn is stuck"`},
		{"rP:c8 rQ:b1 rR:a1 rB:c1 rN:d1 bN:d7 bP:a8 gP:h5 yP:e8", "c8", "d7", 0,
			`f11xg10: the pawn on f11 reached the far side with no piece available for promotion: "the Pawn is stuck and may no longer move"`},
		{"rP:d4 yP:d5 bN:e5 gP:h1 bP:a8", "d4", "e5", 0,
			`g7xh8: the pawn on g7 meets Yellow's pawn on g8 head to head: "A Pawn head-to-head with a friendly Pawn is stuck until one of them is captured"`},
	}
	for _, tt := range tests {
		g := steven(t, v, "R", tt.pieces)
		_, err := g.Position().FindMove(text(tt.from), text(tt.to), tt.promo)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: %s-%s:\n got %v\nwant %s", tt.pieces, tt.from, tt.to, err, tt.want)
		}
	}
}

// Russian Fortress Chess: the walls "act as a complete barrier to all
// movement, just as the edge of the board does"; "Pawns cannot capture the
// Pawns that appear en prise to them in the initial layout."
func TestRefusalsFortress(t *testing.T) {
	v := fortressVariant(t)
	tests := []struct{ pieces, from, to, want string }{
		{"rR:m2", "m2", "k2", "Rm2-k2: a barrier between m2 and l2 stands in the way"},
		{"rN:k2", "k2", "m3", "Nk2-m3: a barrier stands in the way (a knight's jump is one orthogonal step, then one diagonal step, and may cross no barrier)"},
		{"rP:e4 bP:d5", "e4", "d5", "e4xd5: pawns cannot capture the pawns that appear en prise to them in the initial layout (e4 and d5)"},
	}
	for _, tt := range tests {
		g := fGame(t, v, "R", "0,0,0,0", strings.Replace(farKings, "rK:h1", "rK:a16", 1)+" "+tt.pieces)
		if got := refusal(t, g, tt.from, tt.to, 0); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.pieces, got, tt.want)
		}
	}
}
