package mqttclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/referee"
	"boardd/sync/mqtt"
)

// Board is a board seen over MQTT: its retained state, and commands
// published on cmd/<name> with their replies from cmd/<name>/result. It
// is a botseat.Source (boardd bot plays a seat through it).
type Board struct {
	c    paho.Client
	name string
	base string
	q    *replies

	mu     sync.Mutex
	st     referee.State
	notify map[chan struct{}]struct{}
}

// Dial connects to the broker and waits for the board's state.
func Dial(ctx context.Context, br Broker, board string) (*Board, error) {
	id := ClientID("bot")
	b := &Board{name: board, base: mqtt.Topic(br.Prefix, board, ""), q: newReplies(id), notify: map[chan struct{}]struct{}{}}
	filters := map[string]byte{b.base + mqtt.TopicState: 1, b.base + "cmd/+/result": 0} // replies at QoS 0: see replies.do
	c, err := br.Connect(id, func(c paho.Client) error {
		return Subscribe(c, filters, b.handle)
	})
	if err != nil {
		return nil, err
	}
	b.c = c
	deadline := time.After(10 * time.Second)
	for b.State().FEN4 == "" {
		select {
		case <-ctx.Done():
			b.Close()
			return nil, ctx.Err()
		case <-deadline:
			b.Close()
			return nil, fmt.Errorf("board %s published no state on %s within 10 s: is the board id right (boardd watch lists the boards it hears)?", board, b.base+mqtt.TopicState)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return b, nil
}

// Close disconnects from the broker.
func (b *Board) Close() { b.c.Disconnect(250) }

// handle takes the board's state and the replies to our commands.
func (b *Board) handle(_ paho.Client, m paho.Message) {
	leaf := strings.TrimPrefix(m.Topic(), b.base)
	if leaf == mqtt.TopicState {
		var st referee.State
		if err := json.Unmarshal(m.Payload(), &st); err != nil {
			return
		}
		b.mu.Lock()
		b.st = st
		for ch := range b.notify {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
		b.mu.Unlock()
		return
	}
	b.q.deliver(m.Payload())
}

// State is the last state the board published.
func (b *Board) State() referee.State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st
}

// Changed signals every new state.
func (b *Board) Changed() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	b.notify[ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.notify, ch)
		b.mu.Unlock()
	}
}

// Do publishes a command and waits (10 s at most) for the board's reply.
func (b *Board) Do(ctx context.Context, c referee.Command) referee.Reply {
	return b.q.do(ctx, b.c, b.name, b.base, c, 10*time.Second)
}
