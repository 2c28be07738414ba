// Package ingest is how the club hub takes in the boards: it subscribes
// to every board's topics on the club's MQTT broker and stores each
// message of each board's stream, with its effect on the games, in the
// hub's database (hub/store), one transaction per message. The
// database's commit is the hub's acknowledgement: what is not committed
// is asked for again.
//
// Every board numbers its messages (seq). The hub keeps, per board, the
// last seq it holds, and stores only the next one: an older seq is a
// duplicate (dropped), a newer one means messages are missing, and the
// hub asks the board for them with its replay command (cmd/replay
// {"from": N}, docs/mqtt.md), as it does for every board it knows each
// time it (re)connects and for each board as it (re)joins (its status
// online: an ask sent while it was away never reached it). A board whose retained state is ahead of what
// the hub holds is asked the same, so a hub that was stopped, killed or
// cut off for any time resumes every board where its database ends: no
// message twice, none missing. When a board answers that it no longer
// keeps the messages asked for, the hub records the gap and goes on from
// the oldest the board keeps. Every board is offline from the hub's
// start until it is heard from.
//
// A board's finished games published on games/<id> (its archive, sent
// when it joins, and each game as it ends) are stored through
// app/hub/importer unless the store has them: the games a board played
// before it joined come this way.
package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/hub/importer"
	"boardd/app/hub/store"
	"boardd/referee"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

// Config configures Run.
type Config struct {
	// Broker is the club's broker, as a user that may publish (the hub
	// sends replay commands to the boards).
	Broker mqttclient.Broker
	// Store is the hub's database.
	Store *store.Store
	// Log receives what the hub does with the boards; nil discards it.
	Log *slog.Logger
	// MaxBoards bounds the boards the hub takes in (default
	// DefaultMaxBoards): past it, a board the hub does not know yet is
	// ignored (and logged), so a publisher cannot fill the database with
	// made-up boards.
	MaxBoards int
	// Live, if set, is told of each message once the database holds it
	// (after this hub's commit, or another hub's on the same database,
	// in the order of the board's seqs), and of each
	// board's status after it is stored: the hub's live broadcast
	// (hub/live). Its calls come in the order of storing, from one
	// goroutine, and must not block.
	Live Notifier
	// ReplayAfter is how long the hub waits for the messages it asked a
	// board for before asking again (default 5 s); a fifth of it is how
	// long a board's state may be ahead of its events before the hub asks.
	ReplayAfter time.Duration
}

// Notifier is told what the hub stored (Config.Live).
type Notifier interface {
	// Stored: message m, published as body, is committed (by this hub
	// or another hub on the same database) as the database's message n
	// (store.Message.N).
	Stored(n uint64, m referee.Message, body []byte)
	// Status: the board's MQTT status is stored.
	Status(board, status string)
}

// DefaultMaxBoards is Config.MaxBoards' default: far more boards than a
// club or a league has.
const DefaultMaxBoards = 1000

// MaxMessageBytes bounds a message the hub takes from a board (a move's
// message with its FEN4 is about 1 KiB).
const MaxMessageBytes = 256 << 10

// inbound is what the broker hands the loop.
type inbound struct {
	topic     string
	payload   []byte
	connected bool // the connection (re)started: resume every board
}

// board is the loop's view of one board.
type board struct {
	held      uint64    // the last seq the store holds
	seen      uint64    // the highest seq the board is known to have
	asked     time.Time // when a replay was last asked for
	askedFrom uint64
	// behind is when the hub last saw the board ahead of it with nothing
	// stored since (zero: not behind).
	behind time.Time
}

// saw notes that the board has seq; a seq past what the hub holds starts
// the wait for it (see tick).
func (b *board) saw(seq uint64, now time.Time) {
	if seq > b.seen {
		b.seen = seq
	}
	if b.seen > b.held && b.behind.IsZero() {
		b.behind = now
	}
}

// stored notes that the hub now holds seq.
func (b *board) stored(seq uint64, now time.Time) {
	b.held = seq
	b.behind = time.Time{}
	if b.seen > b.held {
		b.behind = now
	}
}

// ingester is one Run.
type ingester struct {
	cfg     Config
	log     *slog.Logger
	prefix  string
	client  paho.Client
	boards  map[string]*board
	refused map[string]bool // boards past MaxBoards, logged once
	ids     string          // the prefix of our replay commands' ids
	n       atomic.Uint64
	now     func() time.Time
	grace   time.Duration // how long a board may be ahead before it is asked
}

// Run takes in the boards until ctx ends. Its error is about starting:
// the store cannot be read, or the broker refused the hub's connection;
// later trouble (a dropped connection, a refused subscription, a failed
// write) is logged and mended by trying again and asking the boards
// again.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Store == nil {
		return errors.New("hub ingest: no store")
	}
	if cfg.ReplayAfter <= 0 {
		cfg.ReplayAfter = 5 * time.Second
	}
	if cfg.MaxBoards <= 0 {
		cfg.MaxBoards = DefaultMaxBoards
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	prefix := strings.TrimSuffix(cfg.Broker.Prefix, "/")
	if prefix == "" {
		prefix = mqtt.DefaultPrefix
	}
	in := &ingester{cfg: cfg, log: log, prefix: prefix, boards: map[string]*board{}, refused: map[string]bool{},
		ids: fmt.Sprintf("hub-%d-", os.Getpid()), now: time.Now, grace: max(cfg.ReplayAfter/5, 10*time.Millisecond)}
	held, err := cfg.Store.LastSeqs(ctx)
	if err != nil {
		return fmt.Errorf("hub ingest: %w", err)
	}
	for name, seq := range held {
		in.boards[name] = &board{held: seq, seen: seq}
	}
	// No board is online until it says so: what the database holds is
	// from before this start (the boards' last wills died with a killed
	// hub's broker).
	if err := cfg.Store.AllOffline(ctx); err != nil {
		return fmt.Errorf("hub ingest: %w", err)
	}
	inbox := make(chan inbound, 1024)
	push := func(m inbound) {
		select {
		case inbox <- m:
		case <-ctx.Done():
		}
	}
	filters := map[string]byte{}
	for _, leaf := range []string{mqtt.TopicEvents, mqtt.TopicStatus, mqtt.TopicState, mqtt.TopicCmd + "/" + referee.CmdReplay + "/result", mqtt.TopicGames + "/+"} {
		// QoS 0: what the hub holds is decided by the seqs and the
		// boards' replays (and a finished game is retained, sent again
		// on every subscription), not by the broker's redelivery (a
		// clean session redelivers nothing after a reconnect anyway).
		// On a NATS cluster a QoS 1 subscription is a JetStream
		// consumer, which stalls, or is gone with the node it lives on,
		// while the connection stays up: the hub heard nothing more and
		// did not know. A QoS 0 subscription is a plain NATS one,
		// carried by every node.
		filters[prefix+"/+/"+leaf] = 0
	}
	var conns atomic.Uint64 // the connection's number
	subscribe := func(c paho.Client) error {
		err := mqttclient.Subscribe(c, filters, func(_ paho.Client, m paho.Message) {
			push(inbound{topic: m.Topic(), payload: m.Payload()})
		})
		if err == nil {
			log.Info("hub: listening to the boards", "broker", cfg.Broker.URL, "topics", prefix+"/+/…")
			push(inbound{connected: true})
		}
		return err
	}
	c, err := cfg.Broker.Connect(mqttclient.ClientID("hub"), func(c paho.Client) error {
		n := conns.Add(1)
		if err := subscribe(c); err != nil {
			// A broker may refuse for a moment (a NATS cluster electing
			// its leaders after losing a node): asked again, on this
			// connection, until it answers.
			log.Error("hub: cannot subscribe to the boards; trying again", "error", err)
			go resubscribe(ctx, c, func() bool { return conns.Load() == n }, subscribe, log)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("hub ingest: %w", err)
	}
	in.client = c
	defer c.Disconnect(250)
	tick := time.NewTicker(in.grace)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-inbox:
			in.handle(ctx, m)
		case <-tick.C:
			// A board ahead of the hub for a tick with nothing stored
			// meanwhile is asked: its retained state may come a moment
			// before the event it includes, which is no gap.
			now := in.now()
			for name, b := range in.boards {
				if b.seen > b.held && !b.behind.IsZero() && now.Sub(b.behind) >= in.grace {
					in.ask(name, b, false)
				}
			}
		}
	}
}

// resubscribe subscribes c again, at growing intervals (up to 10 s),
// until it succeeds, ctx ends, or current reports that c's connection
// is no longer the hub's (the next one subscribes itself).
func resubscribe(ctx context.Context, c paho.Client, current func() bool, subscribe func(paho.Client) error, log *slog.Logger) {
	wait := 200 * time.Millisecond
	for try := 2; ; try++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if !current() || !c.IsConnectionOpen() {
			return
		}
		err := subscribe(c)
		if err == nil {
			return
		}
		log.Error("hub: cannot subscribe to the boards; trying again", "try", try, "error", err)
		wait = min(2*wait, 10*time.Second)
	}
}

func (in *ingester) handle(ctx context.Context, m inbound) {
	if m.connected {
		for name, b := range in.boards {
			b.asked = time.Time{}
			in.ask(name, b, true)
		}
		return
	}
	name, leaf, ok := mqtt.SplitTopic(in.prefix, m.topic)
	if !ok {
		return
	}
	if err := mqtt.CheckID("board", name); err != nil {
		in.log.Warn("hub: a topic that names no board; ignored", "topic", m.topic, "error", err)
		return
	}
	if _, retired := store.Retired(name); retired {
		// NAME~<date> is a forgotten board's history (boardd hub
		// forget), which is no board: a board so named would mix with it.
		if !in.refused[name] && len(in.refused) < 100 {
			in.refused[name] = true
			in.log.Warn("hub: a board named as a forgotten board's history (NAME~YYYYMMDD-HHMMSS) is ignored: give it another name", "board", name)
		}
		return
	}
	if in.boards[name] == nil && len(in.boards) >= in.cfg.MaxBoards {
		if !in.refused[name] && len(in.refused) < 100 {
			in.refused[name] = true
			in.log.Warn("hub: too many boards; this one is ignored", "board", name, "max", in.cfg.MaxBoards)
		}
		return
	}
	if len(m.payload) > MaxMessageBytes {
		in.log.Warn("hub: message too large; ignored", "topic", m.topic, "bytes", len(m.payload), "max", MaxMessageBytes)
		return
	}
	switch leaf {
	case mqtt.TopicEvents:
		in.event(ctx, name, m.payload)
	case mqtt.TopicStatus:
		in.status(ctx, name, string(m.payload))
	case mqtt.TopicState:
		var st struct {
			Board string `json:"board"`
			Seq   uint64 `json:"seq"`
		}
		if json.Unmarshal(m.payload, &st) != nil || st.Board != name {
			return
		}
		in.board(name).saw(st.Seq, in.now())
	default:
		if id, ok := strings.CutPrefix(leaf, mqtt.TopicGames+"/"); ok {
			in.game(ctx, name, id, m.payload)
			return
		}
		in.replyToReplay(ctx, name, m.payload) // cmd/replay/result
	}
}

func (in *ingester) board(name string) *board {
	b := in.boards[name]
	if b == nil {
		b = &board{}
		in.boards[name] = b
	}
	return b
}

// event stores the next message of a board's stream, drops one the hub
// holds, and asks for the missing ones when it comes early.
func (in *ingester) event(ctx context.Context, name string, payload []byte) {
	var m referee.Message
	if err := json.Unmarshal(payload, &m); err != nil {
		in.log.Warn("hub: a board's event is not a message; ignored", "board", name, "error", err)
		return
	}
	if m.Game != "" {
		if err := mqtt.CheckID("game", m.Game); err != nil {
			in.log.Warn("hub: an event with a game id that cannot be one; ignored", "board", name, "seq", m.Seq, "error", err)
			return
		}
	}
	if m.Board != name || m.Seq == 0 {
		in.log.Warn("hub: an event of another board or without a seq; ignored", "board", name, "message_board", m.Board, "seq", m.Seq)
		return
	}
	b := in.board(name)
	b.saw(m.Seq, in.now())
	switch {
	case m.Seq <= b.held:
		return // a duplicate: at least once, from the board or a replay
	case m.Seq > b.held+1:
		in.ask(name, b, false)
		return
	}
	n, stored, err := in.cfg.Store.RecordN(ctx, storeMessage(m, payload), effect(m))
	if err != nil {
		if ctx.Err() == nil {
			in.log.Error("hub: cannot store a board's message; it will be asked for again", "board", name, "seq", m.Seq, "error", err)
		}
		return
	}
	b.stored(m.Seq, in.now())
	if stored {
		in.log.Debug("hub: stored", "board", name, "seq", m.Seq, "kind", m.Kind)
	}
	// Not stored: another hub on the same database committed it first
	// (this hub held only the seq before it). This hub's viewers need it
	// all the same.
	if in.cfg.Live != nil {
		in.cfg.Live.Stored(n, m, payload)
	}
}

func (in *ingester) status(ctx context.Context, name, status string) {
	switch status {
	case mqtt.StatusOnline, mqtt.StatusOffline, mqtt.StatusPaused, mqtt.StatusSensorFault:
	default:
		return
	}
	if err := in.cfg.Store.SetStatus(ctx, name, status); err != nil {
		if ctx.Err() == nil {
			in.log.Error("hub: cannot store a board's status", "board", name, "status", status, "error", err)
		}
	} else if in.cfg.Live != nil {
		in.cfg.Live.Status(name, status)
	}
	b := in.board(name)
	if status == mqtt.StatusOnline {
		// A board name released and its history retired (boardd hub
		// forget) starts again from the first message of the board that
		// joins under it.
		if seq, err := in.cfg.Store.LastSeq(ctx, name); err == nil && seq < b.held {
			in.log.Info("hub: the board's earlier history was retired; taking its stream from the start", "board", name, "held", b.held)
			b.held, b.seen, b.behind, b.asked = seq, seq, time.Time{}, time.Time{}
		}
		// The board (re)joined: what the hub asked while it was away
		// (every board is asked as the hub connects) never reached it,
		// and asking again waits ReplayAfter; ask now.
		in.ask(name, b, true)
	}
}

// game stores a finished game a board published on games/<id> (its
// archive, sent when it joins, and each game as it ends) unless the
// store has it: a game from before the board's stream reached the hub
// comes this way (app/hub/importer).
func (in *ingester) game(ctx context.Context, name, id string, payload []byte) {
	if len(payload) == 0 {
		return // a retained game cleared
	}
	o, err := importer.Published(ctx, in.cfg.Store, name, id, string(payload))
	switch {
	case err != nil && ctx.Err() == nil:
		in.log.Warn("hub: a board's finished game not stored", "board", name, "game", id, "error", err)
	case err == nil && o == importer.Stored:
		in.log.Info("hub: a board's finished game stored from its archive", "board", name, "game", id)
	}
}

// ask publishes cmd/replay from the board's next seq; unless force, not
// again for the same seq before ReplayAfter.
func (in *ingester) ask(name string, b *board, force bool) {
	from := b.held + 1
	now := in.now()
	if !force && b.askedFrom == from && now.Sub(b.asked) < in.cfg.ReplayAfter {
		return
	}
	b.asked, b.askedFrom = now, from
	payload, _ := json.Marshal(referee.Command{ID: in.ids + strconv.FormatUint(in.n.Add(1), 10), From: &from})
	topic := mqtt.Topic(in.prefix, name, mqtt.TopicCmd+"/"+referee.CmdReplay)
	in.log.Info("hub: asking a board for its messages", "board", name, "from", from)
	// Not waited for: the loop must go on taking messages, and an ask
	// that is lost is asked again.
	in.client.Publish(topic, 1, false, payload)
}

// notKept reads the oldest seq a board keeps from its answer to a replay
// of messages it no longer keeps (referee.NotKeptError's words).
var notKept = regexp.MustCompile(`are no longer kept \(the oldest is (\d+)\)`)

// replyToReplay reads the board's answer to one of our replays: done
// (nothing more to ask for), or it no longer keeps those messages (the
// gap is recorded, and the hub asks from the oldest it keeps).
func (in *ingester) replyToReplay(ctx context.Context, name string, payload []byte) {
	var r referee.Reply
	if json.Unmarshal(payload, &r) != nil || !strings.HasPrefix(r.ID, in.ids) {
		return
	}
	b := in.board(name)
	if r.OK && r.Seq > b.held {
		// The board's answer says its block went up to r.Seq, and the
		// hub holds less: the rest was lost on the way, the whole block
		// perhaps. Asked for again once ReplayAfter has passed (the
		// tick), and again after each ReplayAfter until it is all here.
		b.saw(r.Seq, in.now())
		return
	}
	if r.OK {
		// The board has sent all it has (its replay comes as one block
		// before the answer). A seq seen past what the hub now holds:
		// when the block brought some of what was asked, the rest was
		// lost on the way (a broker drops messages to a client that does
		// not keep up, as after a hub's restart, when every board
		// replays at once), so ask for it; when it brought nothing, the
		// seq was no message of the board's stream (a confused
		// publisher), or a state whose event is on its way: nothing to
		// ask for now.
		if b.seen > b.held {
			if b.held >= b.askedFrom {
				in.ask(name, b, true)
			} else {
				b.seen, b.behind = b.held, time.Time{}
			}
		}
		return
	}
	mm := notKept.FindStringSubmatch(r.Error)
	if mm == nil {
		in.log.Warn("hub: a board refused to replay; asking again later", "board", name, "error", r.Error)
		return
	}
	oldest, err := strconv.ParseUint(mm[1], 10, 64)
	if err != nil || oldest <= b.held+1 {
		return
	}
	if err := in.cfg.Store.Gap(ctx, name, b.held+1, oldest-1, r.Error); err != nil {
		in.log.Error("hub: cannot record a gap", "board", name, "error", err)
		return
	}
	in.log.Warn("hub: the board no longer keeps some messages; going on from its oldest", "board", name, "first", b.held+1, "last", oldest-1)
	b.stored(oldest-1, in.now())
	in.ask(name, b, true)
}
