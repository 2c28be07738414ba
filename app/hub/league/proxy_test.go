package league_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardd/app/hub/server"
	"boardd/app/hub/store"
	"boardd/app/hub/store/pgtest"
	"boardd/internal/testio"
)

// nginxPath finds Debian's nginx, or skips the test (fails it in CI).
func nginxPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("BOARDD_NGINX"), "/usr/sbin/nginx"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	msg := "nginx is not installed (apt-get install nginx, or set BOARDD_NGINX)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// startNginx runs nginx with the sample site configs/league/nginx-league.conf,
// its hubs replaced by hubs and its port by a free loopback one, and
// returns its address.
func startNginx(t *testing.T, hubs ...string) string {
	t.Helper()
	return startNginxWith(t, "", hubs...)
}

// startNginxWith is startNginx with extra directives in the site's
// location.
func startNginxWith(t *testing.T, extra string, hubs ...string) string {
	t.Helper()
	bin := nginxPath(t)
	site, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", "league", "nginx-league.conf"))
	if err != nil {
		t.Fatal(err)
	}
	addr := testio.FreeAddr(t)
	conf := string(site)
	for _, r := range [][2]string{{"server hub1:8090", "server " + hubs[0]}, {"server hub2:8090", "server " + hubs[1]},
		{"listen 80;", "listen " + addr + ";"}, {"listen [::]:80;", ""}, {"proxy_read_timeout 1h;", "proxy_read_timeout 1h;\n" + extra}} {
		if !strings.Contains(conf, r[0]) {
			t.Fatalf("the sample nginx config lacks %q", r[0])
		}
		conf = strings.ReplaceAll(conf, r[0], r[1])
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "site.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	main := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include %[1]s/site.conf;
}
`, dir)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	out, _ := os.Create(filepath.Join(dir, "out.log"))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait(); out.Close() })
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(end) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			o, _ := os.ReadFile(filepath.Join(dir, "out.log"))
			t.Fatalf("nginx does not listen on %s:\n%s\n%s", addr, o, log)
		}
	}
}

// Viewers through nginx with the sample config in front of two hubs on
// one database: both hubs serve the same boards; one hub stopped, every
// request still answers, from the other.
func TestViewersThroughTheProxy(t *testing.T) {
	pg := pgtest.Start(t)
	db := pg.NewDB(t)
	s := openDB(t, db)
	for seq := uint64(1); seq <= 3; seq++ {
		m := store.Message{Board: "club-1", Seq: seq, Game: "g1", Kind: "game_start", Time: time.Now(), Body: []byte("{}")}
		var apply func(*store.Tx) error
		if seq == 1 {
			apply = func(tx *store.Tx) error { return tx.StartGame("teams", "", nil) }
		} else {
			m.Kind = "move"
			apply = func(tx *store.Tx) error {
				return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h3", Coord: "h2-h3"})
			}
		}
		if _, err := s.Record(context.Background(), m, apply); err != nil {
			t.Fatal(err)
		}
	}
	var hubs []*server.Hub
	for range 2 {
		h, err := server.Start(context.Background(), server.Config{DB: db, MQTT: "127.0.0.1:0", Web: "127.0.0.1:0", StateDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		hubs = append(hubs, h)
	}
	proxy := startNginx(t, hubs[0].WebAddr, hubs[1].WebAddr)
	get := func() (int, []apiBoard) {
		resp, err := http.Get("http://" + proxy + "/api/boards")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b []apiBoard
		json.NewDecoder(resp.Body).Decode(&b)
		return resp.StatusCode, b
	}
	want := apiBoard{Board: "club-1", Moves: 2, LastMove: "h2-h3", LastSeq: 3}
	for i := range 6 {
		if code, b := get(); code != 200 || len(b) != 1 || b[0] != want {
			t.Fatalf("request %d through nginx: %d %+v, want %+v", i, code, b, want)
		}
		if i == 2 {
			hubs[0].Close()
		}
	}
}
