package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/engine"
	"boardd/referee"
	"boardd/sync/botseat"
	"boardd/sync/mqtt"
)

func init() {
	register(command{name: "bot", summary: "play a seat of a board over MQTT with the bot (bot --broker URL --board ID --seat Green)", run: runBot})
}

func runBot(args []string, stdout, stderr io.Writer) error {
	flags := newFlags("bot", stderr)
	bf := addBrokerFlags(flags)
	board := flags.String("board", "", "the board's id")
	seatName := flags.String("seat", "", "the seat the bot plays: Red, Blue, Yellow or Green")
	level := flags.Int("level", 3, "strength, 1 (a beginner) to 5 (the strongest the time allows)")
	movetime := flags.Duration("movetime", 2*time.Second, "time per move when the game has no clocks (with clocks the bot manages the seat's clock)")
	hash := flags.Int("hash-mb", 64, "the transposition table, megabytes")
	resign := flags.Bool("resign", false, "resign a hopeless Teams game (level 3 or more)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd bot --broker URL --board ID --seat Green [--level N --movetime 2s --user U --password P --prefix boardd]")
		fmt.Fprintln(stderr, "Plays one seat of the board as a remote seat until interrupted: it makes the seat remote, and on its turn sends its move (cmd/move), which the board lights for a person to make.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *board == "" || *seatName == "" || flags.NArg() > 0 {
		return fmt.Errorf("%w: boardd bot --broker URL --board ID --seat Green", errUsage)
	}
	if err := mqtt.CheckID("board", *board); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	seats, err := botseat.ParseBots(*seatName)
	if err != nil || len(seats) != 1 {
		return fmt.Errorf("%w: --seat %q: want Red, Blue, Yellow or Green", errUsage, *seatName)
	}
	if *level < 1 || *level > engine.MaxLevel {
		return fmt.Errorf("%w: --level %d: want 1 to %d", errUsage, *level, engine.MaxLevel)
	}
	for s := range seats {
		seats[s] = *level
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return playBot(ctx, bf, *board, botseat.Config{Lookup: loadVariant, Seats: seats, MoveTime: *movetime, HashMB: *hash, Resign: *resign,
		Logger: slog.New(slog.NewTextHandler(stderr, nil))}, stderr)
}

// playBot plays cfg.Seats of a board over MQTT until ctx ends.
func playBot(ctx context.Context, bf brokerFlags, board string, cfg botseat.Config, stderr io.Writer) error {
	src, err := dialBoard(ctx, bf, board)
	if err != nil {
		return err
	}
	defer src.close()
	fmt.Fprintf(stderr, "bot playing %s on board %s at %s\n", botseat.FormatBots(cfg.Seats), board, *bf.url)
	return botseat.Run(ctx, src, cfg)
}

// mqttBoard is a board seen over MQTT: its retained state, and commands
// published on cmd/<name> with their replies from cmd/<name>/result. It
// is a botseat.Source.
type mqttBoard struct {
	c    paho.Client
	base string
	n    atomic.Uint64

	mu      sync.Mutex
	st      referee.State
	notify  map[chan struct{}]struct{}
	replies map[string]chan referee.Reply
}

// dialBoard connects to the broker and waits for the board's state.
func dialBoard(ctx context.Context, bf brokerFlags, board string) (*mqttBoard, error) {
	b := &mqttBoard{base: mqtt.Topic(*bf.prefix, board, ""), notify: map[chan struct{}]struct{}{}, replies: map[string]chan referee.Reply{}}
	filters := map[string]byte{b.base + mqtt.TopicState: 1, b.base + "cmd/+/result": 1}
	c, err := bf.connect(mqttClientID("bot"), func(c paho.Client) error {
		return mqttSubscribe(c, filters, b.handle)
	})
	if err != nil {
		return nil, err
	}
	b.c = c
	deadline := time.After(10 * time.Second)
	for b.State().FEN4 == "" {
		select {
		case <-ctx.Done():
			b.close()
			return nil, ctx.Err()
		case <-deadline:
			b.close()
			return nil, fmt.Errorf("board %s published no state on %s within 10 s: is the board id right (boardd watch lists the boards it hears)?", board, b.base+mqtt.TopicState)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return b, nil
}

func (b *mqttBoard) close() { b.c.Disconnect(250) }

// handle takes the board's state and the replies to our commands.
func (b *mqttBoard) handle(_ paho.Client, m paho.Message) {
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
func (b *mqttBoard) State() referee.State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st
}

// Changed signals every new state.
func (b *mqttBoard) Changed() (<-chan struct{}, func()) {
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
func (b *mqttBoard) Do(ctx context.Context, c referee.Command) referee.Reply {
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

// compile-time check: an MQTT board is a bot's source.
var _ botseat.Source = (*mqttBoard)(nil)
