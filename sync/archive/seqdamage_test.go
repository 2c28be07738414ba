package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/referee"
	"boardd/rules"
)

// Issue 28: stream.jsonl.seq (or a journal's msg) holding
// 18446744073709551615 after a kill -9: the start said "playing" and the
// first move paused the game for good ("message 0 after 100"). A number
// above referee.MaxSeq read back is damage: left out with a warning, and
// the game plays on with numbers above every message kept.
func TestDamagedNumbersDoNotFreezeTheBoard(t *testing.T) {
	const huge = "18446744073709551615"
	for _, tc := range []struct {
		name   string
		damage func(dir string)
	}{
		{"stream.jsonl.seq", func(dir string) { os.WriteFile(filepath.Join(dir, "stream.jsonl.seq"), []byte(huge+"\n"), 0o644) }},
		{"stream.jsonl.seq after a clean close", func(dir string) {
			os.WriteFile(filepath.Join(dir, "stream.jsonl.seq"), []byte(huge+" clean "+huge+"\n"), 0o644)
		}},
		{"a journal entry's msg", func(dir string) {
			f, _ := os.OpenFile(filepath.Join(dir, "current.journal"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"seq":99,"kind":"tags","msg":` + huge + `}` + "\n")
			f.Close()
			os.WriteFile(filepath.Join(dir, "stream.jsonl.seq"), []byte("x\n"), 0o644)
		}},
		{"a message in the stream", func(dir string) {
			f, _ := os.OpenFile(filepath.Join(dir, "stream.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"seq":` + huge + `,"kind":"illegal","text":"x"}` + "\n")
			f.Close()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, played := playedDir(t, 4)
			before := HighSeq(dir)
			tc.damage(dir)
			if hs := HighSeq(dir); hs != before {
				t.Fatalf("HighSeq %d, was %d", hs, before)
			}
			v, _ := builtin("teams", "")
			shadow, _ := rules.NewGame(v, "")
			for _, r := range played {
				shadow.Play(r.Move)
			}
			var warned string
			b := openBoardWarn(t, dir, shadow.Position().Occupancy(), builtin, "teams", "", func(w string) bool { warned = w; return true })
			defer b.stop()
			if !strings.Contains(warned, huge) && !strings.Contains(warned, "damaged line") && !strings.Contains(warned, "not a reservation") {
				t.Errorf("warning %q does not say what was repaired", warned)
			}
			last := b.stream.Last()
			if last < 4 || last > referee.MaxSeq {
				t.Fatalf("numbering goes on after %d", last)
			}
			recs := replayOf(t, shadow, 1)
			b.turn(t, shadow, recs[0])
			if st := b.live.State(); st.Status != "playing" || st.Seq <= last || st.Seq > last+5 {
				t.Fatalf("after a move: status %s (%s), seq %d after %d", st.Status, st.Message, st.Seq, last)
			}
		})
	}
}

// replayOf returns n legal next turns of g (without playing them).
func replayOf(t *testing.T, g *rules.Game, n int) []rules.Record {
	t.Helper()
	c := g.Clone()
	var out []rules.Record
	for range n {
		ms := c.LegalMoves()
		if len(ms) == 0 {
			t.Fatal("no legal move")
		}
		rec, err := c.Play(ms[0])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}
