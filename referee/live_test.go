package referee

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"boardd/configs"
	"boardd/referee/clock"
	"boardd/rules"
	"boardd/rules/square"
	"boardd/rules/variants"
	"boardd/sensors"
)

// liveBoard runs a Live on a Teams game whose switches start set up.
type liveBoard struct {
	*Live
	t      *testing.T
	msgs   <-chan Message
	cancel func()
}

func startLive(t *testing.T, cfg LiveConfig) *liveBoard {
	t.Helper()
	if cfg.Variant == "" {
		cfg.Variant = "teams"
	}
	if cfg.Occupancy.Len() == 0 {
		v, _ := rules.NewVariant(cfg.Variant, cfg.Start)
		g, _ := rules.NewGame(v, "")
		cfg.Occupancy = g.Position().Occupancy()
	}
	if cfg.Quiet == 0 {
		cfg.Quiet = 5 * time.Millisecond
	}
	cfg.Board = "t1"
	cfg.Logger = slog.New(slog.DiscardHandler)
	l, err := NewLive(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	if cfg.Game != nil {
		// A game carried on starts with no message: from here on.
		_, ch, cancel, err := l.Subscribe(0)
		if err != nil {
			t.Fatal(err)
		}
		return &liveBoard{Live: l, t: t, msgs: ch, cancel: cancel}
	}
	backlog, ch, cancel, err := l.Subscribe(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(backlog) != 1 || backlog[0].Kind != MsgGameStart || backlog[0].Seq != 1 {
		t.Fatalf("backlog %+v, want the game_start", backlog)
	}
	return &liveBoard{Live: l, t: t, msgs: ch, cancel: cancel}
}

// hand lifts and places as a trace string says ("-h2 +h4").
func (b *liveBoard) hand(tr string) {
	for _, x := range trace(tr) {
		k := sensors.Place
		if x.Lift {
			k = sensors.Lift
		}
		b.Touches() <- sensors.Event{Kind: k, Square: x.Square}
	}
}

// next waits for the next message.
func (b *liveBoard) next() Message {
	b.t.Helper()
	select {
	case m := <-b.msgs:
		return m
	case <-time.After(5 * time.Second):
		b.t.Fatal("no message within 5 s")
	}
	return Message{}
}

func (b *liveBoard) do(name, payload string) Reply {
	b.t.Helper()
	c, err := ParseCommand(name, []byte(payload))
	if err != nil {
		b.t.Fatalf("%s %s: %v", name, payload, err)
	}
	return b.Do(context.Background(), c)
}

func TestLiveMovesFromTheSwitches(t *testing.T) {
	b := startLive(t, LiveConfig{})
	b.hand("-h2 +h4")
	m := b.next()
	if m.Kind != MsgMove || m.Seat != "Red" || m.Move != "h2-h4" || m.Coord != "h2-h4" || m.Seq != 2 || m.Board != "t1" || m.Game == "" {
		t.Fatalf("message %+v", m)
	}
	if len(m.Points) != 4 || len(m.Checks) != 0 || len(m.Out) != 0 {
		t.Errorf("points %v, checks %v, out %v after h2-h4", m.Points, m.Checks, m.Out)
	}
	st := b.State()
	if st.Turn != "Blue" || len(st.Moves) != 1 || st.Moves[0] != (MoveInfo{"Red", "h2-h4"}) || strings.Join(st.LastMove, "-") != "h2-h4" || st.Seq != 2 {
		t.Errorf("state after h2-h4: turn %s moves %v last %v seq %d", st.Turn, st.Moves, st.LastMove, st.Seq)
	}
	if len(st.Squares) != 160 || st.Pieces["h4"] != "rP" || st.Pieces["h1"] != "rK" || st.Status != "playing" {
		t.Errorf("state: %d squares, h4 %q h1 %q status %s", len(st.Squares), st.Pieces["h4"], st.Pieces["h1"], st.Status)
	}
	if lt := b.Lights(); lt.Squares["h2"] != "#00005a" || lt.Squares["h4"] != "#00005a" {
		t.Errorf("lights of the last move: h2 %q h4 %q", lt.Squares["h2"], lt.Squares["h4"])
	}
	// Blue moves a piece two squares off: correction, then put right.
	b.hand("-b7 +d8")
	if m := b.next(); m.Kind != MsgIllegal {
		t.Fatalf("want illegal, got %+v", m)
	}
	if st := b.State(); st.Status != "correction" || strings.Join(st.Wrong, ",") != "d8" || strings.Join(st.Missing, ",") != "b7" {
		t.Errorf("correction state: %s wrong %v missing %v", st.Status, st.Wrong, st.Missing)
	}
	b.hand("-d8 +b7")
	if m := b.next(); m.Kind != MsgCorrected {
		t.Fatalf("want corrected, got %+v", m)
	}
}

func TestLiveCommands(t *testing.T) {
	b := startLive(t, LiveConfig{})
	tests := []struct {
		name, cmd, payload string
		err                string // "" for OK
		kind               string // the message it causes ("" none)
	}{
		{"names", "tags", `{"tags":{"Red":"Ann","Event":"Club night"}}`, "", MsgTags},
		{"unknown seat", "resign", `{"seat":"Purple"}`, `"Purple" is not a seat`, ""},
		{"no promotion", "promote", `{"piece":"N"}`, "offers no promotion", ""},
		{"bad piece", "promote", `{"piece":"Z"}`, "not a piece letter", ""},
		{"no takeback asked", "takeback_confirm", ``, "no takeback", ""},
		{"no clocks", "clock", `{"action":"start"}`, "no clocks", ""},
		{"local seat", "move", `{"seat":"Red","move":"h2-h4"}`, "played at the board", ""},
		{"remote on", "remote", `{"seat":"Red","on":true}`, "", MsgTags}, // the Remote tag keeps it across a restart
		{"not legal", "move", `{"seat":"Red","move":"h2-h5"}`, "", ""},
		{"wrong turn", "move", `{"seat":"Blue","move":"b7-c7"}`, "", ""},
	}
	for _, tc := range tests {
		r := b.do(tc.cmd, tc.payload)
		switch {
		case tc.name == "not legal" || tc.name == "wrong turn":
			if r.OK || r.Error == "" {
				t.Errorf("%s: %+v, want an error", tc.name, r)
			}
		case tc.err == "" && !r.OK:
			t.Errorf("%s: %+v", tc.name, r)
		case tc.err != "" && (r.OK || !strings.Contains(r.Error, tc.err)):
			t.Errorf("%s: %+v, want error with %q", tc.name, r, tc.err)
		}
		if tc.kind != "" {
			if m := b.next(); m.Kind != tc.kind {
				t.Errorf("%s: message %+v", tc.name, m)
			}
		}
	}
	if st := b.State(); st.Seats[0].Player != "Ann" || st.Tags["Event"] != "Club night" || !st.Seats[0].Remote {
		t.Errorf("seats %+v tags %v", st.Seats[0], st.Tags)
	}
	// A remote move: lit in Red's colour; the board must show exactly it.
	if r := b.do("move", `{"seat":"Red","move":"h2-h4"}`); !r.OK {
		t.Fatal(r.Error)
	}
	if m := b.next(); m.Kind != MsgRemoteMove || m.Move != "h2-h4" {
		t.Fatalf("remote move message %+v", m)
	}
	if st, lt := b.State(), b.Lights(); st.Remote == nil || st.Remote.Move != "h2-h4" || lt.Squares["h2"] != "#c80000" || lt.Squares["h4"] != "#c80000" {
		t.Errorf("remote move shown: %+v lights h2 %q h4 %q", st.Remote, lt.Squares["h2"], lt.Squares["h4"])
	}
	b.hand("-h2 +h3")
	if m := b.next(); m.Kind != MsgIllegal || !strings.HasPrefix(m.Text, "Red's remote player asked for h2-h4, not h2-h3: put it back") {
		t.Fatalf("another move than the remote one: %+v", m)
	}
	b.hand("-h3 +h2")
	b.next() // corrected
	b.hand("-h2 +h4")
	if m := b.next(); m.Kind != MsgMove || m.Move != "h2-h4" {
		t.Fatalf("the remote move executed: %+v", m)
	}
	if st := b.State(); st.Remote != nil {
		t.Errorf("remote move still pending: %+v", st.Remote)
	}
	// Resigning in Teams ends the game for the team.
	if r := b.do("resign", `{"seat":"Blue"}`); !r.OK {
		t.Fatal(r.Error)
	}
	if m := b.next(); m.Kind != MsgResign || m.Seat != "Blue" || strings.Join(m.Out, ",") != "Blue" {
		t.Fatalf("resign message %+v", m)
	}
	m := b.next()
	if m.Kind != MsgGameOver || m.Result == nil || m.Result.PGN4 != "1-0" {
		t.Fatalf("game over %+v", m)
	}
	if st := b.State(); st.Status != "over" || st.Result == nil {
		t.Errorf("state %s %+v", st.Status, st.Result)
	}
	// A new game on a board that is not set up guides the set-up.
	if r := b.do("new_game", `{"variant":"ffa","tags":{"Red":"Bo"}}`); !r.OK {
		t.Fatal(r.Error)
	}
	if m := b.next(); m.Kind != MsgGameStart || m.Variant != "ffa" || m.Tags["Red"] != "Bo" {
		t.Fatalf("new game %+v", m)
	}
	if st := b.State(); st.Status != "correction" || strings.Join(st.Wrong, ",") != "h4" || strings.Join(st.Missing, ",") != "h2" || st.Variant != "ffa" || len(st.Moves) != 0 {
		t.Errorf("set-up guidance: %s wrong %v missing %v", st.Status, st.Wrong, st.Missing)
	}
}

func TestLiveAbandonsAGameForANewOne(t *testing.T) {
	b := startLive(t, LiveConfig{})
	b.hand("-h2 +h4")
	first := b.next().Game
	if r := b.do("new_game", `{}`); !r.OK {
		t.Fatal(r.Error)
	}
	m := b.next()
	if m.Kind != MsgGameOver || m.Result.Reason != "abandoned" || m.Result.PGN4 != "*" || m.Game != first {
		t.Fatalf("abandoned %+v", m)
	}
	if m := b.next(); m.Kind != MsgGameStart || m.Game == first || m.Variant != "teams" {
		t.Fatalf("start %+v (first game %s)", m, first)
	}
}

func TestLiveClocks(t *testing.T) {
	var mu gosync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clk := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	ctl := clock.Control{Base: time.Minute, Delay: 15 * time.Second}
	b := startLive(t, LiveConfig{Clock: &ctl, Now: clk})
	if st := b.State(); st.Seats[0].ClockMS != 60000 || st.Seats[0].Running {
		t.Fatalf("clocks before the first move: %+v", st.Seats[0])
	}
	b.hand("-h2 +h4")
	if m := b.next(); len(m.Clocks) != 4 || m.Clocks[0] != 60000 {
		t.Fatalf("first move %+v", m)
	}
	advance(20 * time.Second) // Blue thinks 20 s: 15 s free, 5 s used
	b.hand("-b7 +c7")
	if m := b.next(); m.Clocks[1] != 55000 {
		t.Errorf("Blue after 20 s with a 15 s delay: %v", m.Clocks)
	}
	// Yellow lets the flag fall: the board times Yellow out by itself.
	advance(76 * time.Second)
	m := b.next()
	if m.Kind != MsgTimeout || m.Seat != "Yellow" {
		t.Fatalf("want Yellow's timeout, got %+v", m)
	}
	// In Teams a time-out loses the game for the team.
	if m := b.next(); m.Kind != MsgGameOver || m.Result.PGN4 != "0-1" {
		t.Fatalf("game over %+v", m)
	}
}

func TestLiveSubscribe(t *testing.T) {
	b := startLive(t, LiveConfig{Keep: 8})
	for i := 0; i < 5; i++ {
		b.do("tags", `{"tags":{"Round":"x"}}`)
	}
	backlog, _, cancel, err := b.Subscribe(3)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if len(backlog) != 4 || backlog[0].Seq != 3 || backlog[3].Seq != 6 {
		t.Errorf("backlog from 3: %d messages, first %d", len(backlog), backlog[0].Seq)
	}
	for i := 0; i < 10; i++ {
		b.do("tags", `{"tags":{"Round":"y"}}`)
	}
	if _, _, _, err := b.Subscribe(1); err == nil || !strings.Contains(err.Error(), "no longer kept") {
		t.Errorf("subscribe from a forgotten message: %v", err)
	}
	// A subscriber that never reads is cut off, not waited for.
	_, slow, _, err := b.Subscribe(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1100; i++ {
		b.do("tags", `{"tags":{"Round":"z"}}`)
	}
	n := 0
	for range slow {
		n++
	}
	if n != 1024 {
		t.Errorf("slow subscriber got %d messages before being cut off, want its buffer of 1024", n)
	}
}

func TestLiveSetUpFromAnEmptyBoard(t *testing.T) {
	var empty square.Set
	l, err := NewLive(LiveConfig{Variant: "teams", Occupancy: empty})
	if err != nil {
		t.Fatal(err)
	}
	st := l.State()
	if st.Status != "correction" || len(st.Missing) != 64 || len(st.Wrong) != 0 {
		t.Errorf("empty board: status %s, %d missing, %d wrong", st.Status, len(st.Missing), len(st.Wrong))
	}
	// One square at a time: the first one to fill, amber, and nothing else.
	if lt := l.Lights(); len(lt.Squares) != 1 || lt.Squares["d1"] != "#ff7800" {
		t.Errorf("set-up lights: %v, want d1 amber alone", lt.Squares)
	}
}

// A player thinking with a piece in the hand for minutes is not a fault.
func TestLiveHeldPieceIsNoFault(t *testing.T) {
	var mu gosync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clk := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	suspected := make(chan square.Square, 1)
	b := startLive(t, LiveConfig{Now: clk, Suspect: func(q square.Square) { suspected <- q }})
	b.hand("-h2")
	time.Sleep(50 * time.Millisecond) // judged: a move in progress
	mu.Lock()
	now = now.Add(5 * time.Minute)
	mu.Unlock()
	select {
	case q := <-suspected:
		t.Fatalf("the held piece's square %v was reported as a fault", q)
	case <-time.After(300 * time.Millisecond): // three ticks
	}
	if st := b.State(); st.Lifted != "h2" || st.Status != "playing" {
		t.Errorf("state %s, lifted %q", st.Status, st.Lifted)
	}
}

func TestLiveSuspectsAStuckSwitch(t *testing.T) {
	var mu gosync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clk := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	var suspects, cleared []square.Square
	v, _ := rules.NewVariant("teams", "")
	g, _ := rules.NewGame(v, "")
	occ := g.Position().Occupancy()
	occ.Add(sq("h7")) // a switch stuck closed in the middle of the board
	b := startLive(t, LiveConfig{Now: clk, Occupancy: occ,
		Suspect:   func(q square.Square) { mu.Lock(); suspects = append(suspects, q); mu.Unlock() },
		Unsuspect: func(q square.Square) { mu.Lock(); cleared = append(cleared, q); mu.Unlock() }})
	if st := b.State(); st.Status != "correction" || strings.Join(st.Wrong, ",") != "h7" {
		t.Fatalf("state %s wrong %v", st.Status, st.Wrong)
	}
	mu.Lock()
	now = now.Add(31 * time.Second)
	mu.Unlock()
	m := b.next()
	if m.Kind != MsgSensorFault || m.Square != "h7" || !strings.Contains(m.Text, "reads a piece where the game has none") {
		t.Fatalf("message %+v", m)
	}
	mu.Lock()
	if len(suspects) != 1 || suspects[0] != sq("h7") {
		t.Errorf("suspects %v", suspects)
	}
	mu.Unlock()
	if lt := b.Lights(); lt.Squares["h7"] != "#00c8c8" {
		t.Errorf("the suspect switch's square is lit %q, want cyan", lt.Squares["h7"])
	}
	// The switch is freed (or the stray piece taken away): cleared.
	b.hand("-h7")
	if m := b.next(); m.Kind != MsgCorrected {
		t.Fatalf("message %+v", m)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		n := len(cleared)
		mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the suspect square was not cleared")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// memLog is a StreamLog in memory.
type memLog struct {
	mu   gosync.Mutex
	msgs []Message
}

func (m *memLog) Append(msg Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

func (m *memLog) Since(from uint64) ([]Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, msg := range m.msgs {
		if msg.Seq >= from {
			return append([]Message(nil), m.msgs[i:]...), nil
		}
	}
	return nil, nil
}

func (m *memLog) Last() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.msgs) == 0 {
		return 0
	}
	return m.msgs[len(m.msgs)-1].Seq
}

// Messages older than memory come from the log, across a restart, each
// once and in order.
func TestLiveSubscribeFromTheLog(t *testing.T) {
	log := &memLog{}
	b := startLive(t, LiveConfig{Keep: 8, Log: log})
	for i := 0; i < 30; i++ {
		b.do("tags", `{"tags":{"Round":"x"}}`)
	}
	check := func(l *Live, want uint64) {
		t.Helper()
		backlog, _, cancel, err := l.Subscribe(1)
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		if uint64(len(backlog)) != want {
			t.Fatalf("backlog of %d messages, want %d", len(backlog), want)
		}
		for i, m := range backlog {
			if m.Seq != uint64(i+1) {
				t.Fatalf("backlog[%d] is message %d", i, m.Seq)
			}
		}
	}
	check(b.Live, 31)
	// A new board on the same log (a restart) numbers on and serves the past.
	l2, err := NewLive(LiveConfig{Variant: "teams", Log: log, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	check(l2, 32) // the 31 before and its own game_start
}

// One switch event on a live board: the referee's bookkeeping, the new
// snapshot (FEN4, pieces, destinations) and the LED frame that displays
// and LEDs get after every lift and place.
func BenchmarkLiveTouch(b *testing.B) {
	v, _ := rules.NewVariant("teams", "")
	g, _ := rules.NewGame(v, "")
	l, err := NewLive(LiveConfig{Variant: "teams", Occupancy: g.Position().Occupancy(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	lift := sensors.Event{Kind: sensors.Lift, Square: sq("h2")}
	place := sensors.Event{Kind: sensors.Place, Square: sq("h2")}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			l.touch(lift)
		} else {
			l.touch(place)
		}
	}
}

// drawTeams looks variants up as rules.NewVariant does, with draws by
// agreement switched on for teams.
func drawTeams(name, start string) (*rules.Variant, error) {
	v, err := rules.NewVariant(name, start)
	if err != nil || name != "teams" {
		return v, err
	}
	v.Options.DrawByAgreement = true
	return v, v.Compile()
}

// A draw by agreement: one seat offers, the others accept; one refusal or
// the next turn ends the offer; a variant without the rule refuses it.
func TestLiveDrawByAgreement(t *testing.T) {
	b := startLive(t, LiveConfig{Lookup: drawTeams})
	if r := b.do(CmdDrawOffer, `{"seat":"Red"}`); !r.OK {
		t.Fatalf("offer: %+v", r)
	}
	m := b.next()
	if m.Kind != MsgDrawOffer || m.Seat != "Red" || strings.Join(m.Candidates, ",") != "Blue,Yellow,Green" {
		t.Fatalf("offer message %+v", m)
	}
	if got := b.State().DrawOffers; strings.Join(got, ",") != "Red" {
		t.Errorf("state draw_offers %v, want [Red]", got)
	}
	if r := b.do(CmdDrawOffer, `{"seat":"Red"}`); r.OK || !strings.Contains(r.Error, "already agreed") {
		t.Errorf("a second offer by Red: %+v", r)
	}
	if r := b.do(CmdDrawDecline, `{"seat":"Blue"}`); !r.OK {
		t.Fatalf("decline: %+v", r)
	}
	if m := b.next(); m.Kind != MsgDrawDeclined || m.Seat != "Blue" {
		t.Fatalf("decline message %+v", m)
	}
	if r := b.do(CmdDrawDecline, `{"seat":"Blue"}`); r.OK || !strings.Contains(r.Error, "no draw is on offer") {
		t.Errorf("declining nothing: %+v", r)
	}

	// An offer lapses with the next turn.
	b.do(CmdDrawOffer, `{"seat":"Yellow"}`)
	b.next()
	b.hand("-h2 +h4")
	if m := b.next(); m.Kind != MsgMove {
		t.Fatalf("want the move, got %+v", m)
	}
	if m := b.next(); m.Kind != MsgDrawDeclined || !strings.Contains(m.Text, "lapsed") {
		t.Fatalf("want the offer to lapse, got %+v", m)
	}
	if got := b.State().DrawOffers; len(got) != 0 {
		t.Errorf("offers after a move: %v", got)
	}

	// All four agree: the game is over, drawn.
	for i, s := range []string{"Blue", "Green", "Red", "Yellow"} {
		if r := b.do(CmdDrawOffer, `{"seat":"`+s+`"}`); !r.OK {
			t.Fatalf("%s: %+v", s, r)
		}
		if m := b.next(); m.Kind != MsgDrawOffer || len(m.Candidates) != 3-i {
			t.Fatalf("%s's agreement: %+v", s, m)
		}
	}
	if m := b.next(); m.Kind != MsgDrawAgreed || strings.Join(m.Seats, ",") != "Blue,Green,Red,Yellow" {
		t.Fatalf("draw agreed message %+v", m)
	}
	m = b.next()
	if m.Kind != MsgGameOver || m.Result == nil || m.Result.Reason != rules.ReasonAgreement || m.Result.PGN4 != "1/2-1/2" {
		t.Fatalf("game over message %+v", m)
	}
	if st := b.State(); st.Status != "over" {
		t.Errorf("status %s after the draw", st.Status)
	}
	if r := b.do(CmdDrawOffer, `{"seat":"Red"}`); r.OK || !strings.Contains(r.Error, "over") {
		t.Errorf("offer after the end: %+v", r)
	}
}

func TestLiveDrawRefusedWhereTheVariantHasNone(t *testing.T) {
	b := startLive(t, LiveConfig{})
	r := b.do(CmdDrawOffer, `{"seat":"Red"}`)
	if r.OK || !strings.Contains(r.Error, "teams has no draw by agreement") {
		t.Fatalf("reply %+v", r)
	}
	if r := b.do(CmdDrawOffer, `{"seat":"Purple"}`); r.OK || !strings.Contains(r.Error, "Purple") {
		t.Fatalf("unknown seat: %+v", r)
	}
}

// The setup command starts a guided set-up of the position: the state says
// what to do next, and displays can name each piece.
func TestLiveSetupCommand(t *testing.T) {
	b := startLive(t, LiveConfig{})
	b.hand("-h2 +h4")
	b.next()
	if r := b.do(CmdSetup, `{}`); !r.OK {
		t.Fatalf("setup: %+v", r)
	}
	if m := b.next(); m.Kind != MsgSetup || !strings.Contains(m.Text, "take every piece off") {
		t.Fatalf("message %+v", m)
	}
	st := b.State()
	if st.Status != "setup" || st.Setup == nil || !st.Setup.Clearing || st.Setup.Total != 64 || st.Setup.Done != 0 {
		t.Fatalf("state %s %+v, want setup, clearing, 0 of 64", st.Status, st.Setup)
	}
	// Every piece off: the first square to fill is one of Red's pieces.
	var lifts []string
	for _, q := range st.Occupancy {
		lifts = append(lifts, "-"+q)
	}
	b.hand(strings.Join(lifts, " "))
	deadline := time.Now().Add(5 * time.Second)
	for {
		st = b.State()
		if st.Setup != nil && !st.Setup.Clearing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the set-up never left clearing: %+v", st.Setup)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st.Setup.Square == "" || st.Setup.Piece != st.Pieces[st.Setup.Square] || !strings.HasPrefix(st.Setup.Piece, "r") {
		t.Fatalf("first step %+v (the game has %q there), want one of Red's pieces", st.Setup, st.Pieces[st.Setup.Square])
	}
	if lt := b.Lights(); lt.Squares[st.Setup.Square] == "" {
		t.Errorf("the square to fill, %s, is dark", st.Setup.Square)
	}
	// A new game ends the set-up.
	b.do(CmdNewGame, `{}`)
	if st := b.State(); st.Setup != nil || st.Status == "setup" {
		t.Errorf("after a new game: status %s setup %+v", st.Status, st.Setup)
	}
}

// In blocking double chess a draw by agreement ends one of the two games:
// only the offering seat's opponent is asked, and the two armies of that
// game must then leave the board ("the pieces of both teams involved in
// that game are removed from the board").
func TestLiveDrawEndsOneGameOfADoubleGame(t *testing.T) {
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(name, start string) (*rules.Variant, error) {
		d, err := variants.Find(cat, name)
		if err != nil {
			return nil, err
		}
		return d.Variant(start)
	}
	v, err := lookup("blocking-double", "")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(v, "")
	b := startLive(t, LiveConfig{Lookup: lookup, Variant: "blocking-double", Occupancy: g.Position().Occupancy()})
	b.hand("-h2 +h4") // White (the Red seat) opens
	if m := b.next(); m.Kind != MsgMove {
		t.Fatalf("want White's move, got %+v", m)
	}
	if r := b.do(CmdDrawOffer, `{"seat":"Red"}`); !r.OK {
		t.Fatalf("offer: %+v", r)
	}
	if m := b.next(); m.Kind != MsgDrawOffer || strings.Join(m.Candidates, ",") != "Yellow" {
		t.Fatalf("White's offer should wait for Black (the Yellow seat) only: %+v", m)
	}
	if r := b.do(CmdDrawOffer, `{"seat":"Blue"}`); r.OK || !strings.Contains(r.Error, "waits for Yellow, not Blue") {
		t.Fatalf("a seat of the other game accepting: %+v", r)
	}
	if r := b.do(CmdDrawOffer, `{"seat":"Yellow"}`); !r.OK {
		t.Fatalf("accept: %+v", r)
	}
	b.next() // Yellow's acceptance
	if m := b.next(); m.Kind != MsgDrawAgreed || strings.Join(m.Seats, ",") != "Red,Yellow" {
		t.Fatalf("draw agreed %+v", m)
	}
	st := b.State()
	if st.Status != "correction" || len(st.Wrong) != 32 {
		t.Fatalf("after one game's draw: status %s, %d squares to empty; want correction with both armies (32 pieces) to take off", st.Status, len(st.Wrong))
	}
	if st.Seats[rules.Blue].Status != "playing" || st.Seats[rules.Red].Status == "playing" {
		t.Errorf("seat statuses %+v", st.Seats)
	}
}

// The displays' piece codes keep FFA's one-point queen apart from a full
// queen ("rD", as in FEN4; the web display tags it with a 1).
func TestPieceCodes(t *testing.T) {
	tests := []struct {
		pc   rules.Piece
		want string
	}{
		{rules.MakePiece(rules.Red, rules.Queen), "rQ"},
		{rules.MakePiece(rules.Red, rules.Queen).WithPromoted(), "rD"},
		{rules.MakePiece(rules.Green, rules.Queen).WithPromoted().WithDead(), "xD"},
		{rules.MakePiece(rules.Blue, rules.Pawn), "bP"},
	}
	for _, tt := range tests {
		if got := PieceCode(tt.pc); got != tt.want {
			t.Errorf("PieceCode(%v) = %q, want %q", tt.pc, got, tt.want)
		}
	}
}

// A new game on a board that is not set up (the last game's pieces still
// standing) is a set-up, not a sensor fault: no sensor_fault message, no
// suspect square, however long the players take, and the scanner's
// suspect faults echoed back say nothing more; "keeps changing" is only
// for a chattering switch.
func TestLiveNewGameOnAnUnsetBoardRaisesNoFault(t *testing.T) {
	var mu gosync.Mutex
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clk := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	later := func(d time.Duration) {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
		time.Sleep(350 * time.Millisecond) // three of Run's ticks
	}
	var suspects []square.Square
	b := startLive(t, LiveConfig{Now: clk, SuspectAfter: 30 * time.Second,
		Suspect: func(q square.Square) { mu.Lock(); suspects = append(suspects, q); mu.Unlock() }})
	// The last game's end: pieces off and on other squares.
	b.hand("-h2 +h5 -g1 +k5 -b7 -c7 -m8 +k9 -d13 +d9 -h13 +h11")
	later(time.Second)
	// Several squares differ from the game: a correction, never a fault.
	for b.next().Kind != MsgIllegal {
	}
	if r := b.do("new_game", `{"variant":"ffa"}`); !r.OK {
		t.Fatal(r.Error)
	}
	if m := b.next(); m.Kind != MsgGameStart || !strings.Contains(m.Text, "set up the pieces") {
		t.Fatalf("message %+v", m)
	}
	later(31 * time.Second) // nobody touches the board
	b.hand("-h5 +h2")       // some pieces set up, then a long pause
	later(time.Second)
	later(45 * time.Second)
	// The scanner echoes a suspect as a fault event: the referee has said
	// why already; a chattering switch is news.
	b.Touches() <- sensors.Event{Kind: sensors.Fault, Square: sq("k5"), Cause: sensors.Suspect}
	b.Touches() <- sensors.Event{Kind: sensors.Fault, Square: sq("e5"), Cause: sensors.Chatter}
	m := b.next()
	if m.Kind != MsgSensorFault || m.Square != "e5" || !strings.Contains(m.Text, "keeps changing") {
		t.Fatalf("want only the chattering switch's fault, got %+v", m)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(suspects) != 0 {
		t.Errorf("squares to set up reported as suspect switches: %v", suspects)
	}
}

// A refusal on the switches says why, as a typed move would.
func TestLiveRefusalSaysWhy(t *testing.T) {
	fen := crossFEN(t, "R", "rK:h1 rB:h2 bK:a7 bR:h9 yK:g14 gK:n8")
	v, _ := rules.NewVariant("teams", "")
	g, _ := rules.NewGame(v, fen)
	b := startLive(t, LiveConfig{Start: fen, Occupancy: g.Position().Occupancy()})
	b.hand("-h2 +g3")
	m := b.next()
	if m.Kind != MsgIllegal || !strings.HasPrefix(m.Text, "Bh2-g3: it would leave Red's king on h1 in check from Blue's rook on h9: put it back") {
		t.Fatalf("message %+v", m)
	}
	if st := b.State(); st.Status != "correction" || strings.Join(st.Missing, ",") != "h2" || strings.Join(st.Wrong, ",") != "g3" {
		t.Errorf("state %s, missing %v, wrong %v", st.Status, st.Missing, st.Wrong)
	}
}

// claimFEN: chess.com FFA, Yellow and Green out, Red 30 points to Blue's
// 5 (a claimable lead); the same men with other points in the tests.
const claimFEN = "R-0,0,1,1-0,0,0,0-0,0,0,0-%s-0-x,x,x,4,dyK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/1,bR,12/14/13,dgK/bK,13/14/14/3,rQ,10/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x"

// TestLiveClaimWin: chess.com FFA's claim win ("when two players remain
// and one leads by more than 20 points") through the claim_win command:
// refused where the rule does not let it, else win_claimed then
// game_over with the claimer the winner.
func TestLiveClaimWin(t *testing.T) {
	for _, tc := range []struct {
		name, variant, points, seat, err string
	}{
		{"a lead of 25", "ffa", "30,5,0,0", "Red", ""},
		{"the other seat's lead", "ffa", "5,30,0,0", "Blue", ""},
		{"a lead of 20", "ffa", "25,5,0,0", "Red", "leads Blue by 20 points; a claim needs more than 20"},
		{"the trailing seat", "ffa", "30,5,0,0", "Blue", "leads Red by -25 points"},
		{"a seat that is out", "ffa", "30,5,0,0", "Green", "Green is not playing"},
		{"no seat", "ffa", "30,5,0,0", "Purple", "not a seat"},
		{"teams", "teams", "", "Red", "no claim-win rule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, _ := rules.NewVariant(tc.variant, "")
			fen := ""
			if tc.points != "" {
				fen = fmt.Sprintf(claimFEN, tc.points)
			}
			g, err := rules.NewGame(v, fen)
			if err != nil {
				t.Fatal(err)
			}
			b := startLive(t, LiveConfig{Variant: tc.variant, Game: g, Occupancy: g.Position().Occupancy()})
			r := b.do(CmdClaimWin, `{"seat":"`+tc.seat+`"}`)
			if tc.err != "" {
				if r.OK || !strings.Contains(r.Error, tc.err) {
					t.Fatalf("claim: %+v, want an error with %q", r, tc.err)
				}
				if st := b.State(); st.Status != "playing" {
					t.Errorf("status %s after a refused claim", st.Status)
				}
				return
			}
			if !r.OK {
				t.Fatalf("claim: %+v", r)
			}
			m := b.next()
			if m.Kind != MsgWinClaimed || m.Seat != tc.seat || len(m.Points) != 4 || !strings.Contains(m.Text, tc.seat+" claims the win, 30 points to") {
				t.Fatalf("claim message %+v", m)
			}
			m = b.next()
			if m.Kind != MsgGameOver || m.Result == nil || m.Result.Reason != rules.ReasonClaimWin || strings.Join(m.Result.Winners, ",") != tc.seat {
				t.Fatalf("game over message %+v", m)
			}
			if st := b.State(); st.Status != "over" {
				t.Errorf("status %s after the claim", st.Status)
			}
			if r := b.do(CmdClaimWin, `{"seat":"`+tc.seat+`"}`); r.OK || !strings.Contains(r.Error, "over") {
				t.Errorf("a second claim: %+v", r)
			}
		})
	}
}

// A bot seat (the game's Bots tag, given with new_game) asks for its
// move like a remote seat; another move made on the board is refused
// naming the bot and the move it asked for.
func TestLiveBotSeatsWrongMoveNamesTheMove(t *testing.T) {
	b := startLive(t, LiveConfig{})
	for _, c := range [][2]string{{"new_game", `{"tags":{"Bots":"Red:5"}}`}, {"remote", `{"seat":"Red","on":true}`}, {"move", `{"seat":"Red","move":"h2-h4"}`}} {
		if r := b.do(c[0], c[1]); !r.OK {
			t.Fatalf("%s: %s", c[0], r.Error)
		}
		b.next()
	}
	b.hand("-g2 +g3")
	if m := b.next(); m.Kind != MsgIllegal || !strings.HasPrefix(m.Text, "Red's bot (level 5) asked for h2-h4, not g2-g3: put it back") {
		t.Fatalf("another move than the bot's: %+v", m)
	}
}
