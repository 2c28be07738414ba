package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"boardd/internal/printable"
	"boardd/leds"
	"boardd/leds/term"
	"boardd/referee"
	"boardd/rules/square"
	"boardd/sync/mqtt"

	paho "github.com/eclipse/paho.mqtt.golang"
)

func init() {
	register(command{name: "watch", summary: "draw a board's game in the terminal from MQTT (watch --broker URL --board ID)", run: runWatch})
}

func runWatch(args []string, stdout, stderr io.Writer) error {
	flags := newFlags("watch", stderr)
	bf := addBrokerFlags(flags)
	board := flags.String("board", "", "the board's id")
	color := flags.Bool("color", false, "draw the LED colours and redraw in place (ANSI terminal)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd watch --broker URL --board ID [--user U --password P --prefix boardd --color]")
		fmt.Fprintln(stderr, "Draws the board on every state it publishes, with each event's text below, until interrupted.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *board == "" || flags.NArg() > 0 {
		return fmt.Errorf("%w: boardd watch --broker URL --board ID", errUsage)
	}
	if err := mqtt.CheckID("board", *board); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watch(ctx, bf, *board, *color, stdout, stderr)
}

// watcher turns what a board publishes into terminal pictures. Only the
// watch loop goroutine uses it.
type watcher struct {
	w       io.Writer
	color   bool
	state   *referee.State
	lights  referee.Lights
	lastSeq uint64
	recent  []string // the last events' texts, for --color redraws
}

// maxRecent is how many event texts a --color redraw shows.
const maxRecent = 8

// watch follows a board until ctx ends.
func watch(ctx context.Context, bf brokerFlags, board string, color bool, stdout, stderr io.Writer) error {
	type msg struct {
		topic   string
		payload []byte
	}
	msgs := make(chan msg, 256)
	base := mqtt.Topic(*bf.prefix, board, "")
	filters := map[string]byte{}
	for _, leaf := range []string{mqtt.TopicState, mqtt.TopicEvents, mqtt.TopicLEDs} {
		filters[base+leaf] = 1
	}
	// Every board's retained status: this board's, and the others' to
	// name them when this one says nothing.
	filters[mqtt.Topic(*bf.prefix, "+", mqtt.TopicStatus)] = 1
	c, err := bf.connect(mqttClientID("watch"), func(c paho.Client) error {
		return mqttSubscribe(c, filters, func(_ paho.Client, m paho.Message) {
			select {
			case msgs <- msg{m.Topic(), m.Payload()}:
			case <-ctx.Done():
			}
		})
	})
	if err != nil {
		return err
	}
	defer c.Disconnect(250)
	fmt.Fprintf(stderr, "watching board %s on %s\n", board, *bf.url)
	wt := &watcher{w: stdout, color: color}
	others := map[string]bool{}
	silence := time.NewTimer(watchSilence)
	defer silence.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-silence.C:
			if wt.state == nil {
				fmt.Fprintln(stderr, silentBoard(board, *bf.url, *bf.prefix, others))
			}
		case m := <-msgs:
			if !strings.HasPrefix(m.topic, base) {
				if id, leaf, ok := strings.Cut(strings.TrimPrefix(m.topic, *bf.prefix+"/"), "/"); ok && leaf == mqtt.TopicStatus {
					others[id] = true
				}
				continue
			}
			leaf := strings.TrimPrefix(m.topic, base)
			if err := wt.handle(leaf, m.payload); err != nil {
				fmt.Fprintf(stderr, "watch: %s: %v\n", leaf, err)
			}
		}
	}
}

// watchSilence is how long watch waits for the board's state before it
// says that nothing came.
var watchSilence = 5 * time.Second

// silentBoard says that a board published nothing, and which boards did.
func silentBoard(board, url, prefix string, others map[string]bool) string {
	ids := make([]string, 0, len(others))
	for id := range others {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	s := fmt.Sprintf("no state from board %q on %s after %v: check --board (the board's id, config key board)", board, url, watchSilence)
	if len(ids) > 0 {
		return s + "; boards on this broker: " + strings.Join(ids, ", ")
	}
	return s + fmt.Sprintf("; no board has published under %s/ (check --prefix, and that the board runs); still waiting", prefix)
}

// handle takes one message from a board's topic leaf.
func (wt *watcher) handle(leaf string, payload []byte) error {
	switch leaf {
	case mqtt.TopicState:
		var s referee.State
		if err := json.Unmarshal(payload, &s); err != nil {
			return err
		}
		wt.state = &s
		return wt.draw()
	case mqtt.TopicLEDs:
		var l referee.Lights
		if err := json.Unmarshal(payload, &l); err != nil {
			return err
		}
		wt.lights = l
		if wt.color && wt.state != nil {
			return wt.draw()
		}
	case mqtt.TopicEvents:
		var m referee.Message
		if err := json.Unmarshal(payload, &m); err != nil {
			return err
		}
		if m.Seq <= wt.lastSeq {
			return nil // delivered twice, or a replay
		}
		wt.lastSeq = m.Seq
		line := fmt.Sprintf("#%d %s", m.Seq, printable.Escape(m.Text)) // text from the network: no terminal escapes
		wt.recent = append(wt.recent, line)
		if len(wt.recent) > maxRecent {
			wt.recent = wt.recent[len(wt.recent)-maxRecent:]
		}
		if !wt.color {
			_, err := fmt.Fprintln(wt.w, line)
			return err
		}
		if wt.state != nil {
			return wt.draw()
		}
	case mqtt.TopicStatus:
		if string(payload) == mqtt.StatusOffline {
			_, err := fmt.Fprintln(wt.w, "(the board is offline)")
			return err
		}
	}
	return nil
}

// draw draws the board of the last state: pieces as labels, the LEDs'
// colours (with --color), then who plays and, with --color, the last
// events.
func (wt *watcher) draw() error {
	s := wt.state
	var board square.Set
	for _, name := range s.Squares {
		if sq, err := square.Parse(name); err == nil {
			board.Add(sq)
		}
	}
	if board.Len() == 0 {
		board = square.Cross()
	}
	frame := leds.NewFrame()
	for name, hex := range wt.lights.Squares {
		sq, err1 := square.Parse(name)
		c, err2 := parseHexColor(hex)
		if err1 == nil && err2 == nil {
			frame.Set(sq, c)
		}
	}
	// Everything below comes from the network: control characters are
	// written as \uXXXX, never sent to the terminal.
	e := printable.Escape
	label := func(sq square.Square) string { return e(s.Pieces[sq.String()]) }
	var b strings.Builder
	if wt.color {
		b.WriteString("\x1b[H\x1b[2J") // home, clear
	}
	if err := term.Render(&b, board, frame, label, wt.color); err != nil {
		return err
	}
	fmt.Fprintf(&b, "board %s  game %s  %s  #%d  %s", e(s.Board), e(s.Game), e(s.Variant), s.Seq, e(s.Status))
	if s.Status == "playing" {
		fmt.Fprintf(&b, ", %s to move", e(s.Turn))
	}
	b.WriteString("\n")
	for _, seat := range s.Seats {
		fmt.Fprintf(&b, "  %-6s %-16s %3d  %s", e(seat.Seat), e(seat.Player), seat.Points, e(seat.Status))
		if seat.ClockMS >= 0 {
			fmt.Fprintf(&b, "  %s", clockText(seat.ClockMS))
			if seat.Running {
				b.WriteString(" ⏵")
			}
		}
		b.WriteString("\n")
	}
	if len(s.Wrong)+len(s.Missing) > 0 {
		fmt.Fprintf(&b, "  correction: empty %s, fill %s\n", e(strings.Join(s.Wrong, " ")), e(strings.Join(s.Missing, " ")))
	}
	if s.Result != nil {
		fmt.Fprintf(&b, "  result %s (%s)\n", e(s.Result.PGN4), e(s.Result.Reason))
	}
	if wt.color {
		for _, line := range wt.recent {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(wt.w, b.String())
	return err
}

func parseHexColor(s string) (leds.Color, error) {
	if len(s) != 7 || s[0] != '#' {
		return leds.Color{}, fmt.Errorf("colour %q: want #rrggbb", s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return leds.Color{}, fmt.Errorf("colour %q: want #rrggbb", s)
	}
	return leds.Color{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v)}, nil
}

func clockText(ms int64) string {
	sec := ms / 1000
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}
