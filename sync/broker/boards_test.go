package broker

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// keys is an Enrollment in memory.
type keys struct {
	mu sync.Mutex
	m  map[string]string
}

func (k *keys) Enroll(name, key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[string]string{}
	}
	switch old, ok := k.m[name]; {
	case !ok:
		k.m[name] = key
	case old != key:
		return ErrOtherKey
	}
	return nil
}

func (k *keys) Enrolled(name string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.m[name]
	return ok
}

func boardBroker(t *testing.T) (*Broker, *keys) {
	k := &keys{}
	b := start(t, Config{AuthDelay: time.Millisecond, Users: []User{
		{Name: "board", Password: "join-secret", Boards: k},
		{Name: "hub", Password: "hub-secret", Write: true},
		{Name: "reader", Password: "reader-secret"},
	}})
	return b, k
}

// A board account: the first key a board name comes with is the name's;
// with the join password alone, another key, another account or no
// board's client id nobody joins as that board, and nobody pushes the
// board off its client id.
func TestBoardAccountBindsNamesToKeys(t *testing.T) {
	b, k := boardBroker(t)
	url := "tcp://" + b.Addr()
	real, err := dialAs(url, "boardd-club-1", "", "board", "join-secret:key-1", "")
	if err != nil {
		t.Fatalf("the first join of club-1: %v", err)
	}
	defer real.Disconnect(50)
	if !k.Enrolled("club-1") {
		t.Fatal("club-1 was not enrolled")
	}
	for _, tc := range []struct {
		name, id, user, pass string
		idRejected           bool // CONNACK 2 (the name has another key) rather than 5
	}{
		{"another key", "boardd-club-1", "board", "join-secret:key-2", true},
		{"the join password alone", "boardd-club-1", "board", "join-secret", false},
		{"the right key with a wrong join password", "boardd-club-1", "board", "wrong:key-1", false},
		{"no board's client id", "collector", "board", "join-secret:key-9", false},
		{"the hub's account with the board's id", "boardd-club-1", "hub", "hub-secret", false},
		{"a reader with the board's id", "boardd-club-1", "reader", "reader-secret", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			time.Sleep(5 * time.Millisecond) // past the throttle's delay
			c, err := dialAs(url, tc.id, "", tc.user, tc.pass, "")
			if err == nil {
				c.Disconnect(50)
				t.Fatal("connected")
			}
			want := packets.ErrorRefusedNotAuthorised
			if tc.idRejected {
				want = packets.ErrorRefusedIDRejected
			}
			if !errors.Is(err, want) {
				t.Errorf("refused with %v, want %v", err, want)
			}
		})
	}
	if !real.IsConnectionOpen() {
		t.Fatal("the real board was pushed off")
	}
	b.auth.boardOK.mu.Lock()
	if n := len(b.auth.boardOK.ok); n != 0 {
		t.Errorf("%d logins checked and never taken: refused CONNECTs leave memory behind", n)
	}
	b.auth.boardOK.mu.Unlock()
	if k.Enrolled("collector") || len(k.m) != 1 {
		t.Errorf("enrolled: %v, want club-1 alone", k.m)
	}
	again, err := dialAs(url, "boardd-club-1", "", "board", "join-secret:key-1", "")
	if err != nil {
		t.Fatalf("the board with its key again: %v", err)
	}
	again.Disconnect(50)
}

// A board publishes and reads only its own topics and never a command;
// the hub commands it.
func TestBoardAccountTopics(t *testing.T) {
	b, _ := boardBroker(t)
	url := "tcp://" + b.Addr()
	watch := subscribe(t, mustDial(t, url, "reader", "reader-secret"), "#")
	board, err := dialAs(url, "boardd-club-1", "", "board", "join-secret:key-1", "")
	if err != nil {
		t.Fatal(err)
	}
	defer board.Disconnect(50)
	cmds := subscribe(t, board, "boardd/club-1/cmd/+")
	for _, filter := range []string{"boardd/club-2/cmd/+", "boardd/+/cmd/+", "#", "$SYS/#"} {
		tok := board.Subscribe(filter, 1, func(paho.Client, paho.Message) {})
		tok.WaitTimeout(5 * time.Second)
		if code := tok.(*paho.SubscribeToken).Result()[filter]; code < 0x80 {
			t.Errorf("club-1 may subscribe to %s (code %#x)", filter, code)
		}
	}
	for _, topic := range []string{"boardd/club-1/events", "boardd/club-1/games/g1", "boardd/club-1/cmd/resign/result"} {
		if tok := board.Publish(topic, 1, false, "own"); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", topic, tok.Error())
		}
		watch.waitFor(t, topic+"=own")
	}
	hub := mustDial(t, url, "hub", "hub-secret")
	hub.Publish("boardd/club-1/cmd/resign", 1, false, "from the hub").WaitTimeout(5 * time.Second)
	cmds.waitFor(t, "boardd/club-1/cmd/resign=from the hub")

	// Each forbidden publish costs the client its connection (QoS 1):
	// join again for the next.
	for _, topic := range []string{"boardd/club-2/events", "boardd/club-1/cmd/resign", "boardd/club-2/cmd/resign", "elsewhere", "boardd/club-1"} {
		c, err := dialAs(url, "boardd-club-1", "", "board", "join-secret:key-1", "")
		if err != nil {
			t.Fatal(err)
		}
		c.Publish(topic, 1, false, "forged").WaitTimeout(time.Second)
		c.Disconnect(50)
	}
	hub.Publish("boardd/club-1/cmd/end", 1, false, "mark").WaitTimeout(5 * time.Second)
	watch.waitFor(t, "boardd/club-1/cmd/end=mark")
	for _, m := range watch.list() {
		if strings.HasSuffix(m, "=forged") {
			t.Errorf("a board's forbidden publish went through: %s", m)
		}
	}
}

// A client of another account that took a board's client id before the
// board first joined is put off when the board comes.
func TestBoardTakesItsIDBack(t *testing.T) {
	b, _ := boardBroker(t)
	url := "tcp://" + b.Addr()
	squat, err := dialAs(url, "boardd-club-3", "", "reader", "reader-secret", "")
	if err != nil {
		t.Fatal(err)
	}
	defer squat.Disconnect(50)
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := dialAs(url, "boardd-club-3", "", "board", "join-secret:key-3", "")
		if err == nil {
			c.Disconnect(50)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the board never got its id: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if squat.IsConnectionOpen() {
		t.Error("the reader still holds the board's id")
	}
}

func TestTwoBoardAccountsRefused(t *testing.T) {
	_, err := Start(Config{Listen: "127.0.0.1:0", Users: []User{
		{Name: "a", Password: "x", Boards: &keys{}}, {Name: "b", Password: "y", Boards: &keys{}}}})
	if err == nil || !strings.Contains(err.Error(), "second board account") {
		t.Fatalf("two board accounts: %v", err)
	}
}
