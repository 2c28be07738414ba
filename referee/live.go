package referee

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	gosync "sync"
	"syscall"
	"time"

	"boardd/leds"
	"boardd/referee/clock"
	"boardd/referee/gametags"
	"boardd/rules"
	"boardd/rules/blocking"
	"boardd/rules/chess4"
	"boardd/rules/pgn4"
	"boardd/rules/square"
	"boardd/sensors"
)

// StreamLog keeps the board's message stream on disk, so a consumer can
// resume from any sequence number across restarts (sync/archive has one).
type StreamLog interface {
	// Append stores m durably before returning.
	Append(m Message) error
	// Since returns the stored messages with Seq >= from, in order.
	Since(from uint64) ([]Message, error)
	// Last is the highest Seq stored (0 if none).
	Last() uint64
}

// LiveConfig sets up a live board.
type LiveConfig struct {
	// Board is the board's id (it names MQTT topics and archive files).
	Board string
	// Lookup finds a variant by name and start array ("" = its first).
	Lookup func(name, start string) (*rules.Variant, error)
	// Variant and Start are used for a new game when a command names none.
	Variant, Start string
	// Game is a game in progress to carry on (restored from its journal);
	// nil starts a new game of Variant. GameID, Tags and Clocks (remaining
	// milliseconds per seat, or nil) come with it.
	Game   *rules.Game
	GameID string
	Tags   map[string]string
	Clocks []int64
	// Occupancy is what the switches read at start. If it differs from the
	// game, the board starts in correction and the LEDs guide the set-up.
	Occupancy square.Set
	// Quiet is how long the board must be still before the referee judges
	// (default 400 ms).
	Quiet time.Duration
	// Clock is the time control; nil plays without clocks.
	Clock *clock.Control
	// Takeback is the club's takeback setting.
	Takeback TakebackMode
	// Palette is the LED language's colours (nil: DefaultPalette).
	Palette *Palette
	// Now is the time source (default time.Now).
	Now func() time.Time
	// Log keeps the stream durably (nil: in memory only).
	Log StreamLog
	// SeqFloor is the highest Seq any other durable record names (the game
	// journal, the MQTT mirror's acknowledged position): numbering goes on
	// above it and above Log.Last(), so a lost or damaged stream file never
	// makes a Seq come round again.
	SeqFloor uint64
	// Sinks see every message, synchronously and in order, before anyone
	// else: the game journal is one, so a message is on disk before the
	// board moves on. When a sink or Log fails, the message is not
	// acknowledged: the board pauses (State.Status "paused", the LEDs
	// show Palette.Storage), takes no moves or commands, and writes the
	// message again every RetryEvery until it succeeds; then it goes on.
	Sinks []func(Message) error
	// RetryEvery is how often a paused board tries to write again
	// (default 1 s).
	RetryEvery time.Duration
	// Keep is how many recent messages are kept in memory (default 4096).
	Keep int
	// Frame receives every new LED frame (nil: none). It must not block.
	Frame func(*leds.Frame)
	// Logger (default slog.Default()).
	Logger *slog.Logger
	// Suspect hears of a square whose switch has contradicted the game for
	// SuspectAfter (default 30 s) with nobody touching the board: a switch
	// stuck closed, or one that no longer closes (the scanner's
	// ReportSuspect). Unsuspect hears when it agrees again (ClearFault).
	Suspect, Unsuspect func(square.Square)
	SuspectAfter       time.Duration
}

// Live runs one board: it owns the referee and the game in one goroutine
// (Run), turns switch events and commands into messages, keeps the
// snapshot displays read, and serves subscribers. It implements Board.
type Live struct {
	cfg     LiveConfig
	reqs    chan request
	touches chan sensors.Event
	log     *slog.Logger

	// Owned by the Run goroutine.
	ref         *Referee
	game        string
	tags        map[string]string
	clocks      *clock.Clocks
	remote      [rules.NumSeats]bool
	pending     rules.Move   // a remote seat's move waiting for the board
	draws       []rules.Seat // seats that offered or accepted a draw since the last turn
	dirty       bool         // touched since the board was last judged
	lastTouch   time.Time    // the last switch change
	suspects    square.Set   // squares reported to Suspect
	undelivered []Message    // emitted, waiting for the state that includes them
	idBase      string       // game ids: the start time, numbered within a second
	idN         int
	unwritten   []unwritten // emitted, not yet on disk: the board is paused until they are
	storeErr    error       // why the board is paused (nil: it is not)
	clockHeld   bool        // the pause stopped a running clock
	unreadable  string      // why the switches cannot be read (unreadable.go); "" while they can
	blindHeld   bool        // the Unreadable fault stopped a running clock
	retryAt     time.Time

	mu        gosync.Mutex // guards what other goroutines read
	seq       uint64
	delivered uint64 // the last Seq handed to the subscribers
	recent    []Message
	subs      map[*sub]struct{}
	notify    map[chan struct{}]struct{}
	state     State
	lights    Lights
}

// unwritten is a message waiting for the disk; done counts the writers
// (sinks, then the log) that have it.
type unwritten struct {
	m    Message
	done int
}

type request struct {
	cmd   Command
	fn    func() // run on the Run goroutine instead of cmd
	reply chan Reply
}

type sub struct {
	ch   chan Message
	from uint64 // the first Seq it wants
}

// NewLive sets up a live board; Run starts it.
func NewLive(cfg LiveConfig) (*Live, error) {
	if cfg.Lookup == nil {
		cfg.Lookup = rules.NewVariant
	}
	if cfg.Quiet <= 0 {
		cfg.Quiet = 400 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Keep <= 0 {
		cfg.Keep = 4096
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.SuspectAfter <= 0 {
		cfg.SuspectAfter = 30 * time.Second
	}
	if cfg.RetryEvery <= 0 {
		cfg.RetryEvery = time.Second
	}
	l := &Live{cfg: cfg, reqs: make(chan request), touches: make(chan sensors.Event, 256),
		subs: map[*sub]struct{}{}, notify: map[chan struct{}]struct{}{}}
	l.log = cfg.Logger
	if cfg.Log != nil {
		l.seq = cfg.Log.Last()
	}
	if l.seq > MaxSeq { // the stores check what they read back; this is the last line
		l.log.Warn(fmt.Sprintf("the stream log's last Seq %d is above the highest a board uses (%d): damaged, ignored", l.seq, uint64(MaxSeq)))
		l.seq = 0
	}
	switch {
	case cfg.SeqFloor > MaxSeq:
		l.log.Warn(fmt.Sprintf("the Seq floor %d is above the highest a board uses (%d): damaged, ignored", cfg.SeqFloor, uint64(MaxSeq)))
	case cfg.SeqFloor > l.seq && cfg.Log != nil:
		l.log.Warn(fmt.Sprintf("numbering goes on after %d, the highest Seq another record names (a journal, the MQTT mirror's position), above the stream log's last %d (a crash before the stream had the message, or a stream file lost)", cfg.SeqFloor, l.seq))
		l.seq = cfg.SeqFloor
	default:
		l.seq = max(l.seq, cfg.SeqFloor)
	}
	l.delivered = l.seq // all of them in the log, for Subscribe
	if cfg.Game != nil {
		l.ref = New(cfg.Game)
		l.ref.Takeback = cfg.Takeback
		if cfg.Palette != nil {
			l.ref.Palette = *cfg.Palette
		}
		// A start never fails on tags the board once took: what an older
		// version let in is left out (sync/archive mends the journal's
		// tags first and names the file).
		tags, dropped := gametags.Repair(cfg.Tags)
		if dropped != "" {
			l.log.Warn("the resumed game's tags: "+dropped, "game", cfg.GameID)
		}
		l.game, l.tags = cfg.GameID, tags
		l.remote = remoteSeats(l.tags)
		if err := l.setClocks(cfg.Clocks); err != nil {
			return nil, err
		}
		l.ref.Resync(cfg.Occupancy)
		l.lastTouch = cfg.Now()
		l.publishState()
		return l, nil
	}
	if r := l.newGame(Command{Variant: cfg.Variant, Start: cfg.Start, Tags: cfg.Tags}, cfg.Occupancy); r.Error != "" {
		return nil, errors.New(r.Error)
	}
	l.publishState()
	return l, nil
}

// Touches is where the sensor events go (the scanner's OnEvent sends
// here). Run must be running to drain it.
func (l *Live) Touches() chan<- sensors.Event { return l.touches }

// Run owns the board until ctx ends. Sensor events come from Touches.
func (l *Live) Run(ctx context.Context) error {
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	// The flag falls within a tick of the time running out; the tick
	// reads the injected clock, so tests can move time by hand.
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e := <-l.touches:
			if l.touch(e) {
				quiet.Reset(l.cfg.Quiet)
			}
		case <-quiet.C:
			l.judge()
		case <-tick.C:
			if l.storeErr != nil {
				if l.retry() && l.dirty {
					quiet.Reset(l.cfg.Quiet) // what was moved while paused is judged now
				}
				continue
			}
			l.checkFlag()
			l.checkSwitches()
		case rq := <-l.reqs:
			switch {
			case rq.fn != nil:
				rq.fn()
				rq.reply <- Reply{OK: true}
			case rq.cmd.Name == "ping":
				rq.reply <- Reply{OK: true}
			case l.storeErr != nil:
				rq.reply <- Reply{Error: l.pausedText() + ": try again once it goes on"}
			default:
				r := l.do(rq.cmd)
				if l.storeErr != nil && r.OK { // not on disk yet: not acknowledged
					r = Reply{Error: l.pausedText() + ": the command is recorded and published once the board can write again"}
				}
				rq.reply <- r
			}
		}
	}
}

// Do sends a command to the Run goroutine and waits for its reply.
func (l *Live) Do(ctx context.Context, c Command) Reply {
	if c.Name == CmdReplay || c.Name == CmdState {
		// Answered by the transport that received them; nothing changes here.
		return Reply{ID: c.ID, OK: true}
	}
	rq := request{cmd: c, reply: make(chan Reply, 1)}
	select {
	case l.reqs <- rq:
	case <-ctx.Done():
		return Reply{ID: c.ID, Error: "the board is not answering: " + ctx.Err().Error()}
	}
	select {
	case r := <-rq.reply:
		r.ID = c.ID
		return r
	case <-ctx.Done():
		return Reply{ID: c.ID, Error: "the board is not answering: " + ctx.Err().Error()}
	}
}

// HandsFor resolves a move typed as PGN4 among the live game's legal
// moves and returns how a human makes it on the board (GameHands), for a
// simulated board's typed moves.
func (l *Live) HandsFor(ctx context.Context, text string) ([]Touch, error) {
	var out []Touch
	var err error
	if e := l.call(ctx, request{fn: func() { out, err = GameHands(l.ref.Game(), text) }}); e != nil {
		return nil, e
	}
	return out, err
}

// Feed hands the switch events evs to the board in order and, with
// judge, then judges the board at once as if it had been still for Quiet;
// it returns once the board has done so and the messages it caused are on
// the subscribers' channels. It is for front ends that keep their own
// time (boardd sim's typed lines, its simulated switches in simulated
// time): the board's own quiet timer runs only for events sent on Touches.
func (l *Live) Feed(ctx context.Context, evs []sensors.Event, judge bool) error {
	return l.call(ctx, request{fn: func() {
		for _, e := range evs {
			l.touch(e)
		}
		if judge {
			l.judge()
		}
	}})
}

// WithGame runs fn with the live game on the Run goroutine, for a front
// end that reads it whole (boardd sim writes it as PGN4). fn must neither
// change g nor keep it.
func (l *Live) WithGame(ctx context.Context, fn func(g *rules.Game)) error {
	return l.call(ctx, request{fn: func() { fn(l.ref.Game()) }})
}

// Ping reports whether the Run goroutine answers (for a watchdog).
func (l *Live) Ping(ctx context.Context) error {
	return l.call(ctx, request{cmd: Command{Name: "ping"}})
}

// call hands rq to the Run goroutine and waits for it to be done.
func (l *Live) call(ctx context.Context, rq request) error {
	rq.reply = make(chan Reply, 1)
	select {
	case l.reqs <- rq:
	case <-ctx.Done():
		return fmt.Errorf("referee: no answer: %w", ctx.Err())
	}
	select {
	case <-rq.reply:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("referee: no answer: %w", ctx.Err())
	}
}

// touch applies one sensor event; it reports whether the quiet timer
// must restart.
func (l *Live) touch(e sensors.Event) bool {
	switch e.Kind {
	case sensors.Lift, sensors.Place:
		l.ref.Touch(Touch{Square: e.Square, Lift: e.Kind == sensors.Lift, At: e.Time})
		l.dirty, l.lastTouch = true, l.cfg.Now()
		l.publishState()
		return true
	case sensors.Restored:
		l.switchesRestored()
	case sensors.Fault:
		if e.Cause == sensors.Unreadable {
			l.switchesUnreadable(e)
			return false
		}
		if e.Cause != sensors.Chatter {
			return false // a suspect the referee reported (checkSwitches said why)
		}
		l.emit(Message{Kind: MsgSensorFault, Square: e.Square.String(),
			Text: fmt.Sprintf("the switch under %s keeps changing: check the magnet and the switch", e.Square)})
		l.publishState()
	}
	return false
}

// judge asks the referee what the still board means.
func (l *Live) judge() {
	if !l.dirty || l.storeErr != nil { // paused: judged once it goes on
		return
	}
	l.dirty = false
	l.report(l.ref.Quiet())
	l.holdClockWhileBlind()
	l.publishState()
}

// report turns the referee's events into messages.
func (l *Live) report(evs []Event) {
	g := l.ref.Game()
	for _, e := range evs {
		m := Message{}
		switch e.Kind {
		case EvMove:
			l.moved(e.Record, e.Why)
			continue
		case EvPromotionChoice:
			m = Message{Kind: MsgPromotionChoice, Candidates: moveTexts(g, e.Candidates),
				Text: "promotion: the default piece was played; choose another with the promote command before the next move"}
		case EvIllegal:
			m = Message{Kind: MsgIllegal, Text: "no legal move explains the board: follow the lights back (red: empty it, amber: fill it)"}
			if e.Why != "" {
				m.Text = e.Why + ": put it back as the lights show (red: empty it, amber: fill it)"
			}
			if want := g.Position().Occupancy(); l.ref.Occupancy().AndNot(want).Len()+want.AndNot(l.ref.Occupancy()).Len() >= farOff {
				m.Text += "; if it cannot be put right, take every piece off the board and the lights guide a fresh set-up of the position"
			}
		case EvOutOfTurn:
			m = Message{Kind: MsgOutOfTurn, Seat: e.Seat.String(),
				Text: fmt.Sprintf("that was %s's move, but it is %s's turn: put it back", e.Seat, g.Turn())}
		case EvAmbiguous:
			m = Message{Kind: MsgAmbiguous, Candidates: moveTexts(g, e.Candidates),
				Text: "more than one move fits the board: lift and place again more clearly"}
		case EvCorrected:
			m = Message{Kind: MsgCorrected, Text: "the board matches the game again"}
		case EvTakeback:
			l.draws = nil
			l.restartClock()
			m = Message{Kind: MsgTakeback, Clocks: l.clockMS(), Text: fmt.Sprintf("takeback: %s to move", g.Turn())}
		case EvTakebackAsked:
			m = Message{Kind: MsgTakebackAsked, Text: "the board was put back: confirm the takeback (takeback_confirm) or replay the move"}
		case EvGameOver:
			l.over(e.Result)
			continue
		case EvPromotionChanged:
			l.promotionChanged(e.Record)
			continue
		case EvRevised:
			rec := e.Record
			l.emit(Message{Kind: MsgMoveRevised, Seat: rec.Seat.String(), Move: rec.Text, Coord: coord(rec), Candidates: []string{e.Replaced.Text}, Clocks: l.clockMS(),
				FEN4: g.Position().FEN4(), Text: fmt.Sprintf("%s: %s, not %s: %s", rec.Seat, rec.Text, e.Replaced.Text, e.Why)})
			continue
		case EvSetup:
			m = Message{Kind: MsgSetup, Text: setupText}
		}
		m.FEN4 = g.Position().FEN4()
		l.emit(m)
	}
}

// moved reports a played turn and runs the clocks; note, if any, is
// added to the message's text (another reading of the switches still
// open).
func (l *Live) moved(rec rules.Record, note string) {
	g := l.ref.Game()
	now := l.cfg.Now()
	flagged := false
	if l.clocks != nil {
		next := rec.TurnAfter
		if _, over := g.Result(); over {
			next = rules.NoSeat
		}
		if l.clocks.Running() == rules.NoSeat && rec.Action == rules.ActMove {
			// The first move starts the clocks, as does a move after a
			// pause or a restart (the mover is not charged for the pause).
			l.clocks.Start(rec.Seat, now)
		}
		if l.clocks.Running() != rules.NoSeat {
			flagged = l.clocks.Moved(next, now)
		}
	}
	if l.pending != 0 && rec.Move == l.pending {
		l.pending = 0
	}
	lapsed := l.draws != nil
	l.draws = nil
	text := fmt.Sprintf("%s: %s", rec.Seat, rec.Text)
	for _, s := range rec.Out {
		text += fmt.Sprintf("; %s is out (%s)", s, g.Status(s))
	}
	if note != "" {
		text += "; " + note
	}
	if c4, ok := rules.HookIn[*chess4.Chess4Hook](g); ok {
		if by, keep, other, open := c4.ArmyChoice(); open {
			text += fmt.Sprintf("; %s keeps %s's army (more material), %s's turns static: keep_army may choose %s's until the next move", by, keep, other, other)
		}
	}
	kind := MsgMove
	if rec.Action == rules.ActResign {
		kind, text = MsgResign, fmt.Sprintf("%s resigned", rec.Seat)
	} else if rec.Action == rules.ActTimeout {
		kind, text = MsgTimeout, fmt.Sprintf("%s ran out of time", rec.Seat)
	}
	p := g.Position()
	msg := Message{Kind: kind, Seat: rec.Seat.String(), Move: rec.Text, Coord: coord(rec), Clocks: l.clockMS(),
		Points: make([]int, rules.NumSeats), FEN4: p.FEN4(), Text: text}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		msg.Points[s] = p.Points(s)
		if k := p.KingSquare(s); k != square.None && !p.Eliminated(s) && p.InCheck(s) {
			msg.Checks = append(msg.Checks, s.String())
		}
	}
	for _, s := range rec.Out {
		msg.Out = append(msg.Out, s.String())
	}
	l.emit(msg)
	if lapsed {
		l.emit(Message{Kind: MsgDrawDeclined, Seat: rec.Seat.String(), Text: fmt.Sprintf("the draw offer lapsed with %s's turn", rec.Seat)})
	}
	if flagged {
		l.checkFlag()
	}
}

// promotionChanged reports the last move with its new promotion piece.
func (l *Live) promotionChanged(rec rules.Record) {
	l.emit(Message{Kind: MsgPromotionChanged, Seat: rec.Seat.String(), Move: rec.Text, Coord: coord(rec), Clocks: l.clockMS(),
		FEN4: l.ref.Game().Position().FEN4(), Text: fmt.Sprintf("%s: %s (promotion changed)", rec.Seat, rec.Text)})
}

func coord(rec rules.Record) string {
	if rec.Action != rules.ActMove {
		return ""
	}
	return rec.Move.String()
}

// over reports the end of the game and stops the clocks.
func (l *Live) over(res rules.Result) {
	g := l.ref.Game()
	if l.clocks != nil {
		l.clocks.Pause(l.cfg.Now())
	}
	info := resultInfo(g, res, l.names())
	text := "game over: " + res.Reason
	if len(info.Winners) > 0 {
		text += ", won by " + strings.Join(info.Winners, " and ")
	} else if g.Variant().Mode == rules.Teams {
		text += ", drawn"
	}
	l.emit(Message{Kind: MsgGameOver, Result: info, Clocks: l.clockMS(), FEN4: g.Position().FEN4(), Text: text})
}

func resultInfo(g *rules.Game, res rules.Result, names [rules.NumSeats]string) *ResultInfo {
	info := &ResultInfo{Reason: res.Reason, Winners: []string{}, Points: make([]int, rules.NumSeats), PGN4: res.Tag(g.Variant().Mode, names)}
	for _, s := range res.Winners {
		info.Winners = append(info.Winners, s.String())
	}
	for s := range info.Points {
		info.Points[s] = res.Points[s]
	}
	return info
}

func (l *Live) names() [rules.NumSeats]string {
	var n [rules.NumSeats]string
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		n[s] = l.tags[s.String()]
	}
	return n
}

// do carries out a command on the Run goroutine.
func (l *Live) do(c Command) Reply {
	before := l.lastSeq()
	r := l.command(c)
	if r.Error == "" {
		r.OK = true
	}
	if s := l.lastSeq(); s != before {
		r.Seq = s
	}
	l.publishState()
	return r
}

func fail(format string, a ...any) Reply { return Reply{Error: fmt.Sprintf(format, a...)} }

func (l *Live) command(c Command) Reply {
	g := l.ref.Game()
	_, over := g.Result()
	switch c.Name {
	case CmdNewGame:
		return l.newGame(c, l.ref.Occupancy())
	case CmdTags:
		if len(c.Tags) == 0 {
			return fail(`tags: needs "tags", for example {"tags":{"Red":"Ann"}}`)
		}
		if err := gametags.CheckChange(l.tags, c.Tags); err != nil {
			return fail("tags: %v", err)
		}
		for k, v := range c.Tags {
			if v == "" {
				delete(l.tags, k)
			} else {
				l.tags[k] = v
			}
		}
		l.remote = remoteSeats(l.tags) // the Remote tag says which seats are remote
		if p := l.pending; p != 0 && !l.remote[g.Turn()] {
			l.pending, l.ref.Expect = 0, 0
		}
		// Only the changes ("" removes a tag): the game_start and the
		// state carry the whole set.
		l.emit(Message{Kind: MsgTags, Tags: copyTags(c.Tags), Text: "game details changed"})
		return Reply{}
	case CmdResign:
		s, err := seatNamed(c.Seat)
		if err != nil {
			return fail("resign: %v", err)
		}
		if over {
			return fail("resign: the game is over")
		}
		rec, err := g.Resign(s)
		if err != nil {
			return fail("resign: %v", err)
		}
		l.moved(rec, "")
		if res, done := g.Result(); done {
			l.over(res)
		}
		l.ref.Resync(l.ref.Occupancy()) // an army may have left the board
		return Reply{}
	case CmdClaimWin:
		s, err := l.commandSeat(c)
		if err != nil {
			return fail("%v", err)
		}
		if err := g.ClaimWin(s); err != nil {
			return fail("claim_win: %v", err)
		}
		l.draws, l.pending, l.ref.Expect = nil, 0, 0
		res, _ := g.Result()
		text := fmt.Sprintf("%s claims the win", s)
		for o := rules.Seat(0); o < rules.NumSeats; o++ {
			if o != s && g.Status(o) == rules.Playing {
				text += fmt.Sprintf(", %d points to %s's %d", res.Points[s], o, res.Points[o])
			}
		}
		l.emit(Message{Kind: MsgWinClaimed, Seat: s.String(), Points: res.Points[:], FEN4: g.Position().FEN4(), Text: text})
		l.over(res)
		return Reply{}
	case CmdPromote:
		k, ok := rules.KindFromLetter(strings.ToUpper(c.Piece + " ")[0])
		if !ok || len(c.Piece) != 1 {
			return fail("promote: %q is not a piece letter (Q, R, B, N)", c.Piece)
		}
		rec, err := l.ref.ChoosePromotion(k)
		if err != nil {
			return fail("promote: %v", err)
		}
		l.promotionChanged(rec)
		return Reply{}
	case CmdTakebackConfirm:
		evs, err := l.ref.ConfirmTakeback()
		if err != nil {
			return fail("takeback_confirm: %v", err)
		}
		l.report(evs)
		return Reply{}
	case CmdRemote:
		s, err := seatNamed(c.Seat)
		if err != nil {
			return fail("remote: %v", err)
		}
		was := l.remote[s]
		l.remote[s] = *c.On
		if !*c.On && l.pending != 0 && g.Turn() == s {
			l.pending, l.ref.Expect = 0, 0
		}
		if was != *c.On {
			// The game's Remote tag keeps the remote seats: the journal
			// records it, so they stay remote after a restart.
			tag := remoteTag(l.remote)
			if tag != "" {
				l.tags[gametags.Remote] = tag
			} else {
				delete(l.tags, gametags.Remote)
			}
			where := "on the board again"
			if *c.On {
				where = "from elsewhere"
			}
			l.emit(Message{Kind: MsgTags, Tags: map[string]string{gametags.Remote: tag}, Text: fmt.Sprintf("%s plays %s", s, where)})
		}
		return Reply{}
	case CmdMove:
		return l.remoteMove(c)
	case CmdDrawOffer, CmdDrawDecline:
		return l.drawCommand(c)
	case CmdAnnounce, CmdReply, CmdClaimStalemate:
		return l.protocolCommand(c)
	case CmdKeepArmy:
		return l.keepArmy(c)
	case CmdSetup:
		if over {
			return fail("setup: the game is over")
		}
		l.pending, l.ref.Expect = 0, 0
		l.ref.StartSetup()
		l.emit(Message{Kind: MsgSetup, FEN4: g.Position().FEN4(), Text: setupText})
		return Reply{}
	case CmdClock:
		if l.clocks == nil {
			return fail("clock: this game has no clocks (set a time control in the config)")
		}
		if over {
			return fail("clock: the game is over")
		}
		now := l.cfg.Now()
		if c.Action == "pause" {
			l.clocks.Pause(now)
		} else if l.clocks.Running() == rules.NoSeat {
			l.clocks.Start(g.Turn(), now)
		}
		l.emit(Message{Kind: MsgClock, Clocks: l.clockMS(), Text: "clocks " + map[string]string{"pause": "paused", "start": "running"}[c.Action]})
		return Reply{}
	}
	return fail("unknown command %q", c.Name)
}

// drawCommand offers, accepts or declines a draw by agreement. The rules
// say whose agreement a draw needs (rules.Game.DrawNeeds: every seat still
// playing, or in a double game the offering seat's opponent); a turn, a
// takeback or one refusal ends the offer.
func (l *Live) drawCommand(c Command) Reply {
	g := l.ref.Game()
	s, err := l.commandSeat(c)
	if err != nil {
		return fail("%v", err)
	}
	var asked []rules.Seat // the seats the offer on the table waits for
	if l.draws != nil {
		if asked, err = g.DrawNeeds(l.draws); err != nil {
			return fail("%s: %v", c.Name, err)
		}
	}
	if c.Name == CmdDrawDecline {
		if l.draws == nil {
			return fail("draw_decline: no draw is on offer")
		}
		if !slices.Contains(asked, s) {
			return fail("draw_decline: the draw on offer does not wait for %s", s)
		}
		l.draws = nil
		l.emit(Message{Kind: MsgDrawDeclined, Seat: s.String(), Text: fmt.Sprintf("%s declines the draw", s)})
		return Reply{}
	}
	if slices.Contains(l.draws, s) {
		return fail("draw_offer: %s has already agreed to a draw", s)
	}
	if l.draws != nil && !slices.Contains(asked, s) {
		return fail("draw_offer: the draw on offer waits for %s, not %s", seatList(asked), s)
	}
	agreed := append(slices.Clone(l.draws), s)
	missing, err := g.DrawNeeds(agreed)
	if err != nil {
		return fail("draw_offer: %v", err)
	}
	l.draws = agreed
	waiting := seatNames(missing)
	text := fmt.Sprintf("%s offers a draw", s)
	if len(agreed) > 1 {
		text = fmt.Sprintf("%s accepts the draw", s)
	}
	if len(missing) > 0 {
		text += "; waiting for " + seatList(missing)
	}
	l.emit(Message{Kind: MsgDrawOffer, Seat: s.String(), Candidates: waiting, Text: text})
	if len(missing) > 0 {
		return Reply{}
	}
	if err := g.AgreeDraw(agreed); err != nil {
		l.draws = nil
		return fail("draw_offer: %v", err)
	}
	l.draws = nil
	l.emit(Message{Kind: MsgDrawAgreed, Seats: seatNames(agreed), FEN4: g.Position().FEN4(), Text: "draw agreed by " + seatList(agreed)})
	if res, over := g.Result(); over {
		l.over(res)
	} else {
		l.ref.Resync(l.ref.Occupancy()) // one game of a double game ended: its armies leave the board
	}
	return Reply{}
}

// protocolCommand carries out blocking double chess's moving into check
// (blocking.BlockingDouble.Announce, Reply, ClaimStalemate, through rules.HookIn): an announcement, the
// partner's reply, or a stalemated seat's claim of the draw. Each is a
// note of the game (Message.Note, journaled and replayed); a game that
// ends by it (a claimed stalemate, a stalemate left after "Unwise") sends
// its two armies off the board, and the LEDs guide the humans.
func (l *Live) protocolCommand(c Command) Reply {
	g := l.ref.Game()
	s, err := l.commandSeat(c)
	if err != nil {
		return fail("%v", err)
	}
	d, ok := rules.HookIn[*blocking.BlockingDouble](g)
	if !ok {
		return fail("%s: %s has no announcing of moves into check (only blocking-double has)", c.Name, g.Variant().Name)
	}
	if c.Name == CmdAnnounce && !l.ref.InStep() {
		return fail("announce: the board is being corrected; wait until it matches the game")
	}
	notes := len(g.Notes())
	results := len(d.GameResults())
	occ := g.Position().Occupancy()
	p := g.Position()
	var msg Message
	switch c.Name {
	case CmdAnnounce:
		if t := g.Turn(); s != t {
			return fail("announce: it is %s's turn, not %s's", t, s)
		}
		m, err := announcedMove(g, c.Move)
		if err != nil {
			return fail("announce %s: %v", c.Move, err)
		}
		if err := d.Announce(s, m); err != nil {
			return fail("announce %s: %v", c.Move, err)
		}
		partner, _ := d.AwaitingReply()
		msg = Message{Kind: MsgAnnounce, Seat: s.String(), Move: p.MoveText(m), Coord: m.String(),
			Text: fmt.Sprintf("%s announces %s into check: %s replies (unwise, accept, another or impossible)", s, p.MoveText(m), partner)}
	case CmdReply:
		r, err := blocking.ParseReply(c.Reply)
		if err != nil {
			return fail("reply: %v", err)
		}
		m, by, _, ok := d.Announced()
		if err := d.Reply(s, r); err != nil {
			return fail("reply: %v", err)
		}
		text := fmt.Sprintf("%s replies %s", s, r)
		switch r {
		case blocking.ReplyAccept:
			text += fmt.Sprintf(": %s must play %s, then %s must relieve the check", by, p.MoveText(m), s)
		case blocking.ReplyUnwise:
			text += fmt.Sprintf(": %s must make a move that does not expose the king", by)
		default:
			text += fmt.Sprintf(": %s may not play %s; it may announce another move or play a legal one", by, p.MoveText(m))
		}
		msg = Message{Kind: MsgReply, Seat: s.String(), Reply: replyName(r), Text: text}
		if ok {
			msg.Move, msg.Coord = p.MoveText(m), m.String()
		}
	case CmdClaimStalemate:
		if err := d.ClaimStalemate(s); err != nil {
			return fail("claim_stalemate: %v", err)
		}
		msg = Message{Kind: MsgStalemateClaimed, Seat: s.String(), Text: fmt.Sprintf("%s claims stalemate rather than move into check", s)}
	}
	if n := g.Notes(); len(n) > notes {
		msg.Note = n[len(n)-1].Text
	}
	rs := d.GameResults()
	for _, gr := range rs[results:] {
		msg.Text += "; " + gr.String()
	}
	msg.FEN4 = g.Position().FEN4()
	l.emit(msg)
	if res, over := g.Result(); over {
		l.over(res)
	}
	if g.Position().Occupancy() != occ {
		l.ref.Resync(l.ref.Occupancy()) // a game ended: its two armies leave the board
	}
	return Reply{}
}

// keepArmy carries out Chess4 Method 2's permanent choice (chess4.Chess4Hook.
// KeepArmy): the player who eliminated a second opponent keeps one of the
// two armies, the other turns static. It is open from the move that
// eliminated the second opponent until the next move; the rules took the
// army with more material meanwhile. The choice is a note of the game
// (Message.Note, journaled and replayed). Nothing moves on the board; the
// turn may change (the kept army's seat may be the one to move), and with
// it the running clock (not charged: the choice was the chooser's time).
func (l *Live) keepArmy(c Command) Reply {
	g := l.ref.Game()
	s, err := seatNamed(c.Seat)
	if err != nil {
		return fail("keep_army: %v", err)
	}
	a, err := seatNamed(c.Army)
	if err != nil {
		return fail("keep_army: army: %v", err)
	}
	if _, over := g.Result(); over {
		return fail("keep_army: the game is over")
	}
	if v := g.Variant(); v.Mode != chess4.Chess4 || !rules.HookOptions[chess4.Options](v).ArmyControl {
		return fail("keep_army: %s has no armies to keep (only chess4-m2 has)", v.Name)
	}
	c4, _ := rules.HookIn[*chess4.Chess4Hook](g) // mode chess4 has the hook
	by, _, _, ok := c4.ArmyChoice()
	if !ok {
		return fail("keep_army: no choice of armies is open (it is, from the move that eliminates a player's second opponent until the next move)")
	}
	if by != s {
		return fail("keep_army: the choice is %s's, not %s's", by, s)
	}
	turn := g.Turn()
	if err := c4.KeepArmy(a); err != nil {
		return fail("keep_army: %v", err)
	}
	_, _, other, _ := c4.ArmyChoice()
	if t := g.Turn(); t != turn {
		if l.clocks != nil && l.clocks.Running() != rules.NoSeat {
			l.clocks.Start(t, l.cfg.Now())
		}
		if l.pending != 0 {
			l.pending, l.ref.Expect = 0, 0 // a remote move of the seat that is no longer to move
		}
	}
	msg := Message{Kind: MsgArmyKept, Seat: s.String(), Army: a.String(), Clocks: l.clockMS(), FEN4: g.Position().FEN4(),
		Text: fmt.Sprintf("%s keeps %s's army; %s's is static; %s to move", s, a, other, g.Turn())}
	if n := g.Notes(); len(n) > 0 {
		msg.Note = n[len(n)-1].Text
	}
	l.emit(msg)
	return Reply{}
}

// announcedMove finds the move a seat announces: one of its moves that the
// rules forbid only because its own king would stand in check, written as
// PGN4 ("n7-n6", "Kn7-n6", "h13-h14=Q").
func announcedMove(g *rules.Game, text string) (rules.Move, error) {
	p := g.Position()
	return pgn4.ResolveAmong(p, p.PseudoLegal(nil), text)
}

// replyName is a reply as the reply command and message write it.
func replyName(r blocking.Reply) string {
	return map[blocking.Reply]string{blocking.ReplyUnwise: "unwise", blocking.ReplyAccept: "accept", blocking.ReplyAnother: "another", blocking.ReplyImpossible: "impossible"}[r]
}

// commandSeat reads the seat of a command that changes the game, which is
// refused once the game is over.
func (l *Live) commandSeat(c Command) (rules.Seat, error) {
	s, err := seatNamed(c.Seat)
	if err != nil {
		return s, fmt.Errorf("%s: %v", c.Name, err)
	}
	if _, over := l.ref.Game().Result(); over {
		return s, fmt.Errorf("%s: the game is over", c.Name)
	}
	return s, nil
}

// seatNames names seats as messages write them ("Red").
func seatNames(seats []rules.Seat) []string {
	var names []string
	for _, s := range seats {
		names = append(names, s.String())
	}
	return names
}

// seatList names seats for people: "Blue, Yellow and Green".
func seatList(seats []rules.Seat) string {
	names := seatNames(seats)
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// remoteMove takes a remote seat's move: the board lights it and waits for
// a human to execute it.
func (l *Live) remoteMove(c Command) Reply {
	g := l.ref.Game()
	s, err := seatNamed(c.Seat)
	if err != nil {
		return fail("move: %v", err)
	}
	if !l.remote[s] {
		return fail("move: %s is played at the board; make it remote first (remote command)", s)
	}
	if _, over := g.Result(); over {
		return fail("move: the game is over")
	}
	if g.Turn() != s {
		return fail("move: it is %s's turn, not %s's", g.Turn(), s)
	}
	if !l.ref.InStep() {
		return fail("move: the board is being corrected; wait until it matches the game")
	}
	m, err := pgn4.Resolve(g, c.Move)
	if err != nil {
		return fail("move %s: %v", c.Move, err)
	}
	l.pending, l.ref.Expect, l.ref.ExpectBy = m, m, askedBy(l.tags, s)
	l.emit(Message{Kind: MsgRemoteMove, Seat: s.String(), Move: g.Position().MoveText(m), Coord: m.String(),
		Text: fmt.Sprintf("%s plays %s from afar: make the move on the board", s, g.Position().MoveText(m))})
	return Reply{}
}

// newGame starts a game; the board's switches say whether it is set up.
func (l *Live) newGame(c Command, occ square.Set) Reply {
	name, start := c.Variant, c.Start
	if name == "" {
		name, start = l.cfg.Variant, l.cfg.Start
		if c.Start != "" {
			start = c.Start
		}
	}
	if name == "" {
		name = "teams"
	}
	array, fen := rules.SplitStart(start)
	v, err := l.cfg.Lookup(name, array)
	if err != nil {
		return fail("new_game: %v", err)
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return fail("new_game: %v", err)
	}
	// Everything is checked before the board changes: a refused
	// new_game leaves the game in progress as it was.
	tags := map[string]string{}
	for k, v := range c.Tags {
		if v != "" {
			tags[k] = v
		}
	}
	if err := gametags.CheckStart(tags); err != nil {
		return fail("new_game: %v", err)
	}
	// The game's time control goes into its tags: the journal keeps it
	// across a restart and the archived PGN4 records it.
	switch ctl, ok, err := clock.Parse(c.TimeControl); {
	case err != nil:
		return fail("new_game: %v", err)
	case ok:
		tags[gametags.TimeControl] = ctl.String()
	case c.TimeControl != "":
		tags[gametags.TimeControl] = "-"
	case tags[gametags.TimeControl] != "":
		if ctl, ok, _ := clock.Parse(tags[gametags.TimeControl]); ok { // checked by CheckTags
			tags[gametags.TimeControl] = ctl.String()
		} else {
			tags[gametags.TimeControl] = "-"
		}
	case l.cfg.Clock != nil:
		tags[gametags.TimeControl] = l.cfg.Clock.String()
	}
	if len(tags) > gametags.Max {
		return fail("new_game: %d tags with the time control: a game has at most %d", len(tags), gametags.Max)
	}
	clocks, err := newClocks(tags, l.cfg.Clock, nil)
	if err != nil {
		return fail("new_game: %v", err)
	}
	if l.ref != nil {
		old := l.ref.Game()
		if _, over := old.Result(); !over && len(old.Records()) > 0 {
			l.emit(Message{Kind: MsgGameOver, Result: &ResultInfo{Reason: "abandoned", Winners: []string{}, Points: make([]int, rules.NumSeats), PGN4: "*"},
				FEN4: old.Position().FEN4(), Text: "game abandoned for a new one"})
		}
	}
	l.ref = New(g)
	l.ref.Takeback = l.cfg.Takeback
	if l.cfg.Palette != nil {
		l.ref.Palette = *l.cfg.Palette
	}
	l.game = l.newID()
	l.tags = tags
	l.pending, l.remote, l.draws = 0, remoteSeats(l.tags), nil
	l.clocks = clocks
	l.ref.Resync(occ)
	l.lastTouch = l.cfg.Now() // the fault timer starts with the game
	st := start
	if st == "" {
		st = g.StartFEN4()
	}
	text := fmt.Sprintf("new game: %s", v.Name)
	if !l.ref.InStep() {
		text += " — set up the pieces as the lights show"
	}
	l.emit(Message{Kind: MsgGameStart, Variant: v.Name, Start: st, Tags: copyTags(l.tags), Clocks: l.clockMS(), FEN4: g.Position().FEN4(), Text: text})
	return Reply{}
}

func (l *Live) newID() string {
	id := l.cfg.Now().UTC().Format("20060102-150405")
	if id == l.idBase {
		l.idN++
		return fmt.Sprintf("%s-%d", id, l.idN+1)
	}
	l.idBase, l.idN = id, 0
	return id
}

// setClocks makes the clocks for the game (paused), with the remaining
// times if known (newClocks).
func (l *Live) setClocks(ms []int64) error {
	c, err := newClocks(l.tags, l.cfg.Clock, ms)
	if err != nil {
		return err
	}
	l.clocks = c
	return nil
}

// newClocks makes a game's clocks (paused), with the remaining times ms
// if known. The game's TimeControl tag says which control ("-": none);
// without one, the configured control (nil: no clocks).
func newClocks(tags map[string]string, configured *clock.Control, ms []int64) (*clock.Clocks, error) {
	ctl := configured
	if tc, ok := tags[gametags.TimeControl]; ok {
		c, on, err := clock.Parse(tc)
		if err != nil {
			return nil, err
		}
		ctl = nil
		if on {
			ctl = &c
		}
	}
	if ctl == nil {
		return nil, nil
	}
	c, err := clock.New(*ctl)
	if err != nil {
		return nil, err
	}
	if len(ms) == rules.NumSeats {
		for s := rules.Seat(0); s < rules.NumSeats; s++ {
			c.Set(s, time.Duration(ms[s])*time.Millisecond)
		}
	}
	return c, nil
}

func (l *Live) restartClock() {
	if l.clocks != nil && l.clocks.Running() != rules.NoSeat {
		now := l.cfg.Now()
		l.clocks.Pause(now)
		l.clocks.Start(l.ref.Game().Turn(), now)
	}
}

func (l *Live) clockMS() []int64 {
	if l.clocks == nil {
		return nil
	}
	now := l.cfg.Now()
	out := make([]int64, rules.NumSeats)
	for s := range out {
		out[s] = l.clocks.Left(rules.Seat(s), now).Milliseconds()
	}
	return out
}

// checkSwitches reports a square whose switch has disagreed with the game
// for SuspectAfter since the latest board change or the game's start, and
// clears it when it agrees again. Only a lone square is suspect: the rest
// of the board agrees with the game. Two or more squares to fix (a refused
// move, a set-up) are a correction the lights guide, not a fault.
func (l *Live) checkSwitches() {
	if l.cfg.Suspect == nil || l.unreadable != "" { // nothing to compare while the switches cannot be read
		return
	}
	var off square.Set
	if _, setup := l.ref.Setup(); !l.ref.InStep() && !setup { // a piece held in the hand is not a fault
		occ, want := l.ref.Occupancy(), l.ref.Game().Position().Occupancy()
		off = occ.AndNot(want).Or(want.AndNot(occ))
	}
	changed := false
	for _, q := range l.suspects.AndNot(off).Squares() {
		l.suspects.Remove(q)
		changed = true
		if l.cfg.Unsuspect != nil {
			l.cfg.Unsuspect(q)
		}
	}
	if off.Len() == 1 && !l.dirty && l.cfg.Now().Sub(l.lastTouch) >= l.cfg.SuspectAfter {
		want := l.ref.Game().Position().Occupancy()
		for _, q := range off.AndNot(l.suspects).Squares() {
			l.suspects.Add(q)
			changed = true
			l.cfg.Suspect(q)
			what := "reads a piece where the game has none"
			if want.Has(q) {
				what = "reads empty under a piece"
			}
			l.emit(Message{Kind: MsgSensorFault, Square: q.String(),
				Text: fmt.Sprintf("the switch under %s %s and nobody has touched the board for %v: fix the board as the lights show, or check that switch", q, what, l.cfg.SuspectAfter)})
		}
	}
	if changed {
		l.publishState()
	}
}

// checkFlag times out the running seat if its time is up.
func (l *Live) checkFlag() {
	if l.clocks == nil {
		return
	}
	now := l.cfg.Now()
	s, flagged := l.clocks.Flagged(now)
	if !flagged {
		return
	}
	g := l.ref.Game()
	if _, over := g.Result(); over {
		return
	}
	l.clocks.Pause(now)
	l.clocks.Set(s, 0)
	rec, err := g.Timeout(s)
	if err != nil {
		l.log.Error("timeout refused", "seat", s, "err", err)
		return
	}
	l.moved(rec, "")
	if res, over := g.Result(); over {
		l.over(res)
	} else {
		l.clocks.Start(g.Turn(), now)
	}
	l.ref.Resync(l.ref.Occupancy())
	l.publishState()
}

// emit numbers a message and writes it (flush). While the board is
// paused it only joins the messages waiting for the disk.
func (l *Live) emit(m Message) {
	l.mu.Lock()
	l.seq++
	m.Seq = l.seq
	l.mu.Unlock()
	m.Time = l.cfg.Now().UTC()
	m.Board, m.Game = l.cfg.Board, l.game
	if b, cut := m.Bounded(); cut != "" { // cannot happen with bounded inputs: never a message the mirror cannot deliver
		l.log.Error("referee: "+cut, "game", l.game)
		m = b
	}
	l.unwritten = append(l.unwritten, unwritten{m: m})
	if l.storeErr == nil {
		l.flush()
	}
}

// flush hands the waiting messages, in order, to the sinks and the log;
// each one all of them took is acknowledged: kept and queued for the
// subscribers. The first failure pauses the board (storeErr).
func (l *Live) flush() {
	for len(l.unwritten) > 0 {
		w := &l.unwritten[0]
		err := l.write(w)
		if err != nil {
			if l.storeErr == nil {
				l.storeErr = err
				l.log.Error(l.pausedText(), "game", l.game, "seq", w.m.Seq, "kind", w.m.Kind, "err", err)
				if l.clockHeld = l.clocks != nil && l.clocks.Running() != rules.NoSeat; l.clockHeld {
					l.clocks.Pause(l.cfg.Now()) // nobody's time runs while the board cannot play
				}
			}
			l.retryAt = l.cfg.Now().Add(l.cfg.RetryEvery)
			return
		}
		m := w.m
		l.unwritten = l.unwritten[1:]
		l.log.Info(m.Text, "game", l.game, "seq", m.Seq, "kind", m.Kind)
		l.mu.Lock()
		l.recent = append(l.recent, m)
		if len(l.recent) > l.cfg.Keep {
			l.recent = append(l.recent[:0:0], l.recent[len(l.recent)-l.cfg.Keep/2:]...)
		}
		l.mu.Unlock()
		l.undelivered = append(l.undelivered, m)
	}
	if l.storeErr != nil {
		l.storeErr = nil
		l.log.Info("storage works again: the game goes on", "game", l.game)
		if _, over := l.ref.Game().Result(); l.clockHeld && !over {
			l.clocks.Start(l.ref.Game().Turn(), l.cfg.Now())
		}
		l.clockHeld = false
	}
}

// write hands w to the writers that do not have it yet.
func (l *Live) write(w *unwritten) error {
	for ; w.done < len(l.cfg.Sinks); w.done++ {
		if err := l.cfg.Sinks[w.done](w.m); err != nil {
			return err
		}
	}
	if w.done == len(l.cfg.Sinks) && l.cfg.Log != nil {
		if err := l.cfg.Log.Append(w.m); err != nil {
			return err
		}
		w.done++
	}
	return nil
}

// retry writes the waiting messages again when it is time; it reports
// whether the board goes on.
func (l *Live) retry() bool {
	if l.cfg.Now().Before(l.retryAt) {
		return false
	}
	l.flush()
	if l.storeErr != nil {
		return false
	}
	l.publishState()
	return true
}

// StoragePaused is what the board says (log, State.Message) while it
// cannot write to its disk.
const StoragePaused = "the game is paused, nothing is lost"

// pausedText says why the board is paused.
func (l *Live) pausedText() string {
	if errors.Is(l.storeErr, syscall.ENOSPC) || errors.Is(l.storeErr, syscall.EDQUOT) {
		return "storage full: " + StoragePaused
	}
	return "storage failing: " + StoragePaused
}

// deliver hands the messages emitted since the last call to the
// subscribers (after the state that includes them was published).
// Callers hold l.mu.
func (l *Live) deliver() {
	for _, m := range l.undelivered {
		l.delivered = m.Seq
		for s := range l.subs {
			if m.Seq < s.from {
				continue
			}
			select {
			case s.ch <- m:
			default: // too far behind: it resubscribes from its last Seq
				close(s.ch)
				delete(l.subs, s)
			}
		}
	}
	l.undelivered = l.undelivered[:0]
}

func (l *Live) lastSeq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// Subscribe implements Board. The board's log file is read, when the
// messages asked for are older than those in memory, without holding up
// the board.
func (l *Live) Subscribe(from uint64) ([]Message, <-chan Message, func(), error) {
	s := &sub{ch: make(chan Message, 1024), from: from}
	l.mu.Lock()
	// Messages up to upto went out to subscribers already: they come from
	// memory or the log; later ones come on the channel.
	upto := l.delivered
	var mem []Message
	if from != 0 {
		i := sort.Search(len(l.recent), func(i int) bool { return l.recent[i].Seq >= from })
		for _, m := range l.recent[i:] {
			if m.Seq <= upto {
				mem = append(mem, m)
			}
		}
	}
	oldest := upto + 1
	if len(l.recent) > 0 {
		oldest = l.recent[0].Seq
	}
	l.subs[s] = struct{}{}
	l.mu.Unlock()
	cancel := func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if _, ok := l.subs[s]; ok {
			delete(l.subs, s)
			close(s.ch)
		}
	}
	if from == 0 || from > upto || from >= oldest {
		return mem, s.ch, cancel, nil
	}
	// Older than memory: from the log. from inside a run of numbers the
	// board skipped (after an unclean stop the stream numbers on after
	// its reservation) is no loss: the backlog starts at the next message
	// kept. Only from older than every message kept is.
	var old []Message
	var logOldest uint64
	if l.cfg.Log != nil {
		all, err := l.cfg.Log.Since(1)
		if err != nil {
			cancel()
			return nil, nil, nil, err
		}
		if len(all) > 0 {
			logOldest = all[0].Seq
		}
		old = all[sort.Search(len(all), func(i int) bool { return all[i].Seq >= from }):]
	}
	if logOldest == 0 || from < logOldest {
		cancel()
		if logOldest > 0 && logOldest < oldest {
			oldest = logOldest // the log keeps more than memory
		}
		return nil, nil, nil, &NotKeptError{From: from, Oldest: oldest}
	}
	backlog := old[:0:0]
	for _, m := range old {
		if m.Seq <= upto && (len(mem) == 0 || m.Seq < mem[0].Seq) {
			backlog = append(backlog, m)
		}
	}
	return append(backlog, mem...), s.ch, cancel, nil
}

// Changed implements Board.
func (l *Live) Changed() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	l.mu.Lock()
	l.notify[ch] = struct{}{}
	l.mu.Unlock()
	return ch, func() {
		l.mu.Lock()
		delete(l.notify, ch)
		l.mu.Unlock()
	}
}

// State implements Board.
func (l *Live) State() State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state
}

// Lights implements Board.
func (l *Live) Lights() Lights {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lights
}

// publishState rebuilds the snapshot and the LED frame and tells the
// watchers. Called on the Run goroutine after every change.
func (l *Live) publishState() {
	if l.storeErr != nil {
		l.publishPaused()
		return
	}
	var f leds.Frame
	f.Brightness = 255
	l.ref.Frame(&f)
	if l.pending != 0 && l.ref.InStep() {
		c := l.ref.Palette.Turn[l.ref.Game().Turn()]
		f.Set(l.pending.From(), c)
		f.Set(l.pending.To(), c)
	}
	for _, q := range l.suspects.Squares() {
		f.Set(q, l.ref.Palette.Fault)
	}
	st := l.snapshot()
	l.showUnreadable(&st, &f)
	lights := Lights{Squares: map[string]string{}}
	for _, q := range l.ref.Game().Variant().Geometry.Playable.Squares() {
		if c := f.At(q); c != (leds.Color{}) {
			lights.Squares[q.String()] = fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
		}
	}
	if l.cfg.Frame != nil {
		l.cfg.Frame(&f)
	}
	l.mu.Lock()
	st.Seq, lights.Seq = l.seq, l.seq
	l.state, l.lights = st, lights
	l.deliver()
	for ch := range l.notify {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	l.mu.Unlock()
}

// publishPaused shows a paused board: the last acknowledged state with
// Status "paused" and the reason, every square in Palette.Storage.
func (l *Live) publishPaused() {
	var f leds.Frame
	f.Brightness = 255
	lights := Lights{Squares: map[string]string{}}
	c := l.ref.Palette.Storage
	for _, q := range l.ref.Game().Variant().Geometry.Playable.Squares() {
		f.Set(q, c)
		lights.Squares[q.String()] = fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	if l.cfg.Frame != nil {
		l.cfg.Frame(&f)
	}
	l.mu.Lock()
	st := l.state
	if st.Board == "" { // nothing published yet
		st = l.snapshot()
		st.Seq = l.delivered
	}
	st.Status, st.Message = "paused", l.pausedText()
	lights.Seq = st.Seq
	l.state, l.lights = st, lights
	for ch := range l.notify {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	l.mu.Unlock()
}

// snapshot builds the State (Seq is filled in by the caller).
func (l *Live) snapshot() State {
	g := l.ref.Game()
	p := g.Position()
	v := g.Variant()
	st := State{Board: l.cfg.Board, Game: l.game, Variant: v.Name, Status: "playing", FEN4: p.FEN4(), Turn: g.Turn().String(),
		Pieces: map[string]string{}, Tags: copyTags(l.tags), Squares: []string{}, Occupancy: []string{}, Moves: []MoveInfo{}}
	for _, q := range v.Geometry.Playable.Squares() {
		st.Squares = append(st.Squares, q.String())
		if pc := p.At(q); pc.IsPiece() {
			st.Pieces[q.String()] = PieceCode(pc)
		}
	}
	for _, b := range v.Geometry.Barriers {
		st.Walls = append(st.Walls, [2]string{b.A.String(), b.B.String()})
	}
	st.Occupancy = names(l.ref.Occupancy())
	now := l.cfg.Now()
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		ss := SeatState{Seat: s.String(), Player: l.tags[s.String()], Points: p.Points(s), Status: g.Status(s).String(), ClockMS: -1, Remote: l.remote[s]}
		if l.clocks != nil {
			ss.ClockMS = l.clocks.Left(s, now).Milliseconds()
			ss.Running = l.clocks.Running() == s
		}
		st.Seats = append(st.Seats, ss)
		if k := p.KingSquare(s); k != square.None && !p.Eliminated(s) && p.InCheck(s) {
			st.Checks = append(st.Checks, k.String())
		}
	}
	for _, rec := range g.Records() {
		st.Moves = append(st.Moves, MoveInfo{Seat: rec.Seat.String(), Move: rec.Text})
	}
	if m := l.ref.LastMove(); m != 0 {
		st.LastMove = []string{m.From().String(), m.To().String()}
	}
	step, setup := l.ref.Setup()
	switch {
	case setup:
		st.Status = "setup"
		st.Setup = &SetupInfo{Clearing: step.Clearing, Done: step.Done, Total: step.Total}
		if step.Square != square.None {
			st.Setup.Square, st.Setup.Piece = step.Square.String(), PieceCode(step.Piece)
		}
	case l.ref.TakebackAsked():
		st.Status = "takeback_asked"
	case !l.ref.InStep():
		st.Status = "correction"
		st.Wrong = names(l.ref.Occupancy().AndNot(p.Occupancy()))
		st.Missing = names(p.Occupancy().AndNot(l.ref.Occupancy()))
	}
	if res, over := g.Result(); over {
		st.Status = "over"
		st.Result = resultInfo(g, res, l.names())
	}
	if q := l.ref.Lifted(); q != square.None && l.ref.InStep() {
		st.Lifted = q.String()
		for _, m := range g.LegalMoves() {
			if m.From() == q {
				st.Destinations = append(st.Destinations, m.To().String())
			}
		}
	}
	if l.pending != 0 {
		st.Remote = &MoveInfo{Seat: g.Turn().String(), Move: p.MoveText(l.pending)}
	}
	for _, s := range l.draws {
		st.DrawOffers = append(st.DrawOffers, s.String())
	}
	if d, ok := rules.HookIn[*blocking.BlockingDouble](g); ok {
		if m, by, accepted, ok := d.Announced(); ok {
			st.Announcement = &AnnouncementInfo{Seat: by.String(), Move: p.MoveText(m), Coord: m.String(), Accepted: accepted}
			if s, waiting := d.AwaitingReply(); waiting {
				st.Announcement.ReplyBy = s.String()
			}
		}
		if s, ok := d.MustRelieve(); ok {
			st.Relieve = s.String()
		}
	}
	return st
}

// farOff is how many squares must differ from the game before a
// correction message suggests the guided set-up.
const farOff = 4

// setupText is the guided set-up's instruction.
const setupText = "set-up of the current position: take every piece off the board, then put each piece on the square that lights up, in its owner's colour (the display names the piece)"

// PieceCode names a piece as State.Pieces does: the seat's letter (r, b,
// y, g; x for a dead piece) and the kind's letter ("rN", "xQ").
func PieceCode(pc rules.Piece) string {
	seat := "rbyg"[pc.Seat()]
	if pc.Dead() {
		seat = 'x'
	}
	return string(seat) + string(pc.Letter()) // 'D': a one-point queen
}

func names(s square.Set) []string {
	out := []string{}
	for _, q := range s.Squares() {
		out = append(out, q.String())
	}
	return out
}

func moveTexts(g *rules.Game, ms []rules.Move) []string {
	p := g.Position()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.MoveText(m)
	}
	return out
}

func seatNamed(s string) (rules.Seat, error) {
	for x := rules.Seat(0); x < rules.NumSeats; x++ {
		if strings.EqualFold(x.String(), s) {
			return x, nil
		}
	}
	return 0, fmt.Errorf("%q is not a seat (Red, Blue, Yellow, Green)", s)
}

func copyTags(t map[string]string) map[string]string {
	out := make(map[string]string, len(t))
	for k, v := range t {
		out[k] = v
	}
	return out
}

// remoteTag writes the remote seats as the game's Remote tag
// ("Blue,Green"; "" for none).
func remoteTag(remote [rules.NumSeats]bool) string {
	var seats []string
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if remote[s] {
			seats = append(seats, s.String())
		}
	}
	return strings.Join(seats, ",")
}

// askedBy names who asks for seat s's moves from afar, for the board's
// messages: the seat's bot and its level when the game's Bots tag lists
// the seat ("Green:3,Blue": a seat without a level plays level 3, as
// sync/botseat reads it), else its remote player.
func askedBy(tags map[string]string, s rules.Seat) string {
	for _, part := range strings.Split(tags["Bots"], ",") {
		name, level, has := strings.Cut(strings.TrimSpace(part), ":")
		if strings.EqualFold(strings.TrimSpace(name), s.String()) {
			if !has {
				level = "3"
			}
			return fmt.Sprintf("%s's bot (level %s)", s, strings.TrimSpace(level))
		}
	}
	return s.String() + "'s remote player"
}

// remoteSeats reads the game's Remote tag; unknown names are ignored.
func remoteSeats(tags map[string]string) [rules.NumSeats]bool {
	var out [rules.NumSeats]bool
	for _, name := range strings.Split(tags["Remote"], ",") {
		if s, err := seatNamed(strings.TrimSpace(name)); err == nil {
			out[s] = true
		}
	}
	return out
}
