// Package termview draws a live board in a terminal: the pieces as
// labels on the LEDs' colours, whose turn it is and what the board asks.
// Show follows a board in this process (boardd run on a terminal with no
// LEDs of its own); Watch follows one over MQTT (boardd watch). What
// comes from the network is escaped, never sent to the terminal raw.
package termview

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/internal/printable"
	"boardd/leds"
	"boardd/leds/term"
	"boardd/referee"
	"boardd/rules/square"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

// IsTerminal tells whether f is a terminal (a character device), where a
// person is watching.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Draw writes the board as boardd sim draws it: whose turn, the
// pieces ("rP", "bK"; "xx" a square to empty, "??" one to fill during a
// correction) on the LEDs' colours.
func Draw(w io.Writer, st referee.State, li referee.Lights, color bool) {
	f := leds.NewFrame()
	for name, hex := range li.Squares {
		q, err := square.Parse(name)
		c, cerr := ParseHexColor(hex) // as boardd watch reads them
		if err == nil && cerr == nil {
			f.Set(q, c)
		}
	}
	marks := map[string]string{}
	for _, q := range st.Wrong {
		marks[q] = "xx"
	}
	for _, q := range st.Missing {
		marks[q] = "??"
	}
	var board square.Set
	for _, name := range st.Squares {
		if q, err := square.Parse(name); err == nil {
			board.Add(q)
		}
	}
	label := func(q square.Square) string {
		if m, ok := marks[q.String()]; ok {
			return m
		}
		return st.Pieces[q.String()]
	}
	line := st.Turn + " to move"
	if p := playerOf(st, st.Turn); p != "" {
		line += " (" + p + ")"
	}
	switch st.Status {
	case "over":
		line = "game over"
		if st.Result != nil {
			line += ": " + st.Result.Reason
			if len(st.Result.Winners) > 0 {
				line += ", " + strings.Join(st.Result.Winners, " & ") + " won"
			}
		}
	case "correction":
		line += " — the board differs from the game: empty xx, fill ??, follow the lights"
	case "setup":
		line += " — setting up: follow the lights"
	}
	fmt.Fprintln(w, line)
	term.Render(w, board, f, label, color)
}

// playerOf is the player in seat, if the state names one.
func playerOf(st referee.State, seat string) string {
	for _, s := range st.Seats {
		if s.Seat == seat {
			return s.Player
		}
	}
	return ""
}

// Show draws the live board in the terminal whenever its pieces,
// turn, status or lights change, until ctx ends: boardd run on a
// terminal with no LEDs of its own shows what the LEDs would.
func Show(ctx context.Context, b referee.Board, w io.Writer, color bool) {
	sig, cancel := b.Changed()
	defer cancel()
	last := ""
	draw := func() {
		st, li := b.State(), b.Lights()
		key := fmt.Sprint(st.FEN4, st.Status, st.Turn, st.Wrong, st.Missing, li.Squares)
		if key == last {
			return
		}
		last = key
		Draw(w, st, li, color)
	}
	draw()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sig:
			if !ok {
				return
			}
			select { // let a burst of changes settle
			case <-time.After(50 * time.Millisecond):
			case <-ctx.Done():
				return
			}
			draw()
		}
	}
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

// Watch follows a board over MQTT until ctx ends: it draws the board on
// stdout on every state the board publishes, with each event's text
// below (with color: the LEDs' colours, redrawn in place). After five
// seconds without the board's state it says so on stderr, naming the
// boards that did publish.
func Watch(ctx context.Context, br mqttclient.Broker, board string, color bool, stdout, stderr io.Writer) error {
	return watch(ctx, br, board, color, watchSilence, stdout, stderr)
}

// watch is Watch, saying after silence that the board published nothing.
func watch(ctx context.Context, br mqttclient.Broker, board string, color bool, silence time.Duration, stdout, stderr io.Writer) error {
	type msg struct {
		topic   string
		payload []byte
	}
	msgs := make(chan msg, 256)
	base := mqtt.Topic(br.Prefix, board, "")
	filters := map[string]byte{}
	for _, leaf := range []string{mqtt.TopicState, mqtt.TopicEvents, mqtt.TopicLEDs} {
		filters[base+leaf] = 1
	}
	// Every board's retained status: this board's, and the others' to
	// name them when this one says nothing.
	filters[mqtt.Topic(br.Prefix, "+", mqtt.TopicStatus)] = 1
	c, err := br.Connect(mqttclient.ClientID("watch"), func(c paho.Client) error {
		return mqttclient.Subscribe(c, filters, func(_ paho.Client, m paho.Message) {
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
	fmt.Fprintf(stderr, "watching board %s on %s\n", board, br.URL)
	wt := &watcher{w: stdout, color: color}
	others := map[string]bool{}
	quiet := time.NewTimer(silence)
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-quiet.C:
			if wt.state == nil {
				fmt.Fprintln(stderr, silentBoard(board, br.URL, br.Prefix, silence, others))
			}
		case m := <-msgs:
			if !strings.HasPrefix(m.topic, base) {
				if id, leaf, ok := strings.Cut(strings.TrimPrefix(m.topic, br.Prefix+"/"), "/"); ok && leaf == mqtt.TopicStatus {
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

// watchSilence is how long Watch waits for the board's state before it
// says that nothing came.
const watchSilence = 5 * time.Second

// silentBoard says that a board published nothing, and which boards did.
func silentBoard(board, url, prefix string, silence time.Duration, others map[string]bool) string {
	ids := make([]string, 0, len(others))
	for id := range others {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	s := fmt.Sprintf("no state from board %q on %s after %v: check --board (the board's id, config key board)", board, url, silence)
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
		c, err2 := ParseHexColor(hex)
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

// ParseHexColor reads a colour as the board publishes its lights: #rrggbb.
func ParseHexColor(s string) (leds.Color, error) {
	if len(s) != 7 || s[0] != '#' {
		return leds.Color{}, fmt.Errorf("colour %q: want #rrggbb", s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return leds.Color{}, fmt.Errorf("colour %q: want #rrggbb", s)
	}
	return leds.Color{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v)}, nil
}

// clockText is a clock's time left as m:ss.
func clockText(ms int64) string {
	sec := ms / 1000
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}
