package server_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/internal/testio"
)

// The load test (issue 31's measurement): a hub process, N real boards
// playing a real game into it over MQTT, M viewers following every board
// on GET /api/live. Off unless -hubload.boards is given:
//
//	go test ./app/hub/server -run HubLoad -v -hubload.boards 20 -hubload.viewers 200
var load = hubtest.NewLoadFlags("hubload", "TestHubLoad")

func TestHubLoad(t *testing.T) {
	moves := load.Game(t, "go test ./app/hub/server -run HubLoad -v -hubload.boards 20 -hubload.viewers 200")
	loadBefore := hubtest.LoadAvg()
	mqttAddr, webAddr := testio.FreeAddr(t), testio.FreeAddr(t)
	join, _, pid := hubProcessWeb(t, t.TempDir(), mqttAddr, webAddr)
	pw := strings.TrimPrefix(strings.Split(join, "@")[0], "mqtt://board:")

	// The viewers, all following before the first move.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	f := hubtest.Follow(ctx, []string{"http://" + webAddr + "/api/live"}, *load.Viewers)
	boards := make([]hubtest.LoadBoard, *load.Boards)
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
	if err := hubtest.PlayAll(ctx, boards, moves, *load.Pace); err != nil {
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
		*load.Boards, *load.Viewers, len(moves), *load.Pace, played.Round(time.Second), r,
		(hub1.CPU - hub0.CPU).Seconds(), wall.Seconds(), share(hub0, hub1), hub1.PeakKiB/1024, hub1.RSSKiB/1024,
		share(self0, self1), loadBefore, hubtest.LoadAvg())
	if r.Lost > 0 || r.Skipped > 0 {
		t.Errorf("messages lost: %d (skipped numbers %d)", r.Lost, r.Skipped)
	}
}
