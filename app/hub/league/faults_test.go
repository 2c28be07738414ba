package league_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/natstest"
	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
	"boardd/referee"
	"boardd/sync/mqttclient"
)

// long runs the fault tests at their full length (a board cut off for a
// minute); CI runs them short.
var long = flag.Bool("league.long", false, "run the league's fault tests at full length (a board cut off for a minute)")

// league is a running league: the cluster, the database, two hubs (on the
// second and third nodes) and boards spread over the three nodes.
type league struct {
	c      *natstest.Cluster
	pg     *pgtest.Server
	db     string
	boards []*board
}

func startLeague(t *testing.T, nBoards int) *league {
	t.Helper()
	l := &league{pg: pgtest.Start(t)}
	l.db = l.pg.NewDB(t)
	l.c = startCluster(t)
	// Each client knows every node, its own first.
	startHub(t, l.db, from(l.c, 1))
	startHub(t, l.db, from(l.c, 2))
	for i := range nBoards {
		l.boards = append(l.boards, startBoard(t, fmt.Sprintf("club-%d", i+1), from(l.c, i%3)))
	}
	// Up and running before any fault: the hubs and the boards
	// subscribed.
	l.c.WaitSubscribed(1, "boardd-hub-", "boardd.*.events")
	l.c.WaitSubscribed(2, "boardd-hub-", "boardd.*.events")
	for i, b := range l.boards {
		l.c.WaitSubscribed(i%3, "boardd-"+b.name, "boardd."+b.name+".cmd.*")
	}
	return l
}

// waitAll is waitAll with what the nodes say when it fails.
func (l *league) waitAll(t *testing.T, s *store.Store, boards ...*board) {
	t.Helper()
	if err := waitHeld(s, boards...); err != nil {
		for i, nd := range l.c.Nodes {
			clients, cerr := l.c.MQTTClients(i)
			var lines []string
			for _, line := range strings.Split(l.c.Log(i), "\n") {
				quiet := strings.Contains(line, "connect to route") || strings.Contains(line, "Healthcheck failed") ||
					strings.Contains(line, "[INF]") && !strings.Contains(line, "xiting") && !strings.Contains(line, "hutdown") && !strings.Contains(line, "leader")
				if !quiet {
					lines = append(lines, line)
				}
			}
			t.Logf("node %s (running: %v): MQTT clients %v %v; log:\n%s", nd.Name, nd.Running(), clients, cerr, strings.Join(lines[max(0, len(lines)-40):], "\n"))
		}
		t.Fatal(err)
	}
	waitAll(t, s, boards...)
}

// play makes n moves on every board.
func (l *league) play(t *testing.T, n int) {
	t.Helper()
	for _, b := range l.boards {
		b.play(t, n)
	}
}

// A node of the cluster killed with SIGKILL during play (-league.long:
// each in turn, twice): the boards on it and the hub on it move to the
// next node of their lists and carry on, every move stored while it is
// down; started again, it catches up with the cluster; and every move
// of every board is in the database once, in order, with the board's
// seq.
func TestNodeKilledDuringPlay(t *testing.T) {
	l := startLeague(t, 3)
	s := openDB(t, l.db)
	l.play(t, 2)
	l.waitAll(t, s, l.boards...)
	nodes := []int{1} // the node of a hub and a board
	if *long {
		nodes = []int{0, 1, 2, 0, 1, 2}
	}
	for _, i := range nodes {
		// A cluster of three replicas survives one node down, not a
		// second one before the first has caught up: each fault from
		// a healthy cluster.
		start := time.Now()
		l.c.WaitHealthy(3 * time.Minute)
		t.Logf("cluster healthy after %s", time.Since(start).Round(time.Second))
		l.c.Kill(i)
		l.play(t, 2)
		l.waitAll(t, s, l.boards...) // those of the node on the next one
		t.Logf("node %s killed: its clients moved to the others, every move stored", l.c.Nodes[i].Name)
		l.c.Restart(i)
		l.play(t, 1)
		l.waitAll(t, s, l.boards...)
		t.Logf("node %s back", l.c.Nodes[i].Name)
	}
}

// PostgreSQL stopped during play and started again: both hubs wait, then
// store what arrived meanwhile, in order.
func TestDatabaseRestartedDuringPlay(t *testing.T) {
	l := startLeague(t, 3)
	s := openDB(t, l.db)
	l.play(t, 3)
	waitAll(t, s, l.boards...)
	for range 2 {
		l.pg.Stop()
		l.play(t, 3)
		l.pg.Restart()
		l.play(t, 1)
		waitAll(t, s, l.boards...)
	}
}

// A board cut off from the cluster (its network gone) while it plays on,
// for a few seconds (a minute with -league.long), and back: the hubs
// store everything it played meanwhile, once, in order.
func TestBoardCutOff(t *testing.T) {
	away := 3 * time.Second
	if *long {
		away = time.Minute
	}
	l := startLeague(t, 2)
	link := natstest.NewLink(t, l.c.Nodes[0].MQTTURL())
	cut := startBoard(t, "club-cut", link.URL())
	l.boards = append(l.boards, cut)
	s := openDB(t, l.db)
	l.play(t, 2)
	waitAll(t, s, l.boards...)
	link.Cut()
	start := time.Now()
	for time.Since(start) < away && len(cut.moves) < len(hubtest.TeamsMoves)-2 {
		l.play(t, 1)
		time.Sleep(away / 8)
	}
	waitAll(t, s, l.boards[:2]...)
	link.Restore()
	l.play(t, 1)
	waitAll(t, s, l.boards...)
}

// The cluster refuses the hub's subscriptions for a while (here its
// permissions lack them until the nodes reload their configuration; on
// a cluster that lost a node, JetStream answers late while it elects
// leaders, and NATS refuses the same way): the hub keeps its connection
// and asks again until it is granted, then takes in everything.
func TestHubWaitsForARefusedSubscription(t *testing.T) {
	users := natstest.League("boardd", boardPW, hubPW, viewerPW)
	deaf := slices.Clone(users)
	deaf[1].Subscribe = []string{"$MQTT.sub.>"}
	c := natstest.Start(t, 1, deaf...)
	db := filepath.Join(t.TempDir(), "hub.db")
	startHub(t, db, c.Nodes[0].MQTTURL())
	b := startBoard(t, "club-1", c.Nodes[0].MQTTURL())
	b.play(t, 2)
	// Only the hub's subscriptions are refused here (NATS 2.9 names the
	// user in the line, 2.15 the client).
	for end := time.Now().Add(30 * time.Second); !strings.Contains(c.Log(0), `Subscription Violation - `); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the node refused the hub nothing within 30 s")
		}
	}
	c.SetUsers(users...)
	b.play(t, 2)
	waitAll(t, openDB(t, db), b)
}

// JetStream loses the consumers behind the MQTT clients' QoS 1
// subscriptions (as when the node they lived on dies) while their
// connections stay up: the hub and the boards hold none to lose (their
// subscriptions are QoS 0, plain NATS ones that every node carries; the
// seqs and replays make them whole), so with every consumer of the
// cluster deleted (here a viewer's) the hub still hears every board and
// stores every move once, in order.
func TestHubHearsWithoutJetStreamConsumers(t *testing.T) {
	admin := natstest.User{Name: "admin", Password: "pw-admin"}
	c := natstest.Start(t, 3, append(natstest.League("boardd", boardPW, hubPW, viewerPW), admin)...)
	db := filepath.Join(t.TempDir(), "hub.db")
	startHub(t, db, c.Nodes[1].MQTTURL())
	boards := []*board{startBoard(t, "club-1", c.Nodes[0].MQTTURL()), startBoard(t, "club-2", c.Nodes[2].MQTTURL())}
	c.WaitSubscribed(1, "boardd-hub-", "boardd.*.events")
	for i, b := range boards {
		c.WaitSubscribed(2*i, "boardd-"+b.name, "boardd."+b.name+".cmd.*")
	}
	s := openDB(t, db)
	for _, b := range boards {
		b.play(t, 2)
	}
	waitAll(t, s, boards...)
	if n, err := c.DropMQTTConsumers(admin); err != nil || n != 0 {
		t.Fatalf("the hub and the boards hold %d JetStream consumers, want none: %v", n, err)
	}
	// A client with a QoS 1 subscription has one: deleting it shows the
	// count above is not blind.
	viewer := connect(t, c.Nodes[1].MQTTURL(), "viewer", viewerPW)
	if tok := viewer.Subscribe("boardd/+/events", 1, func(paho.Client, paho.Message) {}); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	if n, err := c.DropMQTTConsumers(admin); err != nil || n == 0 {
		t.Fatalf("dropped %d consumers with a viewer's QoS 1 subscription: %v", n, err)
	}
	for _, b := range boards {
		b.play(t, 2)
	}
	waitAll(t, s, boards...)
}

// A command sent to a board while the board's node is down (killed with
// SIGKILL: the board's connection gone until it moves to another node)
// reaches the board once it is on another node, and is carried out
// once: the board's command subscription is a plain NATS one on every
// node (QoS 0, no JetStream consumer), the hub's commander sends the
// command again until it has the reply, and the board answers a repeat
// of an id it carried out without carrying it out again. -league.long:
// each node in turn.
func TestCommandWhileNodeKilled(t *testing.T) {
	c := startCluster(t)
	b := startBoard(t, "club-1", from(c, 0))
	c.WaitSubscribed(0, "boardd-club-1", "boardd.club-1.cmd.*")
	k := mqttclient.NewCommander(mqttclient.Broker{URL: from(c, 1), User: "hub", Password: hubPW, Prefix: "boardd"}, "hub-cmd")
	t.Cleanup(k.Close)
	newGame := func(what string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if r := k.Do(ctx, b.name, referee.Command{Name: referee.CmdNewGame}); !r.OK {
			t.Fatalf("%s: new_game: %+v", what, r)
		}
	}
	newGame("the cluster whole") // the commander connected
	nodes := []int{0}
	if *long {
		nodes = []int{0, 1, 2}
	}
	games := gameStarts(t, b)
	for _, i := range nodes {
		c.WaitHealthy(3 * time.Minute)
		c.Kill(i) // the board's first node; then the one it moved to, the commander's; then the third
		newGame(fmt.Sprintf("node %s killed", c.Nodes[i].Name))
		games++
		if got := gameStarts(t, b); got != games {
			t.Fatalf("node %s killed: the board started %d games, want %d: the command carried out %d times", c.Nodes[i].Name, got, games, got-games+1)
		}
		c.Restart(i)
	}
	// Copies still on their way when a reply came carry out nothing:
	// one more command, one more game.
	newGame("the cluster whole again")
	if got := gameStarts(t, b); got != games+1 {
		t.Errorf("the board started %d games, want %d", got, games+1)
	}
}

// gameStarts counts the games the board started (its game_start
// messages).
func gameStarts(t *testing.T, b *board) int {
	t.Helper()
	msgs, _, cancel, err := b.live.Subscribe(1)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	n := 0
	for _, m := range msgs {
		if m.Kind == referee.MsgGameStart {
			n++
		}
	}
	return n
}
