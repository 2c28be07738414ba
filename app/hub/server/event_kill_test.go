package server_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardd/app/catalog"
	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
	"boardd/internal/testio"
	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
)

// eventLong makes TestEventKilledMidRound's games the whole real games
// (up to their first resignation, time-out or claim) instead of their
// first 40 plies (go test ./app/hub/server -run EventKilled
// -hub.event-long).
var eventLong = flag.Bool("hub.event-long", false, "TestEventKilledMidRound: play the whole real games instead of their first 40 plies")

// Sizes of the measured event (docs/hub.md, issue 31): 4 rounds of 10
// boards, 40 players (20 teams of two in Teams).
const (
	fullRounds = 4
	fullBoards = 10
)

// A full event played by real boards from the director's API to the
// standings, with the hub's process killed with SIGKILL in the middle
// of round 2 (half the boards finished, half in the middle of their
// games, which they play on while the hub is down) and started again on
// the same state directory and database. At the end every game each
// board played is in the database with every turn its stream numbered,
// in order, once; each round's tables are linked to the games the
// boards played for them; and after every round the hub's standings
// equal standings the test computes from the boards' own results.
// An FFA event (40 players) and a Teams event (20 teams), each on SQLite
// and on PostgreSQL (skipped without it, except in CI).
func TestEventKilledMidRound(t *testing.T) {
	plies := 40
	if *eventLong {
		plies = 1000
	}
	t.Run("sqlite", func(t *testing.T) {
		t.Run("ffa", func(t *testing.T) { runKilledEvent(t, "ffa", "", plies) })
		t.Run("teams", func(t *testing.T) { runKilledEvent(t, "teams", "", plies) })
	})
	t.Run("postgres", func(t *testing.T) {
		pg := pgtest.Start(t)
		t.Run("ffa", func(t *testing.T) { runKilledEvent(t, "ffa", pg.NewDB(t), plies) })
		t.Run("teams", func(t *testing.T) { runKilledEvent(t, "teams", pg.NewDB(t), plies) })
	})
}

// killedEvent is one run: the hub's process and addresses, the director's
// client, the boards, and what the boards played.
type killedEvent struct {
	t                *testing.T
	kind             string
	state, mqtt, web string
	db               string // "" is hub.db in state
	kill             func()
	a                *api
	live             map[string]*referee.Live
	boards           []string
	games            [][]string // real games' moves, by index
	played           []playedGame
	eventID          int64
	eventName        string
	claims           int // games ended by a claim of the win
}

// playedGame is a game as its board played it: the board's own record.
type playedGame struct {
	round, table int
	board, game  string
	seats        [4]string // the names the board had at Red, Blue, Yellow, Green
	result       referee.ResultInfo
	moves        []referee.MoveInfo // the board's record of the game's turns
}

func runKilledEvent(t *testing.T, kind, db string, plies int) {
	began := time.Now()
	e := &killedEvent{t: t, kind: kind, state: t.TempDir(), db: db, live: map[string]*referee.Live{}, eventName: "Club night " + kind}
	e.mqtt, e.web = testio.FreeAddr(t), testio.FreeAddr(t)
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(e.state, "hub.log"))
			t.Logf("the hub's log:\n%s", log)
		}
	})
	e.games = realGames(t, kind, plies)
	e.startHub()
	join, _ := neturl.Parse(e.joinURL())
	pw, _ := join.User.Password()
	for i := 1; i <= fullBoards; i++ {
		name := fmt.Sprintf("club-%02d", i)
		e.boards = append(e.boards, name)
		e.live[name] = hubtest.Start(t, hubtest.Board{Broker: "tcp://" + join.Host, User: join.User.Username(), Password: pw, Name: name})
	}

	var ev struct{ ID int64 }
	e.a.must(201, "POST", "/api/events", map[string]any{"name": e.eventName, "kind": kind, "time_control": "-", "rounds": fullRounds, "boards": e.boards}, &ev)
	e.eventID = ev.ID
	var lines []string
	step := 1
	if kind == "teams" {
		step = 2
	}
	for i := 1; i <= 40; i += step {
		if kind == "teams" {
			lines = append(lines, fmt.Sprintf("Player %02d & Player %02d", i, i+1))
		} else {
			lines = append(lines, fmt.Sprintf("Player %02d", i))
		}
	}
	e.a.must(200, "PUT", e.base()+"/players", map[string]string{"text": strings.Join(lines, "\n")}, nil)

	for r := 1; r <= fullRounds; r++ {
		t0 := time.Now()
		e.round(r)
		t.Logf("round %d played in %v", r, time.Since(t0).Round(time.Millisecond))
		e.checkStandings(r)
	}
	e.checkCSV()
	e.checkGames()
	if kind == "ffa" && e.claims == 0 {
		t.Errorf("no game ended by a claim of the win: the test no longer covers claims")
	}
	length := fmt.Sprintf("the first %d plies of real games", plies)
	if *eventLong {
		length = "whole real games"
	}
	t.Logf("%s on %s: %d rounds × %d boards, %s, the hub killed in round 2: %v", kind, e.engine(), fullRounds, fullBoards, length, time.Since(began).Round(time.Millisecond))
}

func (e *killedEvent) engine() string {
	if e.db == "" {
		return "SQLite"
	}
	return "PostgreSQL"
}

func (e *killedEvent) base() string { return fmt.Sprintf("/api/events/%d", e.eventID) }

// startHub starts the hub's process (again) and logs the director in
// with the password it keeps in its state directory.
func (e *killedEvent) startHub() {
	t := e.t
	t.Helper()
	_, e.kill = hubProcess(t, e.state, e.mqtt, e.web, e.db)
	pw, err := os.ReadFile(filepath.Join(e.state, "hub-director-password"))
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	e.a = &api{t: t, base: "http://" + e.web, c: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
	e.a.must(200, "POST", "/api/director/login", map[string]string{"password": strings.TrimSpace(string(pw))}, nil)
}

func (e *killedEvent) joinURL() string {
	pw, err := os.ReadFile(filepath.Join(e.state, "hub-board-password"))
	if err != nil {
		e.t.Fatal(err)
	}
	return "mqtt://board:" + strings.TrimSpace(string(pw)) + "@" + e.mqtt
}

// waitJoined waits, as a director does before pushing a round, until
// the hub's page shows every board joined.
func (e *killedEvent) waitJoined() {
	t := e.t
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var bs []apiBoard
		e.a.must(200, "GET", "/api/boards", nil, &bs)
		on := 0
		for _, b := range bs {
			if b.Status != "offline" {
				on++
			}
		}
		if on == len(e.boards) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the hub shows %d of %d boards joined: %+v", on, len(e.boards), bs)
		}
	}
}

// stop is where a board pauses in the middle of its game: before ply
// at, it says so on reached and waits for open.
type stop struct {
	at            int
	reached, open chan struct{}
}

func newStop(at int) *stop {
	return &stop{at: at, reached: make(chan struct{}), open: make(chan struct{})}
}

// round pairs round r, pushes it once every board shows joined, and has
// every board play its game to the end; in round 2 the hub is killed
// while boards 6 to 10 are in the middle of their games, they play on
// while it is down (9 and 10 stop again halfway through the rest), and
// it is started again before 9 and 10 finish.
func (e *killedEvent) round(r int) {
	t := e.t
	t.Helper()
	var ej eventJSON
	e.a.must(200, "POST", fmt.Sprintf("%s/rounds/%d/pair", e.base(), r), nil, &ej)
	tables := ej.Rounds[r-1].Tables
	if len(tables) != fullBoards {
		t.Fatalf("round %d has %d tables, want %d", r, len(tables), fullBoards)
	}
	e.waitJoined()
	e.push(r)

	type outcome struct {
		g   playedGame
		err error
	}
	done := make(chan outcome, len(tables))
	var mid, late []*stop
	for i, tb := range tables {
		moves := e.games[((r-1)*fullBoards+i)%len(e.games)]
		var stops []*stop
		if r == 2 && tb.Table > fullBoards/2 {
			s := newStop(len(moves) / 2)
			mid = append(mid, s)
			stops = append(stops, s)
			if tb.Table > fullBoards-2 {
				s := newStop(3 * len(moves) / 4)
				late = append(late, s)
				stops = append(stops, s)
			}
		}
		go func() {
			g, err := e.play(r, tb.Table, tb.Board, moves, stops)
			done <- outcome{g, err}
		}()
	}
	var games []playedGame
	collect := func(n int) {
		t.Helper()
		for range n {
			select {
			case o := <-done:
				if o.err != nil {
					t.Fatalf("round %d: %v", r, o.err)
				}
				games = append(games, o.g)
			case <-time.After(2 * time.Minute):
				t.Fatalf("round %d: a board did not finish its game", r)
			}
		}
	}
	reach := func(ss []*stop) {
		t.Helper()
		for _, s := range ss {
			select {
			case <-s.reached:
			case <-time.After(time.Minute):
				t.Fatalf("round %d: a board did not reach ply %d", r, s.at)
			}
		}
	}
	if r == 2 {
		// Half the boards finished, half in the middle of their games,
		// and the hub has the round's games begun: kill it, with the
		// last two boards moving as it dies.
		collect(len(tables) - len(mid))
		reach(mid)
		e.waitLinked(r, func(tb eventTable) bool { return tb.Table > fullBoards/2 })
		for _, s := range mid[len(mid)-2:] {
			close(s.open)
		}
		var bs []struct {
			Board   string `json:"board"`
			LastSeq uint64 `json:"last_seq"`
		}
		e.a.must(200, "GET", "/api/boards", nil, &bs)
		e.kill()
		var held []string
		for _, b := range bs {
			held = append(held, fmt.Sprintf("%s %d/%d", b.Board, b.LastSeq, e.live[b.Board].State().Seq))
		}
		t.Logf("round 2: the hub killed (it held, of the boards' messages: %s); boards %d to %d play on", strings.Join(held, ", "), fullBoards/2+1, fullBoards)
		for _, s := range mid[:len(mid)-2] {
			close(s.open)
		}
		collect(len(mid) - len(late))
		reach(late)
		e.startHub()
		for _, s := range late {
			close(s.open)
		}
		collect(len(late))
	} else {
		collect(len(tables))
	}
	e.played = append(e.played, games...)
	// The hub has every table's game with its result.
	e.waitLinked(r, func(tb eventTable) bool { return true })
	e.waitResults(r, len(tables))
}

// push pushes round r, pushing again the tables a board did not answer
// (a director's second click).
func (e *killedEvent) push(r int) {
	t := e.t
	t.Helper()
	var body any
	for try := 0; ; try++ {
		var pushed []struct {
			Table int
			Board string
			OK    bool
			Error string
		}
		e.a.must(200, "POST", fmt.Sprintf("%s/rounds/%d/push", e.base(), r), body, &pushed)
		var again []int
		for _, p := range pushed {
			if !p.OK {
				again = append(again, p.Table)
			}
		}
		if len(again) == 0 {
			return
		}
		if try == 3 {
			t.Fatalf("round %d: pushed 4 times, tables %v still not taken: %+v", r, again, pushed)
		}
		t.Logf("round %d: pushing tables %v again: %+v", r, again, pushed)
		body = map[string]any{"tables": again}
	}
}

// play plays one board's game of round r: waits for the pushed game,
// sets the pieces up, plays moves (pausing at stops) and ends the game
// (FFA: three seats resign; Teams: one seat), and returns the board's
// record of it.
func (e *killedEvent) play(r, table int, board string, moves []string, stops []*stop) (playedGame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	l := e.live[board]
	st := l.State()
	if st.Tags["Event"] != e.eventName || st.Tags["Round"] != strconv.Itoa(r) || st.Variant != e.kind {
		return playedGame{}, fmt.Errorf("%s after the push of round %d: %s game, tags %v", board, r, st.Variant, st.Tags)
	}
	if err := hubtest.SetUp(ctx, l); err != nil {
		return playedGame{}, err
	}
	for i, mv := range moves {
		for _, s := range stops {
			if s.at == i {
				close(s.reached)
				select {
				case <-s.open:
				case <-ctx.Done():
					return playedGame{}, ctx.Err()
				}
			}
		}
		if err := hubtest.Move(ctx, l, mv); err != nil {
			return playedGame{}, fmt.Errorf("%s, round %d, ply %d: %v", board, r, i+1, err)
		}
	}
	// Who resigns differs from table to table and round to round, so
	// the winners (and the standings) do too. In FFA the last two
	// standing end it as players do: the one leading by more than 20
	// points claims the win, else the other resigns.
	keep, second := (r+table)%4, (r+table+2)%4
	seats := []string{"Red", "Blue", "Yellow", "Green"}
	do := func(name string, seat int) error {
		if rep := l.Do(ctx, referee.Command{Name: name, Seat: seats[seat]}); !rep.OK {
			return fmt.Errorf("%s, round %d: %s %s: %s", board, r, seats[seat], name, rep.Error)
		}
		return nil
	}
	playing := func(seat int) bool { st := l.State(); return st.Status != "over" && st.Seats[seat].Status == "playing" }
	for i := range seats {
		if e.kind == "ffa" && (i == keep || i == second) || e.kind == "teams" && i != keep || !playing(i) {
			continue
		}
		if err := do(referee.CmdResign, i); err != nil {
			return playedGame{}, err
		}
	}
	if e.kind == "ffa" && playing(keep) && playing(second) {
		pts := l.State().Seats
		var err error
		switch lead := pts[keep].Points - pts[second].Points; {
		case lead > 20:
			err = do(referee.CmdClaimWin, keep)
		case lead < -20:
			err = do(referee.CmdClaimWin, second)
		default:
			err = do(referee.CmdResign, second)
		}
		if err != nil {
			return playedGame{}, err
		}
	}
	st = l.State()
	if st.Status != "over" || st.Result == nil {
		return playedGame{}, fmt.Errorf("%s, round %d: the game is %s after the resignations", board, r, st.Status)
	}
	g := playedGame{round: r, table: table, board: board, game: st.Game, result: *st.Result, moves: st.Moves}
	for i, seat := range seats {
		g.seats[i] = st.Tags[seat]
	}
	return g, nil
}

// waitEvent polls the event until ok: as long as the hub takes in
// more of the boards' messages (a loaded machine catching up after the
// restart), and 20 s more once it takes in nothing.
func (e *killedEvent) waitEvent(what string, ok func(eventJSON) bool) {
	t := e.t
	t.Helper()
	held := func() (sum uint64, text string) {
		var bs []struct {
			Board   string `json:"board"`
			Status  string `json:"status"`
			LastSeq uint64 `json:"last_seq"`
		}
		e.a.must(200, "GET", "/api/boards", nil, &bs)
		for _, b := range bs {
			sum += b.LastSeq
			text += fmt.Sprintf(" %s %s %d/%d", b.Board, b.Status, b.LastSeq, e.live[b.Board].State().Seq)
		}
		return sum, text
	}
	last, _ := held()
	for still := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		var ej eventJSON
		e.a.must(200, "GET", e.base(), nil, &ej)
		if ok(ej) {
			return
		}
		switch now, text := held(); {
		case now != last:
			last, still = now, time.Now()
		case time.Since(still) > 20*time.Second:
			t.Fatalf("the event never showed %s; the hub holds of each board's messages:%s", what, text)
		}
	}
}

// waitLinked waits until the hub links round r's tables that which
// picks to the games their boards play.
func (e *killedEvent) waitLinked(r int, which func(eventTable) bool) {
	e.t.Helper()
	e.waitEvent(fmt.Sprintf("round %d's tables linked to their boards' games", r), func(ej eventJSON) bool {
		for _, tb := range ej.Rounds[r-1].Tables {
			if which(tb) && (tb.Game == "" || tb.Game != e.live[tb.Board].State().Game) {
				return false
			}
		}
		return true
	})
}

// waitResults waits until the hub has the results of round r's n
// tables.
func (e *killedEvent) waitResults(r, n int) {
	e.t.Helper()
	e.waitEvent(fmt.Sprintf("round %d's %d results", r, n), func(ej eventJSON) bool {
		for _, tb := range ej.Rounds[r-1].Tables {
			if tb.Result == nil || tb.Result.Result == nil {
				return false
			}
		}
		return len(ej.Rounds[r-1].Tables) == n
	})
}

// standingRow is a line of the hub's standings, as far as the test
// compares it.
type standingRow struct {
	Rank        int     `json:"rank"`
	Name        string  `json:"name"`
	Games       int     `json:"games"`
	Points      int     `json:"points"`
	Firsts      int     `json:"firsts"`
	SB          float64 `json:"sb"`
	MatchPoints int     `json:"match_points"`
	Wins        int     `json:"wins"`
	Draws       int     `json:"draws"`
	Losses      int     `json:"losses"`
	HeadToHead  int     `json:"head_to_head"`
}

// checkStandings compares the hub's standings after round r with those
// computed here from the boards' own results.
func (e *killedEvent) checkStandings(r int) {
	t := e.t
	t.Helper()
	var got []standingRow
	e.a.must(200, "GET", e.base()+"/standings", nil, &got)
	want := e.expectedStandings()
	if len(got) != len(want) {
		t.Fatalf("after round %d: %d lines of standings, want %d", r, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("after round %d, line %d of the standings:\n got  %+v\n want %+v", r, i+1, got[i], want[i])
		}
	}
	if !t.Failed() {
		t.Logf("after round %d: first %+v, last %+v", r, got[0], got[len(got)-1])
	}
}

// checkCSV compares the standings' CSV with those computed here: rank
// ("3=" when level with a neighbour), name, points (match points).
func (e *killedEvent) checkCSV() {
	t := e.t
	t.Helper()
	code, data := e.a.do("GET", e.base()+"/standings.csv", nil)
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	want := e.expectedStandings()
	if code != 200 || err != nil || len(rows) != len(want)+1 {
		t.Fatalf("standings.csv: %d %v, %d lines, want %d:\n%s", code, err, len(rows), len(want)+1, data)
	}
	for i, w := range want {
		rank := strconv.Itoa(w.Rank)
		if i > 0 && want[i-1].Rank == w.Rank || i+1 < len(want) && want[i+1].Rank == w.Rank {
			rank += "="
		}
		pts := w.Points
		if e.kind == "teams" {
			pts = w.MatchPoints
		}
		if got := rows[i+1][:3]; !slices.Equal(got, []string{rank, w.Name, strconv.Itoa(pts)}) {
			t.Errorf("standings.csv line %d: %v, want %s %s %d", i+2, got, rank, w.Name, pts)
		}
	}
}

// expectedStandings ranks the players (teams) from the games the boards
// played so far, by the rules docs/hub.md states: FFA by points, first
// places (the board's winners, or the most points), then SB (for every
// game the event points of each opponent finished behind, half for one
// level); Teams by match points (2 a win, 1 a draw), head-to-head among
// those level on match points, SB (the match points of the teams
// beaten, half those drawn with), wins. Level on all: the better rank,
// listed by name.
func (e *killedEvent) expectedStandings() []standingRow {
	rows := map[string]*standingRow{}
	row := func(name string) *standingRow {
		if rows[name] == nil {
			rows[name] = &standingRow{Name: name}
		}
		return rows[name]
	}
	teamOf := func(g playedGame, side int) string { // side 0: Red and Yellow
		a, b := g.seats[side], g.seats[side+2]
		n1, _ := strconv.Atoi(strings.TrimPrefix(a, "Player "))
		n2, _ := strconv.Atoi(strings.TrimPrefix(b, "Player "))
		if n2 < n1 {
			a = b
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(a, "Player "))
		return fmt.Sprintf("Player %02d & Player %02d", n, n+1)
	}
	if e.kind == "ffa" {
		for _, g := range e.played {
			top := slices.Max(g.result.Points)
			for c, name := range g.seats {
				rw := row(name)
				rw.Games++
				rw.Points += g.result.Points[c]
				first := slices.Contains(g.result.Winners, []string{"Red", "Blue", "Yellow", "Green"}[c])
				if len(g.result.Winners) == 0 {
					first = g.result.Points[c] == top
				}
				if first {
					rw.Firsts++
				}
			}
		}
		for _, g := range e.played {
			for c, name := range g.seats {
				for o, opp := range g.seats {
					switch {
					case o == c:
					case g.result.Points[c] > g.result.Points[o]:
						row(name).SB += float64(row(opp).Points)
					case g.result.Points[c] == g.result.Points[o]:
						row(name).SB += float64(row(opp).Points) / 2
					}
				}
			}
		}
	} else {
		type match struct {
			a, b string
			won  int // 0: a, 1: b, -1: drawn
		}
		var matches []match
		for _, g := range e.played {
			m := match{a: teamOf(g, 0), b: teamOf(g, 1), won: -1}
			if slices.Contains(g.result.Winners, "Red") {
				m.won = 0
			} else if slices.Contains(g.result.Winners, "Blue") {
				m.won = 1
			}
			matches = append(matches, m)
			for side, name := range []string{m.a, m.b} {
				rw := row(name)
				rw.Games++
				switch m.won {
				case -1:
					rw.Draws++
					rw.MatchPoints++
				case side:
					rw.Wins++
					rw.MatchPoints += 2
				default:
					rw.Losses++
				}
			}
		}
		for _, m := range matches {
			for side, pair := range [][2]string{{m.a, m.b}, {m.b, m.a}} {
				me, opp := row(pair[0]), row(pair[1])
				mp := 0
				switch m.won {
				case -1:
					mp = 1
					me.SB += float64(opp.MatchPoints) / 2
				case side:
					mp = 2
					me.SB += float64(opp.MatchPoints)
				}
				if me.MatchPoints == opp.MatchPoints {
					me.HeadToHead += mp
				}
			}
		}
	}
	var out []standingRow
	for _, rw := range rows {
		out = append(out, *rw)
	}
	key := func(a, b standingRow) int {
		if e.kind == "ffa" {
			return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Firsts, a.Firsts), cmp.Compare(b.SB, a.SB))
		}
		return cmp.Or(cmp.Compare(b.MatchPoints, a.MatchPoints), cmp.Compare(b.HeadToHead, a.HeadToHead), cmp.Compare(b.SB, a.SB), cmp.Compare(b.Wins, a.Wins))
	}
	slices.SortFunc(out, func(a, b standingRow) int { return cmp.Or(key(a, b), strings.Compare(a.Name, b.Name)) })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && key(out[i-1], out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// checkGames compares the database with what each board's own stream
// holds: every message once, no gap; every game with its tags, every
// turn in order with the seq the board gave it, its result; and every
// table of every round linked to the game its board played for it.
func (e *killedEvent) checkGames() {
	t := e.t
	t.Helper()
	ctx := context.Background()
	where := e.db
	if where == "" {
		where = filepath.Join(e.state, "hub.db")
	}
	s, err := store.Open(ctx, where)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	turns := 0
	for _, board := range e.boards {
		l := e.live[board]
		msgs, _, unsub, err := l.Subscribe(1)
		if err != nil {
			t.Fatal(err)
		}
		unsub()
		last := l.State().Seq
		if len(msgs) == 0 || msgs[0].Seq != 1 || msgs[len(msgs)-1].Seq != last {
			t.Fatalf("%s keeps messages %d to %d of %d: the test needs them all", board, msgs[0].Seq, msgs[len(msgs)-1].Seq, last)
		}
		seqs, err := s.Seqs(ctx, board)
		if err != nil {
			t.Fatal(err)
		}
		if len(seqs) != int(last) || seqs[0] != 1 || seqs[len(seqs)-1] != last {
			t.Errorf("%s: the hub holds %d messages (%v…), the board sent %d", board, len(seqs), seqs[:min(5, len(seqs))], last)
		}
		if gaps, _ := s.Gaps(ctx, board); len(gaps) != 0 {
			t.Errorf("%s: gaps %v", board, gaps)
		}
		// The board's turns, game by game, from its stream.
		byGame := map[string][]referee.Message{}
		var order []string
		for _, m := range msgs {
			switch m.Kind {
			case referee.MsgGameStart:
				order = append(order, m.Game)
			case referee.MsgMove, referee.MsgResign:
				byGame[m.Game] = append(byGame[m.Game], m)
			case referee.MsgWinClaimed: // stored as a turn of kind claim
				m.Kind, m.Move = "claim", ""
				byGame[m.Game] = append(byGame[m.Game], m)
			case referee.MsgPromotionChanged:
				// The last move with another piece: the hub stores it as
				// that move taken back and played again by this message.
				ms := byGame[m.Game]
				ms[len(ms)-1].Move, ms[len(ms)-1].Seq = m.Move, m.Seq
			}
		}
		for _, id := range order {
			stored, err := s.Turns(ctx, board, id)
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, u := range stored {
				if u.UndoneSeq == 0 {
					got = append(got, fmt.Sprintf("%d %s %s %s", u.Seq, u.Kind, u.Seat, u.Move))
				}
			}
			for _, m := range byGame[id] {
				want = append(want, fmt.Sprintf("%d %s %s %s", m.Seq, m.Kind, m.Seat, m.Move))
			}
			turns += len(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s game %s: the hub holds the turns\n %v\nthe board played\n %v", board, id, got, want)
			}
		}
	}
	// Every game played for a table: in the database with its tags and
	// the board's result, and linked to its table.
	rounds, err := s.Rounds(ctx, e.eventID, e.eventName)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != fullRounds {
		t.Fatalf("%d rounds stored, want %d", len(rounds), fullRounds)
	}
	for _, g := range e.played {
		sg, ok, err := s.Game(ctx, g.board, g.game)
		if err != nil || !ok {
			t.Fatalf("%s game %s (round %d): not in the database (%v)", g.board, g.game, g.round, err)
		}
		if sg.Tags["Event"] != e.eventName || sg.Tags["Round"] != strconv.Itoa(g.round) || sg.Tags["Red"] != g.seats[0] || sg.Tags["Green"] != g.seats[3] {
			t.Errorf("%s game %s: tags %v, want round %d, Red %s, Green %s", g.board, g.game, sg.Tags, g.round, g.seats[0], g.seats[3])
		}
		r := sg.Result
		if sg.Status != "over" || r == nil || r.Reason != g.result.Reason || !slices.Equal(r.Points, g.result.Points) ||
			!slices.Equal(r.Winners, g.result.Winners) && len(r.Winners)+len(g.result.Winners) > 0 {
			t.Errorf("%s game %s: stored %s with result %+v, the board has %+v", g.board, g.game, sg.Status, r, g.result)
		}
		stored, err := s.Turns(ctx, g.board, g.game)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		claims := 0
		for _, u := range stored {
			switch {
			case u.UndoneSeq != 0:
			case u.Kind == "claim": // a turn of the board's journal, not of its list of moves
				claims++
			default:
				got = append(got, u.Seat+" "+u.Move)
			}
		}
		if claims > 0 {
			e.claims++
		}
		for _, m := range g.moves {
			want = append(want, m.Seat+" "+m.Move)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s game %s: the hub holds\n %v\nthe board's record\n %v", g.board, g.game, got, want)
		}
		tb := rounds[g.round-1].Tables[g.table-1]
		if tb.Board != g.board || tb.Game != g.game {
			t.Errorf("round %d table %d: board %s game %s, the board played %s on %s", g.round, g.table, tb.Board, tb.Game, g.game, g.board)
		}
	}
	// The event's PGN4 export holds every game.
	_, all := e.a.do("GET", e.base()+"/pgn4", nil)
	for _, g := range e.played {
		if !strings.Contains(string(all), fmt.Sprintf("[GameId %q]", g.game)) {
			t.Errorf("the event's PGN4 lacks %s's game %s", g.board, g.game)
		}
	}
	t.Logf("%d games of the event (%d ended by a claim), %d turns: all in the database as played", len(e.played), e.claims, turns)
}

// realGames reads the real games of kind from the repository's
// testdata/games (chess.com games; see its README) that start from the
// variant's own position, and returns the first plies moves of each.
func realGames(t *testing.T, kind string, plies int) [][]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("../../../testdata/games", kind, "*.pgn4"))
	v, err := rules.NewVariant(kind, "")
	if err != nil {
		t.Fatal(err)
	}
	std, _ := rules.NewGame(v, "")
	var out [][]string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pg, _, err := pgn4.ParseString(string(data))
		if err != nil {
			continue
		}
		g, _, err := pgn4.ReplayWith(pg, "", catalog.Variant)
		if err != nil || g.Variant().Name != kind || g.StartFEN4() != std.StartFEN4() {
			continue
		}
		var moves []string
		for _, rec := range g.Records() {
			if rec.Action != rules.ActMove || len(moves) == plies {
				break
			}
			moves = append(moves, rec.Text)
		}
		if len(moves) >= 8 {
			out = append(out, moves)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no real %s game in testdata/games", kind)
	}
	return out
}

// A board that goes away while the hub is down (the hub killed with
// SIGKILL, its broker with it, so the board's last will never reaches
// it) is offline on the hub's page when the hub is back: the director
// waits for "every board joined" before pushing a round, and a board
// shown playing that is gone would take its table's new_game into the
// void. The board that comes back shows its moves and is not offline.
func TestHubBackShowsGoneBoardsOffline(t *testing.T) {
	state, addr, webAddr := t.TempDir(), testio.FreeAddr(t), testio.FreeAddr(t)
	join, kill := hubProcess(t, state, addr, webAddr)
	u, _ := neturl.Parse(join)
	pw, _ := u.User.Password()
	stay := hubtest.Start(t, hubtest.Board{Broker: "tcp://" + addr, User: server.BoardUser, Password: pw, Name: "club-1"})
	gone := hubtest.Board{Broker: "tcp://" + addr, User: server.BoardUser, Password: pw, Name: "club-2"}
	off := hubtest.Mirror(t, gone, hubtest.Live(t, gone))
	a := &api{t: t, base: "http://" + webAddr, c: &http.Client{Timeout: 30 * time.Second}}
	list := func(what string, ok func(map[string]apiBoard) bool) map[string]apiBoard {
		t.Helper()
		for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			var bs []apiBoard
			a.must(200, "GET", "/api/boards", nil, &bs)
			m := map[string]apiBoard{}
			for _, b := range bs {
				m[b.Board] = b
			}
			if ok(m) {
				return m
			}
			if time.Now().After(end) {
				t.Fatalf("the hub never showed %s: %+v", what, bs)
			}
		}
	}
	list("both boards joined", func(m map[string]apiBoard) bool {
		return len(m) == 2 && m["club-1"].Status != "offline" && m["club-2"].Status != "offline"
	})
	kill()
	off() // club-2's power is cut while the hub is down
	hubtest.Play(t, stay, hubtest.TeamsMoves[:2]...)
	hubProcess(t, state, addr, webAddr)
	got := list("club-1 back with its two moves", func(m map[string]apiBoard) bool {
		return m["club-1"].Moves == 2 && m["club-1"].Status != "offline"
	})
	if got["club-2"].Status != "offline" {
		t.Errorf("club-2, switched off while the hub was down, shows %q after the hub is back, want offline", got["club-2"].Status)
	}
}
