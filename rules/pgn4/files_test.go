package pgn4

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Facts about specific real games, read off the files by hand.
func TestRealFileDetails(t *testing.T) {
	type slotWant struct {
		round, slot int // 1-based round index in the file, 0-based slot
		text        string
		kind        Kind
	}
	tests := []struct {
		file    string
		tags    map[string]string
		rounds  int
		lens    map[int]int // round index (1-based) -> number of slots
		slots   []slotWant
		warns   int
		numbers bool // round numbers run 1, 2, 3, … without gaps
	}{
		{
			file:   "ffa/hornet-baselines-human_4pc_game_100527014.pgn4",
			tags:   map[string]string{"Variant": "FFA", "StartFen4": "4PC", "Red": "dalay045", "CurrentMove": "176"},
			rounds: 55, lens: map[int]int{14: 4, 15: 3, 54: 2, 55: 1},
			slots: []slotWant{
				{15, 0, "Qa11xRa9+#", Normal}, {54, 1, "Bg14xKk10#", Normal}, {55, 0, "R", Resign},
				{10, 2, "Qd9xBa9+", Normal}, {4, 2, "k11xl10", Normal},
			},
			numbers: true,
		},
		{
			file:   "ffa/pgn4crate-LONG_FFA.pgn4",
			tags:   map[string]string{"Variant": "FFA", "StartFen4": "4PCo"},
			rounds: 34, lens: map[int]int{24: 3, 25: 2, 34: 1},
			slots:   []slotWant{{24, 1, "R#", Resign}, {34, 0, "T", Timeout}, {31, 1, "h11-g11=Q", Normal}, {30, 0, "O-O", CastleShort}},
			numbers: true,
		},
		{
			file:   "ffa/hornet-collected_games-cc_game_0088.pgn4",
			tags:   map[string]string{"GameNr": "103144750", "Termination": "Checkmate", "RuleVariants": "DeadKingWalking EnPassant PromoteTo=D SemiAnonymous"},
			rounds: 97, lens: map[int]int{51: 4, 52: 4, 53: 3, 89: 3, 90: 2, 97: 1},
			slots: []slotWant{
				{51, 0, "Ke2-f1T", Normal}, {52, 0, "S", Stalemate}, {89, 2, "S", Stalemate},
				{89, 0, "g8-h8=D", Normal}, {97, 0, "Qf12xe12+#", Normal},
			},
			numbers: true,
		},
		{
			file:    "ffa/hornet-human_games_4pco-cc_game_0198.pgn4",
			tags:    map[string]string{"GameNr": "12080137", "StartFen4": "4PCo"},
			rounds:  61,
			slots:   []slotWant{{45, 1, "Rh4xKh12#S", Normal}, {61, 0, "R", Resign}},
			numbers: true,
		},
		{
			file:   "teams/4pchess-test-castling.pgn4",
			tags:   map[string]string{"Variant": "Teams", "CurrentMove": "32"},
			rounds: 8, lens: map[int]int{8: 4},
			slots:   []slotWant{{6, 0, "O-O-O", CastleLong}, {7, 1, "O-O", CastleShort}, {8, 2, "O-O-O", CastleLong}, {8, 3, "O-O-O", CastleLong}},
			numbers: true,
		},
		{
			file:   "teams/4pchess-test-promotions.pgn4",
			tags:   map[string]string{"Variant": "Teams", "TimeControl": "2 | 10"},
			rounds: 10,
			slots: []slotWant{
				{8, 0, "h10-h11=Q", Normal}, {8, 1, "j7-k7=N", Normal}, {8, 2, "g5-g4=B", Normal}, {10, 3, "e8-d8=R", Normal},
			},
			numbers: true,
		},
		{
			// Two variations, skipped: the main line goes on after each.
			file:   "teams/4pchess-26780489.pgn4",
			tags:   map[string]string{"GameNr": "26780489", "Variant": "Teams"},
			rounds: 16, lens: map[int]int{6: 4, 16: 2},
			slots:   []slotWant{{6, 1, "Qb9xf13+", Normal}, {6, 2, "Kg14xQf13", Normal}, {9, 3, "Rn4xNn6", Normal}, {10, 0, "e2-e3", Normal}, {16, 1, "T", Timeout}},
			warns:   2,
			numbers: true,
		},
		{
			file:   "invalid/pgn4crate-LONG_TEAM.pgn4",
			tags:   map[string]string{"Variant": "Teams", "StartFen4": "4PCo"},
			rounds: 32, lens: map[int]int{32: 1},
			slots:   []slotWant{{32, 0, "O-O#", CastleShort}},
			numbers: true,
		},
		{
			file:   "invalid/hornet-human_games-cc_game_0186.pgn4",
			tags:   map[string]string{"GameNr": "25888844"},
			rounds: 115, lens: map[int]int{110: 3},
			slots:   []slotWant{{110, 2, "Km11-n11", Normal}, {99, 2, "Km10-n10", Normal}, {114, 0, "Kf6-e5T", Normal}, {115, 2, "R", Resign}},
			numbers: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			g, warns, _ := readGame(t, filepath.Join("..", "..", "testdata", "games", tt.file))
			for name, want := range tt.tags {
				if got := g.Get(name); got != want {
					t.Errorf("tag %s = %q, want %q", name, got, want)
				}
			}
			if len(warns) != tt.warns {
				t.Errorf("%d warnings, want %d: %v", len(warns), tt.warns, warns)
			}
			if len(g.Rounds) != tt.rounds {
				t.Fatalf("%d rounds, want %d", len(g.Rounds), tt.rounds)
			}
			for i, r := range g.Rounds {
				if tt.numbers && r.Number != i+1 {
					t.Errorf("round %d is numbered %d", i+1, r.Number)
				}
				if len(r.Slots) == 0 || len(r.Slots) > 4 {
					t.Errorf("round %d has %d slots", r.Number, len(r.Slots))
				}
			}
			for idx, n := range tt.lens {
				if got := len(g.Rounds[idx-1].Slots); got != n {
					t.Errorf("round %d has %d slots, want %d", idx, got, n)
				}
			}
			for _, w := range tt.slots {
				r := g.Rounds[w.round-1]
				if w.slot >= len(r.Slots) {
					t.Errorf("round %d has no slot %d", w.round, w.slot)
					continue
				}
				s := r.Slots[w.slot]
				if s.Text != w.text || s.Move.Kind != w.kind {
					t.Errorf("round %d slot %d = %q (%v), want %q (%v)", w.round, w.slot, s.Text, s.Move.Kind, w.text, w.kind)
				}
			}
		})
	}
}

// Every token in the real files is in canonical form: Move.String gives
// the text back. The census also checks that the forms the README lists
// all occur.
func TestRealTokensCanonical(t *testing.T) {
	seen := map[string]int{}
	for _, d := range []string{"ffa", "teams", "invalid"} {
		for _, f := range gameFiles(t, d) {
			g, _, _ := readGame(t, f)
			for _, r := range g.Rounds {
				for _, s := range r.Slots {
					if got := s.Move.String(); got != s.Text {
						t.Errorf("%s round %d: %q writes back as %q", filepath.Base(f), r.Number, s.Text, got)
					}
					m := s.Move
					switch {
					case m.Kind != Normal:
						seen[m.String()]++
					case m.Then != 0:
						seen["then "+string(m.Then)]++
					case m.Promotion != 0:
						seen["="+string(m.Promotion)]++
					}
					if m.Captured != 0 {
						seen["x"+string(m.Captured)]++
					}
					if m.Checks > 0 {
						seen[strings.Repeat("+", m.Checks)]++
					}
					if m.Kind == Normal && m.Mate {
						seen["move#"]++
					}
				}
			}
		}
	}
	for _, form := range []string{"R", "T", "S", "R#", "O-O", "O-O-O", "O-O#", "then R", "then T", "then S",
		"=D", "=Q", "=R", "=B", "=N", "xK", "xQ", "xR", "xB", "xN", "+", "++", "move#"} {
		if seen[form] == 0 {
			t.Errorf("no %q in the real files", form)
		}
	}
	t.Logf("forms: %v", seen)
}

func TestClockComments(t *testing.T) {
	tests := []struct {
		comment string
		want    time.Duration
		ok      bool
	}{
		{"[%clk 0:01:02]", 62 * time.Second, true},
		{"[%clk 1:00:00]", time.Hour, true},
		{"[%clk 0:00:58.5]", 58*time.Second + 500*time.Millisecond, true},
		{"[%clk 0:00:00.123456789]", 123456789, true},
		{"good move [%clk 0:10:00] ok", 10 * time.Minute, true},
		{"[%clk 45]", 45 * time.Second, true},
		{"[%clk -0:01:00]", 0, false},
		{"[%clk NaN]", 0, false},
		{"[%clk 1e9:00:00]", 0, false},
		{"[%clk 0:0x1:00]", 0, false},
		{"[%clk 1.5:00:00]", 0, false},
		{"[%clk 1:2:3:4]", 0, false},
		{"[%clk 0:01:02", 0, false},
		{"clk 0:01:02", 0, false},
	}
	for _, tt := range tests {
		g, _, err := ParseString("1. h2-h3 {" + tt.comment + "}")
		if err != nil {
			t.Fatalf("%q: %v", tt.comment, err)
		}
		s := g.Rounds[0].Slots[0]
		if s.HasClock != tt.ok || s.Clock != tt.want || len(s.Comments) != 1 || s.Comments[0] != tt.comment {
			t.Errorf("{%s}: clock %v %v, comments %q; want %v %v", tt.comment, s.Clock, s.HasClock, s.Comments, tt.want, tt.ok)
		}
	}
}

func TestWarnings(t *testing.T) {
	_, warns, err := ParseString("[Variant \"FFA\"]\n{before}\n1. {early} h2-h3 .. b7-c7 (2. x\n) .. R\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"line 2: comment {before} dropped", "line 3: comment {early} dropped", "line 3: variation skipped (lines 3-4)"}
	if len(warns) != len(want) {
		t.Fatalf("warnings %v, want %d", warns, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(warns[i].String(), w) {
			t.Errorf("warning %d = %q, want %q…", i, warns[i], w)
		}
	}
}

// A round number glued to its move ("12.h2-h3") is read; writing puts
// the space back.
func TestRoundNumberWithoutSpace(t *testing.T) {
	g, _, err := ParseString("1.h2-h3 .. b7-c7\n2...h3-h4")
	if err != nil {
		t.Fatal(err)
	}
	if g.String() != "1. h2-h3 .. b7-c7\n2. h3-h4\n" {
		t.Errorf("got %q", g.String())
	}
	// A ".." with no move after it is dropped with a warning.
	g, warns, err := ParseString("1.h2-h3 ..\n2.b7-c7 .. *")
	if err != nil || g.String() != "1. h2-h3\n2. b7-c7\n*\n" || len(warns) != 2 || warns[0].Line != 1 || warns[1].Line != 2 {
		t.Errorf("dangling '..': %q %v %v", g, warns, err)
	}
}

func TestSeveralGames(t *testing.T) {
	in := "[Event \"a\"]\n\n1. h2-h3 .. R\n\n[Event \"b\"]\n\n1. O-O\n*\n[Event \"c\"]\n"
	games, _, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 || games[0].Get("Event") != "a" || games[1].Result != "*" || len(games[2].Rounds) != 0 {
		t.Fatalf("games %+v", games)
	}
	if _, _, err := ParseString(in); err == nil || !strings.Contains(err.Error(), "3 games") {
		t.Errorf("ParseString on three games: %v", err)
	}
}

// A Game built in code (not read) is written so that it reads back.
func TestWriteBuiltGame(t *testing.T) {
	g := &Game{}
	g.Set("Variant", "FFA")
	g.Set("Red", "line\nbreak \"quoted\" back\\slash")
	g.Set("Bad Name]", "x")
	g.Set("Round", "\x1b[31mRED\x00\u0085\u2028")
	g.Set("Ev\tent", "x")
	g.Set("Variant", "Teams") // Set replaces
	g.Rounds = []Round{{Number: 1, Slots: []Slot{
		{Move: Move{Piece: 'P', From: sqr("h2"), To: sqr("h3")}},
		{Text: "not a move", Move: Move{Kind: CastleShort, Piece: 'K', Checks: 1}, Comments: []string{"a } b\a"}},
		{Move: Move{Piece: 'P', From: sqr("h8"), To: sqr("g8"), Promotion: 'D', Then: 'R'}},
	}}}
	want := `[Variant "Teams"]
[Red "line break \"quoted\" back\\slash"]
[Bad_Name_ "x"]
[Round "\u001B[31mRED\u0000\u0085\u2028"]
[Ev\u0009ent "x"]

1. h2-h3 .. O-O+ {a ) b\u0007} .. h8-g8=DR
`
	if got := g.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	again, _, err := ParseString(want)
	if err != nil {
		t.Fatal(err)
	}
	if again.Get("Red") != "line break \"quoted\" back\\slash" || again.Rounds[0].Slots[2].Move != g.Rounds[0].Slots[2].Move {
		t.Errorf("read back %+v", again)
	}
	var b strings.Builder
	n, err := g.WriteTo(&b)
	if err != nil || n != int64(len(want)) {
		t.Errorf("WriteTo = %d, %v; want %d", n, err, len(want))
	}
}

// Nothing in a file can make the parser panic; spot checks of odd input.
func TestOddInput(t *testing.T) {
	for _, in := range []string{
		"", "\x00", "[", "[a", "[a \"", "[a \"b", "[a \"b\"", "]", "}", ")", "(", "{", "1", "1.", ".", "..",
		"1. ..", "1. h2-h3 ..", "\xef\xbb\xbf1. h2-h3", "1. h2-h3\r\n2. R\r\n", strings.Repeat("(", 10000),
		"1. " + strings.Repeat("+", 100000), "99999999999999999999. h2-h3", "1. h2-h3 [a \"b\"]",
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Parse(%.40q) panicked: %v", in, r)
				}
			}()
			Parse(strings.NewReader(in))
		}()
	}
}

// The README in testdata/games names the source of every file there.
func TestGamesReadmeListsEveryFile(t *testing.T) {
	readme, err := os.ReadFile("../../testdata/games/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"ffa", "teams", "invalid"} {
		for _, f := range gameFiles(t, d) {
			if !strings.Contains(string(readme), "| "+d+" | "+filepath.Base(f)+" |") {
				t.Errorf("README.md has no row for %s/%s", d, filepath.Base(f))
			}
		}
	}
}

// Errors carry the exact line and column of the offending token.
func TestErrorPosition(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[A \"b\"]\n\n1. h2-h3 .. Qz1-h5", `line 3 col 13: "Qz1-h5": "z1" is not a square (files a-p, ranks 1-16)`},
		{"1. h2-h3\n2.   Q", `line 2 col 6: "Q": a square is missing`},
		{"1. h2-h3 .. b7-c7\n  h3-h4", `line 2 col 3: "h3-h4": want '..' between two moves of a round`},
		{"[A \"b\"]\n[Bad]", `line 2 col 5: tag Bad: want a quoted value`},
		{"1. h2-h3 }", `line 1 col 10: unexpected '}'`},
	}
	for _, tt := range tests {
		_, _, err := ParseString(tt.in)
		var pe *Error
		if err == nil || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ParseString(%q) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}
