package mqtt

import (
	"bytes"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
)

// refuseCommands is a mochi hook that lets everyone in and refuses
// subscriptions to command topics until allow is called.
type refuseCommands struct {
	mochi.HookBase
	mu      sync.Mutex
	refused int
	allowed bool
}

func (h *refuseCommands) ID() string { return "refuse-commands" }
func (h *refuseCommands) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}
func (h *refuseCommands) OnConnectAuthenticate(*mochi.Client, packets.Packet) bool { return true }
func (h *refuseCommands) OnACLCheck(_ *mochi.Client, topic string, write bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !write && strings.HasSuffix(topic, "/cmd/+") && !h.allowed {
		h.refused++
		return false
	}
	return true
}

func (h *refuseCommands) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.refused
}

// A command subscription the broker refuses (a SUBACK failure code, not an
// error) leaves the connection up and the commands dead: the mirror must
// notice, say it is not connected, and subscribe again until it works.
func TestRefusedCommandSubscriptionRestored(t *testing.T) {
	hook := &refuseCommands{}
	srv := mochi.New(&mochi.Options{})
	if err := srv.AddHook(hook, nil); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.AddListener(listeners.NewNet("t", ln)); err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	url := "tcp://" + ln.Addr().String()

	board := newFakeBoard("b1")
	m := startMirror(t, url, board, "b1")
	deadline := time.Now().Add(20 * time.Second)
	for hook.count() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the broker refused the command subscription %d time(s) and the mirror did not try again", hook.count())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if s := m.Stats(); s.Connected {
		t.Errorf("Stats say connected while the command subscription is refused: %+v", s)
	}
	hook.mu.Lock()
	hook.allowed = true
	hook.mu.Unlock()
	waitStats(t, m, "connected with commands", func(s Stats) bool { return s.Connected })
	c := newConsumer(t, url, "b1", consumerOpts{})
	c.command("resign", `{"seat":"Red","id":"r1"}`)
	c.waitUntil("the reply", func() bool { return len(c.replies) == 1 })
	if got := board.commands(); len(got) != 1 || got[0].Seat != "Red" {
		t.Errorf("Do got %+v, want the resign of Red", got)
	}
}
