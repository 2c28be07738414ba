package referee

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"boardd/referee/clock"
)

// A new game may bring its own time control, whatever the config says;
// it is kept in the game's TimeControl tag, so a board restarted from its
// journal (LiveConfig.Game with the tags) plays on with the same clocks.
func TestLiveNewGameTimeControl(t *testing.T) {
	configured := clock.Control{Base: time.Minute, Delay: 15 * time.Second}
	for _, tc := range []struct {
		name     string
		config   *clock.Control
		payload  string
		clockMS  int64  // each seat's clock at the start, -1 none
		tag      string // the TimeControl tag, "" none
		errorHas string
	}{
		{name: "no config, none asked", payload: `{}`, clockMS: -1},
		{name: "no config, 10+5 asked", payload: `{"time_control":"10+5"}`, clockMS: 600000, tag: "10+5"},
		{name: "config kept", config: &configured, payload: `{}`, clockMS: 60000, tag: "1+15D"},
		{name: "config replaced", config: &configured, payload: `{"time_control":"2 | 10"}`, clockMS: 120000, tag: "2+10"},
		{name: "config switched off", config: &configured, payload: `{"time_control":"-"}`, clockMS: -1, tag: "-"},
		{name: "tag given as a tag", payload: `{"tags":{"TimeControl":"3+2"}}`, clockMS: 180000, tag: "3+2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := startLive(t, LiveConfig{Clock: tc.config})
			if r := b.do("new_game", tc.payload); !r.OK {
				t.Fatal(r.Error)
			}
			m := b.next()
			if m.Kind != MsgGameStart || m.Tags["TimeControl"] != tc.tag {
				t.Fatalf("game_start %+v: want TimeControl tag %q", m, tc.tag)
			}
			st := b.State()
			for _, s := range st.Seats {
				if s.ClockMS != tc.clockMS {
					t.Fatalf("%s's clock %d ms, want %d", s.Seat, s.ClockMS, tc.clockMS)
				}
			}
			// The restart: the journal gives back the game and its tags.
			again, err := NewLive(LiveConfig{Board: "t1", Variant: "teams", Clock: tc.config, Game: b.ref.Game(), GameID: st.Game, Tags: st.Tags,
				Occupancy: b.ref.Occupancy(), Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range again.State().Seats {
				if s.ClockMS != tc.clockMS {
					t.Fatalf("after a restart %s's clock %d ms, want %d", s.Seat, s.ClockMS, tc.clockMS)
				}
			}
		})
	}
}

func TestParseCommandTimeControl(t *testing.T) {
	if _, err := ParseCommand(CmdNewGame, []byte(`{"time_control":"ten minutes"}`)); err == nil ||
		!strings.HasPrefix(err.Error(), "new_game: time control \"ten minutes\"") {
		t.Errorf("a bad time control: %v", err)
	}
	if _, err := ParseCommand(CmdTags, []byte(`{"time_control":"10+5"}`)); err == nil || !strings.Contains(err.Error(), `unknown field "time_control"`) {
		t.Errorf("time_control on tags: %v", err)
	}
	c, err := ParseCommand(CmdNewGame, []byte(`{"variant":"ffa","time_control":"1+15D"}`))
	if err != nil || c.TimeControl != "1+15D" {
		t.Errorf("new_game with a time control: %+v, %v", c, err)
	}
}
