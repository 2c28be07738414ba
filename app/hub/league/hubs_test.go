package league_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/app/hub/store/pgtest"
)

// childEnv makes the test binary a hub process (TestMain): the database
// URL, the broker URL and, optionally, the web server's address,
// separated by spaces (the web server off without it).
const childEnv = "BOARDD_LEAGUE_HUB_CHILD"

func TestMain(m *testing.M) {
	if v := os.Getenv(childEnv); v != "" {
		f := append(strings.Fields(v), "off")
		db, broker, web := f[0], f[1], f[2]
		state, err := os.MkdirTemp("", "boardd-league-hub-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		h, err := server.Start(context.Background(), server.Config{DB: db, Broker: broker, Web: web, StateDir: state})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		h.Greet(os.Stdout)
		os.Stdout.Close() // the greeting is complete
		select {}         // until killed
	}
	os.Exit(m.Run())
}

// hubProcess starts this test binary as a hub on the database, taking in
// the boards from the node; kill sends it SIGKILL.
func hubProcess(t *testing.T, db, node string) (kill func()) {
	t.Helper()
	_, kill = hubProcessWeb(t, db, node, "off")
	return kill
}

// hubProcessWeb is hubProcess with the hub's web server on web; it
// returns the process's id too.
func hubProcessWeb(t *testing.T, db, node, web string) (pid int, kill func()) {
	t.Helper()
	_, pid, kill = hubtest.Child(t, []string{childEnv + "=" + db + " " + hubURL(node) + " " + web}, func(line string) bool {
		return strings.HasPrefix(line, "hub: taking in the boards from ")
	})
	return pid, kill
}

// apiBoard is a board as GET /api/boards answers it.
type apiBoard struct {
	Board    string `json:"board"`
	Moves    int    `json:"moves"`
	LastMove string `json:"last_move"`
	LastSeq  uint64 `json:"last_seq"`
}

// Two hubs on one database take in four boards spread over the cluster's
// nodes; one hub (a process of its own) is killed with SIGKILL in the
// middle of play and the other stores on: every move of every board is
// in the database exactly once, in order, with the board's seq. A third
// hub started fresh, with nothing of its own, serves every board from
// the database.
func TestTwoHubsOneKilled(t *testing.T) {
	pg := pgtest.Start(t)
	db := pg.NewDB(t)
	c := startCluster(t)
	kill := hubProcess(t, db, c.Nodes[0].MQTTURL())
	startHub(t, db, c.Nodes[1].MQTTURL())
	var boards []*board
	for i := range 4 {
		boards = append(boards, startBoard(t, fmt.Sprintf("club-%d", i+1), c.Nodes[i%3].MQTTURL()))
	}
	for _, b := range boards {
		b.play(t, 4)
	}
	s := openDB(t, db)
	waitAll(t, s, boards...)
	for round := range 2 {
		for i, b := range boards {
			b.play(t, 2)
			if round == 0 && i == 1 {
				kill() // mid-round
			}
		}
	}
	waitAll(t, s, boards...)

	fresh, err := server.Start(context.Background(), server.Config{DB: db, Broker: hubURL(c.Nodes[2].MQTTURL()), Web: "127.0.0.1:0", StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	resp, err := http.Get("http://" + fresh.WebAddr + "/api/boards")
	if err != nil {
		t.Fatal(err)
	}
	var got []apiBoard
	err = json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(boards) {
		t.Fatalf("a fresh hub serves %+v, want %d boards", got, len(boards))
	}
	for i, b := range boards {
		want := apiBoard{Board: b.name, Moves: len(b.moves), LastMove: b.moves[len(b.moves)-1], LastSeq: b.live.State().Seq}
		if got[i] != want {
			t.Errorf("a fresh hub serves %+v, want %+v", got[i], want)
		}
	}
}
