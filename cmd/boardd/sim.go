package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"boardd/internal/printable"
	"boardd/leds"
	"boardd/leds/term"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
	"boardd/sync/archive"
)

func init() {
	register(command{name: "sim", summary: "play on a simulated board in the terminal (typed or scripted lifts, places and moves)", run: runSim})
}

const simHelp = `Simulated board. One command per line:
  lift SQ        lift the piece on SQ            (also: -SQ)
  place SQ       put a piece down on SQ          (also: +SQ)
  wait           the board is quiet: the referee judges (an empty line too)
  TOKEN          lift and place for a whole move, written as in PGN4:
  move TOKEN     h2-h4, Nj1-i3, Qg1xQn8, O-O, O-O-O, e10-e11=N
  promote K      change the last promotion (Q, R, B, N)
  board          draw the board again
  # …            a comment
At the end of the input the game is printed as PGN4.`

func runSim(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sim", stderr)
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants'")
	start := fs.String("start", "", "start array (default: the variant's first), or a start position in FEN4 (russian-fortress: any fortress placement)")
	script := fs.String("script", "", "read commands from this file instead of standard input")
	color := fs.Bool("color", false, "draw the LEDs with ANSI colours")
	quiet := fs.Bool("q", false, "do not draw the board after each judgement")
	journal := fs.String("journal", "", "record every turn in this journal (fsync per turn); if it exists, resume its game")
	archiveDir := fs.String("archive", "", "save the finished game as PGN4 in this archive directory")
	event := fs.String("event", "", "event name for the game's PGN4 headers")
	round := fs.String("round", "", "round for the game's PGN4 headers")
	switches := fs.Bool("switches", false, "the script is a switch script (lift SQ, place SQ, wait 30ms, bounce SQ MS) played through simulated reed switches, their debounce and the referee in simulated time")
	quietFor := fs.Duration("quiet", 400*time.Millisecond, "with --switches: how long the board must be still before the referee judges")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, f := range [...]struct{ flag, v string }{{"--event", *event}, {"--round", *round}} {
		if err := printable.Check(f.v); err != nil {
			return fmt.Errorf("%w: %s %v", errUsage, f.flag, err)
		}
	}
	if *switches && *script == "" {
		return fmt.Errorf("%w: --switches needs --script FILE", errUsage)
	}
	array, fen := rules.SplitStart(*start)
	v, err := loadVariant(*variant, array)
	if err != nil {
		return err
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return err
	}
	if fen != "" && rules.HookOptions[rules.FortressOptions](v).Fortresses != [rules.NumSeats]square.Set{} {
		if err := rules.CheckFortressStart(v, fen); err != nil {
			fmt.Fprintln(stderr, "warning: not a fortress start position:", err)
		}
	}
	var jl *archive.Journal
	if *journal != "" {
		if _, err := os.Stat(*journal); err == nil {
			j, entries, warn, err := archive.Open(*journal)
			if err != nil {
				return err
			}
			if warn != "" {
				fmt.Fprintln(stderr, "warning:", warn)
			}
			if g, err = archive.Restore(entries, loadVariant); err != nil {
				j.Close()
				return err
			}
			fmt.Fprintf(stdout, "resumed %s: %d turns from %s\n", g.Variant().Name, len(g.Records()), *journal)
			jl = j
		} else {
			st := *start
			if st == "" {
				st = g.StartFEN4()
			}
			if jl, err = archive.Create(*journal, archive.Entry{Variant: v.Name, Start: st}); err != nil {
				return err
			}
		}
		defer jl.Close()
	}
	in := io.Reader(os.Stdin)
	if *script != "" {
		f, err := os.Open(*script)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	} else {
		fmt.Fprintln(stdout, simHelp)
	}
	s, err := startSim(g, jl, stdout)
	if err != nil {
		return err
	}
	defer s.stop()
	s.color, s.draw = *color, !*quiet
	s.show()
	if *switches {
		if err := s.playSwitches(in, *script, *quietFor); err != nil {
			return err
		}
		return s.finish(*event, *round, *archiveDir)
	}
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		if err := s.line(strings.TrimSpace(sc.Text())); err != nil {
			if errors.Is(err, errSimPaused) {
				return err
			}
			if *script != "" {
				return fmt.Errorf("%s:%d: %v", *script, n, err)
			}
			fmt.Fprintf(stdout, "?? %v\n", err)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if err := s.judge(); err != nil {
		return err
	}
	return s.finish(*event, *round, *archiveDir)
}

// errSimPaused is why a simulated game stops: the board could not write
// its journal (the error wrapping it says why).
var errSimPaused = errors.New("the journal cannot be written")

// simBoard is the terminal front end of boardd sim: a referee.Live, as
// boardd run has, fed typed lines or simulated switches, whose messages
// are printed and whose lights are drawn in the terminal.
type simBoard struct {
	live  *referee.Live
	ctx   context.Context
	stop  func() // ends the board's Run and waits for it
	msgs  <-chan referee.Message
	board square.Set
	out   io.Writer
	color bool
	draw  bool
	setup referee.SetupInfo // the guided set-up's last step printed

	mu    sync.Mutex
	frame leds.Frame // the board's last LED frame
}

// startSim runs a live board on g (a new game, or one restored from its
// journal) for the terminal; with jl every turn is journaled before the
// board goes on, as archive.Recorder does for boardd run.
func startSim(g *rules.Game, jl *archive.Journal, out io.Writer) (*simBoard, error) {
	s := &simBoard{board: g.Variant().Geometry.Playable, out: out}
	cfg := referee.LiveConfig{
		Board: "sim", Lookup: loadVariant, Game: g, GameID: "sim",
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
func (s *simBoard) feed(evs []sensors.Event, judge bool) error {
	if err := s.live.Feed(s.ctx, evs, judge); err != nil {
		return err
	}
	return s.report(judge)
}

// judge tells the board it is still and prints what it decided.
func (s *simBoard) judge() error { return s.feed(nil, true) }

// report prints the messages the board has sent since the last call,
// the guided set-up's next step, and, when anything was said, the board.
func (s *simBoard) report(judged bool) error {
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
		return fmt.Errorf("%w: %s", errSimPaused, st.Message)
	}
	if st.Setup != nil && *st.Setup != s.setup {
		s.setup = *st.Setup
		if st.Setup.Square != "" {
			fmt.Fprintf(s.out, "set-up: put %s on %s (%d of %d stand)\n", st.Setup.Piece, st.Setup.Square, st.Setup.Done, st.Setup.Total)
		}
		said = true
	}
	if said && judged {
		s.show()
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
		return fmt.Sprintf("!! sensor fault on %s: %s", m.Square, m.Text)
	case referee.MsgGameStart:
		return ""
	}
	return m.Text
}

// finish prints the game as PGN4 and saves it in the archive if asked.
func (s *simBoard) finish(event, round, archiveDir string) error {
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

// playSwitches plays a switch script on simulated reed switches: the
// scanner debounces them every 5 ms of simulated time, its lift and place
// events go to the board, and once the board has been still for quiet it
// judges.
func (s *simBoard) playSwitches(in io.Reader, name string, quiet time.Duration) error {
	script, err := sim.ParseScriptOn(name, in, s.board)
	if err != nil {
		return err
	}
	var occ square.Set
	if err := s.live.WithGame(s.ctx, func(g *rules.Game) { occ = g.Position().Occupancy() }); err != nil {
		return err
	}
	var fail error
	rig, err := newSwitchRig(s.board, occ, quiet, func(e sensors.Event) {
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
	if err := script.Play(rig.board, rig.wait); err != nil {
		return err
	}
	if err := rig.settle(); err != nil {
		return err
	}
	return fail
}

// switchRig is simulated reed switches scanned and debounced in simulated
// time: their lift, place and chatter events go to touch, and judge is
// called once the board has been still for the quiet period.
type switchRig struct {
	board   *sim.Board
	sc      *sensors.Scanner
	clk     *sim.Clock
	period  time.Duration
	quiet   time.Duration
	owed    time.Duration
	last    time.Time
	pending bool
	judge   func()
}

// newSwitchRig sets simulated switches up on the squares of board, the
// pieces standing on occ. A sensor fault other than chatter (which touch
// gets, for the board to report) is printed on out.
func newSwitchRig(board, occ square.Set, quiet time.Duration, touch func(sensors.Event), judge func(), out io.Writer) (*switchRig, error) {
	clk := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	sb, err := sim.NewOn(board, occ, clk.Now)
	if err != nil {
		return nil, err
	}
	r := &switchRig{board: sb, clk: clk, quiet: quiet, judge: judge}
	sc, err := sensors.NewScanner(r.board, r.board.Map(), sensors.Config{Now: clk.Now, OnEvent: func(e sensors.Event) {
		switch e.Kind {
		case sensors.Lift, sensors.Place:
			touch(e)
			r.last, r.pending = e.Time, true
		case sensors.Fault:
			if e.Cause == sensors.Chatter {
				touch(e)
			} else {
				fmt.Fprintf(out, "!! sensor fault on %s\n", e.Square)
			}
		}
	}})
	if err != nil {
		return nil, err
	}
	r.sc, r.period = sc, sc.Config().Period
	if err := sc.Step(clk.Now()); err != nil { // the first scan sets the state
		return nil, err
	}
	return r, nil
}

// wait lets d of simulated time pass: the scanner scans every period and
// the board is judged once it has been still for the quiet period.
func (r *switchRig) wait(d time.Duration) error {
	r.owed += d
	for r.owed >= r.period {
		r.owed -= r.period
		now := r.clk.Advance(r.period)
		if err := r.sc.Step(now); err != nil {
			return err
		}
		if r.pending && now.Sub(r.last) >= r.quiet {
			r.pending = false
			r.judge()
		}
	}
	return nil
}

// settle waits until the last touches have been judged.
func (r *switchRig) settle() error { return r.wait(r.quiet + 10*r.period) }

func (s *simBoard) line(l string) error {
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
		s.show()
		return nil
	case f[0] == "board":
		s.show()
		return nil
	case len(f) == 1 && looksLikeMove(f[0]):
		return s.move(f[0]) // a bare move, as boardd run takes it: "h2-h4", "O-O"
	}
	return fmt.Errorf("%q: want a move (h2-h4, Nj1-i3, O-O), lift SQ, place SQ, wait, promote K or board", l)
}

// promote changes the last promotion to the piece letter k.
func (s *simBoard) promote(k string) error {
	if _, ok := rules.KindFromLetter(strings.ToUpper(k)[0]); !ok {
		return fmt.Errorf("promote %s: want Q, R, B or N", k)
	}
	if r := s.live.Do(s.ctx, referee.Command{Name: referee.CmdPromote, Piece: strings.ToUpper(k)}); !r.OK {
		return errors.New(r.Error)
	}
	return s.report(false)
}

func (s *simBoard) touch(name string, lift bool) error {
	q, err := square.Parse(name)
	if err != nil || !s.board.Has(q) {
		return fmt.Errorf("%q is not a square of this board", name)
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
func (s *simBoard) move(text string) error {
	steps, err := s.live.HandsFor(s.ctx, text)
	if err != nil {
		return fmt.Errorf("move %v (want a move such as h2-h4, or lift/place SQ)", err)
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

// show draws the board's lights in the terminal, with the pieces, and
// xx and ?? on the squares to empty and to fill while the board differs
// from the game.
func (s *simBoard) show() {
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
