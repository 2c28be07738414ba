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
