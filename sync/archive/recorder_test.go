package archive

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/rules/square"
	"boardd/sensors"
)

// hands returns the switch events of a human playing m in p.
func hands(p *rules.Position, m rules.Move) []sensors.Event {
	var out []sensors.Event
	for _, t := range referee.Hands(p, m) {
		k := sensors.Place
		if t.Lift {
			k = sensors.Lift
		}
		out = append(out, sensors.Event{Kind: k, Square: t.Square})
	}
	return out
}

// board is a live board recording into dir, as the daemon wires it.
type board struct {
	live   *referee.Live
	rec    *Recorder
	stream *Stream
	stop   func()
	msgs   <-chan referee.Message
}

func openBoard(t *testing.T, dir string, occ square.Set) *board {
	t.Helper()
	return openBoardWith(t, dir, occ, builtin, "teams", "")
}

// openBoardWith is openBoard for a game of the variant from start (an
// array's name or a FEN4), with the variants lookup finds.
func openBoardWith(t *testing.T, dir string, occ square.Set, lookup Lookup, variant, start string) *board {
	t.Helper()
	return openBoardWarn(t, dir, occ, lookup, variant, start, func(warn string) bool {
		return warn == "" || strings.Contains(warn, "not closed cleanly") // after a pulled plug
	})
}

// openBoardWarn is openBoardWith where warnOK says which warnings of
// OpenStream are expected.
func openBoardWarn(t *testing.T, dir string, occ square.Set, lookup Lookup, variant, start string, warnOK func(string) bool) *board {
	t.Helper()
	rec := &Recorder{Dir: dir, Board: "7", Lookup: lookup}
	resumed, err := rec.Resume()
	if err != nil {
		t.Fatal(err)
	}
	stream, warn, err := OpenStream(filepath.Join(dir, "stream.jsonl"), 0)
	if err != nil || !warnOK(warn) {
		t.Fatal(err, warn)
	}
	cfg := referee.LiveConfig{Board: "7", Lookup: lookup, Variant: variant, Start: start, Occupancy: occ, Quiet: 2 * time.Millisecond,
		Log: stream, Sinks: []func(referee.Message) error{rec.Record}, Logger: slog.New(slog.DiscardHandler),
		Tags: map[string]string{"Event": "Club night", "Red": "Ann"}}
	if resumed != nil {
		cfg.Game, cfg.GameID, cfg.Tags, cfg.Clocks = resumed.Game, resumed.ID, resumed.Tags, resumed.Clocks
	}
	live, err := referee.NewLive(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, msgs, cancel, err := live.Subscribe(0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { live.Run(ctx); close(done) }()
	b := &board{live: live, rec: rec, stream: stream, msgs: msgs}
	b.stop = func() { stop(); <-done; cancel() }
	return b
}

// turn plays a turn of a recorded game: a move by hand on the switches, a
// resignation by command. It waits for the board to record it.
func (b *board) turn(t *testing.T, g *rules.Game, r rules.Record) {
	t.Helper()
	switch r.Action {
	case rules.ActMove:
		for _, e := range hands(g.Position(), r.Move) {
			b.live.Touches() <- e
		}
	case rules.ActResign:
		if rep := b.live.Do(context.Background(), referee.Command{Name: referee.CmdResign, Seat: r.Seat.String()}); !rep.OK {
			t.Fatal(rep.Error)
		}
	default:
		t.Fatalf("turn %s: not playable on the board in this test", r.Text)
	}
	var err error
	if r.Action == rules.ActMove {
		_, err = g.Play(r.Move)
	} else {
		_, err = g.Resign(r.Seat)
	}
	if err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case msg := <-b.msgs:
			if msg.Kind == referee.MsgMove || msg.Kind == referee.MsgResign {
				if msg.Kind == referee.MsgMove && msg.Coord != r.Move.String() {
					t.Fatalf("played %s, the board recorded %s", r.Move, msg.Coord)
				}
				return
			}
			if msg.Kind == referee.MsgIllegal || msg.Kind == referee.MsgAmbiguous {
				t.Fatalf("%s: %s", r.Text, msg.Text)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s was not recorded", r.Text)
		}
	}
}

// TestRecorderSurvivesACrashMidGame plays a real Teams game on a live
// board, "pulls the plug" half-way (the board is dropped without closing
// anything), starts a new board on the same directory, and plays on. The
// filed PGN4 has every move, and the stream has every message once, in
// order, across the restart (numbering goes on after the stream's
// reservation: one gap of fewer than ReserveBlock numbers).
func TestRecorderSurvivesACrashMidGame(t *testing.T) {
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
	recs := want.Records()
	dir := t.TempDir()
	v, _ := builtin("teams", "")
	shadow, _ := rules.NewGame(v, "") // what the humans see
	b := openBoard(t, dir, shadow.Position().Occupancy())
	half := len(recs) / 2
	for _, r := range recs[:half] {
		b.turn(t, shadow, r)
	}
	b.stop() // the plug: no Close of the journal or the stream

	b = openBoard(t, dir, shadow.Position().Occupancy())
	if st := b.live.State(); len(st.Moves) != half || st.Status != "playing" || st.Tags["Red"] != "Ann" {
		t.Fatalf("after restart: %d moves, status %s, tags %v; want %d moves", len(st.Moves), st.Status, st.Tags, half)
	}
	for _, r := range recs[half:] {
		b.turn(t, shadow, r)
	}
	if _, over := shadow.Result(); !over {
		b.live.Do(context.Background(), referee.Command{Name: referee.CmdResign, Seat: shadow.Turn().String()})
	}
	b.stop()
	items, _, err := b.rec.Store().List(Filter{})
	if err != nil || len(items) != 1 {
		t.Fatalf("archive: %v %v", items, err)
	}
	saved, err := os.ReadFile(filepath.Join(b.rec.Store().Dir, items[0].File))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := pgn4.ParseString(string(saved))
	if err != nil {
		t.Fatal(err)
	}
	replayed, _, err := pgn4.Replay(got, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(replayed.Records()); n < len(recs) {
		t.Fatalf("the filed game has %d turns, want at least the %d played", n, len(recs))
	}
	for i, want := range recs {
		if r := replayed.Records()[i]; r.Move != want.Move || r.Action != want.Action || r.Seat != want.Seat {
			t.Fatalf("turn %d: filed %s %s, played %s %s", i+1, r.Seat, r.Text, want.Seat, want.Text)
		}
	}
	if got.Get("Event") != "Club night" || got.Get("Red") != "Ann" || got.Get("Board") != "7" || got.Get("Result") == "" {
		t.Errorf("headers: %v", got.Tags)
	}
	if _, err := os.Stat(filepath.Join(dir, "current.journal")); !os.IsNotExist(err) {
		t.Errorf("current.journal left after the game was filed: %v", err)
	}
	// The stream: every message once, numbered 1, 2, 3, … with one gap
	// at the unclean restart.
	msgs, err := b.stream.Since(1)
	if err != nil {
		t.Fatal(err)
	}
	nMoves, gaps := 0, 0
	for i, m := range msgs {
		prev := uint64(0)
		if i > 0 {
			prev = msgs[i-1].Seq
		}
		if m.Seq != prev+1 {
			gaps++
		}
		if m.Seq <= prev || m.Seq >= prev+ReserveBlock || gaps > 1 {
			t.Fatalf("stream message %d has seq %d after %d (gap %d)", i, m.Seq, prev, gaps)
		}
		if m.Kind == referee.MsgMove {
			nMoves++
		}
	}
	played := 0
	for _, r := range recs {
		if r.Action == rules.ActMove {
			played++
		}
	}
	if nMoves != played || msgs[len(msgs)-1].Kind != referee.MsgGameOver {
		t.Errorf("stream: %d moves (want %d), last %s", nMoves, played, msgs[len(msgs)-1].Kind)
	}
	if text, err := b.rec.GamePGN4(msgs[0].Game); err != nil || !strings.Contains(text, "Club night") {
		t.Errorf("GamePGN4: %v %.80q", err, text)
	}
}

func TestStreamRepairAndCompaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stream.jsonl")
	s, _, err := OpenStream(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 25; i++ {
		if err := s.Append(referee.Message{Seq: uint64(i), Kind: referee.MsgTags, Text: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Append(referee.Message{Seq: 3}); err == nil {
		t.Error("a message numbered backwards was accepted")
	}
	s.Close()
	// A torn last line (the power went mid-write).
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"seq":26,"kind":"mo`)
	f.Close()
	s, warn, err := OpenStream(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.Contains(warn, "cut-off") || s.Last() != 25 {
		t.Errorf("repair: warn %q, last %d", warn, s.Last())
	}
	msgs, _ := s.Since(1)
	if len(msgs) != 10 || msgs[0].Seq != 16 {
		t.Errorf("compaction kept %d messages from %d, want the newest 10 from 16", len(msgs), msgs[0].Seq)
	}
	if err := s.Append(referee.Message{Seq: 26}); err != nil || s.Last() != 26 {
		t.Errorf("append after repair: %v, last %d", err, s.Last())
	}
}

// The filed game carries each mover's clock after the move, as the PGN
// supplement's [%clk] comment, and a takeback drops the undone turn's.
func TestRecorderWritesClocks(t *testing.T) {
	dir := t.TempDir()
	rec := &Recorder{Dir: dir, Board: "2", Lookup: builtin}
	msgs := []referee.Message{
		{Kind: referee.MsgGameStart, Variant: "teams", Start: "modern", Tags: map[string]string{"Event": "Blitz"}, Clocks: []int64{60000, 60000, 60000, 60000}},
		{Kind: referee.MsgMove, Seat: "Red", Coord: "h2-h4", Clocks: []int64{58000, 60000, 60000, 60000}},
		{Kind: referee.MsgMove, Seat: "Blue", Coord: "b7-c7", Clocks: []int64{58000, 51500, 60000, 60000}},
		{Kind: referee.MsgTakeback, Clocks: []int64{58000, 51500, 60000, 60000}},
		{Kind: referee.MsgMove, Seat: "Blue", Coord: "b7-d7", Clocks: []int64{58000, 49000, 60000, 60000}},
		{Kind: referee.MsgResign, Seat: "Yellow", Clocks: []int64{58000, 49000, 3723000, 60000}},
		{Kind: referee.MsgGameOver},
	}
	for i, m := range msgs {
		m.Seq, m.Game = uint64(i+1), "g1"
		if err := rec.Record(m); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
	}
	items, _, err := rec.Store().List(Filter{})
	if err != nil || len(items) != 1 {
		t.Fatalf("%v %v", items, err)
	}
	data, _ := os.ReadFile(filepath.Join(rec.Store().Dir, items[0].File))
	text := string(data)
	for _, want := range []string{"h2-h4 {[%clk 0:00:58]}", "b7-d7 {[%clk 0:00:49]}", `[Result "0-1"]`, `[GameId "g1"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("the filed game lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "0:00:51") {
		t.Errorf("the taken-back move's clock is in the file:\n%s", text)
	}
	// It reads back, comments and all.
	pg, _, err := pgn4.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := pgn4.Replay(pg, ""); err != nil {
		t.Fatal(err)
	}
}

// A new game chosen before the first move leaves nothing in the archive;
// one abandoned after a move is filed as unfinished.
func TestRecorderDropsGamesWithoutATurn(t *testing.T) {
	dir := t.TempDir()
	rec := &Recorder{Dir: dir, Board: "3", Lookup: builtin}
	msgs := []referee.Message{
		{Game: "g1", Kind: referee.MsgGameStart, Variant: "teams", Start: "modern"},
		{Game: "g1", Kind: referee.MsgTags, Tags: map[string]string{"Red": "Ann"}},
		{Game: "g2", Kind: referee.MsgGameStart, Variant: "ffa", Start: "modern"},
		{Game: "g2", Kind: referee.MsgMove, Seat: "Red", Coord: "h2-h4"},
		{Game: "g3", Kind: referee.MsgGameStart, Variant: "teams", Start: "modern"},
	}
	for i, m := range msgs {
		m.Seq = uint64(i + 1)
		if err := rec.Record(m); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
	}
	items, _, err := rec.Store().List(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Result != "*" || items[0].Variant != "FFA" {
		t.Fatalf("archive %+v, want only g2, unfinished", items)
	}
	if _, err := os.Stat(filepath.Join(dir, "current.journal")); err != nil {
		t.Errorf("g3's journal: %v", err)
	}
}

// An announcement accepted at the board survives the plug being pulled:
// the journal's note entries restore it, the announced move is then the
// one the board accepts by hand, and the filed PGN4 carries the notes.
func TestRecorderKeepsAnAnnouncementAcrossACrash(t *testing.T) {
	lookup := catalog(t)
	v, err := lookup("blocking-double", "")
	if err != nil {
		t.Fatal(err)
	}
	g0, err := rules.NewGame(v, bdPrivilegeFEN)
	if err != nil {
		t.Fatal(err)
	}
	occ := g0.Position().Occupancy()
	dir := t.TempDir()
	b := openBoardWith(t, dir, occ, lookup, "blocking-double", bdPrivilegeFEN)
	do := func(name, payload string) {
		t.Helper()
		c, err := referee.ParseCommand(name, []byte(payload))
		if err != nil {
			t.Fatal(err)
		}
		if r := b.live.Do(context.Background(), c); !r.OK {
			t.Fatalf("%s %s: %+v", name, payload, r)
		}
	}
	do(referee.CmdAnnounce, `{"seat":"Green","move":"n7-n6"}`)
	do(referee.CmdReply, `{"seat":"Yellow","reply":"another"}`)
	do(referee.CmdAnnounce, `{"seat":"Green","move":"n7-m6"}`)
	do(referee.CmdReply, `{"seat":"Yellow","reply":"accept"}`)
	before := b.live.State()
	b.stop() // the plug

	b = openBoardWith(t, dir, occ, lookup, "blocking-double", bdPrivilegeFEN)
	defer b.stop()
	st := b.live.State()
	if st.Game != before.Game || st.Announcement == nil || *st.Announcement != *before.Announcement || !st.Announcement.Accepted {
		t.Fatalf("after the restart: game %s announcement %+v; want game %s, %+v", st.Game, st.Announcement, before.Game, before.Announcement)
	}
	if st.Status != "playing" {
		t.Fatalf("after the restart: status %s", st.Status)
	}
	touch := func(tr ...sensors.Event) {
		for _, e := range tr {
			b.live.Touches() <- e
		}
	}
	sq := func(s string) square.Square { q, _ := square.Parse(s); return q }
	touch(sensors.Event{Kind: sensors.Lift, Square: sq("n7")}, sensors.Event{Kind: sensors.Place, Square: sq("m6")})
	for {
		select {
		case m := <-b.msgs:
			if m.Kind != referee.MsgMove {
				continue
			}
			if m.Seat != "Green" || m.Coord != "n7-m6" {
				t.Fatalf("move %+v, want Green's announced n7-m6", m)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the announced move was not recorded")
		}
		break
	}
	if st := b.live.State(); st.Relieve != "Green" || st.Turn != "Yellow" {
		t.Errorf("after the announced move: relieve %q turn %s", st.Relieve, st.Turn)
	}
	text, err := b.rec.GamePGN4(st.Game)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"{Green announces n7-n6}", "{Yellow replies Another}", "{Green announces n7-m6}", "{Yellow replies I Accept}"} {
		if !strings.Contains(text, want) {
			t.Errorf("the game's PGN4 lacks %s:\n%s", want, text)
		}
	}
}

// A rook move revised into the castle its king completed (move_revised)
// is journalled as a takeback and the castle: after a restart the game
// has O-O, not the rook move.
func TestRecorderKeepsARevisedCastleAcrossACrash(t *testing.T) {
	v, _ := builtin("ffa", "")
	g, _ := rules.NewGame(v, "")
	for _, mv := range strings.Fields("h2-h3 b7-c7 d13-d12 m5-l5 k2-k3 Na5-c6 e13-e12 m4-l4 j2-j3 Ba6-b7 f13-f12 m6-l6 d2-d3") {
		m, err := pgn4.Resolve(g, mv)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	dir := t.TempDir()
	occ := g.Position().Occupancy()
	b := openBoardWith(t, dir, occ, builtin, "ffa", g.Position().FEN4())
	wait := func(kind string) referee.Message {
		t.Helper()
		for {
			select {
			case m := <-b.msgs:
				if m.Kind == kind {
					return m
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no %s message", kind)
			}
		}
	}
	for _, tr := range []struct {
		sq   string
		lift bool
	}{{"a4", true}, {"a6", false}} {
		k := sensors.Place
		if tr.lift {
			k = sensors.Lift
		}
		b.live.Touches() <- sensors.Event{Kind: k, Square: sqr(tr.sq)}
	}
	if m := wait(referee.MsgMove); m.Move != "Ra4-a6" {
		t.Fatalf("the rook's part read as %s", m.Move)
	}
	b.live.Touches() <- sensors.Event{Kind: sensors.Lift, Square: sqr("a7")}
	b.live.Touches() <- sensors.Event{Kind: sensors.Place, Square: sqr("a5")}
	if m := wait(referee.MsgMoveRevised); m.Move != "O-O" || len(m.Candidates) != 1 || m.Candidates[0] != "Ra4-a6" {
		t.Fatalf("revision %+v", m)
	}
	b.stop()
	occ.Remove(sqr("a7"))
	occ.Remove(sqr("a4"))
	occ.Add(sqr("a5"))
	occ.Add(sqr("a6"))
	b = openBoardWith(t, dir, occ, builtin, "ffa", g.Position().FEN4())
	defer b.stop()
	st := b.live.State()
	if n := len(st.Moves); n != 1 || st.Moves[0].Move != "O-O" || st.Status != "playing" {
		t.Fatalf("after restart: moves %v, status %s", st.Moves, st.Status)
	}
}

// sqr is the square named s.
func sqr(s string) square.Square {
	q, err := square.Parse(s)
	if err != nil {
		panic(err)
	}
	return q
}
