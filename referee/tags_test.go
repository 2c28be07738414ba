package referee

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"boardd/referee/gametags"
)

// Issue 28: one tags command made every later start fail ("time control
// "garbage""), or changed the game at the next start. Tags that drive the
// game are checked as the new-game dialog and the config are; the tags
// fixed at a game's start and the board's own are refused mid-game.
func TestLiveTagsCommandRefusesWhatDrivesTheGame(t *testing.T) {
	for _, tc := range []struct {
		tags     string
		errorHas string // "" accepted
	}{
		{`{"TimeControl":"garbage"}`, "TimeControl is fixed when the game starts"},
		{`{"TimeControl":"0+0"}`, "TimeControl is fixed when the game starts"},
		{`{"TimeControl":"1441+0"}`, "TimeControl is fixed when the game starts"},
		{`{"TimeControl":"1+0","Bots":"Red:5"}`, "is fixed when the game starts"},
		{`{"Bots":"Red:5"}`, "Bots is fixed when the game starts"},
		{`{"Result":"1-0"}`, "Result is written by the board"},
		{`{"Variant":"ffa"}`, "Variant is written by the board"},
		{`{"StartFen4":"4PCo"}`, "StartFen4 is written by the board"},
		{`{"GameId":"../../x"}`, "GameId is written by the board"},
		{`{"Board":"other"}`, "Board is written by the board"},
		{`{"Date":"2020.01.01"}`, "Date is written by the board"},
		{`{"Remote":"Purple"}`, `"Purple" is not a seat`},
		{`{"Red":"Ann","Event":"Club night"}`, ""},
		{`{"Red":"Di,Red=Mallory,Blue=Eve"}`, ""}, // a name is text: the archive escapes its separators
		{`{"Remote":"Blue"}`, ""},
	} {
		t.Run(tc.tags, func(t *testing.T) {
			b := startLive(t, LiveConfig{})
			before := b.State()
			r := b.do(CmdTags, `{"tags":`+tc.tags+`}`)
			if tc.errorHas != "" {
				if r.OK || !strings.Contains(r.Error, tc.errorHas) {
					t.Fatalf("reply %+v, want an error with %q", r, tc.errorHas)
				}
				if st := b.State(); st.Seq != before.Seq || fmt.Sprint(st.Tags) != fmt.Sprint(before.Tags) {
					t.Fatalf("refused, but the state changed: seq %d tags %v", st.Seq, st.Tags)
				}
				return
			}
			if !r.OK {
				t.Fatalf("refused: %s", r.Error)
			}
			m := b.next()
			if m.Kind != MsgTags || !strings.HasPrefix(fmt.Sprint(m.Tags), "map[") {
				t.Fatalf("message %+v", m)
			}
			// The restart takes the tags back as the journal gives them.
			st := b.State()
			if _, err := NewLive(LiveConfig{Board: "t1", Game: b.ref.Game(), GameID: st.Game, Tags: st.Tags,
				Occupancy: b.ref.Occupancy(), Logger: slog.New(slog.DiscardHandler)}); err != nil {
				t.Fatalf("restart: %v", err)
			}
		})
	}
}

// A tags message carries only what changed ("" for a removed tag), not
// the whole set again, and a game keeps at most gametags.Max tags.
func TestLiveTagsChangesOnlyAndBounded(t *testing.T) {
	b := startLive(t, LiveConfig{})
	if r := b.do(CmdTags, `{"tags":{"Red":"Ann","Blue":"Bob","Event":"Club night"}}`); !r.OK {
		t.Fatal(r.Error)
	}
	b.next()
	if r := b.do(CmdTags, `{"tags":{"Blue":"","Round":"3"}}`); !r.OK {
		t.Fatal(r.Error)
	}
	if m := b.next(); fmt.Sprint(m.Tags) != "map[Blue: Round:3]" {
		t.Fatalf("tags message carries %v, want only the changes", m.Tags)
	}
	if got := fmt.Sprint(b.State().Tags); got != "map[Event:Club night Red:Ann Round:3]" {
		t.Fatalf("state tags %s", got)
	}
	if r := b.do(CmdRemote, `{"seat":"Green","on":true}`); !r.OK {
		t.Fatal(r.Error)
	}
	if m := b.next(); fmt.Sprint(m.Tags) != "map[Remote:Green]" {
		t.Fatalf("remote's tags message carries %v", m.Tags)
	}
	// Fill up to the limit, one command at a time (each is small).
	have := len(b.State().Tags)
	for i := have; i < gametags.Max; i++ {
		if r := b.do(CmdTags, fmt.Sprintf(`{"tags":{"T%02d":"%s"}}`, i, strings.Repeat("x", gametags.MaxValue))); !r.OK {
			t.Fatalf("tag %d of %d: %s", i+1, gametags.Max, r.Error)
		}
		b.next()
	}
	r := b.do(CmdTags, `{"tags":{"OneMore":"x"}}`)
	if r.OK || !strings.Contains(r.Error, fmt.Sprintf("at most %d", gametags.Max)) {
		t.Fatalf("tag %d: %+v, want refused", gametags.Max+1, r)
	}
	// Replacing or removing one is still fine.
	if r := b.do(CmdTags, `{"tags":{"T20":"","OneMore":"x"}}`); !r.OK {
		t.Fatalf("swap one tag for another: %s", r.Error)
	}
}

// new_game's tags go through the same checks, and a refused new_game
// leaves the game in progress as it was.
func TestLiveNewGameTagsChecked(t *testing.T) {
	for _, tc := range []struct{ payload, errorHas string }{
		{`{"tags":{"TimeControl":"garbage"}}`, `time control "garbage"`},
		{`{"tags":{"TimeControl":"1441+0"}}`, "at most 1440"},
		{`{"tags":{"Bots":"Red:9"}}`, "level must be 1 to 5"},
		{`{"tags":{"Bots":"Purple:3"}}`, `"Purple" is not a seat`},
		{`{"tags":{"GameId":"../../x"}}`, "GameId is written by the board"},
		{`{"tags":{"Result":"1-0"}}`, "Result is written by the board"},
	} {
		t.Run(tc.payload, func(t *testing.T) {
			b := startLive(t, LiveConfig{})
			before := b.State()
			c, err := ParseCommand(CmdNewGame, []byte(tc.payload))
			if err == nil || !strings.Contains(err.Error(), tc.errorHas) {
				t.Errorf("ParseCommand: %v, want an error with %q", err, tc.errorHas)
			}
			// The board checks too, whoever calls Do.
			c = Command{Name: CmdNewGame, Tags: c.Tags}
			if c.Tags == nil {
				t.Fatal("no tags parsed")
			}
			r := b.Do(t.Context(), c)
			if r.OK || !strings.Contains(r.Error, tc.errorHas) {
				t.Fatalf("Do: %+v, want an error with %q", r, tc.errorHas)
			}
			if st := b.State(); st.Game != before.Game || st.Seq != before.Seq {
				t.Fatalf("a refused new_game changed the board: game %s seq %d", st.Game, st.Seq)
			}
		})
	}
}

func TestParseCommandTagLimits(t *testing.T) {
	many := make([]string, gametags.Max+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"T%d":"x"`, i)
	}
	for _, tc := range []struct{ payload, errorHas string }{
		{`{"tags":{` + strings.Join(many, ",") + `}}`, fmt.Sprintf("%d tags: a game has at most %d", gametags.Max+1, gametags.Max)},
		{`{"tags":{"Red":"` + strings.Repeat("é", 101) + `"}}`, "at most 200 characters"},
		{`{"tags":{"` + strings.Repeat("N", 41) + `":"x"}}`, "1-40 characters"},
	} {
		if _, err := ParseCommand(CmdTags, []byte(tc.payload)); err == nil || !strings.Contains(err.Error(), tc.errorHas) {
			t.Errorf("%.60s…: %v, want an error with %q", tc.payload, err, tc.errorHas)
		}
	}
}

// A game resumed from a journal an older version wrote: what the board
// would refuse now is left out with a warning, never a failed start.
func TestRepairTags(t *testing.T) {
	tags := map[string]string{"Red": "Ann", "TimeControl": "garbage", "Bots": "Red:9", "Result": "1-0", "Event": "Club"}
	for i := range 40 {
		tags[fmt.Sprintf("X%02d", i)] = "y"
	}
	kept, dropped := gametags.Repair(tags)
	if len(kept) != gametags.Max || kept["Red"] != "Ann" || kept["Event"] != "Club" || kept["TimeControl"] != "" || kept["Bots"] != "" || kept["Result"] != "" {
		t.Errorf("kept %d tags: %v", len(kept), kept)
	}
	for _, want := range []string{`time control "garbage"`, "level must be 1 to 5", "Result is written by the board", "10 tags past the limit of 32"} {
		if !strings.Contains(dropped, want) {
			t.Errorf("dropped %q: want it to say %q", dropped, want)
		}
	}
	b := startLive(t, LiveConfig{})
	l, err := NewLive(LiveConfig{Board: "t1", Game: b.ref.Game(), GameID: "g", Tags: map[string]string{"TimeControl": "garbage", "Red": "Ann"},
		Occupancy: b.ref.Occupancy(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("a resumed game with a bad TimeControl tag: %v", err)
	}
	if st := l.State(); st.Tags["Red"] != "Ann" || st.Tags["TimeControl"] != "" || st.Seats[0].ClockMS != -1 {
		t.Errorf("resumed: tags %v, clock %d", st.Tags, st.Seats[0].ClockMS)
	}
}

// The largest state a game's tags can make, and a message past the limit
// (an older version's), stay within what the mirror delivers.
func TestMessageBounded(t *testing.T) {
	tags := map[string]string{}
	for i := range gametags.Max {
		tags[fmt.Sprintf("%s%02d", strings.Repeat("N", gametags.MaxName-2), i)] = strings.Repeat("é", gametags.MaxValue/2)
	}
	full := Message{Seq: 7, Kind: MsgTags, Tags: tags, Text: "game details changed"}
	if m, cut := full.Bounded(); cut != "" || len(m.Tags) != gametags.Max {
		t.Errorf("the largest tags message a game can have was cut: %s", cut)
	}
	for i := range 6000 {
		tags[fmt.Sprintf("T%05d", i)] = strings.Repeat("v", 200)
	}
	big := Message{Seq: 7, Kind: MsgTags, Tags: tags, Text: strings.Repeat("x", 100000)}
	m, cut := big.Bounded()
	data, _ := json.Marshal(m)
	if len(data) > MaxMessageBytes || m.Tags != nil || !strings.Contains(cut, "message 7 (tags)") || !strings.Contains(cut, "left out its tags") {
		t.Errorf("%d bytes, cut %q", len(data), cut)
	}
}
