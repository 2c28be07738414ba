package mqtt

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"boardd/referee"
)

// fuzzMirror is a Mirror on a fake board whose publications are caught
// instead of sent.
func fuzzMirror(t testing.TB) (*Mirror, *fakeBoard, *[]string) {
	board := newFakeBoard("b1")
	board.moves(5)
	m, err := newMirror(Config{Board: "b1", Source: board})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []string
	m.isOpen = func() bool { return true }
	m.send = func(_ context.Context, topic string, _ bool, payload []byte) error {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, topic+" "+string(payload))
		return nil
	}
	return m, board, &sent
}

// FuzzCommand feeds any topic suffix and payload through the command path
// (the one MQTT messages on cmd/+ take). It must never panic, must always
// publish a reply (OK, or an error that says something) on
// cmd/<name>/result, and a payload ParseCommand refuses must never reach
// the board.
func FuzzCommand(f *testing.F) {
	for _, name := range referee.Commands() {
		f.Add(name, []byte(`{}`))
	}
	f.Add("resign", []byte(`{"seat":"Red","id":"x"}`))
	f.Add("replay", []byte(`{"from":2}`))
	f.Add("replay", []byte(`{"from":18446744073709551615}`))
	f.Add("new_game", []byte(`{"variant":"teams","tags":{"Red":"Ann"}}`))
	f.Add("move", []byte(`{"seat":"Blue","move":"h2-h4"}`))
	f.Add("remote", []byte(`{"seat":"Blue","on":true}`))
	f.Add("tags", []byte(`{"tags":{"a b":"c"}}`))
	f.Add("", []byte(``))
	f.Add("x/y", []byte(`{`))
	f.Add("resign/result", []byte(`null`))
	f.Add("clock", []byte("{\"action\":\"start\"}\x00"))
	f.Add("state", []byte("\xff"))
	f.Fuzz(func(t *testing.T, suffix string, payload []byte) {
		m, board, sent := fuzzMirror(t)
		topic := m.t.cmd + suffix
		m.answer(inbound{topic: topic, payload: payload})
		_, perr := referee.ParseCommand(suffix, payload)
		oneLevel := !strings.ContainsAny(suffix, "/+#\x00") && strings.ToValidUTF8(suffix, "") == suffix
		if !oneLevel {
			if len(*sent) != 0 {
				t.Fatalf("published %q for a topic that is no command topic", *sent)
			}
			_, r := m.handle(context.Background(), topic, payload)
			if r.OK || r.Error == "" {
				t.Fatalf("reply %+v for topic %q", r, topic)
			}
			return
		}
		var last string
		for _, s := range *sent {
			if strings.HasPrefix(s, topic+"/result ") {
				last = strings.TrimPrefix(s, topic+"/result ")
			}
		}
		if last == "" {
			t.Fatalf("no reply published on %s/result; sent %q", topic, *sent)
		}
		var r referee.Reply
		if err := json.Unmarshal([]byte(last), &r); err != nil {
			t.Fatalf("reply %q: %v", last, err)
		}
		if !r.OK && r.Error == "" {
			t.Fatalf("error reply without a reason: %q", last)
		}
		if perr != nil {
			if r.OK {
				t.Fatalf("refused payload answered OK: %v", perr)
			}
			if n := len(board.Commands()); n != 0 {
				t.Fatalf("refused payload reached Do: %+v", board.Commands())
			}
		}
	})
}
