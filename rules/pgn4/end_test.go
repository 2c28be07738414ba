package pgn4

import (
	"errors"
	"os"
	"strings"
	"testing"

	"boardd/rules"
)

// What chess.com writes after a game has ended: the status of the seats
// the end left as they were, in their slots ("95. Qd8-d9+ .. S": Red's
// move stalemated Blue with two left, which ended the game, and Blue's
// slot still holds S). testdata/end/ffa-stalemate-two-left.pgn4 is such a
// game, built (its README says how); the cases below vary its end and
// that of a Teams mate: every status token chess.com writes (S, #, R, T,
// and S after a move) wherever it stands after the end is read when the
// end bears it out, and anything else after the end is refused at the
// first token past it.
func TestReplayEndTokens(t *testing.T) {
	data, err := os.ReadFile("testdata/end/ffa-stalemate-two-left.pgn4")
	if err != nil {
		t.Fatal(err)
	}
	file := string(data)
	head, _, _ := strings.Cut(file, "\n1. ")
	ffa := func(end string) string { return head + "\n1. Rk11-b11 .. Ka7-a6\n2. Kh1-g1 .. Ka6-a7\n" + end + "\n" }
	const teams = "[Variant \"Teams\"]\n[StartFen4 \"R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-x,x,x,yR,2,yK,4,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/10,rR,3/1,rR,12/14/14/13,gK/5,bP,8/4,rP,9/bK,12,gR/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x\"]\n\n" +
		"1. Kh1-i1 .. Ka4-a5 .. Rd14-d13 .. Rn4-n5\n2. Ki1-h1 .. Ka5-a4 .. Rd13-d14 .. Rn5-n4\n"
	tests := []struct {
		name   string
		text   string
		reason string // how the game ends; "" for a refusal
		round  int    // the refused token's round
		token  string // the refused token
		why    string // in the refusal, or in the notes
	}{
		{"the file: S in the stalemated seat's slot", file, "stalemate", 0, "", ""},
		{"S after the stalemating move", ffa("3. Qe8-c6S"), "stalemate", 0, "", ""},
		{"R after the end changes nothing", ffa("3. Qe8-c6 .. S\n4. R"), "stalemate", 0, "", "changes nothing"},
		{"T after the end changes nothing", ffa("3. Qe8-c6 .. T"), "stalemate", 0, "", "changes nothing"},
		// A move past the end: the replay stops at the first token after
		// the end, as it always has.
		{"a move after the end", ffa("3. Qe8-c6 .. S\n4. Kg1-h1"), "", 3, "S", "already over (stalemate)"},
		{"a move after the end, before an S", ffa("3. Qe8-c6 .. Ka7-a8 .. S"), "", 3, "Ka7-a8", "already over (stalemate)"},
		{"# with nobody checkmated", ffa("3. Qe8-c6 .. #"), "", 3, "#", "no seat is checkmated"},
		{"a second S for one stalemate", ffa("3. Qe8-c6 .. S\n4. S"), "", 4, "S", "no seat is stalemated"},
		{"Teams: # in the mated seat's slot", teams + "3. Rk11-a11+# .. #", "checkmate", 0, "", ""},
		{"Teams: S for a mate", teams + "3. Rk11-a11+# .. S", "", 3, "S", "no seat is stalemated"},
		{"Teams: R after the mating move", teams + "3. Rk11-a11+#R", "checkmate", 0, "", "changes nothing"},
		{"Teams: T after the mating move, then #", teams + "3. Rk11-a11+#T .. #", "checkmate", 0, "", "changes nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg, _, err := ParseString(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			g, notes, err := Replay(pg, "")
			if tt.reason == "" {
				var re *ReplayError
				if !errors.As(err, &re) || re.Round != tt.round || re.Token != tt.token || !strings.Contains(err.Error(), tt.why) {
					t.Fatalf("error %v, want move %d %s: …%s…", err, tt.round, tt.token, tt.why)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			res, over := g.Result()
			if !over || res.Reason != tt.reason {
				t.Fatalf("over=%v %+v, want %s", over, res, tt.reason)
			}
			if tt.why != "" && !strings.Contains(strings.Join(notes, "\n"), tt.why) {
				t.Errorf("notes %q, want one saying %q", notes, tt.why)
			}
			if want, ok := resultPoints(pg); ok && res.Points != want {
				t.Errorf("points %v, want the Result tag's %v", res.Points, want)
			}
		})
	}
}

// boardd writes the stalemate that ends an FFA game the way chess.com
// does, with the S in the stalemated seat's slot, and the file replays.
func TestExportEndingStalemate(t *testing.T) {
	data, err := os.ReadFile("testdata/end/ffa-stalemate-two-left.pgn4")
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status(rules.Blue) != rules.Stalemated {
		t.Fatalf("Blue is %s", g.Status(rules.Blue))
	}
	out, err := FromGame(g, pg.Tags)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), string(data); got != want {
		t.Errorf("export:\n%s\nwant the file:\n%s", got, want)
	}
}
