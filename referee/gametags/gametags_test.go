package gametags

import (
	"fmt"
	"strings"
	"testing"
)

// The one check of a game's tags, as new_game, the config and the tags
// command use it (issue 28, item 1).
func TestCheckStartAndChange(t *testing.T) {
	for _, tc := range []struct {
		tags          map[string]string
		start, change string // "" accepted, else part of the error
	}{
		{map[string]string{"Red": "Ann", "Event": "Club night", "Round": "3"}, "", ""},
		{map[string]string{"Red": "Smith, John", "Green": "Di,Red=Mallory"}, "", ""},
		{map[string]string{"TimeControl": "10+5"}, "", "TimeControl is fixed when the game starts"},
		{map[string]string{"TimeControl": "garbage"}, `time control "garbage"`, "TimeControl is fixed"},
		{map[string]string{"TimeControl": "0+0"}, "base time", "TimeControl is fixed"},
		{map[string]string{"TimeControl": "1441+0"}, "at most 1440", "TimeControl is fixed"},
		{map[string]string{"Bots": "Green:3,Blue"}, "", "Bots is fixed"},
		{map[string]string{"Bots": "Green:6"}, "level must be 1 to 5", "Bots is fixed"},
		{map[string]string{"Remote": "Blue, Green"}, "", ""},
		{map[string]string{"Remote": "Blue,Purple"}, `"Purple" is not a seat`, `"Purple" is not a seat`},
		{map[string]string{"GameId": "../../x"}, "GameId is written by the board", "GameId is written by the board"},
		{map[string]string{"Date": "2020.01.01"}, "Date is written by the board", "Date is written by the board"},
		{map[string]string{"Red": strings.Repeat("x", MaxValue+1)}, "at most 200 characters", "at most 200 characters"},
		{map[string]string{"a b": "x"}, "without spaces", "without spaces"},
	} {
		t.Run(fmt.Sprint(tc.tags), func(t *testing.T) {
			for _, c := range []struct {
				what string
				err  error
				want string
			}{{"CheckStart", CheckStart(tc.tags), tc.start}, {"CheckChange", CheckChange(map[string]string{}, tc.tags), tc.change}} {
				if c.want == "" && c.err != nil || c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)) {
					t.Errorf("%s: %v, want %q", c.what, c.err, c.want)
				}
			}
		})
	}
	// A change to the value a start tag already has is no change.
	if err := CheckChange(map[string]string{"TimeControl": "10+5"}, map[string]string{"TimeControl": "10+5", "Red": "Ann"}); err != nil {
		t.Errorf("the same TimeControl again: %v", err)
	}
	many := map[string]string{}
	for i := range Max + 1 {
		many[fmt.Sprintf("T%02d", i)] = "x"
	}
	if err := CheckStart(many); err == nil || !strings.Contains(err.Error(), "at most 32") {
		t.Errorf("%d tags: %v", len(many), err)
	}
}
