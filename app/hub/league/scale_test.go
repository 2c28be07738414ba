package league_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/store/pgtest"
	"boardd/internal/testio"
)

// The league at scale (issue 32's measurement): three NATS nodes,
// PostgreSQL, two hub processes on it, N real boards spread over the
// nodes playing a real game, M viewers spread over the two hubs'
// GET /api/live. Off unless -league.scale.boards is given:
//
//	go test ./app/hub/league -run LeagueScale -v -league.scale.boards 100 -league.scale.viewers 1000
var scale = hubtest.NewLoadFlags("league.scale", "TestLeagueScale")

func TestLeagueScale(t *testing.T) {
	moves := scale.Game(t, "go test ./app/hub/league -run LeagueScale -v -league.scale.boards 100 -league.scale.viewers 1000")
	loadBefore := hubtest.LoadAvg()
	pg := pgtest.Start(t)
	db := pg.NewDB(t)
	c := startCluster(t)
	var urls []string
	procs := map[string]func() []int{"PostgreSQL (all its processes)": func() []int { return hubtest.WithChildren(pg.Pid()) }}
	for i := range 2 {
		web := testio.FreeAddr(t)
		pid, _ := hubProcessWeb(t, db, from(c, i), web)
		urls = append(urls, "http://"+web+"/api/live")
		procs[fmt.Sprintf("hub %d", i+1)] = func() []int { return []int{pid} }
	}
	for _, nd := range c.Nodes {
		procs["NATS "+nd.Name] = func() []int { return []int{nd.Pid()} }
	}
	check := openDB(t, db)
	sizeBefore := dbSize(t, db)

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	f := hubtest.Follow(ctx, urls, *scale.Viewers)
	boards := make([]hubtest.LoadBoard, *scale.Boards)
	waitFor := make([]*board, len(boards))
	for i := range boards {
		name := fmt.Sprintf("league-%03d", i+1)
		waitFor[i] = startBoard(t, name, from(c, i%3))
		boards[i] = hubtest.LoadBoard{Name: name, Live: waitFor[i].live}
	}
	usage := func() map[string]hubtest.Usage {
		out := map[string]hubtest.Usage{}
		for name, pids := range procs {
			u, err := hubtest.ProcUsage(pids()...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out[name] = u
		}
		out["the test (boards, viewers)"], _ = hubtest.ProcUsage(os.Getpid())
		return out
	}
	before := usage()
	start := time.Now()
	if err := hubtest.PlayAll(ctx, boards, moves, *scale.Pace); err != nil {
		t.Error(err)
	}
	played := time.Since(start)
	f.Wait(boards, 60*time.Second)
	after := usage()
	wall := time.Since(start)
	stop()
	f.Done()
	if err := waitHeld(check, waitFor...); err != nil {
		t.Error(err)
	}
	r := f.Result(boards)
	stored := 0
	for _, b := range boards {
		stored += int(b.Live.State().Seq)
	}
	grown := dbSize(t, db) - sizeBefore
	var per []string
	for _, name := range []string{"NATS n1", "NATS n2", "NATS n3", "hub 1", "hub 2", "PostgreSQL (all its processes)", "the test (boards, viewers)"} {
		a, b := before[name], after[name]
		per = append(per, fmt.Sprintf("%s: CPU %.0f %% of one core, peak RSS %d MB, RSS at the end %d MB",
			name, 100*(b.CPU-a.CPU).Seconds()/wall.Seconds(), b.PeakKiB/1024, b.RSSKiB/1024))
	}
	t.Logf("%d boards over 3 NATS nodes × %d viewers over 2 hubs (%d moves a board, one every %v; %v of play, %.1f s measured): %v; "+
		"the database grew %d kB for %d stored messages (%d bytes a message); load average before %s, after %s\n%s",
		*scale.Boards, *scale.Viewers, len(moves), *scale.Pace, played.Round(time.Second), wall.Seconds(), r,
		grown/1024, stored, grown/int64(max(stored, 1)), loadBefore, hubtest.LoadAvg(), strings.Join(per, "\n"))
	if r.Lost > 0 || r.Skipped > 0 {
		t.Errorf("messages lost: %d (skipped numbers %d)", r.Lost, r.Skipped)
	}
	for _, b := range waitFor {
		b.moves = moves
		checkBoard(t, check, b)
	}
}

// dbSize is the database's size on disk in bytes (PostgreSQL's
// pg_database_size).
func dbSize(t *testing.T, url string) int64 {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT pg_database_size(current_database())").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
