package mqtt

import (
	"fmt"
	"testing"

	"boardd/referee"
)

// A command sent again with the id of one the board carried out (its
// reply lost, or the command delivered twice: mqttclient re-sends until
// it has a reply) gets the first reply again and is not carried out a
// second time; commands without an id, or with another id, are carried
// out each time.
func TestCommandCarriedOutOncePerID(t *testing.T) {
	b := newEmbedded(t)
	board := newFakeBoard("b1")
	board.SetReply(func(c referee.Command) referee.Reply {
		if c.Seat == "Purple" {
			return referee.Reply{Error: "resign: no seat Purple"}
		}
		if c.Name == referee.CmdResign {
			return referee.Reply{OK: true, Seq: board.emit(referee.MsgResign, c.Seat+" resigns").Seq}
		}
		return referee.Reply{OK: true}
	})
	startMirror(t, b.url(), board, "b1")
	c := newConsumer(t, b.url(), "b1", consumerOpts{})
	c.waitUntil("online", func() bool { return c.status == StatusOnline })
	type send struct{ name, payload string }
	for _, tc := range []struct {
		what  string
		sends []send
		// do is how many times the board carries a command out.
		do int
	}{
		{"the same resign twice", []send{{"resign", `{"seat":"Red","id":"r1"}`}, {"resign", `{"seat":"Red","id":"r1"}`}}, 1},
		{"three copies", []send{{"resign", `{"seat":"Blue","id":"r2"}`}, {"resign", `{"seat":"Blue","id":"r2"}`}, {"resign", `{"seat":"Blue","id":"r2"}`}}, 1},
		{"a refused one twice", []send{{"resign", `{"seat":"Purple","id":"r3"}`}, {"resign", `{"seat":"Purple","id":"r3"}`}}, 1},
		{"no id: each carried out", []send{{"resign", `{"seat":"Red"}`}, {"resign", `{"seat":"Red"}`}}, 2},
		{"two ids", []send{{"resign", `{"seat":"Red","id":"r4"}`}, {"resign", `{"seat":"Red","id":"r5"}`}}, 2},
		{"one id on two commands", []send{{"clock", `{"action":"start","id":"r6"}`}, {"resign", `{"seat":"Red","id":"r6"}`}}, 2},
		{"the first again after others", []send{{"resign", `{"seat":"Red","id":"r1"}`}}, 0},
	} {
		before, replies := len(board.Commands()), len(c.replies)
		for _, s := range tc.sends {
			c.command(s.name, s.payload)
		}
		c.waitUntil(tc.what+": replies", func() bool { return len(c.replies) == replies+len(tc.sends) })
		if got := len(board.Commands()) - before; got != tc.do {
			t.Errorf("%s: carried out %d times, want %d", tc.what, got, tc.do)
		}
		c.mu.Lock()
		got := c.replies[replies:]
		c.mu.Unlock()
		for i, s := range tc.sends {
			id := probeID([]byte(s.payload))
			if got[i].ID != id {
				t.Errorf("%s: reply %d %+v, want id %q", tc.what, i, got[i], id)
			}
			if i > 0 && id != "" && id == probeID([]byte(tc.sends[0].payload)) && s.name == tc.sends[0].name && got[i] != got[0] {
				t.Errorf("%s: reply %d %+v differs from the first %+v", tc.what, i, got[i], got[0])
			}
		}
	}
	if first := c.replies[0]; !first.OK || first.Seq == 0 {
		t.Errorf("the first resign's reply %+v, want OK with its seq", first)
	}
}

// The board remembers the last answeredKept ids: the oldest beyond them
// is forgotten, the newer kept, each with its own reply.
func TestAnsweredKeepsTheLast(t *testing.T) {
	var a answered
	topic := "boardd/b1/cmd/resign"
	for i := range answeredKept + 10 {
		a.put(topic, fmt.Sprint(i), referee.Reply{ID: fmt.Sprint(i), OK: true, Seq: uint64(i)})
	}
	a.put(topic, "", referee.Reply{OK: true}) // no id: not remembered
	if len(a.replies) != answeredKept || len(a.order) != answeredKept {
		t.Fatalf("remembers %d replies (%d in order), want %d", len(a.replies), len(a.order), answeredKept)
	}
	for i := range answeredKept + 10 {
		r, ok := a.get(topic, fmt.Sprint(i))
		if want := i >= 10; ok != want || ok && r.Seq != uint64(i) {
			t.Errorf("id %d: %+v %v, want remembered %v", i, r, ok, want)
		}
	}
	if _, ok := a.get(topic, ""); ok {
		t.Error("a command without an id is remembered")
	}
	if _, ok := a.get("boardd/b1/cmd/clock", "20"); ok {
		t.Error("an id is remembered for another command")
	}
}
