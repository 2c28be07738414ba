package chess4pgn

import (
	"strings"
	"testing"

	"boardd/rules"
)

// Random legal games (seeded, captures preferred, occasional resignations
// and time-outs) exported and read back give the same turns, and export
// again to the same text; read without the from/to comments (the SAN
// alone) they give the same turns too, so the SAN's disambiguation is
// enough on its own. The chess.com variants are played as well: Teams
// (partners, mate at the mated player's turn) and FFA from the modern
// array (a FEN4 header, since the notation has no array of its own).
func TestRoundTrip(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	teams, _ := rules.NewTeams("modern")
	ffa, _ := rules.NewFFA("modern")
	seen := map[string]int{}
	for _, v := range []*rules.Variant{chess4Variant(t), teams, ffa} {
		for seed := int64(1); seed <= int64(games); seed++ {
			g := randomGame(t, v, seed, 800)
			text, err := Export(g, Info{Names: [4]string{"A", "B \"the\" second", "C", "D"}, Date: "2026.01.02"})
			if err != nil {
				t.Fatalf("%s seed %d: %v", v.Name, seed, err)
			}
			for _, f := range []string{"o-o-", "=", "##", "#", " 0", "resigns", "flags", "Eliminated-By  \"", "x"} {
				if strings.Contains(text, f) {
					seen[f]++
				}
			}
			g2, pg, err := Read(text, v)
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", v.Name, seed, err, text)
			}
			sameTurns(t, v.Name, seed, g, g2)
			if text2, _ := Export(g2, Info{Names: pg.Names(), Date: pg.Get("Date")}); text2 != text {
				t.Errorf("%s seed %d: exported again differs:\n%s\n---\n%s", v.Name, seed, text, text2)
			}
			bare := stripFromTo(text)
			g3, _, err := Read(bare, v)
			if err != nil {
				t.Fatalf("%s seed %d without from/to comments: %v\n%s", v.Name, seed, err, bare)
			}
			sameTurns(t, v.Name+" (SAN only)", seed, g, g3)
		}
	}
	// The playouts must have exercised the notation's features: all twelve
	// seeds do; the three of -short do not write "o-o-" or "##".
	for _, f := range []string{"o-o-", "=", "##", "#", " 0", "resigns", "flags", "x"} {
		if seen[f] == 0 && !testing.Short() {
			t.Errorf("no game wrote %q; pick other seeds", f)
		}
	}
	t.Logf("features seen: %v", seen)
}

func sameTurns(t *testing.T, name string, seed int64, a, b *rules.Game) {
	t.Helper()
	ra, rb := a.Records(), b.Records()
	if len(ra) != len(rb) {
		t.Fatalf("%s seed %d: %d turns, read back %d", name, seed, len(ra), len(rb))
	}
	for i := range ra {
		if ra[i].Seat != rb[i].Seat || ra[i].Action != rb[i].Action || ra[i].Move != rb[i].Move {
			t.Fatalf("%s seed %d turn %d: %v %v %s, read back %v %v %s", name, seed, i, ra[i].Seat, ra[i].Action, ra[i].Move, rb[i].Seat, rb[i].Action, rb[i].Move)
		}
	}
	if a.Position().FEN4() != b.Position().FEN4() {
		t.Errorf("%s seed %d: final positions differ", name, seed)
	}
}

// stripFromTo removes the "{ A > B }" comments and keeps the others.
func stripFromTo(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if i := strings.Index(line, "{ "); i > 0 && strings.Contains(line, " > ") && !strings.HasPrefix(line, "[") {
			j := strings.Index(line[i:], "}")
			line = line[:i] + line[i+j+1:]
		}
		b.WriteString(line)
	}
	return b.String()
}
