package mqtt

import (
	"os"
	"path/filepath"
	"testing"

	"boardd/referee"
)

// The status topic says "paused" while the board cannot write to its disk
// and "online" again once it goes on; "sensor_fault" while it cannot read
// its switches.
func TestStatusSaysPausedWhileStorageFails(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	startMirror(t, b.url(), board, "b1")
	c := newConsumer(t, b.url(), "b1", consumerOpts{user: readerUser, next: 1})
	c.waitUntil("status online", func() bool { return c.status == StatusOnline })
	board.setStatus("paused")
	c.waitUntil("status paused", func() bool { return c.status == StatusPaused })
	board.setStatus("playing")
	c.waitUntil("status online again", func() bool { return c.status == StatusOnline })
	// The switches cannot be read (a broken chain): sensor_fault, until
	// they read well again.
	board.Update(func(st *referee.State) { st.SensorFault = "the board cannot read its switches" })
	c.waitUntil("status sensor_fault", func() bool { return c.status == StatusSensorFault })
	board.Update(func(st *referee.State) { st.SensorFault = "" })
	c.waitUntil("status online after the fault", func() bool { return c.status == StatusOnline })
}

// Temporary files a killed daemon left beside the state file are removed
// on start, and AckedSeq reads the acknowledged position for the board's
// numbering (0 for a missing, damaged or other board's file).
func TestStateFileLeftoversAndAckedSeq(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mqtt-acked")
	for _, name := range []string{".mqtt-acked.123", ".mqtt-acked.4567"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "keep.me"), []byte("x"), 0o644)
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	board.moves(3)
	m := startMirror(t, b.url(), board, "b1", func(c *Config) { c.StateFile = file })
	waitStats(t, m, "started", func(s Stats) bool { return s.Connected })
	m.Close()
	left, _ := filepath.Glob(filepath.Join(dir, ".mqtt-acked.*"))
	if len(left) != 0 {
		t.Errorf("leftovers after start: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.me")); err != nil {
		t.Errorf("another file was removed: %v", err)
	}
	for _, tc := range []struct {
		content string
		want    uint64
	}{
		{`{"board":"b1","acked":78}`, 78},
		{`{"board":"b9","acked":78}`, 0},
		{`garbage`, 0},
		{`{"board":"b1","acked":18446744073709551615}`, 0}, // issue 28: damage, not a position
		{`{"board":"b1","acked":9007199254740991}`, 9007199254740991},
		{"", 0},
	} {
		os.WriteFile(file, []byte(tc.content), 0o644)
		if got := AckedSeq(file, "b1"); got != tc.want {
			t.Errorf("AckedSeq of %q: %d, want %d", tc.content, got, tc.want)
		}
	}
	if got := AckedSeq(filepath.Join(dir, "none"), "b1"); got != 0 {
		t.Errorf("AckedSeq of a missing file: %d", got)
	}
}
