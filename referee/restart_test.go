package referee

import (
	"log/slog"
	"slices"
	"testing"
)

// A board restarted from its journal (LiveConfig.Game and the tags) shows
// the last move and keeps the remote seats.
func TestLiveRestartKeepsLastMoveAndRemoteSeats(t *testing.T) {
	b := startLive(t, LiveConfig{})
	for _, c := range []struct{ name, payload string }{
		{"remote", `{"seat":"Green","on":true}`},
		{"remote", `{"seat":"Blue","on":true}`},
		{"remote", `{"seat":"Blue","on":false}`},
	} {
		if r := b.do(c.name, c.payload); !r.OK {
			t.Fatal(r.Error)
		}
		if m := b.next(); m.Kind != MsgTags {
			t.Fatalf("remote: message %+v, want the tags (the journal keeps them)", m)
		}
	}
	if r := b.do("remote", `{"seat":"Green","on":true}`); !r.OK { // no change: no message
		t.Fatal(r.Error)
	}
	b.hand("-h2 +h4")
	if m := b.next(); m.Kind != MsgMove {
		t.Fatalf("want the move, got %+v", m)
	}
	st := b.State()
	if st.Tags["Remote"] != "Green" || !slices.Equal(st.LastMove, []string{"h2", "h4"}) {
		t.Fatalf("before the restart: tags %v, last move %v", st.Tags, st.LastMove)
	}

	again, err := NewLive(LiveConfig{Board: "t1", Variant: "teams", Game: b.ref.Game(), GameID: st.Game, Tags: st.Tags,
		Occupancy: b.ref.Occupancy(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	got := again.State()
	if !slices.Equal(got.LastMove, []string{"h2", "h4"}) {
		t.Errorf("last move after the restart %v, want h2-h4", got.LastMove)
	}
	for _, s := range got.Seats {
		if s.Remote != (s.Seat == "Green") {
			t.Errorf("after the restart %s remote=%v", s.Seat, s.Remote)
		}
	}
	lit := again.Lights().Squares
	if lit["h2"] == "" || lit["h4"] == "" {
		t.Errorf("the LEDs do not show the last move after the restart: %v", lit)
	}
}

// The Remote tag is the remote seats, whichever command sets it.
func TestLiveRemoteTagByTheTagsCommand(t *testing.T) {
	b := startLive(t, LiveConfig{})
	for _, tc := range []struct {
		tags   string
		remote []string
	}{
		{`{"Remote":"Blue,yellow"}`, []string{"Blue", "Yellow"}},
		{`{"Remote":"Green, "}`, []string{"Green"}}, // an unknown seat is refused: tags_test.go
		{`{"Remote":""}`, nil},
	} {
		if r := b.do("tags", `{"tags":`+tc.tags+`}`); !r.OK {
			t.Fatal(r.Error)
		}
		b.next()
		var got []string
		for _, s := range b.State().Seats {
			if s.Remote {
				got = append(got, s.Seat)
			}
		}
		if !slices.Equal(got, tc.remote) {
			t.Errorf("tags %s: remote seats %v, want %v", tc.tags, got, tc.remote)
		}
	}
}
