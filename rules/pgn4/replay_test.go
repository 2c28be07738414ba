package pgn4

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardd/rules"
)

// Every game in testdata/games/ffa and /teams replays to its end with full
// legality; every FFA game's final scores equal its Result tag's.
func TestReplayRealGames(t *testing.T) {
	matched := 0
	for _, dir := range []string{"ffa", "teams"} {
		for _, f := range gameFiles(t, dir) {
			name := filepath.Base(f)
			pg, _, _ := readGame(t, f)
			g, notes, err := Replay(pg, "")
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			// Check marks: the engine writes the same '+' count as chess.com.
			for _, n := range notes {
				t.Errorf("%s: %s", name, n)
			}
			if len(g.Records()) == 0 {
				t.Errorf("%s: nothing replayed", name)
			}
			want, ok := resultPoints(pg)
			if !ok || g.Variant().Mode != rules.FFA {
				continue
			}
			got := g.Position()
			var diff []string
			for s := rules.Seat(0); s < rules.NumSeats; s++ {
				if got.Points(s) != want[s] {
					diff = append(diff, s.String()+" "+strconv.Itoa(got.Points(s))+" (chess.com "+strconv.Itoa(want[s])+")")
				}
			}
			if len(diff) > 0 {
				t.Errorf("%s: final scores differ: %s", name, strings.Join(diff, ", "))
				continue
			}
			matched++
		}
	}
	// Every FFA game with final scores in its Result tag (37 of 38; the
	// old LONG_FFA has none), walking kings included (TestReplayWalkingKings).
	if matched != 37 {
		t.Errorf("%d FFA games match chess.com's final scores, want 37", matched)
	}
}

// resultPoints reads "name: 72 - name: 14 - …" into points per seat, using
// the seat tags to place each name.
func resultPoints(g *Game) ([rules.NumSeats]int, bool) {
	var out [rules.NumSeats]int
	parts := strings.Split(g.Get("Result"), " - ")
	if len(parts) != rules.NumSeats {
		return out, false
	}
	byName := map[string]int{}
	for _, p := range parts {
		i := strings.LastIndex(p, ": ")
		if i < 0 {
			return out, false
		}
		n, err := strconv.Atoi(p[i+2:])
		if err != nil {
			return out, false
		}
		byName[p[:i]] = n
	}
	for s, tag := range []string{"Red", "Blue", "Yellow", "Green"} {
		n, ok := byName[g.Get(tag)]
		if !ok {
			return out, false
		}
		out[s] = n
	}
	return out, true
}

// The broken exports stop at the move that is illegal, naming it.
func TestReplayRefusesInvalidGames(t *testing.T) {
	tests := []struct {
		file  string
		round int
		seat  rules.Seat
		token string
		why   string
	}{
		{"pgn4crate-LONG_TEAM.pgn4", 32, rules.Red, "O-O#", "cannot castle kingside"},
		{"hornet-human_games-cc_game_0186.pgn4", 110, rules.Green, "Km11-n11", "no piece on m11"},
	}
	for _, tt := range tests {
		pg, _, _ := readGame(t, "../../testdata/games/invalid/"+tt.file)
		_, _, err := Replay(pg, "")
		var re *ReplayError
		if !errors.As(err, &re) {
			t.Fatalf("%s: error %v, want a ReplayError", tt.file, err)
		}
		if re.Round != tt.round || re.Seat != tt.seat || re.Token != tt.token || !strings.Contains(err.Error(), tt.why) {
			t.Errorf("%s: %v\nwant move %d (%s) %s: …%s…", tt.file, err, tt.round, tt.seat, tt.token, tt.why)
		}
	}
}

func TestReplayChecksPieceLetters(t *testing.T) {
	pg, _, err := ParseString("[Variant \"Teams\"]\n\n1. Nh2-h3\n")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Replay(pg, "")
	if err == nil || !strings.Contains(err.Error(), "names a N but h2 holds Red's P") {
		t.Errorf("error %v", err)
	}
	pg, _, _ = ParseString("1. h2-h3\n")
	if _, _, err := Replay(pg, ""); err == nil || !strings.Contains(err.Error(), "Variant") {
		t.Errorf("missing Variant tag: %v", err)
	}
	if _, _, err := Replay(pg, "ffa"); err != nil {
		t.Errorf("with --variant: %v", err)
	}
}

// A real chess.com FFA export (testdata/games/ffa/
// hornet-collected_games-cc_game_0199.pgn4, game 12079115) in which a live
// player is stalemated while three play: "74. S .. Nf8xh9 .. R" — Red,
// down to his king, has no move; Blue and Yellow play on (Yellow then
// resigns). chess.com's final scores ("LazyImp: 62 - SirMullih: 49 -
// RicharCG: 75 - Riba: 9") include Red's +20 for the stalemate; the rules
// text's other reading stops the replay at the S.
func TestReplayRealMidGameStalemate(t *testing.T) {
	pg, _, _ := readGame(t, "../../testdata/games/ffa/hornet-collected_games-cc_game_0199.pgn4")
	g, _, err := Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := resultPoints(pg)
	res, over := g.Result()
	if !over || res.Points != want || g.Status(rules.Red) != rules.Stalemated {
		t.Errorf("over=%v %+v, Red %v; want the Result tag's %v and Red stalemated", over, res, g.Status(rules.Red), want)
	}
	var stalemate rules.Record
	for _, r := range g.Records() {
		for _, s := range r.Out {
			if s == rules.Red {
				stalemate = r
			}
		}
	}
	if stalemate.Gained[rules.Red] != 20 {
		t.Errorf("Red gained %v on the turn he was stalemated (%s), want 20", stalemate.Gained, stalemate.Text)
	}
	v, err := rules.NewFFA("classic")
	if err != nil {
		t.Fatal(err)
	}
	v.Options.StalemateScoresSelf = false
	_, _, err = ReplayWith(pg, "", func(string, string) (*rules.Variant, error) { return v, nil })
	var re *ReplayError
	if !errors.As(err, &re) || re.Round != 74 || re.Seat != rules.Red || !strings.Contains(err.Error(), "already over (stalemate") {
		t.Errorf("rules text: %v, want the game over at Red's S in round 74", err)
	}
}

// A Free-for-All game in which a seat is stalemated while three others
// still play: chess.com writes S in that seat's slot and play goes on
// ("If a player is stalemated, then they are eliminated from the game
// unless there are only 2 players left … Stalemating yourself is 20",
// chess.com's in-game rules summary). Built from that text to cover what
// the one real game above does not (the end with +20 per king left, the
// export): Red's
// Qc7-c5 stalemates Blue's lone king on a4, Blue is out with +20, Yellow
// and Green play on, then Yellow resigns (its king walks: two others
// still play) and Green resigns, leaving Red alone with +20 for each of
// the two kings still on the board. The rules text's other reading
// (every stalemate ends the game, +10 each) stops at Blue's S.
func TestReplayFFAMidGameStalemate(t *testing.T) {
	v, err := rules.NewFFA("")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rQ:c7 bK:a4 yK:g14 gK:n8")
	if err != nil {
		t.Fatal(err)
	}
	text := `[Variant "FFA"]
[RuleVariants "DeadKingWalking EnPassant PromoteTo=D"]
[StartFen4 "` + p.FEN4() + `"]
[Red "r"]
[Blue "b"]
[Yellow "y"]
[Green "g"]
[Result "r: 40 - b: 20 - y: 0 - g: 0"]

1. Qc7-c5 .. S .. Kg14-f14 .. Kn8-n9
2. Kh1-g1 .. R .. R
`
	pg, _, err := ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Replay(pg, "")
	if err != nil {
		t.Fatalf("chess.com practice (the default): %v", err)
	}
	res, over := g.Result()
	want, _ := resultPoints(pg)
	if !over || res.Points != want || g.Status(rules.Blue) != rules.Stalemated {
		t.Errorf("over=%v %+v, Blue %v; want the Result tag's %v", over, res, g.Status(rules.Blue), want)
	}

	// Written back, the stalemated seat's slot holds chess.com's S.
	out, err := FromGame(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if txt := out.String(); !strings.Contains(txt, "1. Qc7-c5 .. S .. Kg14-f14 .. Kn8-n9") {
		t.Errorf("export does not write the stalemate as chess.com does:\n%s", txt)
	}

	// The text's reading: the game ends at the stalemate.
	v.Options.StalemateScoresSelf = false
	_, _, err = ReplayWith(pg, "", func(string, string) (*rules.Variant, error) { return v, nil })
	var re *ReplayError
	if !errors.As(err, &re) || re.Round != 1 || re.Seat != rules.Blue || !strings.Contains(err.Error(), "already over (stalemate") {
		t.Errorf("rules text: %v, want the game over at Blue's S", err)
	}
}
