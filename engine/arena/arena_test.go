package arena

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/rules"
	"boardd/rules/pgn4"
)

var (
	opponent  = flag.String("arena.opponent", "", "TestVersus: the opponent engine (4pchess's cli); the test is skipped without it or -arena.baseline")
	baseline  = flag.String("arena.baseline", "", "TestVersus: another boardd binary as the opponent (old against new through bestmove)")
	boarddBin = flag.String("arena.boardd", "", "TestVersus: the boardd binary to test (default: built from ./cmd/boardd)")
	games     = flag.Int("arena.games", 2, "TestVersus: number of games (seats alternate)")
	first     = flag.Int("arena.first", 1, "TestVersus: the number of the first game to play (to resume a match: game N has the same seats and opening in every run)")
	movetime  = flag.Duration("arena.movetime", 500*time.Millisecond, "TestVersus: time per move for both sides")
	plies     = flag.Int("arena.openings", 4, "TestVersus: random plies that open each pair of games")
	seed      = flag.Uint64("arena.seed", 1, "TestVersus: seed of the openings")
	outDir    = flag.String("arena.out", "", "TestVersus: directory for the games' PGN4 (default a new temporary directory)")
	botArgs   = flag.String("arena.args", "", "TestVersus: more arguments for boardd bestmove, space-separated")
	setup     = flag.String("arena.setup", "", "TestVersus: lines sent to the opponent after uci, separated by ';'")
	fens      = flag.String("arena.fens", "", "TestVersus: a file of start positions (FEN4, one a line, as 4pchess's FENs_4PC_balanced.txt): game pair N plays line N, once from each side, instead of random openings")
	keepBot   = flag.Bool("arena.uci", false, "TestVersus: run boardd as `boardd uci`, one process kept for the whole match as 4pchess is (default: `boardd bestmove`, a process per move)")
	oppEnv    = flag.String("arena.env", MallocEnv, "TestVersus: the opponent's extra environment, space-separated NAME=value (default: glibc keeps freed memory, as an ordinary machine effectively does; \"\" for none)")
)

// The test binary doubles as the fake engines the harness tests play
// against, so they need no other program: run as "fake-uci-first" it
// answers the protocol with the first legal move, as "fake-uci-illegal"
// with a move that is never legal, as "fake-uci-silent" it gives no answer
// to the first go of each position, as "fake-uci-dies" it exits at the
// first go, as "fake-uci-late" it answers every go twice, and as "bestmove" it prints the last
// legal move as boardd bestmove does.
func TestMain(m *testing.M) {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	switch mode {
	case "fake-uci-first", "fake-uci-illegal", "fake-uci-silent", "fake-uci-dies", "fake-uci-late":
		fakeUCI(mode)
	case "bestmove":
		fakeBestmove(os.Args[2:])
	default:
		os.Exit(m.Run())
	}
	os.Exit(0)
}

func teams() *rules.Variant {
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		panic(err)
	}
	return v
}

func fakeUCI(mode string) {
	silent := false
	v := teams()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var g *rules.Game
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0:
		case f[0] == "uci":
			fmt.Println("id name fake\nuciok")
		case f[0] == "quit":
			return
		case f[0] == "isready":
			fmt.Println("readyok")
		case f[0] == "position" && len(f) >= 3:
			silent = mode == "fake-uci-silent"
			var err error
			if g, err = rules.NewGame(v, f[2]); err != nil {
				fmt.Println("info string bad fen:", err)
				continue
			}
			for _, tok := range f[min(4, len(f)):] {
				m, err := pgn4.Resolve(g, tok)
				if err == nil {
					_, err = g.Play(m)
				}
				if err != nil {
					fmt.Println("info string bad move:", tok, err)
				}
			}
		case f[0] == "go" && g != nil:
			if mode == "fake-uci-dies" {
				return
			}
			if mode == "fake-uci-illegal" {
				fmt.Println("bestmove a1-a2")
				continue
			}
			if silent { // as 4pchess when its deadline passes in the first iteration
				silent = false
				continue
			}
			fmt.Println("info depth 1")
			if d := os.Getenv("ARENA_FAKE_DEPTH"); d != "" {
				fmt.Printf("info depth %s time 12 nodes 3456 pv %s score 5 nps 288000\n", d, Squares(g.LegalMoves()[0]))
			}
			fmt.Println("bestmove " + Squares(g.LegalMoves()[0]))
			if mode == "fake-uci-late" {
				// A second, late answer (as a search that was asked
				// again and finished after all): a move of this seat,
				// which is illegal for the next one.
				fmt.Println("bestmove " + Squares(g.LegalMoves()[0]))
			}
		}
	}
}

func fakeBestmove(args []string) {
	fen := ""
	for i, a := range args {
		if a == "--fen4" && i+1 < len(args) {
			fen = args[i+1]
		}
	}
	g, err := rules.NewGame(teams(), fen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	m := g.LegalMoves()[len(g.LegalMoves())-1]
	fmt.Printf("info depth 1\nbestmove %s\n", g.Position().MoveText(m))
}

// loadavg is /proc/loadavg's line (the machine's load, reported with a
// match: only matches on an idle machine count).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown\n"
	}
	return string(b)
}

func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestPlaysAGameBetweenProcesses plays games between the fake engines:
// seats alternate, both sides' moves reach the game, and the PGN4 replays
// to the same position.
func TestPlaysAGameBetweenProcesses(t *testing.T) {
	bot := &Bestmove{Binary: self(t), Variant: "teams"}
	opp := &UCI{Path: self(t), Args: []string{"fake-uci-first"}, Label: "fake"}
	defer opp.Close()
	c := Config{Variant: teams(), MoveTime: 10 * time.Millisecond, OpeningPlies: 4, Seed: 3, MaxTurns: 24}
	var tally Tally
	for i := range 2 {
		o, err := c.PlayGame(context.Background(), i, bot, opp)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		tally.Add(o)
		wantSeats := [2]rules.Seat{rules.Red, rules.Yellow}
		if i == 1 {
			wantSeats = [2]rules.Seat{rules.Blue, rules.Green}
		}
		if o.BotSeats != wantSeats {
			t.Errorf("game %d: boardd on %v, want %v", i, o.BotSeats, wantSeats)
		}
		if o.Illegal != nil {
			t.Fatalf("game %d: %v", i, o.Illegal)
		}
		if _, over := o.Game.Result(); !over && (o.Turns != c.MaxTurns || o.Result.Reason != "move limit") {
			t.Errorf("game %d: %d turns, %q; want %d turns and a move limit", i, o.Turns, o.Result.Reason, c.MaxTurns)
		}
		if o.Moves[0] == 0 || o.Moves[1] == 0 || o.Moves[0]+o.Moves[1] != o.Turns {
			t.Errorf("game %d: moves %v in %d turns", i, o.Moves, o.Turns)
		}
		text, err := o.PGN4("boardd", "fake")
		if err != nil {
			t.Fatal(err)
		}
		pg, _, err := pgn4.ParseString(text)
		if err != nil {
			t.Fatalf("game %d: the PGN4 does not parse: %v\n%s", i, err, text)
		}
		rg, _, err := pgn4.Replay(pg, "")
		if err != nil {
			t.Fatalf("game %d: the PGN4 does not replay: %v\n%s", i, err, text)
		}
		if got, want := rg.Position().FEN4(), o.Game.Position().FEN4(); got != want {
			t.Errorf("game %d: the PGN4 replays to\n%s\nwant\n%s", i, got, want)
		}
		if !strings.Contains(text, `[`+wantSeats[0].String()+` "boardd"]`) {
			t.Errorf("game %d: PGN4 does not name boardd on %v:\n%s", i, wantSeats[0], text)
		}
	}
	if tally.Wins+tally.Draws+tally.Losses != 2 {
		t.Errorf("tally %+v: want 2 games", tally)
	}
	// The two games share one opening from opposite sides.
	o1, _ := c.Opening(0)
	o2, _ := c.Opening(1)
	if len(o1) != 4 || fmt.Sprint(o1) == fmt.Sprint(o2) {
		t.Errorf("openings %v and %v: want 4 plies, different per pair", o1, o2)
	}
}

// TestLateAnswersAreDropped: a bestmove left over from an earlier search
// is never taken for the answer to the next position.
func TestLateAnswersAreDropped(t *testing.T) {
	bot := &Bestmove{Binary: self(t), Variant: "teams"}
	opp := &UCI{Path: self(t), Args: []string{"fake-uci-late"}, Label: "late"}
	defer opp.Close()
	c := Config{Variant: teams(), MoveTime: 10 * time.Millisecond, MaxTurns: 16}
	o, err := c.PlayGame(context.Background(), 0, bot, opp)
	if err != nil {
		t.Fatal(err)
	}
	if o.Illegal != nil || o.Turns != 16 {
		t.Errorf("%d turns, illegal %v; want 16 turns and none", o.Turns, o.Illegal)
	}
}

// TestIllegalMoveIsReported: the opponent's illegal answer ends the game,
// is counted against it and named, and is not played.
func TestIllegalMoveIsReported(t *testing.T) {
	bot := &Bestmove{Binary: self(t), Variant: "teams"}
	opp := &UCI{Path: self(t), Args: []string{"fake-uci-illegal"}, Label: "liar"}
	defer opp.Close()
	c := Config{Variant: teams(), MoveTime: 10 * time.Millisecond}
	o, err := c.PlayGame(context.Background(), 0, bot, opp)
	if err != nil {
		t.Fatal(err)
	}
	if o.Illegal == nil || o.Illegal.Token != "a1-a2" || o.Illegal.Seat != rules.Blue || o.Illegal.Player != "liar" {
		t.Fatalf("illegal = %v; want liar's a1-a2 as Blue", o.Illegal)
	}
	if !o.Won() || o.Turns != 1 || len(o.Game.Records()) != 1 {
		t.Errorf("score %v after %d turns (%d records); want a win for boardd after its one move", o.Score, o.Turns, len(o.Game.Records()))
	}
	var tally Tally
	tally.Add(o)
	if tally.Illegal != [2]int{0, 1} || !strings.Contains(tally.String(), "illegal moves: boardd 0, opponent 1") {
		t.Errorf("tally %s", tally)
	}
	text, err := o.PGN4("boardd", "liar")
	if err != nil || !strings.Contains(text, "a1-a2") {
		t.Errorf("PGN4 should name the illegal move in its Termination tag: %v\n%s", err, text)
	}
}

// TestAsksAgainWhenNoAnswer: an engine that lets a go pass without a
// bestmove is asked again, and that is counted.
func TestAsksAgainWhenNoAnswer(t *testing.T) {
	g, _ := rules.NewGame(teams(), "")
	u := &UCI{Path: self(t), Args: []string{"fake-uci-silent"}}
	defer u.Close()
	ans, err := u.Move(context.Background(), g, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pgn4.Resolve(g, ans.Token); err != nil || u.NoAnswer != 1 {
		t.Errorf("answer %q (%v) after %d retries; want a legal move after 1", ans.Token, err, u.NoAnswer)
	}
}

// TestOpponentFailureIsAPlayerError: an opponent that dies mid-game stops
// the game with a PlayerError on its side (the match goes on without
// counting that game).
func TestOpponentFailureIsAPlayerError(t *testing.T) {
	bot := &Bestmove{Binary: self(t), Variant: "teams"}
	opp := &UCI{Path: self(t), Args: []string{"fake-uci-dies"}, Label: "dies"}
	defer opp.Close()
	c := Config{Variant: teams(), MoveTime: 10 * time.Millisecond}
	_, err := c.PlayGame(context.Background(), 0, bot, opp)
	var pe *PlayerError
	if !errors.As(err, &pe) || pe.Side != 1 || pe.Player != "dies" || pe.Seat != rules.Blue {
		t.Fatalf("err %v; want a PlayerError of the opponent as Blue", err)
	}
}

// TestBestmoveErrors: a bestmove process that fails or prints no
// bestmove line is an error naming what it printed.
func TestBestmoveErrors(t *testing.T) {
	g, _ := rules.NewGame(teams(), "")
	for _, tc := range []struct{ bin, want string }{
		{"/bin/false", "exit status 1"},
		{"/bin/true", "want \"bestmove <move>\""},
	} {
		b := &Bestmove{Binary: tc.bin, Variant: "teams"}
		if _, err := b.Move(context.Background(), g, time.Millisecond); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.bin, err, tc.want)
		}
	}
	u := &UCI{Path: "/nonexistent/engine"}
	if _, err := u.Move(context.Background(), g, time.Millisecond); err == nil || !strings.Contains(err.Error(), "/nonexistent/engine") {
		t.Errorf("missing engine: %v", err)
	}
}

// TestVersus plays the real boardd bestmove against an opponent engine:
//
//	go test ./engine/arena -run Versus -timeout 0 -arena.opponent /work/4pchess/cli -arena.games 20 -arena.movetime 500ms
//
// It prints one line per game and the tally, and writes each game as PGN4.
func TestVersus(t *testing.T) {
	if *opponent == "" && *baseline == "" {
		t.Skip("no -arena.opponent or -arena.baseline: the match against another engine is run on demand (docs/bot.md)")
	}
	bin := *boarddBin
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "boardd")
		build := exec.Command("go", "build", "-o", bin, "boardd/cmd/boardd")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build boardd: %v\n%s", err, out)
		}
	}
	dir := *outDir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "arena-"); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var bot Player = &Bestmove{Binary: bin, Variant: "teams", Args: strings.Fields(*botArgs)}
	if *keepBot {
		u := &UCI{Path: bin, Args: append([]string{"uci", "--variant", "teams"}, strings.Fields(*botArgs)...), Label: "boardd"}
		defer u.Close()
		bot = u
	}
	var lines []string
	for _, l := range strings.Split(*setup, ";") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	newOpp := func() Player {
		if *baseline != "" {
			return &Bestmove{Binary: *baseline, Variant: "teams", Label: "baseline"}
		}
		return &UCI{Path: *opponent, Setup: lines, Env: strings.Fields(*oppEnv), Label: filepath.Base(*opponent)}
	}
	oppName := *opponent
	if *baseline != "" {
		oppName = "baseline " + *baseline
	}
	opp := newOpp()
	noAnswer := 0
	defer func() { opp.Close() }()
	c := Config{Variant: teams(), Games: *games, MoveTime: *movetime, OpeningPlies: *plies, Seed: *seed}
	if *fens != "" {
		text, err := os.ReadFile(*fens)
		if err != nil {
			t.Fatal(err)
		}
		if c.Starts, err = ReadStarts(c.Variant, string(text)); err != nil {
			t.Fatalf("%s: %v", *fens, err)
		}
	}
	if *opponent != "" {
		fmt.Printf("opponent %s, environment %q; load %s", *opponent, *oppEnv, loadavg())
	}
	var tally Tally
	for i := *first - 1; i < *first-1+c.Games; i++ {
		o, err := c.PlayGame(context.Background(), i, bot, opp)
		var pe *PlayerError
		if errors.As(err, &pe) && pe.Side == 1 {
			// The opponent failed (4pchess on a loaded machine): the game
			// is not counted, the opponent restarted.
			tally.Aborted[1]++
			fmt.Printf("game %d: stopped, not counted: %v\n", i+1, err)
			if u, ok := opp.(*UCI); ok {
				noAnswer += u.NoAnswer
			}
			opp.Close()
			opp = newOpp()
			continue
		}
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		tally.Add(o)
		text, err := o.PGN4("boardd", oppName)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("game%03d.pgn4", i+1))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		how := map[float64]string{1: "win", 0.5: "draw", 0: "loss"}[o.Score]
		line := fmt.Sprintf("game %d: boardd %v/%v: %s, %s, %d turns (%s)", i+1, o.BotSeats[0], o.BotSeats[1], how, o.Result.Reason, o.Turns, path)
		if o.Illegal != nil {
			line += ": " + o.Illegal.Error()
		}
		fmt.Println(line)
	}
	fmt.Printf("arena vs %s at %s/move: %s\n", oppName, *movetime, tally)
	fmt.Printf("load at the end %s", loadavg())
	if u, ok := opp.(*UCI); ok {
		noAnswer += u.NoAnswer
	}
	if noAnswer > 0 {
		fmt.Printf("the opponent gave no bestmove in time %d times and was asked again\n", noAnswer)
	}
	if tally.Illegal[0] > 0 {
		t.Errorf("boardd played %d illegal moves", tally.Illegal[0])
	}
	if tally.Illegal[1] > 0 {
		t.Logf("the opponent played %d moves boardd's rules call illegal (see the games above)", tally.Illegal[1])
	}
}

// TestParseInfo reads the search reports of boardd bestmove and 4pchess.
func TestParseInfo(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Info
		ok   bool
	}{
		{"info depth 8 score 36 nodes 157256 nps 404808 time 388ms", Info{Depth: 8, Nodes: 157256, Time: 388 * time.Millisecond}, true},
		{"info depth 13 time 333 nodes 67454 pv h2-h3 b7-c7 i13-i12 score 124 nps 202564", Info{Depth: 13, Nodes: 67454, Time: 333 * time.Millisecond}, true},
		{"info depth 1", Info{Depth: 1}, true},
		{"info string depth 9", Info{}, false},
		{"bestmove h2-h3", Info{}, false},
		{"info depth x nodes 5", Info{Nodes: 5}, false},
	} {
		got, ok := parseInfo(tc.line)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseInfo(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestEngineEnvAndInfo: the opponent's extra environment reaches it, and
// its last info line before the answer is the answer's Info and adds up
// in the tally.
func TestEngineEnvAndInfo(t *testing.T) {
	g, _ := rules.NewGame(teams(), "")
	u := &UCI{Path: self(t), Args: []string{"fake-uci-first"}, Env: []string{"ARENA_FAKE_DEPTH=7"}}
	defer u.Close()
	ans, err := u.Move(context.Background(), g, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// The fake prints "info depth 1", then, with ARENA_FAKE_DEPTH in its
	// environment, "info depth 7 time 12 nodes 3456 pv …": the last
	// counts.
	if want := (Info{Depth: 7, Nodes: 3456, Time: 12 * time.Millisecond}); ans.Info != want {
		t.Errorf("info %+v; want %+v (the environment's depth, from the last line)", ans.Info, want)
	}
	var s SearchSum
	s.add(Info{Depth: 7, Nodes: 3456, Time: 12 * time.Millisecond})
	s.add(Info{Depth: 9, Nodes: 6544, Time: 8 * time.Millisecond})
	s.add(Info{}) // no report: not counted
	if got := s.String(); got != "depth 8.0, 500 knodes/s" {
		t.Errorf("sum %q; want depth 8.0, 500 knodes/s", got)
	}
}

// TestStartsFromAList: with a list of start positions, game pair N starts
// from line N, once with boardd on Red and Yellow and once on Blue and
// Green; a bad line is named.
func TestStartsFromAList(t *testing.T) {
	text, err := os.ReadFile("testdata/balanced3.txt")
	if err != nil {
		t.Fatal(err)
	}
	starts, err := ReadStarts(teams(), string(text))
	if err != nil || len(starts) != 3 {
		t.Fatalf("ReadStarts: %d starts, %v; want 3", len(starts), err)
	}
	bot := &Bestmove{Binary: self(t), Variant: "teams"}
	opp := &UCI{Path: self(t), Args: []string{"fake-uci-first"}}
	defer opp.Close()
	c := Config{Variant: teams(), MoveTime: 10 * time.Millisecond, MaxTurns: 4, Starts: starts, OpeningPlies: 4}
	for i := range 6 {
		o, err := c.PlayGame(context.Background(), i, bot, opp)
		if err != nil {
			t.Fatal(err)
		}
		if got := o.Game.StartFEN4(); got != starts[i/2] {
			t.Errorf("game %d starts from %q; want line %d %q", i+1, got, i/2+1, starts[i/2])
		}
		if want := (i%2 == 0); (o.BotSeats[0] == rules.Red) != want {
			t.Errorf("game %d: boardd on %v", i+1, o.BotSeats)
		}
		if o.Turns != 4 || len(o.Game.Records()) != 4 {
			t.Errorf("game %d: %d turns, %d records; want 4 played from the start position, no random plies", i+1, o.Turns, len(o.Game.Records()))
		}
	}
	if _, err := ReadStarts(teams(), "# a list\n"+starts[0]+"\nnot a position\n"); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad line: %v; want an error naming line 3", err)
	}
}
