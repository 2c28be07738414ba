package archive

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/referee"
)

// Issue 28: a tags entry an older version took mid-game (a TimeControl
// of "garbage", a bot for Red, the result) made every later start fail
// or changed the game at the next start. Resume gives the game back with
// the tags fixed at its start, leaves out what the board refuses now,
// and the warning names the journal; the board starts.
func TestResumeMendsTagsAnOlderVersionTook(t *testing.T) {
	for _, tc := range []struct {
		name string
		tags map[string]string
		says []string
	}{
		{"garbage time control", map[string]string{"TimeControl": "garbage"}, []string{`TimeControl "garbage", set during the game, was undone`}},
		{"clocks and a bot mid-game", map[string]string{"TimeControl": "1+0", "Bots": "Red:5"}, []string{`TimeControl "1+0"`, `Bots "Red:5"`}},
		{"the board's own", map[string]string{"Result": "1-0", "GameId": "../../x", "Variant": "ffa"}, []string{"GameId is written by the board", "Result is written by the board"}},
		{"far too many", manyTags(400), []string{"tags past the limit of 32"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, played := playedDir(t, 8)
			path := filepath.Join(dir, "current.journal")
			data, _ := os.ReadFile(path)
			n := strings.Count(string(data), "\n")
			line, _ := marshalEntry(Entry{Seq: uint64(n + 1), Kind: "tags", Tags: tc.tags})
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.Write(append(line, '\n'))
			f.Close()
			rec := &Recorder{Dir: dir, Lookup: builtin}
			res, err := rec.Resume()
			if err != nil {
				t.Fatal(err)
			}
			checkTurns(t, res, played)
			for _, want := range append(tc.says, "journal "+path) {
				if !strings.Contains(res.Warning, want) {
					t.Errorf("warning %q: want it to say %q", res.Warning, want)
				}
			}
			for _, k := range []string{"TimeControl", "Bots", "Result", "GameId", "Variant"} {
				if v, ok := res.Tags[k]; ok {
					t.Errorf("tag %s %q kept", k, v)
				}
			}
			if res.Tags["Red"] != "Ann" || len(res.Tags) > 32 {
				t.Errorf("%d tags, Red %q", len(res.Tags), res.Tags["Red"])
			}
			l, err := referee.NewLive(referee.LiveConfig{Board: "7", Lookup: builtin, Game: res.Game, GameID: res.ID, Tags: res.Tags, Clocks: res.Clocks,
				Occupancy: res.Game.Position().Occupancy(), Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatalf("the board does not start: %v", err)
			}
			if st := l.State(); st.Seats[0].ClockMS != -1 {
				t.Errorf("the game got clocks: %+v", st.Seats[0])
			}
			text, err := rec.GamePGN4(res.ID)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(text, `[Result "1-0"]`) || strings.Contains(text, "../../x") {
				t.Errorf("the PGN4 carries the forged tags:\n%s", text[:min(len(text), 600)])
			}
		})
	}
}

func manyTags(n int) map[string]string {
	out := map[string]string{"Red": "Ann"}
	for i := range n {
		out[fmt.Sprintf("T%03d", i)] = strings.Repeat("v", 200)
	}
	return out
}
