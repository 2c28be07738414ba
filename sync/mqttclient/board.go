package mqttclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
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
	base string
	n    atomic.Uint64

	mu      sync.Mutex
	st      referee.State
	notify  map[chan struct{}]struct{}
	replies map[string]chan referee.Reply
}

// Dial connects to the broker and waits for the board's state.
func Dial(ctx context.Context, br Broker, board string) (*Board, error) {
	b := &Board{base: mqtt.Topic(br.Prefix, board, ""), notify: map[chan struct{}]struct{}{}, replies: map[string]chan referee.Reply{}}
	filters := map[string]byte{b.base + mqtt.TopicState: 1, b.base + "cmd/+/result": 1}
	c, err := br.Connect(ClientID("bot"), func(c paho.Client) error {
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
	var r referee.Reply
	if err := json.Unmarshal(m.Payload(), &r); err != nil || r.ID == "" {
		return
	}
	b.mu.Lock()
	ch := b.replies[r.ID]
	b.mu.Unlock()
	if ch != nil {
		select {
		case ch <- r:
		default:
		}
	}
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
	c.ID = fmt.Sprintf("bot-%d-%d", os.Getpid(), b.n.Add(1))
	payload, err := json.Marshal(c)
	if err != nil {
		return referee.Reply{Error: err.Error()}
	}
	ch := make(chan referee.Reply, 1)
	b.mu.Lock()
	b.replies[c.ID] = ch
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.replies, c.ID)
		b.mu.Unlock()
	}()
	tok := b.c.Publish(b.base+"cmd/"+c.Name, 1, false, payload)
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		return referee.Reply{Error: fmt.Sprintf("%s: the broker did not take the command: %v", c.Name, tok.Error())}
	}
	select {
	case r := <-ch:
		return r
	case <-ctx.Done():
		return referee.Reply{Error: ctx.Err().Error()}
	case <-time.After(10 * time.Second):
		return referee.Reply{Error: fmt.Sprintf("%s: no answer from the board within 10 s", c.Name)}
	}
}
