package mqtt

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"boardd/internal/testio"
	"boardd/referee"
)

// Issue 28: a message past the broker's packet limit (an older version's
// tags message of 1.2 MB) made the broker refuse it, the mirror sent it
// again for ever, and nothing after it was published. It goes out
// shortened, with a warning, and the messages after it follow.
func TestOversizedMessageDoesNotStopTheMirror(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	var log testio.Buffer
	c := newConsumer(t, b.url(), "b1", consumerOpts{})
	startMirror(t, b.url(), board, "b1", func(c *Config) { c.Log = slog.New(slog.NewTextHandler(&log, nil)) })
	board.moves(2)
	tags := map[string]string{}
	for i := range 6000 {
		tags[fmt.Sprintf("T%05d", i)] = strings.Repeat("v", 200)
	}
	board.Emit(referee.Message{Kind: referee.MsgTags, Tags: tags, Text: "game details changed"})
	board.moves(2)
	c.waitSeq(5)
	if raw, _, _ := c.snapshot(); !slices.Equal(raw, seqRange(1, 5)) {
		t.Errorf("events %v, want 1…5", raw)
	}
	log.WaitFor(t, "message 3 (tags) of ")
	if !strings.Contains(log.String(), "left out its tags") {
		t.Errorf("log: %s", log.String())
	}
}

// Issue 28: after a kill -9 the board's stream numbers on after its
// reservation. Those numbers were skipped, not lost: no ERROR "lost to
// MQTT", and a replay from a skipped Seq sends the messages after the
// gap instead of failing.
func TestSkippedNumbersAreNotLost(t *testing.T) {
	b := newEmbedded(t)
	file := filepath.Join(t.TempDir(), "mqtt-acked")
	os.WriteFile(file, []byte(`{"board":"b1","acked":8}`), 0o644)
	board := newFakeBoard("b1")
	board.moves(8)
	board.Skip(98) // 9…106: the reservation of a board killed after 8
	board.moves(2) // 107, 108
	var log testio.Buffer
	c := newConsumer(t, b.url(), "b1", consumerOpts{next: 107})
	m := startMirror(t, b.url(), board, "b1", func(c *Config) {
		c.StateFile, c.Log = file, slog.New(slog.NewTextHandler(&log, nil))
	})
	c.waitSeq(108)
	waitStats(t, m, "108 acknowledged", func(s Stats) bool { return s.Acked == 108 })
	if strings.Contains(log.String(), "lost") || strings.Contains(log.String(), "ERROR") {
		t.Errorf("the mirror calls skipped numbers lost:\n%s", log.String())
	}
	c.command("replay", `{"from":9,"id":"r"}`)
	c.waitUntil("reply", func() bool { return len(c.replies) == 1 })
	if r := c.replies[0]; !r.OK {
		t.Fatalf("replay from a skipped Seq: %+v", r)
	}
	c.waitUntil("107 and 108 again", func() bool { return len(c.raw) >= 4 })
	if raw, _, _ := c.snapshot(); !slices.Equal(raw, []uint64{107, 108, 107, 108}) {
		t.Errorf("events %v, want 107 108, then the replay's 107 108", raw)
	}
}
