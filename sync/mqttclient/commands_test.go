package mqttclient_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/referee"
	"boardd/sync/broker/brokertest"
	"boardd/sync/mqttclient"
)

// boards answers every command to the boards named in ok (with the
// board's name in the reply's error field, so a reply shows whose it
// is) and lets the others stay silent.
func boards(t *testing.T, url string, ok ...string) {
	t.Helper()
	pub := brokertest.Publisher(t, url)
	for _, b := range ok {
		brokertest.Publish(t, pub, "boardd/"+b+"/state", `{"board":"`+b+`","fen4":"x","turn":"Red"}`, true)
	}
	if tok := pub.Subscribe("boardd/+/cmd/+", 1, func(c paho.Client, m paho.Message) {
		parts := strings.Split(m.Topic(), "/") // boardd/<board>/cmd/<name>
		board, name := parts[1], parts[3]
		for _, b := range ok {
			if b == board {
				var cmd referee.Command
				json.Unmarshal(m.Payload(), &cmd)
				reply, _ := json.Marshal(referee.Reply{ID: cmd.ID, OK: true, Error: board + ":" + name})
				c.Publish(m.Topic()+"/result", 1, false, reply)
			}
		}
	}); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
}

// Several remote boards and commanders of one process each keep their own
// connection (a client id each: one does not push another off the
// broker) and get the replies to their own commands, at once.
func TestOneProcessManyClients(t *testing.T) {
	url := brokertest.Start(t)
	boards(t, url, "club-1", "club-2")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	br := brokertest.Client(url, brokertest.BoardUser, brokertest.BoardPassword)
	var bs []*mqttclient.Board
	for _, name := range []string{"club-1", "club-2", "club-1"} {
		b, err := mqttclient.Dial(ctx, br, name)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		bs = append(bs, b)
	}
	k1, k2 := mqttclient.NewCommander(br, "hub-cmd"), mqttclient.NewCommander(br, "hub-cmd")
	defer k1.Close()
	defer k2.Close()

	var wg sync.WaitGroup
	for round := range 3 { // every client, every round, all at once
		for i, b := range bs {
			wg.Go(func() {
				name := []string{"club-1", "club-2", "club-1"}[i]
				if r := b.Do(ctx, referee.Command{Name: "state"}); !r.OK || r.Error != name+":state" {
					t.Errorf("round %d, remote board %d (%s): reply %+v", round, i, name, r)
				}
			})
		}
		for i, k := range []*mqttclient.Commander{k1, k2} {
			for _, name := range []string{"club-1", "club-2"} {
				wg.Go(func() {
					if r := k.Do(ctx, name, referee.Command{Name: "new_game"}); !r.OK || r.Error != name+":new_game" {
						t.Errorf("round %d, commander %d to %s: reply %+v", round, i, name, r)
					}
				})
			}
		}
		wg.Wait()
	}
}

// A commander's errors name the command and the board: a board that does
// not answer, a name that is no board's, a broker that cannot be reached.
func TestCommanderErrors(t *testing.T) {
	url := brokertest.Start(t)
	boards(t, url)
	br := brokertest.Client(url, brokertest.BoardUser, brokertest.BoardPassword)
	k := mqttclient.NewCommander(br, "hub-cmd")
	defer k.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	gone := mqttclient.NewCommander(mqttclient.Broker{URL: "tcp://127.0.0.1:1", Prefix: "boardd"}, "hub-cmd")
	defer gone.Close()
	for _, c := range []struct {
		k     *mqttclient.Commander
		board string
		want  string
	}{
		{k, "club-9", "new_game to club-9: no answer from the board"},
		{k, "a/b", `board id "a/b" must not contain '/'`},
		{gone, "club-1", "new_game to club-1: cannot reach the broker"},
	} {
		if r := c.k.Do(ctx, c.board, referee.Command{Name: "new_game"}); r.OK || !strings.Contains(r.Error, c.want) {
			t.Errorf("to %s: %+v, want an error with %q", c.board, r, c.want)
		}
	}
}

// A command whose first copies get no reply (lost on the way to the
// board, or the board's reply lost) is published again, with the same
// id, until the board answers; a board that never answers gets copies
// until the caller gives up.
func TestCommanderSendsAgainUntilAnswered(t *testing.T) {
	defer mqttclient.SetResendAfter(100 * time.Millisecond)()
	url := brokertest.Start(t)
	pub := brokertest.Publisher(t, url)
	var mu sync.Mutex
	copies := map[string][]string{} // board -> ids of the copies it got
	if tok := pub.Subscribe("boardd/+/cmd/+", 0, func(c paho.Client, m paho.Message) {
		board := strings.Split(m.Topic(), "/")[1]
		var cmd referee.Command
		json.Unmarshal(m.Payload(), &cmd)
		mu.Lock()
		copies[board] = append(copies[board], cmd.ID)
		n := len(copies[board])
		mu.Unlock()
		// club-1 drops the first copy, club-2 answers the first two
		// too late (a lost reply), club-3 never answers
		if board == "club-1" && n >= 2 || board == "club-2" && n >= 3 {
			reply, _ := json.Marshal(referee.Reply{ID: cmd.ID, OK: true})
			c.Publish(m.Topic()+"/result", 0, false, reply)
		}
	}); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	k := mqttclient.NewCommander(brokertest.Client(url, brokertest.BoardUser, brokertest.BoardPassword), "hub-cmd")
	defer k.Close()
	for _, tc := range []struct {
		board      string
		limit      time.Duration
		ok         bool
		wantCopies int // at least
	}{
		{"club-1", 20 * time.Second, true, 2},
		{"club-2", 20 * time.Second, true, 3},
		{"club-3", time.Second, false, 2},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), tc.limit)
		r := k.Do(ctx, tc.board, referee.Command{Name: "new_game"})
		cancel()
		if r.OK != tc.ok {
			t.Errorf("%s: reply %+v, want ok %v", tc.board, r, tc.ok)
		}
		mu.Lock()
		ids := copies[tc.board]
		mu.Unlock()
		if len(ids) < tc.wantCopies {
			t.Errorf("%s: got %d copies %v, want at least %d", tc.board, len(ids), ids, tc.wantCopies)
		}
		for _, id := range ids {
			if id == "" || id != ids[0] {
				t.Errorf("%s: copies with ids %v, want one id on every copy", tc.board, ids)
				break
			}
		}
	}
}
