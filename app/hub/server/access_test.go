package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/board"
	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/app/termsim"
	"boardd/configs"
	"boardd/internal/testio"
	"boardd/referee"
	"boardd/referee/streamtest"
	"boardd/sync/broker/brokertest"
	"boardd/sync/mqtt"
)

// joinURL is the URL the hub printed.
func joinURL(t *testing.T, out string) string {
	t.Helper()
	m := joinLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no join line in:\n%s", out)
	}
	return m[1]
}

// startBoard starts a simulated board named name on state that joins
// the hub with join, logging to log, its config changed by edit.
func startBoard(t *testing.T, name, state, join string, log io.Writer, edit ...func(*configs.Daemon)) *board.Daemon {
	t.Helper()
	cfg := configs.Defaults()
	cfg.Board = name
	cfg.StateDir = state
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	cfg.Web.Listen = "off"
	cfg.MQTT.Hub = join
	for _, e := range edit {
		e(&cfg)
	}
	if err := cfg.Check("test", nil); err != nil {
		t.Fatal(err)
	}
	d, err := board.Start(context.Background(), cfg, io.Discard, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// playOn plays mv on the board's simulated switches and waits until the
// board took it.
func playOn(t *testing.T, d *board.Daemon, mv string) {
	t.Helper()
	n := len(d.Live.State().Moves)
	if err := termsim.PlayLine(context.Background(), d.Live, d.SimBoard, mv); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); len(d.Live.State().Moves) <= n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the board did not take %s", mv)
		}
	}
}

// holds waits until the hub lists board with the moves the board has.
func holds(t *testing.T, h *server.Hub, d *board.Daemon, name string) {
	t.Helper()
	st := d.Live.State()
	want := apiBoard{Board: name, Status: "playing", Moves: len(st.Moves), LastMove: st.Moves[len(st.Moves)-1].Move}
	boards(t, h, "the board's own moves", func(b []apiBoard) bool {
		for _, x := range b {
			if x == want {
				return true
			}
		}
		return false
	})
}

// dialWith connects to the hub's broker with the join URL's account, a
// client id and password of the test's choosing.
func dialWith(join, id, password string) (paho.Client, error) {
	u, _ := neturl.Parse(join)
	opts, err := mqtt.ClientOptions("tcp://"+u.Host, u.User.Username(), password, mqtt.TLS{})
	if err != nil {
		return nil, err
	}
	c := paho.NewClient(opts.SetClientID(id).SetConnectTimeout(3 * time.Second))
	tok := c.Connect()
	if !tok.WaitTimeout(5 * time.Second) {
		return nil, errors.New("connect timed out")
	}
	return c, tok.Error()
}

// Once a board has joined, nobody else holding the join URL publishes as
// it, takes its client id or sends it commands: nothing of theirs
// reaches the hub's database, and the real board plays on into it.
func TestOnlyTheBoardPublishesAsItself(t *testing.T) {
	h, out := startHub(t, t.TempDir(), "127.0.0.1:0")
	join := joinURL(t, out)
	secret, _ := func() (string, bool) { u, _ := neturl.Parse(join); return u.User.Password() }()
	d := startBoard(t, "club-1", t.TempDir(), join, io.Discard)
	for _, mv := range hubtest.TeamsMoves[:2] {
		playOn(t, d, mv)
	}
	holds(t, h, d, "club-1")

	for _, tc := range []struct{ what, id, password string }{
		{"the join URL as it is", "boardd-club-1", secret},
		{"the join URL with a key of its own", "boardd-club-1", secret + ":a-key-of-its-own"},
		{"the join URL without the board's client id", "impostor", secret + ":a-key-of-its-own"},
	} {
		time.Sleep(1100 * time.Millisecond) // past the throttle's delay after the last failure
		if c, err := dialWith(join, tc.id, tc.password); err == nil {
			c.Disconnect(0)
			t.Errorf("%s: connected", tc.what)
		}
	}
	// A board of its own (a name of its own) publishing under club-1's
	// topics, or a command to it: each costs it its connection.
	seq := d.Live.State().Seq
	forged, _ := json.Marshal(referee.Message{Seq: seq + 1, Board: "club-1", Game: d.Live.State().Game, Kind: referee.MsgMove, Seat: "Red", Move: "Qg1-n14", Coord: "g1-n14"})
	resign, _ := json.Marshal(referee.Command{Name: referee.CmdResign, Seat: "Red"})
	for _, p := range []struct {
		topic   string
		payload []byte
	}{
		{mqtt.Topic("", "club-1", mqtt.TopicEvents), forged},
		{mqtt.Topic("", "club-1", mqtt.TopicCmd+"/"+referee.CmdResign), resign},
	} {
		time.Sleep(1100 * time.Millisecond)
		c, err := dialWith(join, "boardd-mallory", secret+":mallory-key")
		if err != nil {
			t.Fatalf("a new board's first join: %v", err)
		}
		c.Publish(p.topic, 1, false, p.payload).WaitTimeout(2 * time.Second)
		c.Disconnect(0)
	}
	if !d.Hub.Stats().Connected {
		t.Error("the real board's hub mirror was pushed off")
	}
	for _, mv := range hubtest.TeamsMoves[2:4] {
		playOn(t, d, mv)
	}
	holds(t, h, d, "club-1")
	if st := d.Live.State(); st.Result != nil {
		t.Errorf("a forged command changed the game: %+v", st.Result)
	}
}

// The board rejoins after the hub and the board restart (its key is kept
// in its state directory); a board whose state directory was wiped is
// refused and told to have the name forgotten, and joins once it is.
func TestBoardRejoinsAndAWipedBoardIsToldWhatToDo(t *testing.T) {
	hubState, boardState := t.TempDir(), t.TempDir()
	h, out := startHub(t, hubState, "127.0.0.1:0")
	join := joinURL(t, out)
	d := startBoard(t, "club-2", boardState, join, io.Discard)
	playOn(t, d, hubtest.TeamsMoves[0])
	holds(t, h, d, "club-2")

	// Both sides again.
	h.Close()
	d.Close()
	h, _ = startHub(t, hubState, h.BrokerAddr)
	d = startBoard(t, "club-2", boardState, join, io.Discard)
	playOn(t, d, hubtest.TeamsMoves[1])
	holds(t, h, d, "club-2")

	// The same name from a wiped state directory.
	d.Close()
	wiped := filepath.Join(t.TempDir(), "state")
	var log testio.Buffer
	d = startBoard(t, "club-2", wiped, join, &log)
	log.WaitFor(t, "boardd hub forget club-2")
	if d.Hub.Stats().Connected {
		t.Fatal("the wiped board joined under a name with another key")
	}
	if _, err := os.Stat(filepath.Join(boardState, "hub-key")); err != nil {
		t.Errorf("the first board's key: %v", err)
	}
	found, history, err := server.ForgetBoard(context.Background(), hubState, "", "club-2")
	if err != nil || !found || !strings.HasPrefix(history, "club-2~") {
		t.Fatalf("ForgetBoard: %v %q %v", found, history, err)
	}
	for end := time.Now().Add(30 * time.Second); !d.Hub.Stats().Connected; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the board never joined after its name was forgotten; its log:\n%s", log.String())
		}
	}
	// The wiped board numbers from 1 again: the hub takes its stream
	// from the start, and keeps the old board's under the retired name.
	for _, mv := range hubtest.TeamsMoves[:3] {
		playOn(t, d, mv)
	}
	holds(t, h, d, "club-2")
	// The retired history is no board (not listed); its game is kept,
	// listed under the retired name.
	boards(t, h, "club-2 alone, the retired history not a board", func(b []apiBoard) bool {
		return len(b) == 1 && b[0].Board == "club-2"
	})
	resp, err := http.Get("http://" + h.WebAddr + "/api/games?board=" + neturl.QueryEscape(history))
	if err != nil {
		t.Fatal(err)
	}
	var games []struct {
		Board string
		Moves int
	}
	json.NewDecoder(resp.Body).Decode(&games)
	resp.Body.Close()
	if len(games) != 1 || games[0].Board != history || games[0].Moves != 2 {
		t.Errorf("the old history's games: %+v, want its game of 2 moves under %s", games, history)
	}
	if strings.Count(log.String(), "boardd hub forget") > 3 {
		t.Errorf("the refusal was logged at every try:\n%s", log.String())
	}
}

// A wrong password says so, not forget.
func TestWrongJoinPasswordNamed(t *testing.T) {
	_, out := startHub(t, t.TempDir(), "127.0.0.1:0")
	u, _ := neturl.Parse(joinURL(t, out))
	u.User = neturl.UserPassword(u.User.Username(), "not-the-password")
	var log testio.Buffer
	startBoard(t, "club-3", t.TempDir(), u.String(), &log)
	log.WaitFor(t, "copy the URL boardd hub prints again")
	if strings.Contains(log.String(), "forget") {
		t.Errorf("a wrong password told to forget:\n%s", log.String())
	}
}

// A club broker's own account named "board" (no hub's key binding): the
// board's keyed login is refused, and its plain password is tried next.
func TestKeyedLoginFallsBackToThePlainPassword(t *testing.T) {
	url := brokertest.Start(t) // a plain "board" account
	l := streamtest.New(referee.State{Board: "club-8"})
	m, err := mqtt.Start(context.Background(), mqtt.Config{Broker: url, Username: brokertest.BoardUser, Password: brokertest.BoardPassword,
		Key: "key-of-club-8", Board: "club-8", Source: l, ConnectTimeout: 2 * time.Second, MaxReconnectInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for end := time.Now().Add(20 * time.Second); !m.Stats().Connected; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the board never logged in with its plain password")
		}
	}
}
