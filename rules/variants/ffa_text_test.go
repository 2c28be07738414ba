package variants

import (
	"os"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/pgn4"
)

// ffa-text is ffa with the rules text's stalemate: "In case of stalemate,
// insufficient material, three-fold repetition or the 50-move rule, the
// remaining players receive +10 points each." The real game with a
// mid-game stalemate (Red's S in round 74) replays to its end as ffa
// (chess.com practice) and stops at the S as ffa-text.
func TestFFATextStalemate(t *testing.T) {
	text, err := os.ReadFile("../../testdata/games/ffa/hornet-collected_games-cc_game_0199.pgn4")
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := pgn4.ParseString(string(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		variant string
		want    string // "" for a replay to the end
	}{
		{"ffa", ""},
		{"ffa-text", "move 74 (Red) S: the game is already over (stalemate"},
	} {
		v := variantNamed(t, tt.variant)
		if v.Options.StalemateScoresSelf != (tt.want == "") {
			t.Errorf("%s: stalemate_scores_self %v", tt.variant, v.Options.StalemateScoresSelf)
		}
		g, _, err := pgn4.ReplayWith(pg, tt.variant, lookup(t))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.variant, err)
		case tt.want == "" && g.Status(rules.Red) != rules.Stalemated:
			t.Errorf("%s: Red %v", tt.variant, g.Status(rules.Red))
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want …%s…", tt.variant, err, tt.want)
		}
	}
}
