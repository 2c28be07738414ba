package statelock

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary a child that takes the lock named by
// the variable, says "locked" and waits to be killed.
const childEnv = "STATELOCK_TEST_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		l, err := Acquire(path, "boardd run --config x.yaml")
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		defer l.Release()
		time.Sleep(time.Hour) // until killed; the lock stays held
	}
	os.Exit(m.Run())
}

// startHolder starts a child process holding the lock on path.
func startHolder(t *testing.T, path string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("child: %q, %v", line, err)
	}
	return cmd
}

func TestHeldByAnotherProcessThenKilled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "boardd.lock")
	child := startHolder(t, path)

	_, err := Acquire(path, "boardd run")
	var held *HeldError
	if !errors.As(err, &held) {
		t.Fatalf("Acquire while a child holds the lock: %v, want a HeldError", err)
	}
	if held.PID != child.Process.Pid || held.What != "boardd run --config x.yaml" || held.Path != path {
		t.Errorf("HeldError = %+v, want pid %d, what %q, path %s", held, child.Process.Pid, "boardd run --config x.yaml", path)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "boardd run --config x.yaml") {
		t.Errorf("message %q does not name the file and the holder", msg)
	}
	if err := Check(path); !errors.As(err, &held) || held.PID != child.Process.Pid {
		t.Errorf("Check while held: %v, want the holder's pid %d", err, child.Process.Pid)
	}

	// kill -9: no chance to clean up; the kernel drops the lock.
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	if data, _ := os.ReadFile(path); len(data) == 0 {
		t.Fatal("the killed holder's file is empty: the test does not show a stale file")
	}
	if err := Check(path); err != nil {
		t.Errorf("Check after the holder was killed: %v, want nil (a stale file blocks nothing)", err)
	}
	l, err := Acquire(path, "boardd run")
	if err != nil {
		t.Fatalf("Acquire after the holder was killed: %v", err)
	}
	defer l.Release()
	data, _ := os.ReadFile(path)
	if want := strings.Fields(string(data)); len(want) < 1 || want[0] != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q, want this pid %d first", data, os.Getpid())
	}
}

func TestSameProcessTwice(t *testing.T) {
	// Two opens in one process are two holders: a second daemon started
	// by a test in the same process is refused as a second process is.
	path := filepath.Join(t.TempDir(), "boardd.lock")
	a, err := Acquire(path, "first")
	if err != nil {
		t.Fatal(err)
	}
	var held *HeldError
	if _, err := Acquire(path, "second"); !errors.As(err, &held) || held.What != "first" || held.PID != os.Getpid() {
		t.Fatalf("second Acquire: %v, want held by %d (first)", err, os.Getpid())
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}
	b, err := Acquire(path, "second")
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	b.Release()
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Errorf("released lock file holds %q, want it empty", data)
	}
}

func TestCheckMissingFile(t *testing.T) {
	if err := Check(filepath.Join(t.TempDir(), "none.lock")); err != nil {
		t.Errorf("Check of a file that does not exist: %v, want nil", err)
	}
}

func TestHolderWords(t *testing.T) {
	for _, tc := range []struct {
		content, want string
	}{
		{"1234 boardd run\n", "process 1234 (boardd run)"},
		{"1234\n", "process 1234"},
		{"", "another process"},
		{"garbage here", "another process"},
	} {
		path := filepath.Join(t.TempDir(), "x.lock")
		os.WriteFile(path, []byte(tc.content), 0o644)
		if got := readHolder(path).Holder(); got != tc.want {
			t.Errorf("file %q: Holder() = %q, want %q", tc.content, got, tc.want)
		}
	}
}

// The packaged unit's UMask=0027 must not hide the lock from other users.
func TestLockFileReadableByAll(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(path, "boardd run")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o004 == 0 {
		t.Errorf("lock file mode %v, %v: want readable by all", fi.Mode(), err)
	}
}
