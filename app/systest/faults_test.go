package systest

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardd/app/catalog"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

var (
	faultCycles = flag.Int("fault-cycles", 12, "TestFaultInjection: how many faults and moves to run (the long run in docs/testing.md: 1000)")
	faultSeed   = flag.Int64("fault-seed", 0, "TestFaultInjection: the random seed (0: the time)")
)

// faultRun is the fault-injection run's bookkeeping.
type faultRun struct {
	t      *testing.T
	rnd    *rand.Rand
	config string
	dir    string // the state directory
	tmpfs  bool   // dir is a small tmpfs that can be filled up
	p      *daemonProc
	filler string // the file that fills the disk ("" while there is room)

	game   string   // the game the acknowledged moves belong to
	acked  []string // its moves the board acknowledged (shown on the web page)
	states map[uint64]string
	maxSeq uint64

	// The report.
	cycles, moves, ackedTotal, lost, reused, kills, midMove, fills, pauses, damaged, games, unanswered, logged int
}

// TestFaultInjection runs the real daemon as a process and, at random,
// plays moves through its simulated switches, kills it with SIGKILL (also
// in the middle of a move), fills its disk (a tmpfs) at random moments and
// frees it, and damages its journal and stream files the way a crash
// does (a torn or zero-filled tail, garbage after the last line, a
// damaged or emptied stream) before restarting it. After every restart
// each acknowledged move must still be there and no Seq may come round
// again with other content. It reports moves acknowledged, moves lost and
// seq reused (both must be 0). -fault-cycles sets the length (docs/performance.md
// quotes a run of 1000), -fault-seed repeats a run.
func TestFaultInjection(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon as a process, many times")
	}
	seed := *faultSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	base := t.TempDir()
	f := &faultRun{t: t, rnd: rand.New(rand.NewSource(seed)), dir: filepath.Join(base, "state"), states: map[uint64]string{}}
	os.MkdirAll(f.dir, 0o755)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", f.dir).CombinedOutput(); err != nil {
		t.Logf("no disk-full faults: mounting a tmpfs was not permitted (run as root): %v %s", err, out)
	} else {
		f.tmpfs = true
		t.Cleanup(func() { exec.Command("umount", "-l", f.dir).Run() })
	}
	f.config = filepath.Join(base, "boardd.yaml")
	os.WriteFile(f.config, []byte(fmt.Sprintf(`board: faults
state_dir: %s
game:
  tags: {Event: Fault injection}
sensors:
  quiet: 120ms
  listen: 127.0.0.1:0
mqtt:
  embedded: {listen: "127.0.0.1:0"}
web:
  listen: 127.0.0.1:0
  password: fault-injection-pw
`, f.dir)), 0o644)
	f.p = startProc(t, f.config)
	f.observe()
	for f.cycles = 0; f.cycles < *faultCycles; f.cycles++ {
		r := f.rnd.Intn(20)
		if f.filler != "" && r >= 11 && f.rnd.Intn(2) == 0 {
			r = 0 // a full disk: mostly moves, until one pauses the board
		}
		switch {
		case r < 11:
			f.move()
		case r < 14 && f.tmpfs:
			f.toggleDisk()
		case r < 17:
			f.kill(false)
		default:
			f.kill(true)
		}
	}
	f.kill(false) // a last restart: everything acknowledged is still there
	f.p.cmd.Process.Signal(syscall.SIGTERM)
	f.p.cmd.Wait()
	t.Logf("fault injection (seed %d): %d cycles, %d moves made, %d moves acknowledged, %d moves lost, %d seq reused; "+
		"%d SIGKILLs (%d mid-move), %d disk fills, %d pauses, %d damaged files, %d games",
		seed, f.cycles, f.moves, f.ackedTotal, f.lost, f.reused, f.kills, f.midMove, f.fills, f.pauses, f.damaged, f.games)
	if f.lost != 0 || f.reused != 0 || f.unanswered != 0 {
		t.Errorf("%d acknowledged moves lost, %d seq reused, %d moves neither acknowledged nor paused: want 0, 0 and 0 (seed %d)", f.lost, f.reused, f.unanswered, seed)
	}
	if f.pauses > 0 && f.logged == 0 {
		t.Errorf("the board paused %d times and never logged \"storage full: the game is paused, nothing is lost\"", f.pauses)
	}
	if f.ackedTotal == 0 {
		t.Errorf("no move was acknowledged in %d cycles", f.cycles)
	}
}

// state reads the board's state from the web display, checking its Seq:
// it never goes back (each number it goes back by counts as reused), and
// a Seq seen before never comes with other content.
func (f *faultRun) state() referee.State {
	f.t.Helper()
	st := webState(f.t, f.p.web)
	content := fmt.Sprintf("%s %d %s", st.Game, len(st.Moves), st.FEN4)
	if st.Seq < f.maxSeq { // the numbers above st.Seq come round again
		f.reused += int(f.maxSeq - st.Seq)
		f.t.Errorf("cycle %d: the board's Seq went back from %d to %d", f.cycles, f.maxSeq, st.Seq)
		for seq := range f.states {
			if seq > st.Seq {
				delete(f.states, seq)
			}
		}
		f.maxSeq = st.Seq
	} else if old, seen := f.states[st.Seq]; seen && old != content && st.Status != "paused" {
		f.reused++
		f.t.Errorf("cycle %d: Seq %d came round again: was %q, now %q", f.cycles, st.Seq, old, content)
	}
	if st.Status != "paused" {
		f.states[st.Seq] = content
	}
	f.maxSeq = max(f.maxSeq, st.Seq)
	return st
}

// observe compares the board with the moves acknowledged so far: every one
// must be there, in order; moves the board shows beyond them are
// acknowledged now.
func (f *faultRun) observe() referee.State {
	f.t.Helper()
	st := f.state()
	if st.Status == "paused" {
		if len(st.Moves) < len(f.acked) {
			f.t.Errorf("cycle %d: paused, showing %d moves of %d acknowledged", f.cycles, len(st.Moves), len(f.acked))
		}
		return st
	}
	if st.Game != f.game {
		if f.game != "" && len(f.acked) > 0 { // a finished game is filed with its journal
			if kept := f.filed(f.game); kept < len(f.acked) {
				f.lost += len(f.acked) - kept
				f.t.Errorf("cycle %d: game %s with %d acknowledged moves is gone, %d of them filed (now game %s)", f.cycles, f.game, len(f.acked), kept, st.Game)
			}
		}
		f.game, f.acked = st.Game, nil
		f.games++
	}
	for i, m := range f.acked {
		if i >= len(st.Moves) || st.Moves[i].Move != m {
			f.lost += len(f.acked) - i
			f.t.Errorf("cycle %d: acknowledged move %d (%s) is lost: the board shows %d moves", f.cycles, i+1, m, len(st.Moves))
			f.acked = f.acked[:i]
			break
		}
	}
	for _, m := range st.Moves[len(f.acked):] {
		f.acked = append(f.acked, m.Move)
		f.ackedTotal++
	}
	return st
}

// metric reads one value from the daemon's /metrics.
func (f *faultRun) metric(name string) string {
	resp, err := http.Get("http://" + f.p.web + "/metrics")
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return v
		}
	}
	return ""
}

// filed counts the acknowledged moves of a finished game that its filed
// journal (journals/<game>.journal) holds, in order.
func (f *faultRun) filed(game string) int {
	data, err := os.ReadFile(filepath.Join(f.dir, "journals", game+".journal"))
	if err != nil {
		return 0
	}
	path := filepath.Join(f.t.TempDir(), "filed.journal")
	os.WriteFile(path, data, 0o644)
	j, entries, _, err := archive.Open(path)
	if err != nil {
		return 0
	}
	j.Close()
	g, _ := archive.Restore(entries, catalog.Variant)
	if g == nil {
		return 0
	}
	n := 0
	for i, r := range g.Records() {
		if i >= len(f.acked) || r.Text != f.acked[i] {
			break
		}
		n++
	}
	return n
}

// shadow is the game the board shows, rebuilt from its moves.
func (f *faultRun) shadow(st referee.State) *rules.Game {
	f.t.Helper()
	v, err := catalog.Variant(st.Variant, "")
	if err != nil {
		f.t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		f.t.Fatal(err)
	}
	for _, mi := range st.Moves {
		m, err := pgn4.Resolve(g, mi.Move)
		if err != nil {
			f.t.Fatalf("the board's move %s: %v", mi.Move, err)
		}
		if _, err := g.Play(m); err != nil {
			f.t.Fatal(err)
		}
	}
	return g
}

// move plays a random legal move (default promotions) by hand on the
// simulated switches and waits until the board acknowledges it or pauses.
func (f *faultRun) move() {
	st := f.observe()
	if st.Status == "paused" {
		return // it takes no moves now
	}
	g := f.shadow(st)
	if _, over := g.Result(); over {
		f.newGame()
		return
	}
	steps := f.steps(g)
	if err := playSteps(f.p.sim, steps); err != nil {
		f.t.Fatalf("cycle %d: playing on the switches: %v", f.cycles, err)
	}
	f.moves++
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := f.observe()
		if len(st.Moves) > len(g.Records()) {
			return
		}
		if st.Status == "paused" {
			f.pauses++
			if m := f.metric("boardd_storage_paused"); m != "1" && f.state().Status == "paused" {
				f.t.Errorf("cycle %d: paused, but /metrics says boardd_storage_paused %q", f.cycles, m)
			}
			return
		}
		if time.Now().After(deadline) {
			f.unanswered++
			f.t.Errorf("cycle %d: the move was neither acknowledged nor paused (status %s, %d moves)", f.cycles, st.Status, len(st.Moves))
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// steps are the lifts and places of a random legal move in g.
func (f *faultRun) steps(g *rules.Game) []referee.Touch {
	moves := g.LegalMoves()
	m := moves[f.rnd.Intn(len(moves))]
	for _, x := range moves { // the switches cannot tell promotions apart: the default
		if x.From() == m.From() && x.To() == m.To() {
			m = x
			break
		}
	}
	return referee.Hands(g.Position(), m)
}

// playSteps sends lifts and places to the simulated switches' control port.
func playSteps(addr string, steps []referee.Touch) error {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	for _, s := range steps {
		verb := "place"
		if s.Lift {
			verb = "lift"
		}
		fmt.Fprintf(c, "%s %s\nwait 30ms\n", verb, s.Square)
		for i := 0; i < 2; i++ {
			if line, err := r.ReadString('\n'); err != nil || strings.TrimSpace(line) != "ok" {
				return fmt.Errorf("sim control: %q %v", line, err)
			}
		}
	}
	return nil
}

// newGame starts a new game once one is over (through the web display).
func (f *faultRun) newGame() {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.Post("http://"+f.p.web+"/api/login", "application/json", strings.NewReader(`{"password":"fault-injection-pw"}`))
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest("POST", "http://"+f.p.web+"/api/cmd/new_game", strings.NewReader(`{}`))
	req.Header.Set("X-Boardd-Request", "1")
	if resp, err = c.Do(req); err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 && resp.StatusCode != 409 { // 409: paused, tried again later
		f.t.Fatalf("new_game: %s", resp.Status)
	}
	f.observe()
}

// toggleDisk fills the state directory's tmpfs up, or frees it.
func (f *faultRun) toggleDisk() {
	if f.filler != "" {
		os.Remove(f.filler)
		f.filler = ""
		return
	}
	f.filler = filepath.Join(f.dir, "filler")
	fh, err := os.Create(f.filler)
	if err != nil {
		return // full already
	}
	buf := make([]byte, 4096)
	for n := len(buf); n > 0; n /= 2 {
		for {
			if _, err := fh.Write(buf[:n]); err != nil {
				break
			}
		}
	}
	fh.Close()
	f.fills++
}

// kill kills the daemon with SIGKILL (midMove: while a move is being
// made on the switches), damages its files at random, frees the disk and
// starts it again.
func (f *faultRun) kill(midMove bool) {
	if midMove {
		if st := f.observe(); st.Status != "paused" {
			if g := f.shadow(st); len(g.LegalMoves()) > 0 {
				steps := f.steps(g)
				go playSteps(f.p.sim, steps)
				time.Sleep(time.Duration(f.rnd.Intn(300)) * time.Millisecond)
				f.midMove++
			}
		}
	} else if f.rnd.Intn(2) == 0 {
		time.Sleep(time.Duration(f.rnd.Intn(200)) * time.Millisecond)
	}
	f.p.cmd.Process.Signal(syscall.SIGKILL)
	f.p.cmd.Wait()
	f.kills++
	if strings.Contains(f.p.out.String(), "storage full: the game is paused, nothing is lost") {
		f.logged++ // a run that paused said so in its log
	}
	if f.filler != "" {
		f.toggleDisk()
	}
	if f.rnd.Intn(3) == 0 {
		f.damage()
	}
	f.p = startProc(f.t, f.config)
	f.observe()
}

// damage does to the journal or the stream what a crash can: a torn or
// zero-filled tail, garbage after the last line; or to the stream, which
// the board can do without (the journal keeps the moves), a damaged line
// in the middle or an emptied file.
func (f *faultRun) damage() {
	journal := filepath.Join(f.dir, "current.journal")
	stream := filepath.Join(f.dir, "stream.jsonl")
	path := journal
	if f.rnd.Intn(2) == 0 {
		path = stream
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return
	}
	kinds := 3
	if path == stream {
		kinds = 5
	}
	switch f.rnd.Intn(kinds) {
	case 0: // a torn write: the start of a line, no newline
		data = append(data, []byte(`{"seq":99,"kind":"mo`)...)
	case 1: // a tail the file system zero-filled
		data = append(data, make([]byte, 1+f.rnd.Intn(600))...)
	case 2: // garbage after the last line
		data = append(data, []byte("\x8f\x01garbage{]]\n")...)
	case 3: // a damaged line in the middle
		lines := strings.SplitAfter(string(data), "\n")
		i := f.rnd.Intn(len(lines))
		lines[i] = "damaged\n"
		data = []byte(strings.Join(lines, ""))
	case 4: // emptied
		data = nil
	}
	os.WriteFile(path, data, 0o644)
	f.damaged++
}
