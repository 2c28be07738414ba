// Package termsim is the terminal front end of a simulated board: a
// referee.Live, as boardd run has, fed typed lines (lift SQ, place SQ,
// a move in PGN4, promote K) or a switch script played through simulated
// reed switches in simulated time, whose messages are printed and whose
// lights are drawn in the terminal. boardd sim runs a Board; boardd run
// with the simulated driver reads typed lines with ReadLines.
package termsim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"boardd/leds"
	"boardd/leds/term"
	"boardd/referee"
	"boardd/referee/handsim"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
	"boardd/sync/archive"
)

// Help is what boardd sim prints for a person typing: one command a line.
const Help = `Simulated board. One command per line:
  lift SQ        lift the piece on SQ            (also: -SQ)
  place SQ       put a piece down on SQ          (also: +SQ)
  wait           the board is quiet: the referee judges (an empty line too)
  reset          lift and place every piece to the game's position (the
                 start after a new game): what the lights ask, in one line
  TOKEN          lift and place for a whole move, written as in PGN4:
  move TOKEN     h2-h4, Nj1-i3, Qg1xQn8, O-O, O-O-O, e10-e11=N
  promote K      change the last promotion (Q, R, B, N)
  board          draw the board again
  # …            a comment
At the end of the input the game is printed as PGN4.`

// ErrPaused is why a simulated game stops: the board could not write
// its journal (the error wrapping it says why).
var ErrPaused = errors.New("the journal cannot be written")

// Board is the terminal front end of boardd sim: a referee.Live, as
// boardd run has, fed typed lines or simulated switches, whose messages
// are printed and whose lights are drawn in the terminal.
type Board struct {
	live  *referee.Live
	ctx   context.Context
	stop  func() // ends the board's Run and waits for it
	msgs  <-chan referee.Message
	board square.Set
	out   io.Writer
	color bool
	draw  bool
	setup referee.SetupInfo // the guided set-up's last step printed
	occ   square.Set        // the simulated switches: what typed lines left on the board

	mu    sync.Mutex
	frame leds.Frame // the board's last LED frame
}

// Start runs a live board on g (a new game, or one restored from its
// journal) for the terminal; with jl every turn is journaled before the
// board goes on, as archive.Recorder does for boardd run.
func Start(g *rules.Game, jl *archive.Journal, lookup archive.Lookup, out io.Writer) (*Board, error) {
	s := &Board{board: g.Variant().Geometry.Playable, out: out, occ: g.Position().Occupancy()}
	cfg := referee.LiveConfig{
		Board: "sim", Lookup: lookup, Game: g, GameID: "sim",
		Occupancy: g.Position().Occupancy(),
		Quiet:     24 * time.Hour, // judged when the sim says the board is still (Feed)
		Logger:    slog.New(slog.DiscardHandler),
		Frame: func(f *leds.Frame) {
			s.mu.Lock()
			s.frame = *f
			s.mu.Unlock()
		},
	}
	if jl != nil {
		cfg.Sinks = []func(referee.Message) error{func(m referee.Message) error {
			es, err := archive.JournalEntries(m)
			if err != nil || len(es) == 0 {
				return err
			}
			return jl.Append(es...)
		}}
	}
	live, err := referee.NewLive(cfg)
	if err != nil {
		return nil, err
	}
	_, msgs, cancel, err := live.Subscribe(0)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { live.Run(ctx); close(done) }()
	s.live, s.ctx, s.msgs = live, ctx, msgs
	s.stop = func() { cancel(); stop(); <-done }
	return s, nil
}

// feed hands switch events to the board and, with judge, has it judge at
// once; then it prints what the board said.
func (s *Board) feed(evs []sensors.Event, judge bool) error {
	for _, e := range evs {
		switch e.Kind {
		case sensors.Lift:
			s.occ.Remove(e.Square)
		case sensors.Place:
			s.occ.Add(e.Square)
		}
	}
	if err := s.live.Feed(s.ctx, evs, judge); err != nil {
		return err
	}
	return s.report(judge)
}

// judge tells the board it is still and prints what it decided.
func (s *Board) judge() error { return s.feed(nil, true) }

// report prints the messages the board has sent since the last call,
// the guided set-up's next step, and, when anything was said, the board.
func (s *Board) report(judged bool) error {
	said := false
	for more := true; more; {
		select {
		case m := <-s.msgs:
			if line := simText(m); line != "" {
				fmt.Fprintln(s.out, line)
				said = true
			}
		default:
			more = false
		}
	}
	st := s.live.State()
	if st.Status == "paused" {
		return fmt.Errorf("%w: %s", ErrPaused, st.Message)
	}
	if st.Setup != nil && *st.Setup != s.setup {
		s.setup = *st.Setup
		if st.Setup.Square != "" {
			fmt.Fprintf(s.out, "set-up: put %s on %s (%d of %d stand)\n", st.Setup.Piece, st.Setup.Square, st.Setup.Done, st.Setup.Total)
		}
		said = true
	}
	if said && judged {
		s.Show()
	}
	return nil
}

// simText is how the terminal prints a message of the board: the board's
// own words, problems marked "!!".
func simText(m referee.Message) string {
	switch m.Kind {
	case referee.MsgMoveRevised:
		replaced := strings.Join(m.Candidates, ", ")
		why := strings.TrimPrefix(m.Text, fmt.Sprintf("%s: %s, not %s: ", m.Seat, m.Move, replaced))
		return fmt.Sprintf("%s: %s (revised: %s; %s)", m.Seat, m.Move, replaced, why)
	case referee.MsgPromotionChoice:
		return fmt.Sprintf("promotion: %v (default first; 'promote K' to change)", m.Candidates)
	case referee.MsgAmbiguous:
		return fmt.Sprintf("!! more than one move fits %v: lift and place again more clearly", m.Candidates)
	case referee.MsgIllegal, referee.MsgOutOfTurn:
		return "!! " + m.Text
	case referee.MsgSensorFault:
		if m.Square == "" { // no switch can be read
			return "!! sensor fault: " + m.Text
		}
		return fmt.Sprintf("!! sensor fault on %s: %s", m.Square, m.Text)
	case referee.MsgGameStart:
		return ""
	}
	return m.Text
}

// Finish prints the game as PGN4 and saves it in the archive if asked.
func (s *Board) Finish(event, round, archiveDir string) error {
	tags := []pgn4.Tag{{Name: "Event", Value: "boardd sim"}}
	if event != "" {
		tags[0].Value = event
	}
	if round != "" {
		tags = append(tags, pgn4.Tag{Name: "Round", Value: round})
	}
	var out *pgn4.Game
	var err error
	if e := s.live.WithGame(s.ctx, func(g *rules.Game) {
		if res, over := g.Result(); over {
			tags = append(tags, pgn4.Tag{Name: "Termination", Value: res.Reason})
		}
		out, err = pgn4.FromGame(g, tags)
	}); e != nil {
		return e
	}
	if err != nil {
		return err
	}
	if archiveDir != "" {
		path, err := archive.Store{Dir: archiveDir}.Save(out, "1", time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintln(s.out, "saved", path)
	}
	fmt.Fprintln(s.out)
	_, err = out.WriteTo(s.out)
	return err
}

// PlaySwitches plays a switch script on simulated reed switches: the
// scanner debounces them every 5 ms of simulated time, its lift and place
// events go to the board, and once the board has been still for quiet it
// judges.
func (s *Board) PlaySwitches(in io.Reader, name string, quiet time.Duration) error {
	script, err := sim.ParseScriptOn(name, in, s.board)
	if err != nil {
		return err
	}
	var occ square.Set
	if err := s.live.WithGame(s.ctx, func(g *rules.Game) { occ = g.Position().Occupancy() }); err != nil {
		return err
	}
	var fail error
	rig, err := handsim.NewRig(s.board, occ, quiet, func(e sensors.Event) {
		if fail == nil {
			fail = s.feed([]sensors.Event{e}, false)
		}
	}, func() {
		if fail == nil {
			fail = s.judge()
		}
	}, s.out)
	if err != nil {
		return err
	}
	if err := script.Play(rig.Board(), rig.Wait); err != nil {
		return err
	}
	if err := rig.Settle(); err != nil {
		return err
	}
	return fail
}

// line plays one typed line: switch lines, a move, promote, board.
func (s *Board) line(l string) error {
	if l == "" || l == "wait" {
		return s.judge()
	}
	if strings.HasPrefix(l, "#") {
		return nil
	}
	f := strings.Fields(l)
	switch {
	case f[0] == "lift" && len(f) == 2, strings.HasPrefix(f[0], "-") && len(f) == 1:
		return s.touch(strings.TrimPrefix(f[len(f)-1], "-"), true)
	case f[0] == "place" && len(f) == 2, strings.HasPrefix(f[0], "+") && len(f) == 1:
		return s.touch(strings.TrimPrefix(f[len(f)-1], "+"), false)
	case f[0] == "move" && len(f) == 2:
		return s.move(f[1])
	case f[0] == "promote" && len(f) == 2:
		if err := s.promote(f[1]); err != nil {
			return err
		}
		s.Show()
		return nil
	case f[0] == "board":
		s.Show()
		return nil
	case l == "reset":
		return s.reset()
	case len(f) == 1 && looksLikeMove(f[0]):
		return s.move(f[0]) // a bare move, as boardd run takes it: "h2-h4", "O-O"
	}
	return notALine(l, s.board, "lift SQ, place SQ, wait, reset, promote K or board")
}

// reset lifts what the game's position does not have and places what it
// has, then the board judges: one line for the lights' whole correction.
func (s *Board) reset() error {
	var want square.Set
	if err := s.live.WithGame(s.ctx, func(g *rules.Game) { want = g.Position().Occupancy() }); err != nil {
		return err
	}
	return s.feed(resetTouches(s.occ, want), true)
}

// resetTouches are the lifts, then the places, that turn the switches
// occ into want.
func resetTouches(occ, want square.Set) []sensors.Event {
	var evs []sensors.Event
	for _, q := range occ.AndNot(want).Squares() {
		evs = append(evs, sensors.Event{Kind: sensors.Lift, Square: q})
	}
	for _, q := range want.AndNot(occ).Squares() {
		evs = append(evs, sensors.Event{Kind: sensors.Place, Square: q})
	}
	return evs
}

// promote changes the last promotion to the piece letter k.
func (s *Board) promote(k string) error {
	if _, ok := rules.KindFromLetter(strings.ToUpper(k)[0]); !ok {
		return fmt.Errorf("promote %s: want Q, R, B or N", k)
	}
	if r := s.live.Do(s.ctx, referee.Command{Name: referee.CmdPromote, Piece: strings.ToUpper(k)}); !r.OK {
		return errors.New(r.Error)
	}
	return s.report(false)
}

// touch is a lift or a place typed on the square called name.
func (s *Board) touch(name string, lift bool) error {
	q, err := square.Parse(name)
	if err != nil || !s.board.Has(q) {
		return fmt.Errorf("%q is not a square of this board (%s)", name, sim.Span(s.board))
	}
	e := sensors.Event{Kind: sensors.Place, Square: q}
	if lift {
		e.Kind = sensors.Lift
	}
	return s.feed([]sensors.Event{e}, false)
}

// move performs a whole move by hand, given as a PGN4 token ("h2-h4",
// "Nj1xBi3", "O-O", "e10-e11=N"): the hands referee.GameHands builds, then
// a still board; a promotion the switches cannot show is chosen after.
func (s *Board) move(text string) error {
	note, err := typedMove(s.ctx, s.live, s.board, text)
	if err != nil {
		return err
	}
	steps, err := s.live.HandsFor(s.ctx, text)
	if err != nil {
		return fmt.Errorf("move %v (want a move such as h2-h4, or lift/place SQ)", err)
	}
	if note != "" {
		fmt.Fprintln(s.out, "note:", note)
	}
	evs := make([]sensors.Event, len(steps))
	for i, h := range steps {
		evs[i] = sensors.Event{Kind: sensors.Place, Square: h.Square}
		if h.Lift {
			evs[i].Kind = sensors.Lift
		}
	}
	if err := s.feed(evs, true); err != nil {
		return err
	}
	tok, _ := pgn4.ParseMove(text)
	if tok.Promotion == 0 {
		return nil
	}
	want, _ := rules.KindFromLetter(tok.Promotion)
	played := want
	if err := s.live.WithGame(s.ctx, func(g *rules.Game) {
		if recs := g.Records(); len(recs) > 0 {
			played = recs[len(recs)-1].Move.Promotion()
		}
	}); err != nil {
		return err
	}
	if played == want {
		return nil
	}
	return s.promote(string(tok.Promotion)) // the switches played the default piece
}

// Show draws the board's lights in the terminal, with the pieces, and
// xx and ?? on the squares to empty and to fill while the board differs
// from the game.
func (s *Board) Show() {
	if !s.draw {
		return
	}
	st := s.live.State()
	marks := map[string]string{}
	for _, q := range st.Wrong {
		marks[q] = "xx"
	}
	for _, q := range st.Missing {
		marks[q] = "??"
	}
	label := func(q square.Square) string {
		if m, ok := marks[q.String()]; ok {
			return m
		}
		return st.Pieces[q.String()]
	}
	s.mu.Lock()
	f := s.frame
	s.mu.Unlock()
	fmt.Fprintf(s.out, "%s to move\n", st.Turn)
	term.Render(s.out, s.board, &f, label, s.color)
}

// looksLikeMove tells a typed move ("h2-h4", "Nj1xBi3", "O-O") from the
// other commands: a PGN4 token that names its squares, or castling.
func looksLikeMove(tok string) bool {
	if strings.HasPrefix(tok, "O-O") {
		return true
	}
	_, err := pgn4.ParseMove(tok)
	return err == nil && strings.ContainsAny(tok, "-x")
}

// SetView says whether Show draws the board (draw) and with ANSI colours.
func (s *Board) SetView(color, draw bool) { s.color, s.draw = color, draw }

// Stop ends the live board and waits for it.
func (s *Board) Stop() { s.stop() }

// OpenJournal opens the journal at path for boardd sim --journal: an
// existing one is resumed (its game replaces g, and the resumption is
// said on stdout; a warning about its tail goes to stderr), a new one is
// created for g, its start given as start (g's start FEN4 when empty).
func OpenJournal(path, start string, g *rules.Game, lookup archive.Lookup, stdout, stderr io.Writer) (*archive.Journal, *rules.Game, error) {
	if _, err := os.Stat(path); err != nil {
		if start == "" {
			start = g.StartFEN4()
		}
		jl, err := archive.Create(path, archive.Entry{Variant: g.Variant().Name, Start: start})
		return jl, g, err
	}
	j, entries, warn, err := archive.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if warn != "" {
		fmt.Fprintln(stderr, "warning:", warn)
	}
	if g, err = archive.Restore(entries, lookup); err != nil {
		j.Close()
		return nil, nil, err
	}
	fmt.Fprintf(stdout, "resumed %s: %d turns from %s\n", g.Variant().Name, len(g.Records()), path)
	return j, g, nil
}

// PlayLines plays typed lines from in until it ends, then judges a last
// time. With script (the file's name) a bad line is an error naming the
// file and line; without, it is printed ("?? …") and play goes on. A
// board that cannot write its journal stops play (ErrPaused).
func (s *Board) PlayLines(in io.Reader, script string) error {
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		if err := s.line(strings.TrimSpace(sc.Text())); err != nil {
			if errors.Is(err, ErrPaused) {
				return err
			}
			if script != "" {
				return fmt.Errorf("%s:%d: %v", script, n, err)
			}
			fmt.Fprintf(s.out, "?? %v\n", err)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return s.judge()
}

// LiveHelp is what boardd run prints for typing on its simulated board.
const LiveHelp = `Simulated board: type a move (h2-h4, Nj1xBi3, O-O), or switch lines
(lift h2, place h4, wait 100ms); the referee judges once the board is still.
wait: until the board has judged; reset: lift and place every piece to the
game's position (the start after a new game).`

// DefaultSettle is how long after its last touch a board with the
// default sensors section has surely judged: the debounce (4 scans at
// 200 Hz), the quiet period (400 ms) and a margin.
const DefaultSettle = 600 * time.Millisecond

// Lines plays typed lines on the simulated switches of a running board
// (boardd run --stdin): whole moves by hand (Live.HandsFor, a step every
// 40 ms of real time, long enough for the debounce), reset, or single
// switch lines as the sim's scripts take them.
type Lines struct {
	Live  *referee.Live
	Board *sim.Board
	// Settle is how long after the last touch the board has judged it:
	// the switches' debounce plus the referee's quiet period, with a
	// margin (DefaultSettle for the default config). A typed move waits
	// for it, so it is resolved in the position the board has judged
	// rather than merged into the move before it; a bare wait waits for
	// it too.
	Settle time.Duration
	// Out, if set, gets a typed move's note (what a move written with
	// '-' takes).
	Out io.Writer

	last time.Time // the last touch played
}

// ReadLines plays lines from r on sb, the simulated switches of live's
// board, until r or ctx ends (Lines, with settle). A bad line is
// answered on w ("?? …"). boardd run --stdin runs it.
func ReadLines(ctx context.Context, r io.Reader, w io.Writer, live *referee.Live, sb *sim.Board, settle time.Duration) {
	fmt.Fprintln(w, LiveHelp)
	ls := &Lines{Live: live, Board: sb, Settle: settle, Out: w}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if ctx.Err() != nil {
			return
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := ls.Play(ctx, line); err != nil {
			fmt.Fprintln(w, "??", err)
		}
	}
}

// PlayLine plays one line as ReadLines does, on a board with the default
// timing (DefaultSettle).
func PlayLine(ctx context.Context, live *referee.Live, sb *sim.Board, line string) error {
	return (&Lines{Live: live, Board: sb, Settle: DefaultSettle}).Play(ctx, line)
}

// Play plays one line: a switch line, wait, reset, or a whole move by
// hand ("h2-h4", "move O-O").
func (ls *Lines) Play(ctx context.Context, line string) error {
	switch line {
	case "wait":
		ls.settle(ctx)
		return nil
	case "reset":
		ls.settle(ctx) // what was moved is judged first
		var want square.Set
		if err := ls.Live.WithGame(ctx, func(g *rules.Game) { want = g.Position().Occupancy() }); err != nil {
			return err
		}
		for _, e := range resetTouches(ls.Board.Occupied(), want) {
			ls.touch(ctx, e.Square, e.Kind == sensors.Lift)
		}
		return nil
	}
	st, ok, err := sim.ParseLineOn(line, ls.Board.Squares())
	if err == nil && ok {
		if st.Op == sim.OpLift || st.Op == sim.OpPlace {
			ls.last = time.Now()
		}
		return st.Apply(ls.Board, sim.SleepWait(ctx))
	}
	if f := strings.Fields(strings.ToLower(line)); err != nil && slices.Contains([]string{"lift", "place", "wait", "bounce", "break", "mend"}, f[0]) {
		return err // a switch line with a mistake: its own words
	}
	tok := strings.TrimPrefix(line, "move ")
	if !looksLikeMove(tok) {
		return notALine(line, ls.Board.Squares(), "lift SQ, place SQ, wait, wait 100ms or reset")
	}
	ls.settle(ctx) // the move before this one judged: this one is read in its position
	note, err := typedMove(ctx, ls.Live, ls.Board.Squares(), tok)
	if err != nil {
		return err
	}
	steps, err := ls.Live.HandsFor(ctx, tok)
	if err != nil {
		return fmt.Errorf("%v (want a move such as h2-h4, or lift/place SQ)", err)
	}
	if note != "" && ls.Out != nil {
		fmt.Fprintln(ls.Out, "note:", note)
	}
	for _, s := range steps {
		ls.touch(ctx, s.Square, s.Lift)
	}
	return nil
}

// touch lifts or places one piece on the simulated switches and waits
// long enough for the debounce to see it.
func (ls *Lines) touch(ctx context.Context, q square.Square, lift bool) {
	if lift {
		ls.Board.Lift(q)
	} else {
		ls.Board.Place(q)
	}
	ls.last = time.Now()
	select {
	case <-time.After(40 * time.Millisecond):
	case <-ctx.Done():
	}
}

// settle waits until Settle has passed since the last touch.
func (ls *Lines) settle(ctx context.Context) {
	if ls.last.IsZero() {
		return
	}
	select {
	case <-time.After(time.Until(ls.last.Add(ls.Settle))):
	case <-ctx.Done():
	}
}

// typedMove checks a typed move against the board's squares and, on the
// board's goroutine, against what its target holds (checkTyped).
func typedMove(ctx context.Context, live *referee.Live, board square.Set, text string) (note string, err error) {
	tok, perr := pgn4.ParseMove(text)
	if perr == nil {
		if err := offBoard(tok, board); err != nil {
			return "", fmt.Errorf("%s: %v", text, err)
		}
	}
	if e := live.WithGame(ctx, func(g *rules.Game) { note, err = checkTyped(g, text) }); e != nil {
		return "", e
	}
	return note, err
}
