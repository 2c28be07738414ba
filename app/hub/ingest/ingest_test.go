package ingest_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/hub/enroll"
	"boardd/app/hub/hubtest"
	"boardd/app/hub/ingest"
	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
	"boardd/referee"
	"boardd/sync/broker"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

// The accounts of the test broker, as boardd hub makes them: the boards
// (each publishing its own topics, app/hub/enroll) and the hub may
// publish, a viewer only reads; and, as a club's broker may have, an
// account that publishes anything (a confused or made-up publisher).
var (
	boardUser  = broker.User{Name: "board", Password: "pw-board"}
	hubUser    = broker.User{Name: "hub", Password: "pw-hub", Write: true}
	viewerUser = broker.User{Name: "viewer", Password: "pw-viewer"}
	writerUser = broker.User{Name: "writer", Password: "pw-writer", Write: true}
)

func startBroker(t *testing.T) string {
	t.Helper()
	keys, err := enroll.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	boards := boardUser
	boards.Boards = keys
	b, err := broker.Start(broker.Config{Listen: "127.0.0.1:0", Users: []broker.User{boards, hubUser, viewerUser, writerUser}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return "tcp://" + b.Addr()
}

func startBoard(t *testing.T, url, name string, keep int) *referee.Live {
	return hubtest.Start(t, hubtest.Board{Broker: url, User: boardUser.Name, Password: boardUser.Password, Name: name, Keep: keep})
}

var (
	play       = hubtest.Play
	teamsMoves = hubtest.TeamsMoves
)

// hub is a running ingest over its own handle of the database, as a hub
// process has.
type hub struct {
	stop func()
}

func startHub(t *testing.T, url, dbURL string, edit ...func(*ingest.Config)) *hub {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ingest.Config{Broker: mqttclient.Broker{URL: url, User: hubUser.Name, Password: hubUser.Password, Prefix: mqtt.DefaultPrefix},
		Store: s, ReplayAfter: 500 * time.Millisecond}
	for _, e := range edit {
		e(&cfg)
	}
	done := make(chan error, 1)
	go func() { done <- ingest.Run(ctx, cfg) }()
	h := &hub{}
	stopped := false
	h.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ingest: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("ingest did not stop within 10 s")
		}
		s.Close()
	}
	t.Cleanup(h.stop)
	return h
}

// openStore opens the test's database beside the hub, to check what it
// holds; closed when the test ends.
func openStore(t *testing.T, dbURL string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// waitHeld waits (20 s at most) until the store holds seq of board.
func waitHeld(t *testing.T, s *store.Store, name string, seq uint64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		last, err := s.LastSeqs(context.Background()) // an error: the database is coming back
		if err == nil && last[name] >= seq {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub holds %s up to seq %d, want %d (%v)", name, last[name], seq, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// client connects to url as user (disconnected when t ends).
func client(t *testing.T, url string, user broker.User) paho.Client {
	t.Helper()
	opts, err := mqtt.ClientOptions(url, user.Name, user.Password, mqtt.TLS{})
	if err != nil {
		t.Fatal(err)
	}
	c := paho.NewClient(opts.SetClientID("test-" + user.Name))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(0) })
	return c
}

// publisher connects to url as a board.
func publisher(t *testing.T, url string) paho.Client { return client(t, url, writerUser) }

// watchReplays hands on the replays asked of board (their payloads) and
// the board's answers, as a viewer sees them.
func watchReplays(t *testing.T, url, board string) (asks, replies chan string) {
	t.Helper()
	asks, replies = make(chan string, 100), make(chan string, 100)
	topic := mqtt.Topic("", board, mqtt.TopicCmd+"/"+referee.CmdReplay)
	c := client(t, url, viewerUser)
	if tok := c.SubscribeMultiple(map[string]byte{topic: 1, topic + "/result": 1}, func(_ paho.Client, m paho.Message) {
		if strings.HasSuffix(m.Topic(), "/result") {
			replies <- string(m.Payload())
		} else {
			asks <- string(m.Payload())
		}
	}); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return asks, replies
}

func seqRange(a, b uint64) []uint64 {
	var out []uint64
	for s := a; s <= b; s++ {
		out = append(out, s)
	}
	return out
}

// A real board plays a game while the hub is stopped mid-game and
// started again (a new process on the same database): the hub ends with
// every message of the board once, in order, with no gap, and the game's
// moves and result as played.
func TestHubStoppedMidGameResumes(t *testing.T) {
	for _, b := range []struct {
		name  string
		newDB func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "hub.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.Start(t).NewDB(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			dbURL := b.newDB(t)
			url := startBroker(t)
			check := openStore(t, dbURL)
			l := startBoard(t, url, "club-1", 0)

			h := startHub(t, url, dbURL)
			play(t, l, teamsMoves[:8]...)
			waitHeld(t, check, "club-1", 3) // the hub is taking the game in
			h.stop()                        // mid-stream: what it had not stored, it never will
			play(t, l, teamsMoves[8:14]...) // the board plays on without the hub
			h = startHub(t, url, dbURL)
			play(t, l, teamsMoves[14:]...)
			if r := l.Do(context.Background(), referee.Command{Name: referee.CmdResign, Seat: "Blue"}); !r.OK {
				t.Fatalf("resign: %s", r.Error)
			}
			// A message the hub holds, sent again with other content (a
			// replay, a confused publisher): the first one stands.
			game := l.State().Game
			waitHeld(t, check, "club-1", 5)
			dup, _ := json.Marshal(referee.Message{Seq: 5, Board: "club-1", Game: game, Kind: referee.MsgMove, Seat: "Red", Move: "Qg1-n14", Coord: "g1-n14"})
			pub := publisher(t, url)
			if tok := pub.Publish(mqtt.Topic("", "club-1", mqtt.TopicEvents), 1, false, dup); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
				t.Fatalf("publish: %v", tok.Error())
			}
			if r := l.Do(context.Background(), referee.Command{Name: referee.CmdTags, Tags: map[string]string{"Round": "1"}}); !r.OK {
				t.Fatalf("tags: %s", r.Error)
			}
			last := l.State().Seq
			waitHeld(t, check, "club-1", last)
			h.stop()

			ctx := context.Background()
			seqs, _ := check.Seqs(ctx, "club-1")
			if !reflect.DeepEqual(seqs, seqRange(1, last)) {
				t.Fatalf("the hub holds seqs %v, want 1 to %d once each", seqs, last)
			}
			if gaps, _ := check.Gaps(ctx, "club-1"); len(gaps) != 0 {
				t.Errorf("gaps %v", gaps)
			}
			turns, err := check.Turns(ctx, "club-1", game)
			if err != nil {
				t.Fatal(err)
			}
			var moves []string
			for _, u := range turns {
				if u.UndoneSeq == 0 && u.Kind == referee.MsgMove {
					moves = append(moves, u.Move)
				}
			}
			if !reflect.DeepEqual(moves, teamsMoves) {
				t.Errorf("stored moves\n %v\nwant\n %v", moves, teamsMoves)
			}
			if k := turns[len(turns)-1]; k.Kind != referee.MsgResign || k.Seat != "Blue" {
				t.Errorf("last turn %+v, want Blue's resignation", k)
			}
			g, ok, err := check.Game(ctx, "club-1", game)
			if err != nil || !ok || g.Status != "over" || g.Result == nil || g.Result.Reason != "resignation" || g.Tags["Event"] != "Club night" || g.Tags["Round"] != "1" || g.Variant != "teams" {
				t.Errorf("game %+v (result %+v), %v, %v", g, g.Result, ok, err)
			}
			sum, _ := check.Boards(ctx)
			want := []store.BoardSummary{{Board: "club-1", Status: "finished", Game: game, Moves: len(teamsMoves), LastMove: teamsMoves[len(teamsMoves)-1], LastSeq: last}}
			if !reflect.DeepEqual(sum, want) {
				t.Errorf("boards\n %+v\nwant\n %+v", sum, want)
			}
		})
	}
}

// A board whose network is down when the hub starts misses the replay
// the hub asks every board for as it connects; when the board joins
// again, it is asked at once, not after ReplayAfter (here an hour: so
// long a club's hub, just restarted after a kill -9, would show the
// boards' tables behind while the director waits for the round).
func TestHubAsksABoardThatJoinsAgain(t *testing.T) {
	url := startBroker(t)
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	check := openStore(t, dbURL)
	b := hubtest.Board{Broker: url, User: boardUser.Name, Password: boardUser.Password, Name: "club-5"}
	l := hubtest.Live(t, b)
	off := hubtest.Mirror(t, b, l)
	slow := func(c *ingest.Config) { c.ReplayAfter = time.Hour }
	h := startHub(t, url, dbURL, slow)
	play(t, l, teamsMoves[:4]...)
	waitHeld(t, check, "club-5", l.State().Seq)
	h.stop()
	// The board's network goes (its mirror closed: what it plays now
	// reaches no broker), the hub starts and asks while it is gone.
	off()
	play(t, l, teamsMoves[4:8]...)
	asks, _ := watchReplays(t, url, "club-5")
	startHub(t, url, dbURL, slow)
	select {
	case <-asks: // into the void
	case <-time.After(20 * time.Second):
		t.Fatal("the hub starting asked the boards it knows nothing")
	}
	hubtest.Mirror(t, b, l) // the board joins again, from its next message
	play(t, l, teamsMoves[8])
	waitHeld(t, check, "club-5", l.State().Seq)
	if seqs, _ := check.Seqs(context.Background(), "club-5"); !reflect.DeepEqual(seqs, seqRange(1, l.State().Seq)) {
		t.Errorf("the hub holds seqs %v, want 1 to %d", seqs, l.State().Seq)
	}
}

// replayBoard is a made-up board on the test broker that a test drives
// by hand: its events, its answers to the hub's replays, the hub's asks.
type replayBoard struct {
	t    *testing.T
	name string
	pub  paho.Client
	asks <-chan string
}

func newReplayBoard(t *testing.T, url, name string) *replayBoard {
	asks, _ := watchReplays(t, url, name)
	return &replayBoard{t: t, name: name, pub: publisher(t, url), asks: asks}
}

func (b *replayBoard) publish(topic string, v any) {
	b.t.Helper()
	data, _ := json.Marshal(v)
	if tok := b.pub.Publish(topic, 1, false, data); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		b.t.Fatalf("publish: %v", tok.Error())
	}
}

// event publishes the board's message seq.
func (b *replayBoard) event(seq uint64) {
	b.t.Helper()
	b.publish(mqtt.Topic("", b.name, mqtt.TopicEvents), referee.Message{Seq: seq, Board: b.name, Game: "g1", Kind: referee.MsgClock})
}

// answer publishes the board's answer to the hub's replay c.
func (b *replayBoard) answer(c referee.Command, r referee.Reply) {
	b.t.Helper()
	r.ID = c.ID
	b.publish(mqtt.Topic("", b.name, mqtt.TopicCmd+"/"+referee.CmdReplay+"/result"), r)
}

// askFrom waits for the hub's ask from seq from (others are the hub's
// asks as it connected, made while the test was still publishing the
// board's first message).
func (b *replayBoard) askFrom(from uint64) referee.Command {
	b.t.Helper()
	for end := time.After(20 * time.Second); ; {
		select {
		case a := <-b.asks:
			var c referee.Command
			if err := json.Unmarshal([]byte(a), &c); err != nil || c.From == nil {
				b.t.Fatalf("an ask %s: %v", a, err)
			}
			if *c.From == from {
				return c
			}
		case <-end:
			b.t.Fatalf("the hub never asked from %d", from)
		}
	}
}

// first publishes message 1 until the hub, subscribing meanwhile, holds it.
func (b *replayBoard) first(check *store.Store) {
	b.t.Helper()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b.event(1)
		if last, _ := check.LastSeqs(context.Background()); last[b.name] == 1 {
			return
		}
		if time.Now().After(end) {
			b.t.Fatalf("the hub never took %s's first message", b.name)
		}
	}
}

// A replay whose block loses its last messages on the way to the hub (a
// broker drops messages to a client that does not keep up: mochi past
// 1024 pending, as when every board replays at once after a hub's
// restart) and whose answer arrives: the hub, still behind what it saw,
// asks for the rest instead of taking the answer as "nothing more" (it
// would then wait for the board's next message, and a finished game's
// result with it). The board is played here by a publisher on its
// topics, so the loss is the test's choice.
func TestHubAsksForWhatAReplayLostOnTheWay(t *testing.T) {
	url := startBroker(t)
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	check := openStore(t, dbURL)
	b := newReplayBoard(t, url, "club-8")
	startHub(t, url, dbURL, func(c *ingest.Config) { c.ReplayAfter = time.Hour })
	b.first(check)
	for seq := uint64(2); seq <= 5; seq++ { // one at a time: the hub's client may hand on two at once out of order
		b.event(seq)
		waitHeld(t, check, "club-8", seq)
	}
	b.event(8) // early: 6 and 7 missing
	c := b.askFrom(6)
	b.event(6) // the replay's block, its last message lost
	waitHeld(t, check, "club-8", 6)
	b.event(7)
	b.answer(c, referee.Reply{OK: true})
	waitHeld(t, check, "club-8", 7)
	b.askFrom(8)
	b.event(8)
	waitHeld(t, check, "club-8", 8)
}

// A replay whose whole block is lost on the way (only the answer comes,
// saying how far the block went): the hub asks again after ReplayAfter,
// until it holds it all, instead of waiting for the board's next message
// (at the end of a game there may be none for a long time).
func TestHubAsksAgainWhenAWholeReplayIsLost(t *testing.T) {
	url := startBroker(t)
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	check := openStore(t, dbURL)
	b := newReplayBoard(t, url, "club-7")
	startHub(t, url, dbURL, func(c *ingest.Config) { c.ReplayAfter = 300 * time.Millisecond })
	b.first(check)
	b.event(4) // early: 2 and 3 missing
	c := b.askFrom(2)
	// The block (2, 3, 4) lost on the way; only the answer comes.
	b.answer(c, referee.Reply{OK: true, Seq: 4})
	c = b.askFrom(2) // asked again, with nothing more from the board
	for seq := uint64(2); seq <= 4; seq++ {
		b.event(seq)
	}
	b.answer(c, referee.Reply{OK: true, Seq: 4})
	waitHeld(t, check, "club-7", 4)
}

// A board that no longer keeps the start of its stream when the hub
// first hears of it: the hub records the gap the board names and stores
// everything from the oldest message the board keeps.
func TestHubRecordsWhatABoardNoLongerKeeps(t *testing.T) {
	url := startBroker(t)
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	l := startBoard(t, url, "club-2", 5)
	play(t, l, teamsMoves[:10]...) // before the hub exists
	last := l.State().Seq
	if last < 8 {
		t.Fatalf("the board is at seq %d, want more than it keeps", last)
	}
	h := startHub(t, url, dbURL)
	check := openStore(t, dbURL)
	waitHeld(t, check, "club-2", last)
	h.stop()
	ctx := context.Background()
	gaps, _ := check.Gaps(ctx, "club-2")
	seqs, _ := check.Seqs(ctx, "club-2")
	if len(gaps) != 1 || gaps[0][0] != 1 || len(seqs) == 0 || seqs[0] != gaps[0][1]+1 || !reflect.DeepEqual(seqs, seqRange(seqs[0], last)) {
		t.Fatalf("gaps %v and seqs %v: want one gap from 1 and every seq after it to %d", gaps, seqs, last)
	}
	if n := int(last - seqs[0] + 1); n > 5 {
		t.Errorf("the hub holds %d messages the board did not keep", n-5)
	}
	sum, _ := check.Boards(ctx)
	if len(sum) != 1 || sum[0].LastMove != teamsMoves[9] || sum[0].Status != "playing" {
		t.Errorf("boards %+v", sum)
	}
}

// A hub that holds everything asks for no replay while the board plays
// on: the board's retained state may arrive before the event it
// includes, which is no gap (docs/mqtt.md: a display waits a moment for
// the event before it asks).
func TestHubAsksNoReplayWhileUpToDate(t *testing.T) {
	url := startBroker(t)
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	l := startBoard(t, url, "club-3", 0)
	startHub(t, url, dbURL)
	check := openStore(t, dbURL)
	waitHeld(t, check, "club-3", l.State().Seq)

	asks, _ := watchReplays(t, url, "club-3")
	for _, mv := range teamsMoves[:12] {
		play(t, l, mv)
		time.Sleep(150 * time.Millisecond) // a player's pace, sped up: states and events interleave
	}
	waitHeld(t, check, "club-3", l.State().Seq)
	if len(asks) > 0 {
		t.Errorf("the hub asked for %d replays while it was up to date, the first %s", len(asks), <-asks)
	}
}

// An event with a seq the board never had (a confused publisher on the
// board's topic): the hub asks the board once, the board answers that it
// has sent everything, and the hub asks no more.
func TestHubStopsAskingWhenTheBoardHasNoMore(t *testing.T) {
	url := startBroker(t)
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	l := startBoard(t, url, "club-4", 0)
	startHub(t, url, dbURL)
	check := openStore(t, dbURL)
	waitHeld(t, check, "club-4", l.State().Seq)

	asks, replies := watchReplays(t, url, "club-4")
	bogus, _ := json.Marshal(referee.Message{Seq: 1000, Board: "club-4", Game: l.State().Game, Kind: referee.MsgClock})
	pub := publisher(t, url)
	if tok := pub.Publish(mqtt.Topic("", "club-4", mqtt.TopicEvents), 1, false, bogus); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("publish: %v", tok.Error())
	}
	select {
	case r := <-replies:
		if !strings.Contains(r, `"ok":true`) {
			t.Fatalf("the board answered %s", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hub asked nothing, or the board did not answer")
	}
	// Three times ReplayAfter: without the answer, the hub would ask
	// again twice or more.
	time.Sleep(1500 * time.Millisecond)
	if n := len(asks); n != 1 {
		t.Errorf("the hub asked %d times, want once", n)
	}
	// The board's real next message is still taken.
	play(t, l, teamsMoves[0])
	waitHeld(t, check, "club-4", l.State().Seq)
}

// The hub takes in at most MaxBoards boards: a publisher making up board
// names, or a game id that is no id, fills no database.
func TestHubBoundsWhatItTakesIn(t *testing.T) {
	url := startBroker(t)
	dbURL := filepath.Join(t.TempDir(), "hub.db")
	startHub(t, url, dbURL, func(c *ingest.Config) { c.MaxBoards = 2 })
	check := openStore(t, dbURL)
	pub := publisher(t, url)
	send := func(board, game string, seq uint64) {
		m, _ := json.Marshal(referee.Message{Seq: seq, Board: board, Game: game, Kind: referee.MsgGameStart, Variant: "teams"})
		if tok := pub.Publish(mqtt.Topic("", board, mqtt.TopicEvents), 1, false, m); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("publish: %v", tok.Error())
		}
	}
	// Until the hub listens (what comes before is lost: nobody replays
	// for these made-up boards).
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		send("b1", "../../etc", 1)
		send("b1", "g1", 1)
		if last, _ := check.LastSeqs(context.Background()); last["b1"] == 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the hub took nothing in")
		}
	}
	send("b1~20261128-150405", "g1", 1) // named as a forgotten board's history: no board
	send("b2", "g1", 1)
	send("b3", "g1", 1)
	send("b4", "g1", 1)
	send("b1", "g2", 2) // the hub handles messages in order: once it holds this, it has seen b3 and b4
	waitHeld(t, check, "b1", 2)
	sum, _ := check.Boards(context.Background())
	var names []string
	for _, b := range sum {
		names = append(names, b.Board+"/"+b.Game)
	}
	if !reflect.DeepEqual(names, []string{"b1/g2", "b2/g1"}) {
		t.Errorf("boards %v, want b1 (at g2) and b2 only", names)
	}
	if _, ok, _ := check.Game(context.Background(), "b1", "../../etc"); ok {
		t.Error("a game id that is no id was stored")
	}
	if last, _ := check.LastSeqs(context.Background()); last["b1~20261128-150405"] != 0 {
		t.Error("a board named as a forgotten board's history was stored")
	}
}

// The database goes away mid-game (PostgreSQL stopped) and comes back:
// what the hub could not store it asks for again, and it ends with every
// message once, no gap.
func TestHubOutlivesTheDatabase(t *testing.T) {
	pg := pgtest.Start(t)
	dbURL := pg.NewDB(t)
	url := startBroker(t)
	check := openStore(t, dbURL)
	l := startBoard(t, url, "club-5", 0)
	startHub(t, url, dbURL)
	play(t, l, teamsMoves[:4]...)
	waitHeld(t, check, "club-5", l.State().Seq)

	pg.Stop()
	play(t, l, teamsMoves[4:10]...) // the hub cannot store these
	pg.Restart()
	play(t, l, teamsMoves[10:12]...)
	last := l.State().Seq
	waitHeld(t, check, "club-5", last)

	seqs, _ := check.Seqs(context.Background(), "club-5")
	if !reflect.DeepEqual(seqs, seqRange(1, last)) {
		t.Fatalf("the hub holds seqs %v, want 1 to %d once each", seqs, last)
	}
	sum, _ := check.Boards(context.Background())
	if len(sum) != 1 || sum[0].Moves != 12 || sum[0].LastMove != teamsMoves[11] {
		t.Errorf("boards %+v", sum)
	}
}
