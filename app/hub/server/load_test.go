package server_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
)

// The load test (issue 31's measurement): a hub process, N real boards
// playing a real game into it over MQTT, M viewers following every board
// on GET /api/live. Off unless -hubload.boards is given:
//
//	go test ./app/hub/server -run HubLoad -v -hubload.boards 20 -hubload.viewers 200
var (
	loadBoards  = flag.Int("hubload.boards", 0, "TestHubLoad: simulated boards playing into a hub process (0: the test is skipped); the issue's run: 20")
	loadViewers = flag.Int("hubload.viewers", 50, "TestHubLoad: viewers following every board on GET /api/live")
	loadPace    = flag.Duration("hubload.pace", time.Second, "TestHubLoad: a board's time between two moves (a player's half minute, sped up)")
	loadMoves   = flag.Int("hubload.moves", 40, "TestHubLoad: the moves each board plays of a real Teams game")
)

func TestHubLoad(t *testing.T) {
	if *loadBoards <= 0 {
		t.Skip("the load test: go test ./app/hub/server -run HubLoad -v -hubload.boards 20 -hubload.viewers 200")
	}
	moves, err := hubtest.GameMoves("../../../testdata/games/teams/4pchess-26780486.pgn4")
	if err != nil {
		t.Fatal(err)
	}
	moves = moves[:min(len(moves), *loadMoves)]
	loadBefore := hubtest.LoadAvg()
	mqttAddr, webAddr := hubtest.FreeAddr(t), hubtest.FreeAddr(t)
	join, _, pid := hubProcessWeb(t, t.TempDir(), mqttAddr, webAddr)
	pw := strings.TrimPrefix(strings.Split(join, "@")[0], "mqtt://board:")

	// The viewers, all following before the first move.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	f := hubtest.Follow(ctx, []string{"http://" + webAddr + "/api/live"}, *loadViewers)
	boards := make([]hubtest.LoadBoard, *loadBoards)
	for i := range boards {
		name := fmt.Sprintf("load-%02d", i+1)
		boards[i] = hubtest.LoadBoard{Name: name, Live: hubtest.Start(t, hubtest.Board{Broker: "tcp://" + mqttAddr, User: server.BoardUser, Password: pw, Name: name})}
	}
	hub0, err := hubtest.ProcUsage(pid)
	if err != nil {
		t.Fatal(err)
	}
	self0, _ := hubtest.ProcUsage(os.Getpid())
	start := time.Now()
	if err := hubtest.PlayAll(ctx, boards, moves, *loadPace); err != nil {
		t.Error(err)
	}
	played := time.Since(start)
	// Every viewer should have every message: wait for it (30 s at most).
	f.Wait(boards, 30*time.Second)
	hub1, err := hubtest.ProcUsage(pid)
	if err != nil {
		t.Fatal(err)
	}
	self1, _ := hubtest.ProcUsage(os.Getpid())
	wall := time.Since(start)
	stop()
	f.Done()

	r := f.Result(boards)
	share := func(a, b hubtest.Usage) float64 { return 100 * (b.CPU - a.CPU).Seconds() / wall.Seconds() }
	t.Logf("%d boards × %d viewers (%d moves a board, one every %v; %v of play): %v; "+
		"hub process: CPU %.2f s in %.1f s (%.0f %% of one core), peak RSS %d MB, RSS at the end %d MB; "+
		"the test's process (boards and viewers): %.0f %% of one core; load average before %s, after %s",
		*loadBoards, *loadViewers, len(moves), *loadPace, played.Round(time.Second), r,
		(hub1.CPU - hub0.CPU).Seconds(), wall.Seconds(), share(hub0, hub1), hub1.PeakKiB/1024, hub1.RSSKiB/1024,
		share(self0, self1), loadBefore, hubtest.LoadAvg())
	if r.Lost > 0 || r.Skipped > 0 {
		t.Errorf("messages lost: %d (skipped numbers %d)", r.Lost, r.Skipped)
	}
}
