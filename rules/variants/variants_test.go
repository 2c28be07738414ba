package variants

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/rules"
	"boardd/rules/square"
)

func catalog(t testing.TB) []*Definition {
	t.Helper()
	cat, err := Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// The chess.com variants go through the same mechanism as every other:
// their YAML files build exactly the variants the engine's Go constructors
// build (which the perft references check).
func TestChesscomVariantsFromYAML(t *testing.T) {
	cat := catalog(t)
	for _, tc := range []struct {
		name string
		make func(string) (*rules.Variant, error)
	}{{"teams", rules.NewTeams}, {"ffa", rules.NewFFA}} {
		d, err := Find(cat, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(d.Starts, []string{"modern", "classic"}) {
			t.Errorf("%s starts %v", tc.name, d.Starts)
		}
		for _, start := range d.Starts {
			got, err := d.Variant(start)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := tc.make(start)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s: YAML variant differs from the built-in one:\n%+v\n%+v", tc.name, start, got, want)
			}
			p, _ := rules.ParseFEN4(got, got.Start)
			if n := p.Perft(3, true); n != map[string]uint64{"modern": 7800, "classic": 7960}[start] {
				t.Errorf("%s/%s perft(3) = %d", tc.name, start, n)
			}
		}
	}
}

func TestFits(t *testing.T) {
	d, _ := Find(catalog(t), "teams")
	v, _ := d.Variant("")
	if ok, _ := Fits(v, square.Cross()); !ok {
		t.Error("teams does not fit the cross board")
	}
	var small square.Set
	small.Add(square.At(3, 0)) // d1
	if ok, why := Fits(v, small); ok || !strings.Contains(why, "159 squares") {
		t.Errorf("fits a one-square board: %v %q", ok, why)
	}
	// Both ways between the cross and the 16×16 board.
	if ok, why := Fits(v, square.Full()); ok || why != "needs a 14×14 board; this board is 16×16 (60 squares beyond the variant's board)" {
		t.Errorf("teams on the 16×16 board: %v %q", ok, why)
	}
	d, _ = Find(catalog(t), "russian-fortress")
	f, _ := d.Variant("")
	if ok, why := Fits(f, square.Full()); !ok {
		t.Errorf("russian-fortress on the 16×16 board: %q", why)
	}
	if ok, why := Fits(f, square.Cross()); ok || why != "needs a 16×16 board (96 squares this board does not have)" {
		t.Errorf("russian-fortress on the cross: %v %q", ok, why)
	}
	d, _ = Find(catalog(t), "stevenson") // the central 8×8 of the cross
	s, _ := d.Variant("")
	if ok, why := Fits(s, square.Cross()); !ok {
		t.Errorf("stevenson on the cross: %q", why)
	}
	if ok, _ := Fits(s, square.Full()); ok {
		t.Error("stevenson (the cross's central 8×8) fits the 16×16 board")
	}
}

// Errors name the file, line and key, and say what is expected; unknown
// keys are errors.
func TestParseErrors(t *testing.T) {
	good := mustRead(t, "teams.yaml")
	tests := []struct {
		name, edit, with, want string
	}{
		{"bad direction", "red:    {pawns: north", "red:    {pawns: up", "line 12: seats.red.pawns: \"up\" is not north, east, south or west"},
		{"unknown key", "castling: true", "castlng: true", "field castlng not found"},
		{"bad mode", "mode: teams ", "mode: chaos ", "mode: \"chaos\" is not teams, ffa, capture_all, chess4, double or last_standing"},
		{"bad square", "rook_corners: [d1, k1]", "rook_corners: [d1, z1]", "seats.red.rook_corners: \"z1\" is not a square"},
		{"bad rank", "promotion: [rank 11]", "promotion: [rank 15]", "rank must be 1 to 14"},
		{"bad seat", "turn_order: [red, blue, yellow, green]", "turn_order: [red, blue, yellow, purple]", "\"purple\" is not red"},
		{"bad board", "board: cross14 ", "board: hexagon ", "\"hexagon\" is not a known board"},
		{"bad start", "modern: \"R-0,0,0,0", "modern: \"Q-0,0,0,0", "starts.modern: FEN4 turn"},
		{"bad promotion", "promotion: [queen, rook, bishop, knight]", "promotion: [queen, king]", "\"king\" is not queen"},
		{"partner twice", "partners: [[red, yellow], [blue, green]]", "partners: [[red, yellow], [blue, red]]", "red is in two partnerships"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(good, tt.edit) {
				t.Fatalf("test edit %q not found", tt.edit)
			}
			_, err := Parse("teams.yaml", []byte(strings.Replace(good, tt.edit, tt.with, 1)))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "teams.yaml") {
				t.Errorf("error %v\nwant it to start with the file and contain %q", err, tt.want)
			}
		})
	}
	// A hook's own keys (read by the hook, rules.ReadHookOptions) are
	// checked as strictly as the loader's.
	hookTests := []struct {
		name, file, edit, with, want string
	}{
		{"hook key not a bool", "verney.yaml", "pawn_leap: true", "pawn_leap: maybe", "line 76: pawn_leap: \"maybe\": want true or false"},
		{"hook key misspelled", "verney.yaml", "pawn_leap: true", "pawn_leep: true", "line 76: pawn_leep: field pawn_leep not found"},
		{"seat key misspelled", "russian-fortress.yaml", "fortress: [m1-p4]", "fortres: [m1-p4]", "line 175: seats.red.fortres: field fortres not found"},
		{"hook squares", "russian-fortress.yaml", "fortress: [m1-p4]", "fortress: [m1-z4]", "line 175: seats.red.fortress: \"m1-z4\""},
		{"hook seats", "blocking-double.yaml", "move_into_check: [green, blue]", "move_into_check: [green, mauve]", "line 48: move_into_check: \"mauve\" is not red"},
		{"hook checks the data", "blocking-double.yaml", "partners: [[red, blue], [green, yellow]]", "partners: [[red, blue]]", "opponents: mode double: every seat needs exactly one opponent"},
		{"option misspelled", "verney.yaml", "options: {draw_by_agreement: true}", "options: {draw_by_agreemnt: true}", "line 83: options.draw_by_agreemnt: field draw_by_agreemnt not found"},
	}
	for _, tt := range hookTests {
		t.Run(tt.name, func(t *testing.T) {
			src := mustRead(t, tt.file)
			if !strings.Contains(src, tt.edit) {
				t.Fatalf("test edit %q not found in %s", tt.edit, tt.file)
			}
			_, err := Parse(tt.file, []byte(strings.Replace(src, tt.edit, tt.with, 1)))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), tt.file) {
				t.Errorf("error %v\nwant it to start with the file and contain %q", err, tt.want)
			}
		})
	}
	if _, err := Parse("empty.yaml", nil); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty file: %v", err)
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	data, err := configs.Variants.ReadFile("variants/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"teams.yaml", "ffa.yaml"} {
		data, _ := configs.Variants.ReadFile("variants/" + n)
		f.Add(string(data))
	}
	f.Add("name: x\nboard: {files: 3, ranks: 3, rows: ['...', '.x.', '...'], barriers: ['a1|a2']}\n")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse("fuzz.yaml", []byte(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, st := range d.Starts {
			v, err := d.Variant(st)
			if err != nil {
				t.Fatalf("parsed but start %s fails: %v", st, err)
			}
			p, _ := rules.ParseFEN4(v, v.Start)
			p.LegalMoves(nil)
		}
	})
}

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }
