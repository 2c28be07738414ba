package archive

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/referee"
)

// Issue 28: a deleted current.journal silently started a new game though
// stream.jsonl held every move. The game comes back from the stream,
// each turn checked, and the log says so; a game the stream has ended is
// not brought back.
func TestMissingJournalRebuiltFromTheStream(t *testing.T) {
	const turns = 20
	dir, played := playedDir(t, turns)
	sd := copyState(t, dir)
	if err := os.Remove(filepath.Join(sd, "current.journal")); err != nil {
		t.Fatal(err)
	}
	res, err := (&Recorder{Dir: sd, Lookup: builtin}).Resume()
	if err != nil {
		t.Fatal(err)
	}
	checkTurns(t, res, played)
	for _, want := range []string{"current.journal was missing", "rebuilt from the stream", "recovered 20 turns"} {
		if !strings.Contains(res.Warning, want) {
			t.Errorf("warning %q: want it to say %q", res.Warning, want)
		}
	}
	if res.Tags["Red"] != "Ann" || res.Tags["Blue"] != "Bob" || res.Tags["Event"] != "Club night" {
		t.Errorf("tags %v", res.Tags)
	}
	again, err := (&Recorder{Dir: sd, Lookup: builtin}).Resume()
	if err != nil || again == nil || again.Warning != "" {
		t.Fatalf("second start: %v, %+v", err, again)
	}
	checkTurns(t, again, played)
}

func TestMissingJournalOfAFinishedGameNotRebuilt(t *testing.T) {
	dir, _ := playedDir(t, 6)
	res, err := (&Recorder{Dir: dir, Lookup: builtin}).Resume()
	if err != nil || res == nil {
		t.Fatal(err)
	}
	b := openBoard(t, dir, res.Game.Position().Occupancy())
	if r := b.live.Do(context.Background(), referee.Command{Name: referee.CmdResign, Seat: "Blue"}); !r.OK {
		t.Fatal(r.Error)
	}
	for _, s := range []string{"Yellow", "Green"} {
		b.live.Do(context.Background(), referee.Command{Name: referee.CmdResign, Seat: s})
	}
	b.stop()
	b.stream.Close()
	if _, err := os.Stat(filepath.Join(dir, "current.journal")); err == nil {
		t.Fatal("the finished game's journal is still current")
	}
	res, err = (&Recorder{Dir: dir, Lookup: builtin}).Resume()
	if err != nil || res != nil {
		t.Fatalf("a finished game came back: %+v, %v", res, err)
	}
	// Filed and its game_over lost from the stream: still not brought back.
	data, _ := os.ReadFile(filepath.Join(dir, "stream.jsonl"))
	lines := strings.SplitAfter(string(data), "\n")
	var kept []string
	for _, l := range lines {
		if !strings.Contains(l, `"kind":"game_over"`) {
			kept = append(kept, l)
		}
	}
	os.WriteFile(filepath.Join(dir, "stream.jsonl"), []byte(strings.Join(kept, "")), 0o644)
	if res, err := (&Recorder{Dir: dir, Lookup: builtin}).Resume(); err != nil || res != nil {
		t.Fatalf("a filed game came back: %+v, %v", res, err)
	}
}
