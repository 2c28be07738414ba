package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
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
	array, fen := rules.SplitStart(*start)
	v, err := loadVariant(*variant, array)
	if err != nil {
		return err
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return err
	}
	if fen != "" && v.Fortresses != [rules.NumSeats]square.Set{} {
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
	s := &simBoard{ref: referee.New(g), board: g.Variant().Geometry.Playable, out: stdout, color: *color, draw: !*quiet, journal: jl}
	s.show()
	if *switches {
		if *script == "" {
			return fmt.Errorf("%w: --switches needs --script FILE", errUsage)
		}
		if err := s.playSwitches(in, *script, *quietFor); err != nil {
			return err
		}
		return s.finish(g, *event, *round, *archiveDir)
	}
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		if err := s.line(strings.TrimSpace(sc.Text())); err != nil {
			if *script != "" {
				return fmt.Errorf("%s:%d: %v", *script, n, err)
			}
			fmt.Fprintf(stdout, "?? %v\n", err)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	s.judge()
	return s.finish(g, *event, *round, *archiveDir)
}

// finish prints the game as PGN4 and saves it in the archive if asked.
func (s *simBoard) finish(g *rules.Game, event, round, archiveDir string) error {
	if s.err != nil {
		return s.err
	}
	tags := []pgn4.Tag{{Name: "Event", Value: "boardd sim"}}
	if event != "" {
		tags[0].Value = event
	}
	if round != "" {
		tags = append(tags, pgn4.Tag{Name: "Round", Value: round})
	}
	if res, over := g.Result(); over {
		tags = append(tags, pgn4.Tag{Name: "Termination", Value: res.Reason})
	}
	out, err := pgn4.FromGame(g, tags)
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
// events go to the referee, and once the board has been still for quiet
// the referee judges.
func (s *simBoard) playSwitches(in io.Reader, name string, quiet time.Duration) error {
	script, err := sim.ParseScriptOn(name, in, s.board)
	if err != nil {
		return err
	}
	rig, err := s.newRig(quiet)
	if err != nil {
		return err
	}
	if err := script.Play(rig.board, rig.wait); err != nil {
		return err
	}
	return rig.settle()
}

// switchRig is simulated reed switches under the simulated board's
// referee, scanned and debounced in simulated time.
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

// newRig sets simulated switches up under s's board, in step with its
// game.
func (s *simBoard) newRig(quiet time.Duration) (*switchRig, error) {
	clk := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	board, err := sim.NewOn(s.ref.Game().Variant().Geometry.Playable, s.ref.Game().Position().Occupancy(), clk.Now)
	if err != nil {
		return nil, err
	}
	r := &switchRig{board: board, clk: clk, quiet: quiet, judge: s.judge}
	sc, err := sensors.NewScanner(r.board, r.board.Map(), sensors.Config{Now: clk.Now, OnEvent: func(e sensors.Event) {
		switch e.Kind {
		case sensors.Lift, sensors.Place:
			s.ref.Touch(referee.Touch{Square: e.Square, Lift: e.Kind == sensors.Lift})
			r.last, r.pending = e.Time, true
		case sensors.Fault:
			fmt.Fprintf(s.out, "!! sensor fault on %s\n", e.Square)
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
// the referee judges once the board has been still for the quiet period.
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

// simBoard is the simulated board: the referee, and the switches as the
// typed lifts and places leave them.
type simBoard struct {
	ref     *referee.Referee
	board   square.Set
	out     io.Writer
	color   bool
	draw    bool
	journal *archive.Journal  // nil: not recording
	err     error             // a failed journal write stops the session
	step    referee.SetupStep // the guided set-up's last step printed
}

// record journals a turn; a takeback first when a promotion was changed.
func (s *simBoard) record(rec rules.Record, takeback bool) {
	if s.journal == nil || s.err != nil {
		return
	}
	if takeback {
		s.err = s.journal.Append(archive.Entry{Kind: "takeback"})
	}
	if s.err == nil {
		s.err = s.journal.Append(archive.MoveEntry(rec))
	}
}

func (s *simBoard) line(l string) error {
	if l == "" || l == "wait" {
		s.judge()
		return nil
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
		k, ok := rules.KindFromLetter(strings.ToUpper(f[1])[0])
		if !ok {
			return fmt.Errorf("promote %s: want Q, R, B or N", f[1])
		}
		rec, err := s.ref.ChoosePromotion(k)
		if err != nil {
			return err
		}
		s.record(rec, true)
		fmt.Fprintf(s.out, "%s: %s (promotion changed)\n", rec.Seat, rec.Text)
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

func (s *simBoard) touch(name string, lift bool) error {
	q, err := square.Parse(name)
	if err != nil || !s.board.Has(q) {
		return fmt.Errorf("%q is not a square of this board", name)
	}
	s.ref.Touch(referee.Touch{Square: q, Lift: lift})
	return nil
}

// move performs a whole move by hand, given as a PGN4 token ("h2-h4",
// "Nj1xBi3", "O-O", "e10-e11=N"): the victim lifted, the piece moved, the
// rook for castling, then a quiet board.
func (s *simBoard) move(text string) error {
	g := s.ref.Game()
	steps, err := referee.GameHands(g, text)
	if err != nil {
		return fmt.Errorf("move %v (want a move such as h2-h4, or lift/place SQ)", err)
	}
	for _, h := range steps {
		s.ref.Touch(h)
	}
	s.judge()
	tok, _ := pgn4.ParseMove(text)
	promo := rules.NoKind
	if tok.Promotion != 0 {
		promo, _ = rules.KindFromLetter(tok.Promotion)
	}
	if recs := g.Records(); promo != rules.NoKind && len(recs) > 0 && recs[len(recs)-1].Move.Promotion() != promo {
		rec, err := s.ref.ChoosePromotion(promo) // the switches played the default piece
		if err == nil {
			s.record(rec, true)
			fmt.Fprintf(s.out, "%s: %s (promotion changed)\n", rec.Seat, rec.Text)
		}
		return err
	}
	return nil
}

// judge tells the referee the board is quiet and reports what it decided.
func (s *simBoard) judge() {
	evs := s.ref.Quiet()
	for _, e := range evs {
		switch e.Kind {
		case referee.EvMove:
			fmt.Fprintf(s.out, "%s: %s\n", e.Record.Seat, e.Record.Text)
			s.record(e.Record, false)
		case referee.EvRevised:
			fmt.Fprintf(s.out, "%s: %s (revised: %s was the castle's first part)\n", e.Record.Seat, e.Record.Text, e.Replaced.Text)
			s.record(e.Record, true)
		case referee.EvOutOfTurn:
			fmt.Fprintf(s.out, "!! that was %s's move, but it is %s's turn: put it back\n", e.Seat, s.ref.Game().Turn())
		case referee.EvIllegal:
			why := "no legal move explains the board"
			if e.Why != "" {
				why = e.Why
			}
			fmt.Fprintf(s.out, "!! %s: follow the lights back (xx: empty it, ?? : fill it)\n", why)
		case referee.EvAmbiguous:
			fmt.Fprintf(s.out, "!! more than one move fits %v: lift and place again more clearly\n", e.Candidates)
		case referee.EvPromotionChoice:
			fmt.Fprintf(s.out, "promotion: %v (default first; 'promote K' to change)\n", e.Candidates)
		case referee.EvCorrected:
			fmt.Fprintln(s.out, "board matches the game again")
		case referee.EvSetup:
			fmt.Fprintln(s.out, "set-up of the current position: every piece is off; put each piece where the lights show")
		case referee.EvGameOver:
			fmt.Fprintf(s.out, "game over: %s, winners %v\n", e.Result.Reason, e.Result.Winners)
		}
	}
	if step, ok := s.ref.Setup(); ok && step != s.step {
		s.step = step
		if step.Square != square.None {
			fmt.Fprintf(s.out, "set-up: put %v on %s (%d of %d stand)\n", step.Piece, step.Square, step.Done, step.Total)
		}
		s.show()
		return
	}
	if len(evs) > 0 {
		s.show()
	}
}

func (s *simBoard) show() {
	if !s.draw {
		return
	}
	var f leds.Frame
	f.Brightness = 255
	s.ref.Frame(&f)
	p := s.ref.Game().Position()
	label := func(q square.Square) string {
		if pc := p.At(q); pc.IsPiece() {
			l := pc.String()
			return l[len(l)-2:]
		}
		return ""
	}
	if !s.ref.InStep() {
		label = func(q square.Square) string {
			switch c := f.At(q); c {
			case s.ref.Palette.Wrong:
				return "xx"
			case s.ref.Palette.Missing:
				return "??"
			}
			if pc := p.At(q); pc.IsPiece() {
				l := pc.String()
				return l[len(l)-2:]
			}
			return ""
		}
	}
	fmt.Fprintf(s.out, "%s to move\n", s.ref.Game().Turn())
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
