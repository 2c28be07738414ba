package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	neturl "net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"boardd/app/board"
	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/app/termsim"
	"boardd/configs"
)

var joinLine = regexp.MustCompile(`(?m)^boards join with: boardd run --hub (mqtt://\S+)$`)

// startHub starts a hub on loopback ports over the state directory and
// returns it with what it printed.
func startHub(t *testing.T, state, mqttAddr string) (*server.Hub, string) {
	t.Helper()
	h, err := server.Start(context.Background(), server.Config{StateDir: state, MQTT: mqttAddr, Web: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	var out bytes.Buffer
	h.Greet(&out)
	return h, out.String()
}

type apiBoard struct {
	Board    string `json:"board"`
	Status   string `json:"status"`
	Moves    int    `json:"moves"`
	LastMove string `json:"last_move"`
}

// boards waits (20 s at most) until GET /api/boards answers what ok wants.
func boards(t *testing.T, h *server.Hub, what string, ok func([]apiBoard) bool) []apiBoard {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + h.WebAddr + "/api/boards")
		if err != nil {
			t.Fatal(err)
		}
		var got []apiBoard
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if ok(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /api/boards: %+v; want %s", got, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// boardd hub with no flags but its addresses: it prints the URL a board
// joins with; a real board that publishes there with that account shows
// on /api/boards with its moves; started again on the same state
// directory, the hub keeps the board's password and everything stored.
func TestHubJoinAndList(t *testing.T) {
	state := t.TempDir()
	h, out := startHub(t, state, "127.0.0.1:0")
	m := joinLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no join line in:\n%s", out)
	}
	join, err := neturl.Parse(m[1])
	if err != nil || join.User == nil {
		t.Fatalf("join URL %q: %v", m[1], err)
	}
	pw, _ := join.User.Password()
	if join.User.Username() != server.BoardUser || pw == "" || join.Host != h.BrokerAddr {
		t.Fatalf("join URL %s: want user %s with a password at %s", m[1], server.BoardUser, h.BrokerAddr)
	}
	for _, want := range []string{"viewers (read only): user viewer, password ", "/api/boards", "(sqlite)"} {
		if !strings.Contains(out, want) {
			t.Errorf("greeting lacks %q:\n%s", want, out)
		}
	}
	l := hubtest.Start(t, hubtest.Board{Broker: "tcp://" + join.Host, User: join.User.Username(), Password: pw, Name: "club-1"})
	moves := hubtest.TeamsMoves[:6]
	hubtest.Play(t, l, moves...)
	boards(t, h, "club-1 playing with 6 moves", func(b []apiBoard) bool {
		return len(b) == 1 && b[0] == apiBoard{Board: "club-1", Status: "playing", Moves: 6, LastMove: moves[5]}
	})

	// The same state directory and address again: same password, same
	// boards. The board reconnects by itself (its mirror retries) and
	// what it plays meanwhile and after arrives.
	h.Close()
	hubtest.Play(t, l, hubtest.TeamsMoves[6])
	h2, out2 := startHub(t, state, h.BrokerAddr)
	if m2 := joinLine.FindStringSubmatch(out2); m2 == nil || m2[1] != join.String() {
		t.Fatalf("after a restart the join line is not %s:\n%s", join, out2)
	}
	hubtest.Play(t, l, hubtest.TeamsMoves[7])
	boards(t, h2, "club-1 with 8 moves", func(b []apiBoard) bool {
		return len(b) == 1 && b[0] == apiBoard{Board: "club-1", Status: "playing", Moves: 8, LastMove: hubtest.TeamsMoves[7]}
	})
}

// boardd run --hub with the URL the hub printed: the board keeps its own
// broker and mirrors every message into the hub too; the hub lists it
// with its moves.
func TestBoardJoinsWithTheHubURL(t *testing.T) {
	h, out := startHub(t, t.TempDir(), "127.0.0.1:0")
	m := joinLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no join line in:\n%s", out)
	}
	cfg := configs.Defaults()
	cfg.Board = "club-7"
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	cfg.Web.Listen = "off"
	cfg.MQTT.Hub = m[1]
	if err := cfg.Check("test", nil); err != nil {
		t.Fatal(err)
	}
	var greet bytes.Buffer
	d, err := board.Start(context.Background(), cfg, &greet, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.MQTTAddr == "" || !strings.Contains(greet.String(), "club hub:     mirroring to mqtt://board:xxxxx@") {
		t.Errorf("the board's own broker at %q; greeting:\n%s", d.MQTTAddr, greet.String())
	}
	ctx := context.Background()
	moves := hubtest.TeamsMoves[:4]
	for i, mv := range moves {
		if err := termsim.PlayLine(ctx, d.Live, d.SimBoard, mv); err != nil {
			t.Fatal(err)
		}
		// the board judges once it has been still for its quiet period
		for end := time.Now().Add(10 * time.Second); len(d.Live.State().Moves) <= i; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("the board did not take %s", mv)
			}
		}
	}
	boards(t, h, "club-7 with 4 moves", func(b []apiBoard) bool {
		return len(b) == 1 && b[0] == apiBoard{Board: "club-7", Status: "playing", Moves: 4, LastMove: moves[3]}
	})
}
