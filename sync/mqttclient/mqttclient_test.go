package mqttclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/referee"
	"boardd/sync/broker/brokertest"
	"boardd/sync/mqttclient"
)

func TestConnectErrors(t *testing.T) {
	if _, err := (mqttclient.Broker{}).Connect("x", nil); !errors.Is(err, mqttclient.ErrNoBroker) {
		t.Errorf("no URL: %v", err)
	}
	url := brokertest.Start(t)
	_, err := brokertest.Client(url, "club", "wrong").Connect("x", func(paho.Client) error { return nil })
	if err == nil || !strings.Contains(err.Error(), `the broker refused user "club"`) {
		t.Errorf("wrong password: %v", err)
	}
}

// A remote board reads the board's retained state and gets the replies to
// its commands from cmd/<name>/result.
func TestDialBoard(t *testing.T) {
	url := brokertest.Start(t)
	pub := brokertest.Publisher(t, url)
	brokertest.Publish(t, pub, "boardd/club-1/state", `{"board":"club-1","fen4":"R-0,0,0,0-1,1,1,1-1,1,1,1-0-0-x","turn":"Red"}`, true)
	// The board answers every command.
	if tok := pub.Subscribe("boardd/club-1/cmd/+", 1, func(c paho.Client, m paho.Message) {
		var cmd referee.Command
		json.Unmarshal(m.Payload(), &cmd)
		reply, _ := json.Marshal(referee.Reply{ID: cmd.ID, OK: true})
		c.Publish(m.Topic()+"/result", 1, false, reply)
	}); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := mqttclient.Dial(ctx, brokertest.Client(url, "board", "pw-board"), "club-1")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if st := b.State(); st.Board != "club-1" || st.Turn != "Red" {
		t.Errorf("state %+v", st)
	}
	sig, stop := b.Changed()
	defer stop()
	if r := b.Do(ctx, referee.Command{Name: "resign", Seat: "Red"}); !r.OK || r.Error != "" {
		t.Errorf("reply %+v", r)
	}
	brokertest.Publish(t, pub, "boardd/club-1/state", `{"board":"club-1","fen4":"x","turn":"Blue"}`, true)
	select {
	case <-sig:
	case <-ctx.Done():
		t.Fatal("no change signalled")
	}
	if st := b.State(); st.Turn != "Blue" {
		t.Errorf("after the change: %+v", st)
	}
}

// Each connection has an id of its own, even two in one process (two
// hubs in one test, or in containers with one host name and pid 1).
func TestClientIDsDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		id := mqttclient.ClientID("hub")
		if !strings.HasPrefix(id, "boardd-hub-") || len(id) > 100 || seen[id] {
			t.Fatalf("client id %q (seen before: %v)", id, seen[id])
		}
		seen[id] = true
	}
}
