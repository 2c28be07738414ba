package mqtt

import "testing"

// SplitTopic reads a board's topics under a prefix, and nothing else.
func TestSplitTopic(t *testing.T) {
	for _, c := range []struct {
		prefix, topic, board, leaf string
		ok                         bool
	}{
		{"boardd", "boardd/club-1/events", "club-1", "events", true},
		{"", "boardd/club-1/games/20261122-193000", "club-1", "games/20261122-193000", true},
		{"club/north", "club/north/t1/cmd/replay/result", "t1", "cmd/replay/result", true},
		{"boardd", "other/club-1/events", "", "", false},
		{"boardd", "boardd/club-1", "", "", false},
		{"boardd", "boardd/club-1/", "", "", false},
		{"boardd", "boardd", "", "", false},
	} {
		board, leaf, ok := SplitTopic(c.prefix, c.topic)
		if board != c.board || leaf != c.leaf || ok != c.ok {
			t.Errorf("SplitTopic(%q, %q) = %q, %q, %v; want %q, %q, %v", c.prefix, c.topic, board, leaf, ok, c.board, c.leaf, c.ok)
		}
	}
}
