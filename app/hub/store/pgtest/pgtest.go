// Package pgtest starts a throw-away PostgreSQL server for tests: a
// cluster made by Debian's initdb in a temporary directory, a postmaster
// on a free loopback port with its socket in that directory, stopped and
// removed when the test ends. As root it runs the server as the user
// nobody (PostgreSQL refuses to run as root).
//
// Without PostgreSQL installed (apt-get install postgresql) the test is
// skipped with a message, except in CI (CI=true), where it fails.
package pgtest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"boardd/internal/testio"
)

// Server is a running throw-away PostgreSQL.
type Server struct {
	t      testing.TB
	dir    string // the cluster and the socket
	data   string // the cluster
	run    func(name string, args ...string) *exec.Cmd
	port   int
	n      atomic.Int64
	cmd    *exec.Cmd     // the running postgres, nil when stopped
	exited chan struct{} // closed when it has exited
}

// binDir finds the directory of initdb and postgres: $BOARDD_PG_BIN, the
// newest /usr/lib/postgresql/*/bin, or the PATH.
func binDir() (string, error) {
	if d := os.Getenv("BOARDD_PG_BIN"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err != nil {
			return "", fmt.Errorf("PostgreSQL: BOARDD_PG_BIN is %s, which holds no postgres: %w", d, err)
		}
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d, nil
		}
	}
	p, err := exec.LookPath("initdb")
	if err != nil {
		return "", fmt.Errorf("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres, no initdb on the PATH): apt-get install postgresql, or set BOARDD_PG_BIN")
	}
	return filepath.Dir(p), nil
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// Start starts a server for t (stopped and removed when t ends).
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := binDir()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	// Not t.TempDir: its parent is private to root, and the server may
	// have to run as nobody.
	dir, err := os.MkdirTemp("", "boardd-pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cred, err := credential(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) *exec.Cmd {
		c := exec.Command(filepath.Join(bin, name), args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "LC_ALL=C", "TZ=UTC")
		if cred != nil {
			c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		}
		return c
	}
	data := filepath.Join(dir, "data")
	if out, err := run("initdb", "-D", data, "-U", "boardd", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("pgtest: initdb: %v\n%s", err, out)
	}
	s := &Server{dir: dir, t: t, run: run, data: data}
	t.Cleanup(s.Stop)
	for try := 0; ; try++ {
		err := s.launch(testio.FreePort(t))
		if err == nil {
			return s
		}
		if try >= 2 {
			t.Fatal(err)
		}
		// most likely the port was taken meanwhile: another one
	}
}

// launch starts postgres on port and waits until it answers.
func (s *Server) launch(port int) error {
	s.port = port
	logf, err := os.OpenFile(filepath.Join(s.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := s.run("postgres", "-D", s.data, "-p", strconv.Itoa(port), "-h", "127.0.0.1", "-k", s.dir,
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=50")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("pgtest: start postgres: %w", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); close(exited) }()
	s.cmd, s.exited = cmd, exited
	if err := s.waitReady(exited); err != nil {
		s.Stop()
		log, _ := os.ReadFile(filepath.Join(s.dir, "postgres.log"))
		return fmt.Errorf("pgtest: postgres did not start on port %d: %w\n%s", port, err, lastLines(log, 20))
	}
	return nil
}

// Pid is the id of the running postgres (the postmaster; its backends
// are its children), 0 when it is stopped.
func (s *Server) Pid() int {
	if s.cmd == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Stop stops the server (a fast shutdown; killed after 10 s): the
// database is gone for its clients until Restart.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	stop(s.t, s.cmd, s.exited)
	s.cmd = nil
}

// Restart starts the stopped server again on the same port, with
// everything it had stored.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	var err error
	for try := 0; try < 50; try++ { // the port may take a moment to be free
		if err = s.launch(s.port); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatal(err)
}

// credential makes dir the server's and returns the user to run it as:
// nobody when we are root, nil (ourselves) otherwise.
func credential(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("pgtest: running as root, and PostgreSQL will not: no user nobody to run it as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
}

// waitReady waits (30 s at most) until the server answers.
func (s *Server) waitReady(exited <-chan struct{}) error {
	db, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err = db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("postgres exited: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within 30 s: %w", err)
		}
	}
}

// stop asks the server for a fast shutdown and kills it after 10 s.
func stop(t testing.TB, cmd *exec.Cmd, exited <-chan struct{}) {
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Log("pgtest: postgres did not stop within 10 s; killed")
		cmd.Process.Kill()
		<-exited
	}
}

func (s *Server) url(db string) string {
	return fmt.Sprintf("postgres://boardd@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// NewDB creates an empty database and returns its postgres:// URL.
func (s *Server) NewDB(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("test%d", s.n.Add(1))
	db, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	return s.url(name)
}

func lastLines(b []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, []byte("\n"))
}
