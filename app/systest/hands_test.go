package systest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/app/catalog"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sensors/sim"
)

// The switch scripts of issue 12, played at their own timings through the
// simulated reed switches, their debounce and the referee (400 ms quiet
// period): every move is read, nothing is said but the moves, and a castle
// is read as O-O whichever piece comes first, never as a rook move.
func TestHumanHandsScripts(t *testing.T) {
	ffaPrelude := "h2-h3 b7-c7 d13-d12 m5-l5 k2-k3 Na5-c6 e13-e12 m4-l4 j2-j3 Ba6-b7 f13-f12 m6-l6 d2-d3"
	for _, tc := range []struct {
		name, variant, prelude, script, want string
	}{
		{"quick reply with a pawn lifted and put back", "teams", "",
			`lift e2
wait 300ms
place e3
wait 600ms
lift b11
wait 200ms
place c11
wait 600ms
lift d13
wait 200ms
place d12
wait 600ms
lift m8
wait 200ms
place l8
wait 600ms
lift j2
wait 247ms
place j3
wait 100ms
lift b6
wait 779ms
place b6
wait 320ms
lift a10
wait 300ms
place c9
wait 600ms
`, "e2-e3 b11-c11 d13-d12 m8-l8 j2-j3 Na10-c9"},
		// The same with the pawn held past the quiet period after the
		// previous move was read.
		{"pawn lifted and put back after the quiet period", "teams", "", "lift j2\nwait 247ms\nplace j3\nwait 500ms\nlift b6\nwait 779ms\nplace b6\nwait 320ms\nlift a10\nwait 300ms\nplace c9\nwait 600ms\n", "j2-j3 Na10-c9"},
		{"castle king first, rook held", "ffa", ffaPrelude, "lift a7\nwait 322ms\nplace a5\nwait 200ms\nlift a4\nwait 576ms\nplace a6\nwait 600ms\n", "O-O"},
		{"castle king first, 300 ms", "ffa", ffaPrelude, "lift a7\nwait 322ms\nplace a5\nwait 200ms\nlift a4\nwait 300ms\nplace a6\nwait 600ms\n", "O-O"},
		{"castle king first, a long pause between king and rook", "ffa", ffaPrelude, "lift a7\nwait 322ms\nplace a5\nwait 2s\nlift a4\nwait 300ms\nplace a6\nwait 600ms\n", "O-O"},
		{"castle rook first", "ffa", ffaPrelude, "lift a4\nwait 283ms\nplace a6\nwait 472ms\nlift a7\nwait 427ms\nplace a5\nwait 600ms\n", "O-O"},
		{"castle rook first, king held long", "ffa", ffaPrelude, "lift a4\nwait 283ms\nplace a6\nwait 1500ms\nlift a7\nwait 3s\nplace a5\nwait 600ms\n", "O-O"},
		{"castle both lifted, rook down first", "ffa", ffaPrelude, "lift a7\nwait 100ms\nlift a4\nwait 500ms\nplace a6\nwait 900ms\nplace a5\nwait 600ms\n", "O-O"},
		{"castle both lifted, king down first", "ffa", ffaPrelude, "lift a4\nwait 100ms\nlift a7\nwait 500ms\nplace a5\nwait 900ms\nplace a6\nwait 600ms\n", "O-O"},
		// Blue castles while Red's move is still in its quiet period.
		{"quick reply castling king first", "ffa", "h2-h3 b7-c7 d13-d12 m5-l5 k2-k3 Na5-c6 e13-e12 m4-l4 j2-j3 Ba6-b7 f13-f12 m6-l6",
			"lift d2\nwait 200ms\nplace d3\nwait 100ms\nlift a7\nwait 300ms\nplace a5\nwait 700ms\nlift a4\nwait 200ms\nplace a6\nwait 600ms\n", "d2-d3 O-O"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, inStep, said := playScript(t, tc.variant, tc.prelude, tc.script)
			if strings.Join(got, " ") != tc.want || !inStep {
				t.Errorf("read %v (in step %v), want %s; the board said:\n%s", got, inStep, tc.want, said)
			}
			// A rook's part read a moment early is revised into the castle,
			// and the board says so.
			if strings.Contains(said, ": Ra4-a6\n") != strings.Contains(said, "O-O (revised: Ra4-a6") {
				t.Errorf("a rook move read and not revised:\n%s", said)
			}
			if strings.Contains(said, "!!") || strings.Contains(said, "sensor fault") {
				t.Errorf("the board complained:\n%s", said)
			}
		})
	}
}

// playScript sets up variant after the prelude's moves, plays script on
// the simulated switches (a 400 ms quiet period) until the board is
// quiet, and returns the moves read, whether the referee is in step with
// the board, and what the board said.
func playScript(t *testing.T, variant, prelude, script string) (moves []string, inStep bool, said string) {
	t.Helper()
	v, err := catalog.Variant(variant, "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range strings.Fields(prelude) {
		m, err := pgn4.Resolve(g, mv)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	before := len(g.Records())
	var out strings.Builder
	s, err := newRefRig(referee.New(g), &out, 400*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sim.ParseScriptOn("hands", strings.NewReader(script), s.board)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Play(s.rig.Board(), s.rig.Wait); err != nil {
		t.Fatal(err)
	}
	if err := s.rig.Settle(); err != nil {
		t.Fatal(err)
	}
	return moveTexts(g)[before:], s.ref.InStep(), out.String()
}

// Whatever the rules allow can be typed: every move of random games of
// every variant, typed as its PGN4 token, is made by the hands GameHands
// builds from the game's legal moves, and the referee reads it back.
// Chess4's chained en passant and the essay's forced move into check are
// among them, and have their own cases below.
func TestTypedMovesAreWhatTheRulesAllow(t *testing.T) {
	for _, d := range everyVariant(t) {
		v := d.v
		for seed := int64(1); seed <= 3; seed++ {
			g := randomPlayout(t, v, seed, 160)
			fresh, _ := rules.NewGame(v, "")
			r := referee.New(fresh)
			notes := map[int][]string{}
			for _, n := range g.Notes() {
				notes[n.After] = append(notes[n.After], n.Text)
			}
			for i, rec := range g.Records() {
				if rec.Action != rules.ActMove {
					break
				}
				for _, text := range notes[i] {
					if _, err := fresh.ApplyNote(text); err != nil {
						t.Fatal(err)
					}
				}
				steps, err := referee.GameHands(fresh, rec.Text)
				if err != nil {
					t.Fatalf("%s seed %d move %d %s: %v", d.Name, seed, i+1, rec.Text, err)
				}
				for _, s := range steps {
					r.Touch(s)
				}
				r.Quiet()
				if recs := fresh.Records(); len(recs) != i+1 || recs[i].Move != rec.Move {
					t.Fatalf("%s seed %d move %d %s typed: the board read %v", d.Name, seed, i+1, rec.Text, moveTexts(fresh)[max(0, i-1):])
				}
				if !r.InStep() {
					r.Resync(fresh.Position().Occupancy()) // the rules took an army off: the hands follow the lights
				}
			}
		}
	}
}

// The two moves the typed path used to refuse: Chess4's chained
// (deferred) en passant, and the essay's move into check that a mated
// partner must still make.
func TestSimTypedMovesTheRulesAllow(t *testing.T) {
	essay, err := catalog.Variant("essay-partners", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(essay, rules.Red, "rK:h1 rN:d1 bK:a8 bR:g9 bR:h9 bR:i9 yK:g14 gK:n7")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, variant, start, moves, want string
	}{
		{"chess4 chained en passant", "chess4", "", "d2-d3 b10-c10 d13-d12 m11-l11 j2-j3 b11-c11 e13-e12 m10-l10 k2-k3 b4-d4 f13-f12 m4-k4 d3-c4 b9-c9 i13-i12 k4-j4 k3-l4", "k3xl4"},
		{"essay: a mated king must still move", "essay-partners", p.FEN4(), "Kh1-g1", "Kh1-g1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := "move " + strings.Join(strings.Fields(tc.moves), "\nmove ") + "\n"
			path := filepath.Join(t.TempDir(), "moves")
			os.WriteFile(path, []byte(script), 0o644)
			args := []string{"sim", "--variant", tc.variant, "-q", "--script", path}
			if tc.start != "" {
				args = append(args, "--start", tc.start)
			}
			code, out, errs := runCmd(args...)
			if code != 0 || strings.Contains(out, "!!") {
				t.Fatalf("exit %d: %s\n%s", code, errs, out)
			}
			got := simMoves(t, out)
			if len(got) != len(strings.Fields(tc.moves)) || !strings.HasPrefix(got[len(got)-1], tc.want) {
				t.Errorf("the board made %v", got)
			}
		})
	}
}
