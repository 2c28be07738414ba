// Package league_test runs the league of docs/league.md on real
// processes: a three-node NATS cluster with MQTT and JetStream
// (app/hub/natstest), PostgreSQL (app/hub/store/pgtest), hubs and real
// boards (app/hub/hubtest), and checks after every fault that each move
// of each board is in the database exactly once, in order, with the seq
// the board gave it.
package league_test

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/natstest"
	"boardd/app/hub/server"
	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
	"boardd/referee"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

// The league's passwords in the tests.
const (
	boardPW  = "pw-board"
	hubPW    = "pw-hub"
	viewerPW = "pw-viewer"
)

// startCluster starts three NATS nodes with the league's accounts.
func startCluster(t *testing.T) *natstest.Cluster {
	t.Helper()
	return natstest.Start(t, 3, natstest.League("boardd", boardPW, hubPW, viewerPW)...)
}

// hubURL is the hub's --broker for the nodes (one URL, or several
// comma-separated): the hub's account in the first.
func hubURL(nodes string) string {
	list := strings.Split(nodes, ",")
	u, _ := url.Parse(list[0])
	u.Scheme = "mqtt"
	u.User = url.UserPassword("hub", hubPW)
	list[0] = u.String()
	return strings.Join(list, ",")
}

// from is every node's MQTT URL, comma-separated, node first first: a
// client of the league tries them in this order and moves to the next
// when one is gone.
func from(c *natstest.Cluster, first int) string {
	urls := c.MQTTURLs()
	return strings.Join(append(urls[first:], urls[:first]...), ",")
}

// startHub runs a hub in this process on the database, taking in the
// boards from the nodes (one URL or several).
func startHub(t *testing.T, db, node string) *server.Hub {
	t.Helper()
	h, err := server.Start(context.Background(), server.Config{DB: db, Broker: hubURL(node), Web: "off", StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// board is a real board of the league and the moves it played.
type board struct {
	name  string
	live  *referee.Live
	moves []string
}

// startBoard runs a board publishing to the nodes (one URL or several)
// as the boards' account.
func startBoard(t *testing.T, name, node string) *board {
	return &board{name: name, live: hubtest.Start(t, hubtest.Board{Broker: node, User: natstest.BoardUser, Password: boardPW, Name: name, Reconnect: 2 * time.Second})}
}

// play makes the board's next n moves of hubtest.TeamsMoves.
func (b *board) play(t *testing.T, n int) {
	t.Helper()
	next := hubtest.TeamsMoves[len(b.moves) : len(b.moves)+n]
	hubtest.Play(t, b.live, next...)
	b.moves = append(b.moves, next...)
}

// openDB opens the database to check it.
func openDB(t *testing.T, db string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// waitAll waits (two minutes at most: CI runs many packages at once)
// until the database holds every message of every board, then checks
// each board's messages are 1 to its last seq exactly once and its moves
// those it played, in order.
func waitAll(t *testing.T, s *store.Store, boards ...*board) {
	t.Helper()
	if err := waitHeld(s, boards...); err != nil {
		t.Fatal(err)
	}
	for _, b := range boards {
		checkBoard(t, s, b)
	}
}

// waitHeld waits (two minutes at most) until the database holds every
// message of every board.
func waitHeld(s *store.Store, boards ...*board) error {
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Minute)
	for _, b := range boards {
		last := b.live.State().Seq
		for {
			held, err := s.LastSeqs(ctx) // an error: the database is coming back
			if err == nil && held[b.name] >= last {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("the database holds %s up to seq %d, want %d (%v)", b.name, held[b.name], last, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// checkBoard checks that the database holds b's messages 1 to its last
// seq once each, and its game's moves as played, in order.
func checkBoard(t *testing.T, s *store.Store, b *board) {
	t.Helper()
	ctx := context.Background()
	st := b.live.State()
	seqs, err := s.Seqs(ctx, b.name)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]uint64, st.Seq)
	for i := range want {
		want[i] = uint64(i + 1)
	}
	if !reflect.DeepEqual(seqs, want) {
		t.Errorf("%s: the database holds seqs %v, want 1 to %d once each", b.name, seqs, st.Seq)
	}
	turns, err := s.Turns(ctx, b.name, st.Game)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var prev uint64
	for _, u := range turns {
		if u.Seq <= prev {
			t.Errorf("%s: turn at seq %d after seq %d", b.name, u.Seq, prev)
		}
		prev = u.Seq
		if u.UndoneSeq == 0 && u.Kind == referee.MsgMove {
			got = append(got, u.Move)
		}
	}
	if !reflect.DeepEqual(got, b.moves) {
		t.Errorf("%s: stored moves\n %v\nwant\n %v", b.name, got, b.moves)
	}
}

// One hub on the cluster's third node, two boards on the first and the
// second publishing over MQTT: every message of both lands in the
// database once, in order.
func TestHubAndBoardsOnTheCluster(t *testing.T) {
	pg := pgtest.Start(t)
	db := pg.NewDB(t)
	c := startCluster(t)
	startHub(t, db, c.Nodes[2].MQTTURL())
	boards := []*board{startBoard(t, "club-1", c.Nodes[0].MQTTURL()), startBoard(t, "club-2", c.Nodes[1].MQTTURL())}
	for range 3 {
		for _, b := range boards {
			b.play(t, 4)
		}
	}
	waitAll(t, openDB(t, db), boards...)
}

// Every board id mqtt.CheckID and mqtt.CheckNATS let through is carried
// by NATS as it is:
// published under boardd/<id>/events on one node, it arrives under the
// same topic on another, and the board's subscription to its commands
// takes the hub's command (NATS 2.9 closes the connection of a client
// publishing a topic with '.' or ' ', refuses a subscription with a
// level ">", and a QoS 1 message on a topic with '@' never reaches a
// QoS 1 subscriber: CheckNATS names those, and '*', NATS's other
// wildcard).
func TestBoardIDsNATSCarries(t *testing.T) {
	c := startCluster(t)
	hub := connect(t, c.Nodes[1].MQTTURL(), "hub", hubPW)
	got := make(chan paho.Message, 10)
	if tok := hub.Subscribe("boardd/+/events", 1, func(_ paho.Client, m paho.Message) { got <- m }); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	var ids []string
	for r := rune(' '); r < 0x7f; r++ {
		ids = append(ids, "a"+string(r)+"b", string(r))
	}
	ids = append(ids, "Brett-ü", "棋盘", "club_1", "-", "..", "a\\b")
	refused := 0
	var pub paho.Client
	for _, id := range ids {
		if mqtt.CheckID("board", id) != nil || mqtt.CheckNATS("board", id) != nil {
			refused++
			continue
		}
		if pub == nil || !pub.IsConnected() {
			pub = connect(t, c.Nodes[0].MQTTURL(), natstest.BoardUser, boardPW)
		}
		topic := mqtt.Topic(mqtt.DefaultPrefix, id, mqtt.TopicEvents)
		tok := pub.Publish(topic, 1, false, id)
		if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Errorf("board id %q: publish: %v", id, tok.Error())
			continue
		}
		select {
		case m := <-got:
			if m.Topic() != topic || string(m.Payload()) != id {
				t.Errorf("board id %q: published on %s, received on %s: %q", id, topic, m.Topic(), m.Payload())
			}
		case <-time.After(5 * time.Second):
			t.Errorf("board id %q: nothing received within 5 s (connection up: %v)", id, pub.IsConnected())
		}
		// and back: the board's subscription to its commands, as the
		// mirror makes it, takes the hub's command
		filter := mqtt.Topic(mqtt.DefaultPrefix, id, mqtt.TopicCmd+"/+")
		cmds := make(chan paho.Message, 10)
		sub := pub.Subscribe(filter, 0, func(_ paho.Client, m paho.Message) { cmds <- m })
		if !sub.WaitTimeout(10*time.Second) || sub.Error() != nil || sub.(*paho.SubscribeToken).Result()[filter] != 0 {
			t.Errorf("board id %q: subscribe to %s: %v %v", id, filter, sub.Error(), sub.(*paho.SubscribeToken).Result())
			continue
		}
		// Sent again until it arrives, as boardd's senders do: a QoS 0
		// subscription on one node reaches the others a moment after
		// its SUBACK, and a command published meanwhile on another node
		// goes nowhere.
		cmd := mqtt.Topic(mqtt.DefaultPrefix, id, mqtt.TopicCmd+"/replay")
	resend:
		for end := time.Now().Add(10 * time.Second); ; {
			if tok := hub.Publish(cmd, 1, false, id); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
				t.Errorf("board id %q: the hub's command: %v", id, tok.Error())
			}
			select {
			case m := <-cmds:
				if m.Topic() != cmd || string(m.Payload()) != id {
					t.Errorf("board id %q: command sent on %s, received on %s: %q", id, cmd, m.Topic(), m.Payload())
				}
				break resend
			case <-time.After(500 * time.Millisecond):
			}
			if time.Now().After(end) {
				t.Errorf("board id %q: its command, sent every 500 ms, not received within 10 s", id)
				break
			}
		}
		pub.Unsubscribe(filter).WaitTimeout(10 * time.Second)
	}
	if refused != 18 { // '/', '+', '#', '.', ' ', '*', '>', '@' alone and inside, '$' first, ".."
		t.Errorf("CheckID and CheckNATS refused %d of the ids", refused)
	}
}

var clientN atomic.Int64

// connect connects a plain MQTT client to the node as user.
func connect(t *testing.T, node, user, pw string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(node).SetUsername(user).SetPassword(pw).
		SetClientID(fmt.Sprintf("test-%s-%d", user, clientN.Add(1))).SetCleanSession(true).SetAutoReconnect(false)
	cl := paho.NewClient(o)
	if tok := cl.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect to %s as %s: %v", node, user, tok.Error())
	}
	t.Cleanup(func() { cl.Disconnect(0) })
	return cl
}

// A wrong password on a NATS node is named as such: paho, left to
// itself, retries a refused MQTT 3.1.1 CONNECT as MQTT 3.1, which NATS
// does not speak, and reported a network error instead.
func TestWrongPasswordOnTheCluster(t *testing.T) {
	c := startCluster(t)
	for _, node := range c.MQTTURLs() {
		_, err := mqttclient.Broker{URL: node, User: "hub", Password: "wrong"}.Connect(mqttclient.ClientID("hub"), func(paho.Client) error { return nil })
		if err == nil || !strings.Contains(err.Error(), `the broker refused user "hub" and that password`) {
			t.Errorf("connect to %s with a wrong password: %v", node, err)
		}
	}
}
