package mqttclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/referee"
	"boardd/sync/mqtt"
)

// replies pairs the commands one connection publishes with the boards'
// replies on cmd/<name>/result, by the command's id: the connection's
// client id (unique to it, ClientID) and a count.
type replies struct {
	id string
	n  atomic.Uint64

	mu      sync.Mutex
	waiting map[string]chan referee.Reply
}

func newReplies(clientID string) *replies {
	return &replies{id: clientID, waiting: map[string]chan referee.Reply{}}
}

// deliver hands a reply to the command waiting for it (none: dropped).
func (q *replies) deliver(payload []byte) {
	var r referee.Reply
	if err := json.Unmarshal(payload, &r); err != nil || r.ID == "" {
		return
	}
	q.mu.Lock()
	ch := q.waiting[r.ID]
	q.mu.Unlock()
	if ch != nil {
		select {
		case ch <- r:
		default:
		}
	}
}

// resendAfter is how long a command waits for its reply before it is
// published again (same id: the board carries it out once and answers
// each copy with the same reply). A variable for the tests.
var resendAfter = 3 * time.Second

// do publishes c to board (the topic base, prefix/board/) over cl and
// waits for the reply until ctx ends, and at most max (0: no bound but
// ctx's), publishing it again every resendAfter until the reply comes.
//
// Commands go out with QoS 0 and the replies are subscribed with QoS 0:
// the reply is the acknowledgement that counts, and a command or reply
// lost on the way is made good by sending the command again. On a NATS
// cluster this keeps commands off JetStream, whose consumers stall with
// their node (docs/league.md).
func (q *replies) do(ctx context.Context, cl paho.Client, board, base string, c referee.Command, max time.Duration) referee.Reply {
	c.ID = q.id + "-" + strconv.FormatUint(q.n.Add(1), 10)
	payload, err := json.Marshal(c)
	if err != nil {
		return referee.Reply{Error: err.Error()}
	}
	ch := make(chan referee.Reply, 1)
	q.mu.Lock()
	q.waiting[c.ID] = ch
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.waiting, c.ID)
		q.mu.Unlock()
	}()
	var timeout <-chan time.Time
	if max > 0 {
		t := time.NewTimer(max)
		defer t.Stop()
		timeout = t.C
	}
	resend := time.NewTicker(resendAfter)
	defer resend.Stop()
	var sent bool    // the broker took a copy
	var pubErr error // why the last copy was not taken
	for again := true; again; {
		tok := cl.Publish(base+"cmd/"+c.Name, 0, false, payload)
		if tok.WaitTimeout(resendAfter) && tok.Error() == nil {
			sent = true
		} else if pubErr = tok.Error(); pubErr == nil {
			pubErr = errors.New("no answer from the broker")
		}
		select {
		case r := <-ch:
			return r
		case <-resend.C: // again
		case <-ctx.Done():
			again = false
		case <-timeout:
			again = false
		}
	}
	if !sent {
		return referee.Reply{Error: fmt.Sprintf("%s to %s: the broker did not take the command: %v", c.Name, board, pubErr)}
	}
	return referee.Reply{Error: fmt.Sprintf("%s to %s: no answer from the board (is it on and connected to the broker?)", c.Name, board)}
}

// Commander sends commands to any board under the broker's prefix over
// one connection, as the broker's account, and waits for each board's
// reply on cmd/<name>/result (docs/mqtt.md). It connects on its first
// command, so a broker that is down when it is made delays nothing else;
// several Commanders (and Boards) of one process each have a connection
// of their own.
type Commander struct {
	broker Broker
	what   string

	mu sync.Mutex
	c  paho.Client
	q  *replies
}

// NewCommander returns a Commander over b; what names its connection's
// client id (ClientID).
func NewCommander(b Broker, what string) *Commander {
	return &Commander{broker: b, what: what}
}

func (k *Commander) client() (paho.Client, *replies, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.c != nil {
		return k.c, k.q, nil
	}
	id := ClientID(k.what)
	q := newReplies(id)
	filter := mqtt.Topic(k.broker.Prefix, "+", "cmd/+/result")
	c, err := k.broker.Connect(id, func(c paho.Client) error {
		return Subscribe(c, map[string]byte{filter: 0}, func(_ paho.Client, m paho.Message) { q.deliver(m.Payload()) })
	})
	if err != nil {
		return nil, nil, err
	}
	k.c, k.q = c, q
	return c, q, nil
}

// Do sends c to board and returns the board's reply, or an error reply
// when the broker cannot be reached or does not take it, or the board
// does not answer before ctx ends.
func (k *Commander) Do(ctx context.Context, board string, c referee.Command) referee.Reply {
	if err := mqtt.CheckID("board", board); err != nil {
		return referee.Reply{Error: err.Error()}
	}
	cl, q, err := k.client()
	if err != nil {
		return referee.Reply{Error: fmt.Sprintf("%s to %s: cannot reach the broker: %v", c.Name, board, err)}
	}
	return q.do(ctx, cl, board, mqtt.Topic(k.broker.Prefix, board, ""), c, 0)
}

// Close disconnects.
func (k *Commander) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.c != nil {
		k.c.Disconnect(250)
		k.c = nil
	}
}
