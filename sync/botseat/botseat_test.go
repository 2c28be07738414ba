package botseat

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sensors"
)

// startLive runs a live board of variant with the given tags.
func startLive(t *testing.T, variant string, tags map[string]string) *referee.Live {
	t.Helper()
	return startLiveFrom(t, variant, "", tags)
}

// startLiveFrom runs a live board carrying on a game of variant from the
// position fen ("": a new game from the start array), with the given tags.
func startLiveFrom(t *testing.T, variant, fen string, tags map[string]string) *referee.Live {
	t.Helper()
	v, err := rules.NewVariant(variant, "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	cfg := referee.LiveConfig{Board: "t1", Variant: variant, Tags: tags,
		Occupancy: g.Position().Occupancy(), Quiet: 2 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)}
	if fen != "" {
		cfg.Game = g
	}
	l, err := referee.NewLive(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	return l
}

// hands executes every lit remote move on the board, as a person does,
// until the game is over or n moves are on the record.
func hands(t *testing.T, l *referee.Live, n int) referee.State {
	t.Helper()
	return handsThen(t, l, n, nil)
}

// handsThen is hands calling before, when not nil, with the state of each
// lit move before making it (a test's clock moves on by the move's time).
func handsThen(t *testing.T, l *referee.Live, n int, before func(referee.State)) referee.State {
	t.Helper()
	sig, cancel := l.Changed()
	defer cancel()
	timeout := time.After(60 * time.Second)
	lastDone := ""
	for {
		st := l.State()
		if st.Result != nil || len(st.Moves) >= n {
			return st
		}
		if st.Remote != nil && st.Status == "playing" && st.FEN4 != lastDone {
			v, _ := rules.NewVariant(st.Variant, "")
			g, err := rules.NewGame(v, st.FEN4)
			if err != nil {
				t.Fatal(err)
			}
			m, err := pgn4.Resolve(g, st.Remote.Move)
			if err != nil {
				t.Fatalf("lit move %s: %v", st.Remote.Move, err)
			}
			if before != nil {
				before(st)
			}
			for _, x := range referee.Hands(g.Position(), m) {
				k := sensors.Place
				if x.Lift {
					k = sensors.Lift
				}
				l.Touches() <- sensors.Event{Kind: k, Square: x.Square}
			}
			lastDone = st.FEN4
		}
		select {
		case <-sig:
		case <-time.After(200 * time.Millisecond):
		case <-timeout:
			t.Fatalf("the game stalled after %d moves: %+v", len(st.Moves), st.Remote)
		}
	}
}

func lookup(name, start string) (*rules.Variant, error) { return rules.NewVariant(name, start) }

// TestBotsPlayAtTheBoard: four bot seats (Teams and FFA) play on a live
// board whose moves a "person" executes as lit; the referee takes each,
// and the game reaches its end or 60 moves.
func TestBotsPlayAtTheBoard(t *testing.T) {
	for _, variant := range []string{"teams", "ffa"} {
		t.Run(variant, func(t *testing.T) {
			bots := map[rules.Seat]int{rules.Red: 2, rules.Blue: 1, rules.Yellow: 2, rules.Green: 1}
			l := startLive(t, variant, SeatTags(map[string]string{"Event": "test"}, bots))
			ctx, stop := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- Run(ctx, l, Config{Lookup: lookup, MoveTime: 20 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
			}()
			st := hands(t, l, 60)
			stop()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if len(st.Moves) < 60 && st.Result == nil {
				t.Fatalf("only %d moves", len(st.Moves))
			}
			t.Logf("%d moves, result %+v", len(st.Moves), st.Result)
		})
	}
}

// fakeSource is a board whose state the test sets; it records commands.
type fakeSource struct {
	mu    sync.Mutex
	st    referee.State
	ch    chan struct{}
	cmds  []referee.Command
	reply referee.Reply
}

func (f *fakeSource) State() referee.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st
}

func (f *fakeSource) Changed() (<-chan struct{}, func()) { return f.ch, func() {} }

func (f *fakeSource) Do(_ context.Context, c referee.Command) referee.Reply {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cmds = append(f.cmds, c)
	return f.reply
}

func (f *fakeSource) set(st referee.State) {
	f.mu.Lock()
	f.st = st
	f.mu.Unlock()
	select {
	case f.ch <- struct{}{}:
	default:
	}
}

func (f *fakeSource) commands() []referee.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]referee.Command(nil), f.cmds...)
}

func botState(game string, bots string, remote bool) referee.State {
	v, _ := rules.NewVariant("teams", "")
	seats := []referee.SeatState{}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		seats = append(seats, referee.SeatState{Seat: s.String(), ClockMS: -1, Remote: remote})
	}
	return referee.State{Game: game, Variant: "teams", Status: "playing", FEN4: v.Start, Turn: "Red",
		Seats: seats, Tags: map[string]string{TagBots: bots}}
}

// TestStopsWhenNotWanted: a bot thinking on a long move time stops the
// moment its move is no longer wanted — a new game without it, a takeback
// to another seat's turn, a resignation that ends the game — and sends
// nothing.
func TestStopsWhenNotWanted(t *testing.T) {
	cases := []struct {
		name  string
		after func(referee.State) referee.State
	}{
		{"new game without bots", func(st referee.State) referee.State { return botState("g2", "", true) }},
		{"takeback: another seat to move", func(st referee.State) referee.State { st.Turn = "Green"; st.Moves = nil; return st }},
		{"resigned: the game is over", func(st referee.State) referee.State {
			st.Status = "over"
			st.Result = &referee.ResultInfo{Reason: "resignation"}
			return st
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := botState("g1", "Red:5", true)
			f := &fakeSource{st: st, ch: make(chan struct{}, 1)}
			ctx, stop := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- Run(ctx, f, Config{Lookup: lookup, MoveTime: time.Minute, Logger: slog.New(slog.DiscardHandler)})
			}()
			time.Sleep(50 * time.Millisecond) // let it start thinking
			f.set(c.after(st))
			// Run's loop waits for a cancelled search to return before it
			// looks at the next signal, so this second change is taken
			// only once the search has stopped.
			f.set(c.after(st))
			stop()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the bot did not stop thinking")
			}
			for _, cmd := range f.commands() {
				if cmd.Name == referee.CmdMove {
					t.Fatalf("sent %+v after its move was no longer wanted", cmd)
				}
			}
		})
	}
}

// TestMakesSeatRemote: a bot seat that is not yet remote (boardd bot
// --seat) is made remote first and, having no player name, named as the
// bot (the board cannot tell a remote seat is a bot otherwise), then its
// move is sent.
func TestMakesSeatRemote(t *testing.T) {
	f := &fakeSource{st: botState("g1", "", false), ch: make(chan struct{}, 1)}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go Run(ctx, f, Config{Lookup: lookup, Seats: map[rules.Seat]int{rules.Red: 1}, MoveTime: 10 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	deadline := time.After(20 * time.Second)
	for {
		cmds := f.commands()
		if len(cmds) > 0 {
			if cmds[0].Name != referee.CmdRemote || cmds[0].Seat != "Red" || cmds[0].On == nil || !*cmds[0].On {
				t.Fatalf("first command %+v, want remote Red on", cmds[0])
			}
			f.set(botState("g1", "", true))
			break
		}
		select {
		case <-deadline:
			t.Fatal("no command")
		case <-time.After(5 * time.Millisecond):
		}
	}
	for {
		cmds := f.commands()
		if len(cmds) > 2 {
			if cmds[1].Name != referee.CmdTags || len(cmds[1].Tags) != 1 || cmds[1].Tags["Red"] != "boardd bot (level 1)" {
				t.Fatalf("second command %+v, want Red named as the bot", cmds[1])
			}
			if cmds[2].Name != referee.CmdMove || cmds[2].Seat != "Red" || cmds[2].Move == "" {
				t.Fatalf("third command %+v, want Red's move", cmds[2])
			}
			return
		}
		select {
		case <-deadline:
			t.Fatal("no move")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestParseBots(t *testing.T) {
	cases := []struct {
		tag  string
		want string
		err  bool
	}{
		{"Green:3", "Green:3", false},
		{"green:5, Blue:1", "Blue:1,Green:5", false},
		{"Red", "Red:3", false},
		{"", "", false},
		{"Purple:3", "", true},
		{"Red:9", "", true},
		{"Red:x", "", true},
	}
	for _, c := range cases {
		b, err := ParseBots(c.tag)
		if (err != nil) != c.err {
			t.Fatalf("%q: err %v", c.tag, err)
		}
		if err == nil && FormatBots(b) != c.want {
			t.Fatalf("%q: %q, want %q", c.tag, FormatBots(b), c.want)
		}
	}
	tags := SeatTags(map[string]string{"Remote": "Blue"}, map[rules.Seat]int{rules.Green: 2})
	if tags["Remote"] != "Blue,Green" || tags[TagBots] != "Green:2" {
		t.Fatalf("SeatTags: %v", tags)
	}
}

// movingSource is a fakeSource whose turn comes back to the bot after each
// of its moves (the position stays: the test is about the decision).
type movingSource struct{ *fakeSource }

func (m movingSource) Do(ctx context.Context, c referee.Command) referee.Reply {
	r := m.fakeSource.Do(ctx, c)
	if c.Name == referee.CmdMove {
		st := m.State()
		st.Moves = append(append([]referee.MoveInfo(nil), st.Moves...), referee.MoveInfo{Seat: c.Seat, Move: c.Move})
		m.set(st)
	}
	return r
}

// TestResign: a bot of level 3 or more resigns a hopeless Teams game after
// three hopeless moves in a row, only where the config allows it and only
// at level 3 or more.
func TestResign(t *testing.T) {
	v, _ := rules.NewVariant("teams", "")
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 yK:h14 bK:a7 bQ:d8 bR:e9 gK:n8 gQ:k8 gR:j9")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		level  int
		resign bool
		want   bool
	}{
		{"allowed, level 3", 3, true, true},
		{"not allowed", 5, false, false},
		{"allowed, level 2", 2, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := botState("g1", "", true)
			st.FEN4 = p.FEN4()
			f := movingSource{&fakeSource{st: st, ch: make(chan struct{}, 1)}}
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			go Run(ctx, f, Config{Lookup: lookup, Seats: map[rules.Seat]int{rules.Red: c.level}, MoveTime: 20 * time.Millisecond,
				Resign: c.resign, Logger: slog.New(slog.DiscardHandler)})
			deadline := time.After(30 * time.Second)
			for {
				cmds := f.commands()
				moves, resigned := 0, false
				for _, cmd := range cmds {
					switch cmd.Name {
					case referee.CmdMove:
						moves++
					case referee.CmdResign:
						resigned = true
					}
				}
				if resigned {
					if !c.want {
						t.Fatalf("resigned after %d moves", moves)
					}
					if moves != 2 {
						t.Fatalf("resigned after %d moves, want after two hopeless moves (on the third)", moves)
					}
					return
				}
				if moves >= 4 {
					if c.want {
						t.Fatalf("%d hopeless moves and no resignation", moves)
					}
					return
				}
				select {
				case <-deadline:
					t.Fatalf("%d moves, no resignation", moves)
				case <-time.After(5 * time.Millisecond):
				}
			}
		})
	}
}

// refusingSource refuses the first move command, as a board does while a
// hand is on it, and takes the next.
type refusingSource struct {
	*fakeSource
	refused bool
}

func (r *refusingSource) Do(ctx context.Context, c referee.Command) referee.Reply {
	r.fakeSource.Do(ctx, c)
	if c.Name == referee.CmdMove && !r.refused {
		r.refused = true
		return referee.Reply{Error: "move: the board is being corrected; wait until it matches the game"}
	}
	return referee.Reply{OK: true}
}

// TestRetriesARefusedMove: a move the board refuses is sent again later,
// even when the state does not change meanwhile.
func TestRetriesARefusedMove(t *testing.T) {
	f := &refusingSource{fakeSource: &fakeSource{st: botState("g1", "Red:1", true), ch: make(chan struct{}, 1)}}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go Run(ctx, f, Config{Lookup: lookup, MoveTime: 10 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	deadline := time.After(20 * time.Second)
	for {
		moves := 0
		for _, c := range f.commands() {
			if c.Name == referee.CmdMove {
				moves++
			}
		}
		if moves >= 2 {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("%d move commands, want the refused one sent again", moves)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestClaimsTheWin: a bot seat with a claimable FFA lead (two left, more
// than 20 points ahead) claims the win at the board instead of moving; at
// a lead of 20 it plays a move.
func TestClaimsTheWin(t *testing.T) {
	const fen = "R-0,0,1,1-0,0,0,0-0,0,0,0-%s-0-x,x,x,4,dyK,3,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/1,bR,12/14/13,dgK/bK,13/14/14/3,rQ,10/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,4,rK,3,x,x,x"
	for _, tc := range []struct {
		points string
		claims bool
	}{
		{"30,5,0,0", true},
		{"25,5,0,0", false},
	} {
		t.Run(tc.points, func(t *testing.T) {
			l := startLiveFrom(t, "ffa", fmt.Sprintf(fen, tc.points), map[string]string{TagBots: "Red:2", "Remote": "Red"})
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			go Run(ctx, l, Config{Lookup: lookup, MoveTime: 20 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
			sig, cancel := l.Changed()
			defer cancel()
			deadline := time.After(30 * time.Second)
			for {
				st := l.State()
				if st.Result != nil {
					if !tc.claims || st.Result.Reason != rules.ReasonClaimWin || strings.Join(st.Result.Winners, ",") != "Red" || len(st.Moves) != 0 {
						t.Fatalf("the game ended: %+v after %d moves", st.Result, len(st.Moves))
					}
					return
				}
				if st.Remote != nil {
					if tc.claims {
						t.Fatalf("the bot moved (%s) instead of claiming", st.Remote.Move)
					}
					return
				}
				select {
				case <-sig:
				case <-time.After(100 * time.Millisecond):
				case <-deadline:
					t.Fatalf("neither a claim nor a move: %+v", st)
				}
			}
		})
	}
}

// TestKeepsASeatsName: a bot seat made remote that has a player's name
// keeps it (the club named who plays it); only the remote command and
// the move are sent.
func TestKeepsASeatsName(t *testing.T) {
	st := botState("g1", "", false)
	st.Seats[0].Player = "Ann"
	f := &fakeSource{st: st, ch: make(chan struct{}, 1)}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go Run(ctx, f, Config{Lookup: lookup, Seats: map[rules.Seat]int{rules.Red: 1}, MoveTime: 10 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	deadline := time.After(20 * time.Second)
	for made := false; ; {
		cmds := f.commands()
		if !made && len(cmds) > 0 {
			st := botState("g1", "", true)
			st.Seats[0].Player = "Ann"
			f.set(st)
			made = true
		}
		if len(cmds) > 1 {
			if cmds[0].Name != referee.CmdRemote || cmds[1].Name != referee.CmdMove {
				t.Fatalf("commands %+v, want remote then the move (no name for a named seat)", cmds)
			}
			return
		}
		select {
		case <-deadline:
			t.Fatal("no move")
		case <-time.After(5 * time.Millisecond):
		}
	}
}
