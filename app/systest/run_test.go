package systest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boardd/app/board"
	"boardd/app/catalog"
	"boardd/app/termview"
	"boardd/configs"
	"boardd/internal/testio"
	"boardd/leds"
	"boardd/leds/ledreg"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
	"boardd/sync/archive"
)

// daemonProc is boardd run as a child process.
type daemonProc struct {
	cmd      *exec.Cmd
	web, sim string
	out      *logBuffer
}

// logBuffer is the daemon's stderr as the test reads it while the process
// still writes (os/exec copies it from another goroutine).
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what the daemon has written so far.
func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startProc(t *testing.T, config string) *daemonProc {
	t.Helper()
	cmd := exec.Command(boarddBin, "run", "--config", config, "--stdin=false")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &daemonProc{cmd: cmd, out: &logBuffer{}}
	cmd.Stderr = p.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	webRe := regexp.MustCompile(`web display:\s+http://(\S+)/`)
	simRe := regexp.MustCompile(`sim switches: (\S+)`)
	sc := bufio.NewScanner(stdout)
	deadline := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		line := sc.Text()
		if m := webRe.FindStringSubmatch(line); m != nil {
			p.web = m[1]
		}
		if m := simRe.FindStringSubmatch(line); m != nil {
			p.sim = m[1]
		}
		if strings.Contains(line, "state:") {
			break
		}
	}
	go io.Copy(io.Discard, stdout)
	if p.web == "" || p.sim == "" {
		t.Fatalf("the daemon did not say where it listens; its log:\n%s", p.out)
	}
	return p
}

func (p *daemonProc) state(t *testing.T) referee.State {
	t.Helper()
	return webState(t, p.web)
}

// webState reads the web display's state at addr (host:port).
func webState(t *testing.T, addr string) referee.State {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st referee.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// waitMoves polls the web display until the game has n turns.
func (p *daemonProc) waitMoves(t *testing.T, n int) referee.State {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := p.state(t)
		if len(st.Moves) == n {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the board shows %d turns (status %s), want %d; its log:\n%s", len(st.Moves), st.Status, n, p.out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// play makes a move by hand through the simulated switches' control port.
func (p *daemonProc) play(t *testing.T, g *rules.Game, m rules.Move) {
	t.Helper()
	steps := referee.Hands(g.Position(), m)
	if err := playSteps(p.sim, steps); err != nil {
		t.Fatal(err)
	}
}

// TestKillNineLosesNoMove plays a real game on the daemon through its
// simulated switches, kills the process with SIGKILL twice mid-game, and
// restarts it each time: every move is still there and the board carries
// on; after SIGTERM the journal holds every turn.
func TestKillNineLosesNoMove(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon as a process")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", "teams", "4pchess-26780486.pgn4"))
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := pgn4.ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := pgn4.Replay(pg, "")
	if err != nil {
		t.Fatal(err)
	}
	var moves []rules.Move
	for _, r := range want.Records() {
		if r.Action != rules.ActMove || len(moves) == 40 { // 40 turns make the point
			break
		}
		moves = append(moves, r.Move)
	}
	dir := t.TempDir()
	config := filepath.Join(dir, "boardd.yaml")
	os.WriteFile(config, []byte(fmt.Sprintf(`board: kill9
state_dir: %s
game:
  tags: {Event: Kill test}
sensors:
  quiet: 150ms
  listen: 127.0.0.1:0
mqtt:
  embedded: {listen: "127.0.0.1:0"}
web:
  listen: 127.0.0.1:0
`, filepath.Join(dir, "state"))), 0o644)

	v, _ := catalog.Variant("teams", "")
	shadow, _ := rules.NewGame(v, "")
	p := startProc(t, config)
	gameID := p.state(t).Game
	for i, m := range moves {
		if i == 7 || i == 19 {
			p.cmd.Process.Signal(syscall.SIGKILL)
			p.cmd.Wait()
			p = startProc(t, config)
			st := p.state(t)
			if len(st.Moves) != i || st.Game != gameID || st.Status != "playing" {
				t.Fatalf("after kill -9 at turn %d: %d turns, game %s (want %s), status %s", i, len(st.Moves), st.Game, gameID, st.Status)
			}
		}
		p.play(t, shadow, m)
		if _, err := shadow.Play(m); err != nil {
			t.Fatal(err)
		}
		st := p.waitMoves(t, i+1)
		if got := st.Moves[i].Move; got != shadow.Records()[i].Text {
			t.Fatalf("turn %d: the board recorded %s, played %s", i+1, got, shadow.Records()[i].Text)
		}
	}
	resp, err := http.Get("http://" + p.web + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"boardd_moves_total ", "boardd_scans_total ", "boardd_mqtt_queue_depth ", "boardd_debounce_rejections_total ",
		"boardd_mqtt_connected 1", "boardd_web_logins_refused_total 0", "boardd_broker_auth_failed_total 0", "boardd_web_event_streams "} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s:\n%s", want, body)
		}
	}
	// SIGTERM: a clean stop; the game in progress stays journaled.
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, p.out)
	}
	rec := &archive.Recorder{Dir: filepath.Join(dir, "state"), Lookup: catalog.Variant}
	res, err := rec.Resume()
	if err != nil || res == nil {
		t.Fatalf("resume after SIGTERM: %v", err)
	}
	if n := len(res.Game.Records()); n != len(moves) || res.Tags["Event"] != "Kill test" {
		t.Errorf("journal after the game: %d turns (want %d), tags %v", n, len(moves), res.Tags)
	}
	for i, r := range res.Game.Records() {
		if r.Move != moves[i] {
			t.Fatalf("journal turn %d: %s, played %s", i+1, r.Move, moves[i])
		}
	}
}

// With leds.driver term the daemon draws each new LED frame in colour:
// a move lifted on the simulated board lights its destinations.
func TestRunDrawsLEDsInTheTerminal(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.LEDs.Driver = "term"
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "off"
	var out testio.Buffer
	d, err := board.Start(context.Background(), cfg, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.SimBoard.Lift(sqr(t, "h2"))
	green := "\x1b[48;2;0;160;0m" // a destination, at full brightness
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), green) {
		if time.Now().After(deadline) {
			t.Fatalf("no destination drawn after lifting h2:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(out.String(), " a  b  c  d ") {
		t.Errorf("no board drawn:\n%s", out.String())
	}
}

func sqr(t *testing.T, name string) square.Square {
	t.Helper()
	q, err := square.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// recStrip remembers every frame shown.
type recStrip struct {
	mu    sync.Mutex
	shows [][]leds.Color
}

func (r *recStrip) Len() int { return 160 }
func (r *recStrip) Show(px []leds.Color) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shows = append(r.shows, append([]leds.Color(nil), px...))
	return nil
}

// Stopping the daemon turns the LEDs off, whatever the writer was doing.
func TestLEDsOffOnClose(t *testing.T) {
	for i := 0; i < 20; i++ { // the race this guards against was timing-dependent
		m := leds.Serpentine(square.Cross())
		out, err := leds.NewOutput(m, 2.2, leds.DefaultPower)
		if err != nil {
			t.Fatal(err)
		}
		strip := &recStrip{}
		o := ledreg.NewOut(out, strip, 255, nil)
		f := leds.NewFrame()
		f.Set(sqr(t, "h1"), leds.Color{R: 255})
		o.Show(f)
		if err := o.Close(); err != nil {
			t.Fatal(err)
		}
		strip.mu.Lock()
		last := strip.shows[len(strip.shows)-1]
		strip.mu.Unlock()
		for j, c := range last {
			if c != leds.Off {
				t.Fatalf("run %d: LED %d is %v after close", i, j, c)
			}
		}
	}
}

// boardd run on a terminal draws the board, whose turn it is and the
// LEDs' colours, as boardd sim does.
func TestRunShowsTheBoardOnATerminal(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "off"
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var out testio.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go termview.Show(ctx, d.Live, &out, true)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "Red to move") {
		if time.Now().After(deadline) {
			t.Fatalf("no board drawn:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "rK") || !strings.Contains(out.String(), " a  b  c  d ") {
		t.Errorf("no pieces drawn:\n%s", out.String())
	}
	d.SimBoard.Lift(sqr(t, "h2"))
	green := "\x1b[48;2;0;160;0m" // a destination, as the LEDs light it
	for !strings.Contains(out.String(), green) {
		if time.Now().After(deadline) {
			t.Fatalf("no destination drawn after lifting h2:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
