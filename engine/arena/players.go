package arena

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"boardd/rules"
)

// Bestmove is boardd's bot as the judge runs it: `boardd bestmove
// --variant V --fen4 F --movetime T`, a new process for every move.
type Bestmove struct {
	// Binary is the boardd executable.
	Binary string
	// Variant is passed as --variant.
	Variant string
	// Args are more arguments (e.g. "--level", "4").
	Args []string
	// Label names the player (default "boardd").
	Label string
}

// Name says who the player is.
func (b *Bestmove) Name() string {
	if b.Label != "" {
		return b.Label
	}
	return "boardd"
}

// Move runs one `boardd bestmove` on the position and returns the token
// of its last line, "bestmove <move>", the process's wall time and its
// last info line.
func (b *Bestmove) Move(ctx context.Context, g *rules.Game, movetime time.Duration) (Answer, error) {
	args := append([]string{"bestmove", "--variant", b.Variant, "--fen4", g.Position().FEN4(), "--movetime", movetime.String()}, b.Args...)
	cmd := exec.CommandContext(ctx, b.Binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	began := time.Now()
	err := cmd.Run()
	ans := Answer{Took: time.Since(began)}
	if err != nil {
		return ans, fmt.Errorf("%s %s: %v: %s", b.Binary, strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	tok, ok := strings.CutPrefix(last, "bestmove ")
	if !ok {
		return ans, fmt.Errorf("%s bestmove: the last line is %q, want \"bestmove <move>\"", b.Binary, last)
	}
	for _, l := range lines {
		if in, ok := parseInfo(l); ok {
			ans.Info = in
		}
	}
	ans.Token = strings.TrimSpace(tok)
	return ans, nil
}

// Close does nothing: there is no process between moves.
func (b *Bestmove) Close() error { return nil }

// UCI is an engine that speaks 4pchess's UCI-like protocol, kept running
// for the whole match: for each move it gets `position fen <start> moves
// <squares>…` and `go movetime <ms>`, and answers `bestmove <squares>`.
type UCI struct {
	// Path and Args start the engine.
	Path string
	Args []string
	// Setup are lines sent once after start (e.g. "setoption name
	// threads value 1").
	Setup []string
	// Env is added to the engine's environment (NAME=value).
	Env []string
	// Label names the player (default the binary's name).
	Label string

	// NoAnswer counts the times the engine printed no bestmove in time
	// and was asked again.
	NoAnswer int

	once  sync.Once
	err   error
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	info  Info // the last info line await read
}

// Name says who the player is.
func (u *UCI) Name() string {
	if u.Label != "" {
		return u.Label
	}
	return u.Path
}

func (u *UCI) start() error {
	u.once.Do(func() {
		cmd := exec.Command(u.Path, u.Args...)
		if len(u.Env) > 0 {
			cmd.Env = append(os.Environ(), u.Env...)
		}
		in, err := cmd.StdinPipe()
		if err != nil {
			u.err = err
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			u.err = err
			return
		}
		if err := cmd.Start(); err != nil {
			u.err = fmt.Errorf("start the opponent %s: %v", u.Path, err)
			return
		}
		u.cmd, u.in, u.lines = cmd, in, make(chan string, 256)
		go func() {
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 1<<16), 1<<20)
			for sc.Scan() {
				u.lines <- sc.Text()
			}
			close(u.lines)
		}()
		for _, l := range append([]string{"uci"}, u.Setup...) {
			if _, err := fmt.Fprintln(in, l); err != nil {
				u.err = err
				return
			}
		}
		if _, err := u.await(context.Background(), "uciok", 10*time.Second); err != nil {
			u.err = fmt.Errorf("the opponent %s does not answer uci with uciok: %v", u.Path, err)
		}
	})
	return u.err
}

// await reads lines until one starts with prefix and returns it. Its
// errors quote the engine's last "info string" message, where 4pchess says
// what it did not accept.
func (u *UCI) await(ctx context.Context, prefix string, limit time.Duration) (string, error) {
	t := time.NewTimer(limit)
	defer t.Stop()
	said := ""
	for {
		select {
		case l, ok := <-u.lines:
			if !ok {
				return "", fmt.Errorf("%w (last said: %q)", errNoAnswer, said)
			}
			if strings.HasPrefix(l, prefix) {
				return l, nil
			}
			if in, ok := parseInfo(l); ok {
				u.info = in
			}
			if strings.HasPrefix(l, "info string") {
				said = l
			}
		case <-t.C:
			return "", fmt.Errorf("%w: no %q line within %s (last said: %q)", errTimeout, prefix, limit, said)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Move sends the game so far and waits for the engine's bestmove.
func (u *UCI) Move(ctx context.Context, g *rules.Game, movetime time.Duration) (Answer, error) {
	if err := u.start(); err != nil {
		return Answer{}, err
	}
	var b strings.Builder
	b.WriteString("position fen ")
	b.WriteString(g.StartFEN4())
	recs := g.Records()
	if len(recs) > 0 {
		b.WriteString(" moves")
	}
	for _, r := range recs {
		if r.Action != rules.ActMove {
			return Answer{}, fmt.Errorf("%s: the game has a %v turn, which the protocol cannot say", u.Name(), r.Action)
		}
		b.WriteString(" ")
		b.WriteString(Squares(r.Move))
	}
	// Every answer must be to this position: a bestmove of an earlier
	// go that came too late must not be taken for this one. "isready"
	// is answered after the position is set, which waits for any
	// search still running, so whatever comes before "readyok" is old.
	if err := u.sync(ctx, b.String()); err != nil {
		return Answer{}, err
	}
	// 4pchess prints no bestmove when its deadline passes before the
	// first iteration ends (a loaded machine, a short movetime): after
	// three times the movetime and a second it is stopped and asked
	// again, at most three times, and NoAnswer counts it.
	var l string
	var took time.Duration
	for try := 0; ; try++ {
		began := time.Now()
		u.info = Info{}
		if _, err := fmt.Fprintf(u.in, "go movetime %s\n", strconv.FormatInt(movetime.Milliseconds(), 10)); err != nil {
			return Answer{}, fmt.Errorf("%s: write: %v", u.Name(), err)
		}
		var err error
		l, err = u.await(ctx, "bestmove", 3*movetime+time.Second)
		took = time.Since(began)
		if err == nil {
			break
		}
		if errors.Is(err, errTimeout) && try < 3 {
			u.NoAnswer++
			if err := u.sync(ctx, "stop"); err != nil {
				return Answer{Took: took}, err
			}
			continue
		}
		return Answer{Took: took}, fmt.Errorf("%s: %v after %q", u.Name(), err, b.String())
	}
	f := strings.Fields(l)
	if len(f) < 2 {
		return Answer{Took: took}, fmt.Errorf("%s: %q names no move", u.Name(), l)
	}
	return Answer{Token: f[1], Took: took, Info: u.info}, nil
}

// sync sends line and "isready", and reads up to "readyok", dropping what
// came before it (late answers to earlier searches).
func (u *UCI) sync(ctx context.Context, line string) error {
	if _, err := fmt.Fprintf(u.in, "%s\nisready\n", line); err != nil {
		return fmt.Errorf("%s: write: %v", u.Name(), err)
	}
	if _, err := u.await(ctx, "readyok", 30*time.Second); err != nil {
		return fmt.Errorf("%s: no readyok after %q: %v", u.Name(), line, err)
	}
	return nil
}

// Close asks the engine to quit and waits for it.
func (u *UCI) Close() error {
	if u.cmd == nil {
		return nil
	}
	fmt.Fprintln(u.in, "quit")
	u.in.Close()
	done := make(chan error, 1)
	go func() { done <- u.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		u.cmd.Process.Kill()
		return <-done
	}
}
