package systest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/app/board"
	"boardd/internal/testio"
	"boardd/referee"
	"boardd/sync/archive"
)

// Issue 28: state that an older version's tags command, a kill -9 or a
// deleted file left behind made every later start fail (a TimeControl of
// "garbage" in the journal), froze the board on its first message
// (18446744073709551615 in stream.jsonl.seq and mqtt-acked), or started
// a new game over one in progress (current.journal deleted). The daemon
// starts, says what it repaired, and plays on with the same game.
func TestPoisonedStateStillStarts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	d, err := board.Start(context.Background(), quietConfig(dir), io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if r := d.Live.Do(ctx, referee.Command{Name: referee.CmdTags, Tags: map[string]string{"TimeControl": "garbage"}}); r.OK {
		t.Fatal("tags TimeControl garbage: accepted")
	}
	if r := d.Live.Do(ctx, referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Red": "Ann"}}); !r.OK {
		t.Fatal(r.Error)
	}
	game := d.Live.State().Game
	d.Close()

	// What an older version and a kill -9 leave: a tags entry the board
	// refuses now, damaged numbers.
	journal := filepath.Join(dir, "current.journal")
	j, _, _, err := archive.Open(journal)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(archive.Entry{Kind: "tags", Tags: map[string]string{"TimeControl": "garbage", "Bots": "Red:5"}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	const huge = "18446744073709551615"
	os.WriteFile(filepath.Join(dir, "stream.jsonl.seq"), []byte(huge+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "mqtt-acked"), []byte(`{"board":"dur","acked":`+huge+`}`), 0o644)

	for _, step := range []struct {
		name   string
		before func()
		warns  []string
	}{
		{"tags and numbers", func() {}, []string{"current.journal", `TimeControl \"garbage\"`, "stream.jsonl.seq", "mqtt-acked: acked " + huge}},
		{"the journal deleted", func() { os.Remove(journal) }, []string{"current.journal was missing"}},
	} {
		t.Run(step.name, func(t *testing.T) {
			step.before()
			var log testio.Buffer
			cfg := quietConfig(dir)
			cfg.MQTT.Disabled = false
			cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
			d, err := board.Start(context.Background(), cfg, io.Discard, &log)
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			defer d.Close()
			for _, w := range step.warns {
				if !strings.Contains(log.String(), w) {
					t.Errorf("the log does not say %q:\n%s", w, log.String())
				}
			}
			st := d.Live.State()
			if st.Game != game || st.Tags["Red"] != "Ann" || st.Tags["TimeControl"] != "" || st.Tags["Bots"] != "" || st.Seats[0].ClockMS != -1 {
				t.Fatalf("game %s (want %s), tags %v, clock %d", st.Game, game, st.Tags, st.Seats[0].ClockMS)
			}
			r := d.Live.Do(ctx, referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Event": "after " + step.name}})
			if st := d.Live.State(); !r.OK || st.Status != "playing" || st.Seq < 3 || st.Seq > referee.MaxSeq {
				t.Fatalf("the first message after the start: %+v; status %s (%s), seq %d", r, st.Status, st.Message, st.Seq)
			}
		})
	}
}
