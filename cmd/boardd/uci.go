package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"boardd/app/catalog"
	"boardd/engine"
	"boardd/rules"
	"boardd/rules/pgn4"
)

func init() {
	register(command{name: "uci", summary: "play the bot over standard input and output in 4pchess's UCI-like protocol, one process for a whole game", run: runUCI})
}

// uciMaxLine bounds one line of input (a position with every move of a
// long game fits many times over).
const uciMaxLine = 1 << 20

func runUCI(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("uci", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd uci [--variant teams] [--level 1-5] [--hash MB]")
		fmt.Fprintln(stderr, "Reads the protocol of 4pchess (github.com/obryanlouis/4pchess), a UCI for four players, on standard input:")
		fmt.Fprintln(stderr, "  uci, isready, ucinewgame, position fen F [moves h2-h4 ...] | position startpos [moves ...],")
		fmt.Fprintln(stderr, "  go movetime MS | depth N | nodes N | wtime MS [winc MS] (the clock of the seat to move), stop, quit,")
		fmt.Fprintln(stderr, "  setoption name Level|Hash|Variant value V.")
		fmt.Fprintln(stderr, "Answers info lines and bestmove <from-to> (h10-h11=Q for a promotion). The bot keeps what it learnt")
		fmt.Fprintln(stderr, "from move to move, as at the board.")
		fs.PrintDefaults()
	}
	variant := fs.String("variant", "teams", "rules: a name from 'boardd variants'")
	level := fs.Int("level", engine.MaxLevel, "strength 1-5")
	hash := fs.Int("hash", 16, "transposition table in MB")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	u, err := newUCI(stdout, *variant, *level, *hash)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return u.serve(os.Stdin)
}

// uciSession is one engine speaking the protocol: the game set by the
// last position command and the search under way, if any.
type uciSession struct {
	outMu sync.Mutex
	out   io.Writer

	variant *rules.Variant
	level   int
	hashMB  int
	eng     *engine.Engine
	game    *rules.Game

	cancel context.CancelFunc // the search under way
	done   chan struct{}      // closed when it has printed its bestmove
}

func newUCI(out io.Writer, variant string, level, hashMB int) (*uciSession, error) {
	if level < 1 || level > engine.MaxLevel {
		return nil, fmt.Errorf("level %d: want 1 to %d", level, engine.MaxLevel)
	}
	if hashMB < 1 || hashMB > 4096 {
		return nil, fmt.Errorf("hash %d MB: want 1 to 4096", hashMB)
	}
	v, err := catalog.Variant(variant, "")
	if err != nil {
		return nil, err
	}
	u := &uciSession{out: out, variant: v, level: level, hashMB: hashMB}
	u.newEngine()
	return u, nil
}

func (u *uciSession) newEngine() {
	u.eng = engine.New(engine.Options{Level: u.level, HashMB: u.hashMB})
	u.game, _ = rules.NewGame(u.variant, "")
}

// say writes lines to the output, whole.
func (u *uciSession) say(format string, a ...any) {
	u.outMu.Lock()
	defer u.outMu.Unlock()
	fmt.Fprintf(u.out, format+"\n", a...)
}

// serve reads commands until quit or the end of input; a line it cannot
// take is answered with "info string" saying why, and the engine goes on.
func (u *uciSession) serve(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), uciMaxLine)
	defer u.wait(true)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			u.say("id name boardd\nid author the boardd developers\noption name Level type spin default %d min 1 max %d\noption name Hash type spin default %d min 1 max 4096\noption name Variant type string default %s\nuciok", u.level, engine.MaxLevel, u.hashMB, u.variant.Name)
		case "isready":
			u.say("readyok")
		case "ucinewgame":
			u.wait(true)
			u.newEngine()
		case "position":
			u.wait(true)
			if err := u.position(f[1:]); err != nil {
				u.say("info string position not taken: %v", err)
			}
		case "go":
			u.wait(true)
			if err := u.goSearch(f[1:]); err != nil {
				u.say("info string go not taken: %v", err)
			}
		case "stop":
			u.wait(true)
		case "setoption":
			u.wait(true)
			if err := u.setOption(f[1:]); err != nil {
				u.say("info string setoption not taken: %v", err)
			}
		case "quit":
			return nil
		default:
			u.say("info string unknown command %q", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading standard input: %v", err)
	}
	return nil
}

// wait ends the search under way, if any (stopping it first when stop is
// set), once it has printed its bestmove.
func (u *uciSession) wait(stop bool) {
	if u.done == nil {
		return
	}
	if stop {
		u.cancel()
	}
	<-u.done
	u.done, u.cancel = nil, nil
}

// position reads "fen F [moves …]" or "startpos [moves …]"; the game is
// left as it was when any of it is wrong.
func (u *uciSession) position(f []string) error {
	fen := ""
	switch {
	case len(f) >= 2 && f[0] == "fen":
		fen, f = f[1], f[2:]
	case len(f) >= 1 && f[0] == "startpos":
		f = f[1:]
	default:
		return fmt.Errorf("want fen F or startpos, then moves")
	}
	g, err := rules.NewGame(u.variant, fen)
	if err != nil {
		return err
	}
	if len(f) > 0 {
		if f[0] != "moves" {
			return fmt.Errorf("%q: want moves", f[0])
		}
		for i, tok := range f[1:] {
			m, err := pgn4.Resolve(g, tok)
			if err == nil {
				_, err = g.Play(m)
			}
			if err != nil {
				return fmt.Errorf("move %d %q: %v", i+1, tok, err)
			}
		}
	}
	u.game = g
	return nil
}

// goSearch starts a search of the current position with the limits of a
// go command.
func (u *uciSession) goSearch(f []string) error {
	opt := engine.Options{Level: u.level}
	var left, inc time.Duration
	for i := 0; i < len(f); i++ {
		key := f[i]
		if key == "infinite" {
			opt.NoTimeLimit = true
			continue
		}
		if i+1 >= len(f) {
			return fmt.Errorf("%s without a value", key)
		}
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%s %q: want a whole number, not negative", key, f[i+1])
		}
		i++
		switch key {
		case "movetime":
			opt.MoveTime = time.Duration(n) * time.Millisecond
		case "depth":
			opt.Depth = int(min(n, 64))
		case "nodes":
			opt.Nodes = n
		case "wtime":
			left = time.Duration(n) * time.Millisecond
		case "winc":
			inc = time.Duration(n) * time.Millisecond
		case "movestogo":
			opt.Clock = &engine.Clock{MovesToGo: int(min(n, 1000))}
		default:
			return fmt.Errorf("unknown limit %q", key)
		}
	}
	if left > 0 {
		if opt.Clock == nil {
			opt.Clock = &engine.Clock{}
		}
		opt.Clock.Left, opt.Clock.Increment = left, inc
	} else {
		opt.Clock = nil
	}
	if opt.MoveTime == 0 && opt.Clock == nil && (opt.Depth > 0 || opt.Nodes > 0) {
		opt.NoTimeLimit = true
	}
	if opt.MoveTime == 0 && opt.Clock == nil && !opt.NoTimeLimit {
		opt.MoveTime = time.Second
	}
	opt.HashMB = u.hashMB
	u.eng.SetOptions(opt)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	u.cancel, u.done = cancel, done
	g := u.game
	go func() {
		defer close(done)
		defer cancel()
		r, err := u.eng.Think(ctx, g)
		if err != nil {
			u.say("info string %s to move has no legal move (is the game over?)\nbestmove (none)", g.Turn())
			return
		}
		nps := 0.0
		if r.Elapsed > 0 {
			nps = float64(r.Nodes) / r.Elapsed.Seconds()
		}
		u.say("info depth %d score %d nodes %d nps %.0f time %d\nbestmove %s", r.Depth, r.Score, r.Nodes, nps, r.Elapsed.Milliseconds(), r.Move.String())
	}()
	return nil
}

// setOption reads "name N value V".
func (u *uciSession) setOption(f []string) error {
	if len(f) < 4 || f[0] != "name" || f[2] != "value" {
		return fmt.Errorf("want name N value V")
	}
	name, value := strings.ToLower(f[1]), strings.Join(f[3:], " ")
	switch name {
	case "level", "hash":
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("%s %q: want a whole number", f[1], value)
		}
		if name == "level" {
			if n < 1 || n > engine.MaxLevel {
				return fmt.Errorf("level %d: want 1 to %d", n, engine.MaxLevel)
			}
			u.level = n
			return nil
		}
		if n < 1 || n > 4096 {
			return fmt.Errorf("hash %d MB: want 1 to 4096", n)
		}
		u.hashMB = n
		u.newEngine()
	case "variant":
		v, err := catalog.Variant(value, "")
		if err != nil {
			return err
		}
		u.variant = v
		u.newEngine()
	case "threads":
		// One search thread; accepted so that programs that set it work.
	default:
		return fmt.Errorf("unknown option %q", f[1])
	}
	return nil
}
