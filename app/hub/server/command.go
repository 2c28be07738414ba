package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/referee"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

// commander sends commands to the boards over the club's broker, as the
// hub's own account, and waits for each board's reply on
// cmd/<name>/result (docs/mqtt.md). It connects on its first command,
// so a broker that is down at the hub's start delays nothing but that.
type commander struct {
	broker mqttclient.Broker
	n      atomic.Uint64

	mu      sync.Mutex
	c       paho.Client
	replies map[string]chan referee.Reply
}

func newCommander(b mqttclient.Broker) *commander {
	return &commander{broker: b, replies: map[string]chan referee.Reply{}}
}

func (cm *commander) client() (paho.Client, error) {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.c != nil {
		return cm.c, nil
	}
	filter := mqtt.Topic(cm.broker.Prefix, "+", "cmd/+/result")
	c, err := cm.broker.Connect(mqttclient.ClientID("hub-cmd"), func(c paho.Client) error {
		return mqttclient.Subscribe(c, map[string]byte{filter: 1}, cm.handle)
	})
	if err != nil {
		return nil, err
	}
	cm.c = c
	return c, nil
}

func (cm *commander) handle(_ paho.Client, m paho.Message) {
	var r referee.Reply
	if err := json.Unmarshal(m.Payload(), &r); err != nil || !strings.HasPrefix(r.ID, "hub-") {
		return
	}
	cm.mu.Lock()
	ch := cm.replies[r.ID]
	cm.mu.Unlock()
	if ch != nil {
		select {
		case ch <- r:
		default:
		}
	}
}

// Do sends c to board and returns the board's reply, or an error reply
// when the broker does not take it or the board does not answer in time.
func (cm *commander) Do(ctx context.Context, board string, c referee.Command) referee.Reply {
	if err := mqtt.CheckID("board", board); err != nil {
		return referee.Reply{Error: err.Error()}
	}
	cl, err := cm.client()
	if err != nil {
		return referee.Reply{Error: fmt.Sprintf("%s to %s: the hub cannot reach the broker: %v", c.Name, board, err)}
	}
	c.ID = fmt.Sprintf("hub-%d-%d", time.Now().UnixNano(), cm.n.Add(1))
	payload, err := json.Marshal(c)
	if err != nil {
		return referee.Reply{Error: err.Error()}
	}
	ch := make(chan referee.Reply, 1)
	cm.mu.Lock()
	cm.replies[c.ID] = ch
	cm.mu.Unlock()
	defer func() {
		cm.mu.Lock()
		delete(cm.replies, c.ID)
		cm.mu.Unlock()
	}()
	tok := cl.Publish(mqtt.Topic(cm.broker.Prefix, board, "cmd/"+c.Name), 1, false, payload)
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		return referee.Reply{Error: fmt.Sprintf("%s to %s: the broker did not take the command: %v", c.Name, board, tok.Error())}
	}
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		return referee.Reply{Error: fmt.Sprintf("%s to %s: no answer from the board (is it on and joined to the hub?)", c.Name, board)}
	}
}

// Close disconnects.
func (cm *commander) Close() {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.c != nil {
		cm.c.Disconnect(250)
		cm.c = nil
	}
}
