package referee

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		name, payload string
		err           string // "" for OK
	}{
		{"new_game", `{"variant":"ffa","tags":{"Red":"Ann"},"id":"a1"}`, ""},
		{"new_game", ``, ""},
		{"resign", `{"seat":"Blue"}`, ""},
		{"resign", `{}`, `resign: needs "seat"`},
		{"resign", `{"seat":"Blue","piece":"Q"}`, `resign: unknown field "piece" (it takes fields seat, and id)`},
		{"promote", `{"piece":"N"}`, ""},
		{"move", `{"seat":"Red"}`, `move: needs "move"`},
		{"remote", `{"seat":"Red"}`, `remote: needs "on"`},
		{"remote", `{"seat":"Red","on":"yes"}`, `cannot unmarshal string`},
		{"clock", `{"action":"stop"}`, `clock: needs "action": "start" or "pause"`},
		{"replay", `{"from":12}`, ""},
		{"replay", `{"from":-1}`, `cannot unmarshal number -1`},
		{"state", `{}`, ""},
		{"state", `{"x":1}`, `state: unknown field "x" (it takes no fields, and id)`},
		{"takeback_confirm", `[]`, `payload must be a JSON object`},
		{"tags", `{"tags":{"Bad Name":"x"}}`, `tag name "Bad Name"`},
		{"tags", `{"tags":{"Event":"a\nb"}}`, `tags: tag Event contains the control character U+000A at character 2`},
		// Control characters and line separators, in every text field.
		{"tags", `{"tags":{"Red":"Ann\u0000Evil","Round":"1"}}`, `tags: tag Red contains the control character U+0000 at character 4: text must be printable`},
		{"tags", `{"tags":{"Round":"\u001b[31mRED"}}`, `tags: tag Round contains the control character U+001B at character 1`},
		{"tags", `{"tags":{"Event":"Club\u2028night"}}`, `U+2028`},
		{"tags", `{"tags":{"Event":"Club\u2029night"}}`, `U+2029`},
		{"tags", `{"tags":{"Event":"C1 \u009b31m"}}`, `U+009B`},
		{"tags", `{"tags":{"Event":"tab\there"}}`, `U+0009`},
		{"tags", `{"tags":{"Event":"del\u007f"}}`, `U+007F`},
		{"tags", `{"tags":{"Ev\u001bnt":"x"}}`, `tags: a tag name contains the control character U+001B`},
		{"tags", `{"tags":{"Event":"Åsa's cup: 北京 ♔"}}`, ""},
		{"new_game", `{"variant":"ffa\u0007"}`, `new_game: variant contains the control character U+0007`},
		{"new_game", `{"start":"\u001b]0;x"}`, `new_game: start contains`},
		{"resign", `{"seat":"Blue\r"}`, `resign: seat contains the control character U+000D`},
		{"move", `{"seat":"Red","move":"h2-h4\u0085"}`, `move: move contains the control character U+0085`},
		{"resign", `{"seat":"Blue","id":"a\u0000"}`, `resign: id contains`},
		{"reply", `{"seat":"Blue","reply":"accept\n"}`, `reply: reply contains`},
		{"keep_army", `{"seat":"Blue","army":"Red\u2028"}`, `keep_army: army contains`},
		{"clock", `{"action":"start\u0000"}`, `clock: action contains`},
		// Bidi overrides, embeddings, isolates and other invisible characters.
		{"tags", `{"tags":{"Red":"Ann\u202Ennaw"}}`, `tags: tag Red contains the bidi override, embedding or isolate U+202E (RIGHT-TO-LEFT OVERRIDE) at character 4: text must be printable`},
		{"tags", `{"tags":{"Blue":"\u2066Bob\u2069"}}`, `tags: tag Blue contains the bidi override, embedding or isolate U+2066 (LEFT-TO-RIGHT ISOLATE) at character 1`},
		{"tags", `{"tags":{"Event":"\u202Aclub"}}`, `U+202A`},
		{"tags", `{"tags":{"Event":"\u202Dclub"}}`, `U+202D`},
		{"tags", `{"tags":{"Event":"club\u2068x"}}`, `U+2068`},
		{"tags", `{"tags":{"Red":"A\u200Bnn"}}`, `tags: tag Red contains the invisible character U+200B (ZERO WIDTH SPACE) at character 2`},
		{"tags", `{"tags":{"Red":"\ufeffAnn"}}`, `U+FEFF`},
		{"tags", `{"tags":{"Red":"An\u00adn"}}`, `U+00AD`},
		{"tags", `{"tags":{"Red":"Ann\u200f"}}`, `bidi mark U+200F`},
		{"tags", `{"tags":{"Ev\u202Ent":"x"}}`, `tags: a tag name contains the bidi override`},
		{"tags", `{"tags":{"Red":"\u0645\u062D\u0645\u062F\u200C\u0631\u0636\u0627","Blue":"\u05E9\u05DC\u05D5\u05DD"}}`, ""},
		{"resign", `{"seat":"Blue\u202E"}`, `resign: seat contains the bidi override`},
		{"move", `{"seat":"Red","move":"h2\u2060-h4"}`, `move: move contains the invisible character U+2060 (WORD JOINER)`},
		{"new_game", `{"variant":"teams\u2069"}`, `new_game: variant contains the bidi override`},
		{"promote", `{"piece":"Q\u200B"}`, `promote: piece contains`},
		// Duplicate keys, at any depth: encoding/json would keep the last.
		{"resign", `{"seat":"Purple","seat":"Blue"}`, `resign: key seat appears twice: give each field once`},
		{"resign", `{"seat":"Blue","id":"a","id":"b"}`, `resign: key id appears twice`},
		{"tags", `{"tags":{"Red":"Ann","Red":"Bob"}}`, `tags: key tags.Red appears twice`},
		{"new_game", `{"tags":{"Red":"Ann"},"tags":{"Blue":"Bo"}}`, `new_game: key tags appears twice`},
		{"tags", `{"tags":{"Red":"Ann","Blue":"Ann"}}`, ""},
		{"new_game", `{"tags":{"Red":"Ann"},"variant":"ffa","start":"modern"}`, ""},
		{"tags", `{"tags":{}} {}`, `invalid character`},
		{"fly", `{}`, `unknown command "fly": want one of announce, claim_stalemate, claim_win, clock, draw_decline, draw_offer, keep_army, move, new_game`},
		{"keep_army", `{"seat":"Blue","army":"Yellow"}`, ""},
		{"keep_army", `{"army":"Yellow"}`, `keep_army: needs "seat"`},
		{"keep_army", `{"seat":"Blue"}`, `keep_army: needs "army"`},
		{"keep_army", `{"seat":"Blue","army":"Yellow","move":"h1-i1"}`, `keep_army: unknown field "move" (it takes fields seat, army, and id)`},
		{"announce", `{"seat":"Green","move":"n7-n6"}`, ""},
		{"announce", `{"seat":"Green"}`, `announce: needs "move"`},
		{"reply", `{"seat":"Yellow","reply":"accept","id":"r1"}`, ""},
		{"reply", `{"seat":"Yellow"}`, `reply: needs "reply": "unwise", "accept", "another" or "impossible"`},
		{"reply", `{"seat":"Yellow","reply":"accept","move":"n7-n6"}`, `reply: unknown field "move" (it takes fields seat, reply, and id)`},
		{"claim_stalemate", `{}`, `claim_stalemate: needs "seat"`},
		{"claim_stalemate", `{"seat":"Green"}`, ""},
		{"claim_win", `{"seat":"Red"}`, ""},
		{"claim_win", `{}`, `claim_win: needs "seat"`},
		{"claim_win", `{"seat":"Red","move":"h2-h4"}`, `claim_win: unknown field "move" (it takes fields seat, and id)`},
		{"draw_offer", `{"seat":"Red"}`, ""},
		{"setup", ``, ""},
		{"setup", `{"seat":"Red"}`, `setup: unknown field "seat" (it takes no fields, and id)`},
		{"draw_offer", `{}`, `draw_offer: needs "seat"`},
		{"draw_decline", `{"seat":"Green","id":"d1"}`, ""},
		{"draw_decline", `{"seat":"Green","piece":"Q"}`, `draw_decline: unknown field "piece" (it takes fields seat, and id)`},
		{"resign", `{"seat":"Blue","id":"` + strings.Repeat("x", 65) + `"}`, `id longer than 64`},
		{"resign", "\xff", `not UTF-8`},
		{"tags", `{"tags":{"Event":"` + strings.Repeat("x", MaxCommandBytes) + `"}}`, `over the limit`},
	}
	for _, tc := range tests {
		c, err := ParseCommand(tc.name, []byte(tc.payload))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s %s: %v", tc.name, tc.payload, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %.60s: %v, want an error with %q", tc.name, tc.payload, err, tc.err)
		case err == nil && c.Name != tc.name:
			t.Errorf("%s: parsed as %q", tc.name, c.Name)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, n := range Commands() {
		f.Add(n, `{}`)
	}
	f.Add("new_game", `{"variant":"ffa","tags":{"Red":"Ann"}}`)
	f.Add("move", `{"seat":"Red","move":"h2-h4"}`)
	f.Add("replay", `{"from":3}`)
	f.Fuzz(func(t *testing.T, name, payload string) {
		c, err := ParseCommand(name, []byte(payload))
		if err != nil {
			return
		}
		// An accepted command survives a round trip through JSON.
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseCommand(name, out)
		if err != nil {
			t.Fatalf("%s %s accepted, its re-encoding %s refused: %v", name, payload, out, err)
		}
		if again.ID != c.ID || again.Seat != c.Seat || again.Move != c.Move || len(again.Tags) != len(c.Tags) {
			t.Fatalf("round trip changed %+v into %+v", c, again)
		}
	})
}
