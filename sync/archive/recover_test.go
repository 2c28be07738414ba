package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sensors"
)

// playedDir plays the first n turns of a real Teams game on a live board
// recording into a new directory (a tag change after turn 5), and pulls
// the plug. It returns the directory and the turns played.
func playedDir(t *testing.T, n int) (string, []rules.Record) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", "teams", "4pchess-26780486.pgn4"))
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := pgn4.ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := pgn4.Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	recs := want.Records()[:n]
	dir := t.TempDir()
	v, _ := builtin("teams", "")
	shadow, _ := rules.NewGame(v, "")
	b := openBoard(t, dir, shadow.Position().Occupancy())
	for i, r := range recs {
		b.turn(t, shadow, r)
		if i == 4 {
			if rep := b.live.Do(context.Background(), referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Blue": "Bob"}}); !rep.OK {
				t.Fatal(rep.Error)
			}
		}
	}
	b.stop() // the plug
	return dir, recs
}

// copyState copies a state directory's journal and stream to a new one.
func copyState(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	for _, name := range []string{"current.journal", "stream.jsonl", "stream.jsonl.seq"} {
		data, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(to, name), data, 0o644)
	}
	return to
}

// checkTurns fails unless the resumed game has exactly the turns want.
func checkTurns(t *testing.T, res *Resumed, want []rules.Record) {
	t.Helper()
	if res == nil {
		t.Fatal("no game resumed")
	}
	got := res.Game.Records()
	if len(got) != len(want) {
		t.Fatalf("%d turns resumed, want %d (warning %q)", len(got), len(want), res.Warning)
	}
	for i := range want {
		if got[i].Move != want[i].Move || got[i].Seat != want[i].Seat || got[i].Action != want[i].Action {
			t.Fatalf("turn %d: %s %s, played %s %s", i+1, got[i].Seat, got[i].Text, want[i].Seat, want[i].Text)
		}
	}
}

// Damage to any entry of a real game's journal, or the journal cut short
// at any entry, costs no turn the stream has: each comes back, checked,
// the log says so, and the journal holds them again (a second start has
// nothing to recover).
func TestDamagedJournalRecoversTurnsFromTheStream(t *testing.T) {
	const turns = 24
	dir, played := playedDir(t, turns)
	data, _ := os.ReadFile(filepath.Join(dir, "current.journal"))
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-1]
	if len(lines) < turns+2 {
		t.Fatalf("the journal has %d entries for %d turns and a tag change", len(lines), turns)
	}
	type damage struct {
		name string
		at   func(i int, line string) (string, bool) // the line's replacement; false: not for this line
	}
	for _, d := range []damage{
		{"garbage", func(int, string) (string, bool) { return "damaged\n", true }},
		{"zero-filled", func(_ int, l string) (string, bool) { return strings.Repeat("\x00", len(l)-1) + "\n", true }},
		{"a bit flipped", func(_ int, l string) (string, bool) { b := []byte(l); b[len(b)/2] ^= 0x40; return string(b), true }},
		{"dropped", func(int, string) (string, bool) { return "", true }},
		{"another move written in (its sum fits; legal or not)", func(_ int, l string) (string, bool) {
			var e Entry
			if json.Unmarshal([]byte(l), &e) != nil || e.Kind != "move" {
				return "", false
			}
			e.Move = "a4-a5"
			line, _ := marshalEntry(e)
			return string(line) + "\n", true
		}},
		{"cut short here", nil},
	} {
		for i := 0; i < len(lines); i++ {
			t.Run(fmt.Sprintf("%s/entry %d", d.name, i+1), func(t *testing.T) {
				var journal string
				if d.at == nil && i == 0 {
					t.Skip("an empty journal names no game: not recovered (see docs/durability.md)")
				}
				if d.at == nil {
					journal = strings.Join(lines[:i], "")
				} else {
					repl, ok := d.at(i, lines[i])
					if !ok {
						t.Skip("not a move entry") // the table's other damages cover it
					}
					journal = strings.Join(lines[:i], "") + repl + strings.Join(lines[i+1:], "")
				}
				sd := copyState(t, dir)
				os.WriteFile(filepath.Join(sd, "current.journal"), []byte(journal), 0o644)
				res, err := (&Recorder{Dir: sd, Lookup: builtin}).Resume()
				if err != nil {
					t.Fatal(err)
				}
				checkTurns(t, res, played)
				lostTurn := strings.Contains(strings.Join(lines[i:], ""), `"kind":"move"`)
				if lostTurn && !strings.Contains(res.Warning, "recovered") {
					t.Errorf("warning %q does not say what was recovered", res.Warning)
				}
				if res.Tags["Blue"] != "Bob" || res.Tags["Red"] != "Ann" {
					t.Errorf("tags %v, want Red Ann and Blue Bob", res.Tags)
				}
				again, err := (&Recorder{Dir: sd, Lookup: builtin}).Resume()
				if err != nil || again == nil || again.Warning != "" {
					t.Fatalf("second start: %v, warning %q", err, again.Warning)
				}
				checkTurns(t, again, played)
			})
		}
	}
}

// When the stream lacks a message too (a damaged line), recovery stops
// before it and says so: the turns after a missing one are never guessed.
func TestRecoveryStopsAtAMessageTheStreamLacks(t *testing.T) {
	const turns = 16
	dir, played := playedDir(t, turns)
	journal, _ := os.ReadFile(filepath.Join(dir, "current.journal"))
	jl := strings.SplitAfter(string(journal), "\n")
	stream, _ := os.ReadFile(filepath.Join(dir, "stream.jsonl"))
	sl := bytes.SplitAfter(stream, []byte("\n"))
	var moveLines []int // the stream's move messages
	for i, l := range sl {
		if bytes.Contains(l, []byte(`"kind":"move"`)) {
			moveLines = append(moveLines, i)
		}
	}
	for _, tc := range []struct {
		name    string
		journal int // the journal keeps this many entries (start, turns 1..)
		lacks   int // the stream's move of this turn (1-based) is damaged
		want    int // turns resumed
	}{
		{name: "the stream lacks the first turn after the journal", journal: 9, lacks: 9, want: 8},
		{name: "the stream lacks a later turn", journal: 5, lacks: 12, want: 11},
		{name: "the stream lacks an earlier turn (no matter)", journal: 12, lacks: 3, want: turns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := copyState(t, dir)
			os.WriteFile(filepath.Join(sd, "current.journal"), []byte(strings.Join(jl[:tc.journal], "")), 0o644)
			s := append([][]byte(nil), sl...)
			s[moveLines[tc.lacks-1]] = []byte("damaged\n")
			os.WriteFile(filepath.Join(sd, "stream.jsonl"), bytes.Join(s, nil), 0o644)
			res, err := (&Recorder{Dir: sd, Lookup: builtin}).Resume()
			if err != nil {
				t.Fatal(err)
			}
			checkTurns(t, res, played[:tc.want])
			if tc.want < turns && !strings.Contains(res.Warning, "was not recovered") {
				t.Errorf("warning %q does not say what could not be recovered", res.Warning)
			}
		})
	}
}

// A revised castle is journaled as a pair (takeback, castle) from one
// message: damage to either half, or the journal cut between them, still
// brings back the castle, not the rook move it replaced.
func TestRecoveryCompletesARevisedMove(t *testing.T) {
	v, _ := builtin("ffa", "")
	g, _ := rules.NewGame(v, "")
	for _, mv := range strings.Fields("h2-h3 b7-c7 d13-d12 m5-l5 k2-k3 Na5-c6 e13-e12 m4-l4 j2-j3 Ba6-b7 f13-f12 m6-l6 d2-d3") {
		m, err := pgn4.Resolve(g, mv)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	dir := t.TempDir()
	b := openBoardWith(t, dir, g.Position().Occupancy(), builtin, "ffa", g.Position().FEN4())
	for _, e := range []struct {
		sq   string
		kind sensors.Kind
	}{{"a4", sensors.Lift}, {"a6", sensors.Place}, {"a7", sensors.Lift}, {"a5", sensors.Place}} {
		b.live.Touches() <- sensors.Event{Kind: e.kind, Square: sqr(e.sq)}
		if e.sq == "a6" || e.sq == "a5" {
			want := map[string]string{"a6": referee.MsgMove, "a5": referee.MsgMoveRevised}[e.sq]
			for m := range b.msgs {
				if m.Kind == want {
					break
				}
			}
		}
	}
	b.stop()
	data, _ := os.ReadFile(filepath.Join(dir, "current.journal"))
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-1]
	if len(lines) != 4 || !strings.Contains(lines[2], `"takeback"`) || !strings.Contains(lines[3], `"move":"a7-a5"`) {
		t.Fatalf("journal: want start, the rook move, takeback, castle:\n%s", data)
	}
	for _, tc := range []struct {
		name    string
		journal string
	}{
		{"cut between the takeback and the castle", strings.Join(lines[:3], "")},
		{"the castle damaged", strings.Join(lines[:3], "") + "damaged\n"},
		{"the takeback damaged", strings.Join(lines[:2], "") + "damaged\n" + lines[3]},
		{"cut after the rook move", strings.Join(lines[:2], "")},
		{"the rook move damaged", lines[0] + "damaged\n" + strings.Join(lines[2:], "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := copyState(t, dir)
			os.WriteFile(filepath.Join(sd, "current.journal"), []byte(tc.journal), 0o644)
			res, err := (&Recorder{Dir: sd, Lookup: builtin}).Resume()
			if err != nil || res == nil {
				t.Fatalf("resume: %v", err)
			}
			if recs := res.Game.Records(); len(recs) != 1 || recs[0].Move.String() != "a7-a5" || res.Game.Position().FEN4() == g.Position().FEN4() {
				t.Fatalf("resumed %v (warning %q), want the castle a7-a5 alone", recs, res.Warning)
			}
		})
	}
}
