package variants

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/pgn4"
)

var updateGolden = flag.Bool("golden.update", false, "rewrite testdata/golden-perft.tsv from the current engine (only before a refactor, never to make a failing test pass)")

// goldenFile holds the perft counts of every variant, recorded from the
// engine before issue 17's redesign (variants as hooks): the refactor must
// not change one number.
const goldenFile = "testdata/golden-perft.tsv"

// goldenCase is one row of the golden table: a position, how deep the
// position-level perft goes, and whether the game-level walk (Game.Play
// and Game.Takeback, so every variant's game state is saved and restored)
// is counted too.
type goldenCase struct {
	variant, source, fen string
	depth                int
	game                 bool
	// at returns the game at this position, with its history (the
	// variant's game state included); nil: a new game from fen.
	at func() *rules.Game
}

// goldenCases lists the table's positions: every variant from each of its
// start arrays (depth 3), positions along each variant's sample games
// (depth 3; the game walk at depth 2), and the perft reference positions
// (rules/testdata: the 20 random Teams positions and chess.com's start
// presets) at depth 4 under Teams and FFA.
func goldenCases(t *testing.T) []goldenCase {
	var out []goldenCase
	cat := catalog(t)
	for _, d := range cat {
		for _, start := range d.Starts {
			v, err := d.Variant(start)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, goldenCase{variant: d.Name + "/" + start, source: "start " + start, fen: v.Start, depth: 3, game: true})
		}
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "games", d.Name, "*.pgn4"))
		sort.Strings(files)
		if len(files) > 2 {
			files = files[:2]
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			games, _, err := pgn4.Parse(strings.NewReader(string(data)))
			if err != nil || len(games) == 0 {
				t.Fatalf("%s: %v", f, err)
			}
			replay := func() *rules.Game {
				g, _, err := pgn4.ReplayWith(games[0], d.Name, func(name, start string) (*rules.Variant, error) {
					dd, err := Find(cat, name)
					if err != nil {
						return nil, err
					}
					return dd.Variant(start)
				})
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				return g
			}
			g := replay()
			recs := len(g.Records())
			// Every 12th turn up to six positions, and the position
			// before the last turn: mid-game shapes, eliminations, mates.
			var plies []int
			for i := 12; i < recs && len(plies) < 6; i += 12 {
				plies = append(plies, i)
			}
			if recs > 1 && (len(plies) == 0 || plies[len(plies)-1] != recs-1) {
				plies = append(plies, recs-1)
			}
			for _, n := range plies {
				at := func() *rules.Game {
					g := replay()
					for len(g.Records()) > n {
						if err := g.Takeback(); err != nil {
							t.Fatal(err)
						}
					}
					return g
				}
				out = append(out, goldenCase{variant: d.Name, source: fmt.Sprintf("%s turn %d", filepath.Base(f), n), fen: at().Position().FEN4(), depth: 3, game: true, at: at})
			}
		}
	}
	var refs []goldenCase
	for _, r := range loadReferenceTSV(t) {
		refs = append(refs, goldenCase{source: r[0], fen: r[1], depth: 4})
	}
	for _, k := range []struct{ name, r, b, y, g string }{
		{"4PCb", "h1", "a7", "h14", "n7"}, {"4PCn", "h1", "a7", "h14", "n8"}, {"4PCrg", "g1", "a8", "g14", "n8"},
	} {
		refs = append(refs, goldenCase{source: "preset " + k.name, fen: presetFEN(t, k.r, k.b, k.y, k.g), depth: 4})
	}
	for _, name := range []string{"teams", "ffa"} {
		for _, r := range refs {
			r.variant = name + "/modern"
			out = append(out, r)
		}
	}
	return out
}

// loadReferenceTSV reads rules/testdata/perft-teams.tsv (copied from the
// project's shared perft references; see rules/testdata/README.md):
// name and FEN4 of each row.
func loadReferenceTSV(t *testing.T) [][2]string {
	f, err := os.Open(filepath.Join("..", "testdata", "perft-teams.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for first := true; sc.Scan(); first = false {
		cols := strings.Split(sc.Text(), "\t")
		if first || len(cols) < 2 {
			continue
		}
		out = append(out, [2]string{cols[0], cols[1]})
	}
	return out
}

// presetFEN builds one of chess.com's start presets (perft-reference.md,
// "Other chess.com presets"): the modern array with the kings on the
// given squares and each queen on the seat's other central square.
func presetFEN(t *testing.T, red, blue, yellow, green string) string {
	v, err := rules.NewTeams("modern")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParseFEN4(v, rules.StartModern)
	if err != nil {
		t.Fatal(err)
	}
	fen := p.FEN4()
	// Place kings and queens square by square through the FEN4 board.
	set := map[string]string{}
	for _, k := range []struct{ seat, king, a, b string }{
		{"r", red, "g1", "h1"}, {"b", blue, "a7", "a8"}, {"y", yellow, "g14", "h14"}, {"g", green, "n7", "n8"},
	} {
		q := k.a
		if k.king == k.a {
			q = k.b
		}
		set[k.king] = k.seat + "K"
		set[q] = k.seat + "Q"
	}
	return withPieces(t, fen, set)
}

// withPieces rewrites a FEN4's board with the given squares' pieces.
func withPieces(t *testing.T, fen string, set map[string]string) string {
	i := strings.LastIndex(fen, "-")
	head, board := fen[:i+1], fen[i+1:]
	ranks := strings.Split(board, "/") // rank 14 first
	for ri, row := range ranks {
		rank := 14 - ri
		var cells []string
		for _, tok := range strings.Split(row, ",") {
			if n, err := strconv.Atoi(tok); err == nil {
				for j := 0; j < n; j++ {
					cells = append(cells, "")
				}
				continue
			}
			cells = append(cells, tok)
		}
		for sq, pc := range set {
			f := int(sq[0] - 'a')
			r, _ := strconv.Atoi(sq[1:])
			if r == rank {
				cells[f] = pc
			}
		}
		var toks []string
		empty := 0
		for _, c := range cells {
			if c == "" {
				empty++
				continue
			}
			if empty > 0 {
				toks = append(toks, strconv.Itoa(empty))
				empty = 0
			}
			toks = append(toks, c)
		}
		if empty > 0 {
			toks = append(toks, strconv.Itoa(empty))
		}
		ranks[ri] = strings.Join(toks, ",")
	}
	return head + strings.Join(ranks, "/")
}

// gameWalk counts the game-level move sequences of length depth
// (Game.LegalMoves, Game.Play, Game.Takeback; a finished game is a leaf)
// and folds every leaf's FEN4, statuses and result into an
// order-independent digest, so a change in any variant's game rules or in
// how its state is saved and restored shows.
func gameWalk(t *testing.T, g *rules.Game, depth int) (uint64, uint64) {
	if _, over := g.Result(); over || depth == 0 {
		h := fnv.New64a()
		fmt.Fprint(h, g.Position().FEN4())
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			fmt.Fprint(h, " ", g.Status(s))
		}
		if res, over := g.Result(); over {
			fmt.Fprintf(h, " %v %v", res.Reason, res.Winners)
		}
		return 1, h.Sum64()
	}
	var n, dig uint64
	for _, m := range g.LegalMoves() {
		if _, err := g.Play(m); err != nil {
			t.Fatalf("%s: legal move %s refused: %v", g.Position().FEN4(), m, err)
		}
		a, b := gameWalk(t, g, depth-1)
		n += a
		dig += b
		if err := g.Takeback(); err != nil {
			t.Fatal(err)
		}
	}
	return n, dig
}

// goldenRow computes one row: perft 1..depth with bulk counting, the
// deepest again without, and the game walk at depth 2.
func goldenRow(t *testing.T, c goldenCase, cat []*Definition) string {
	name, start, _ := strings.Cut(c.variant, "/")
	d, err := Find(cat, name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Variant(start)
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParseFEN4(v, c.fen)
	if err != nil {
		t.Fatalf("%s %s: %v", c.variant, c.source, err)
	}
	var cols []string
	for i := 1; i <= c.depth; i++ {
		cols = append(cols, strconv.FormatUint(p.Perft(i, true), 10))
	}
	cols = append(cols, strconv.FormatUint(p.Perft(c.depth, false), 10))
	walk := "-"
	if c.game {
		var g *rules.Game
		if c.at != nil {
			g = c.at()
		} else if g, err = rules.NewGame(v, c.fen); err != nil {
			t.Fatal(err)
		}
		n, dig := gameWalk(t, g, 2)
		walk = fmt.Sprintf("%d:%016x", n, dig)
	}
	return strings.Join(append([]string{c.variant, c.source, c.fen}, append(cols, walk)...), "\t")
}

// TestGoldenPerft pins every variant's perft counts (bulk and not), and a
// game-level walk with its leaves' digest, to the table recorded before
// the variants became hooks. Under -short the depth-4 reference rows are
// skipped.
func TestGoldenPerft(t *testing.T) {
	cat := catalog(t)
	cases := goldenCases(t)
	if *updateGolden {
		var b strings.Builder
		b.WriteString("# variant\tsource\tfen4\tperft d1..dN (bulk)\tperft dN without bulk\tgame walk d2 leaves:digest\n")
		for _, c := range cases {
			b.WriteString(goldenRow(t, c, cat) + "\n")
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (the table is recorded once, with -golden.update, before a refactor)", err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 4)
		want[cols[0]+"\t"+cols[1]+"\t"+cols[2]] = line
	}
	if len(want) != len(cases) {
		t.Errorf("%s has %d rows, the cases are %d", goldenFile, len(want), len(cases))
	}
	for _, c := range cases {
		if testing.Short() && c.depth == 4 {
			continue
		}
		key := c.variant + "\t" + c.source + "\t" + c.fen
		t.Run(c.variant+" "+c.source, func(t *testing.T) {
			w, ok := want[key]
			if !ok {
				t.Fatalf("no golden row for %s %s (%s)", c.variant, c.source, c.fen)
			}
			if got := goldenRow(t, c, cat); got != w {
				t.Errorf("counts changed:\n got %s\nwant %s", got, w)
			}
		})
	}
}
