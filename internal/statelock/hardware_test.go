package statelock

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

func TestHardwareLock(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("RUNTIME_DIRECTORY", dir)
	if got := HardwareDirs(); len(got) != 1 || got[0] != dir {
		t.Fatalf("HardwareDirs with $RUNTIME_DIRECTORY = %v, want [%s]", got, dir)
	}
	child := startHolder(t, filepath.Join(dir, HardwareFile)) // the daemon, scanning

	var held *HeldError
	if err := CheckHardware(); !errors.As(err, &held) || held.PID != child.Process.Pid {
		t.Fatalf("CheckHardware while the daemon holds it: %v, want held by %d", err, child.Process.Pid)
	}
	if _, err := Hardware("boardd sensors"); !errors.As(err, &held) {
		t.Fatalf("Hardware while the daemon holds it: %v, want a HeldError", err)
	}

	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	if err := CheckHardware(); err != nil {
		t.Fatalf("CheckHardware after the daemon was killed: %v", err)
	}
	l, err := Hardware("boardd sensors")
	if err != nil {
		t.Fatalf("Hardware after the daemon was killed: %v", err)
	}
	defer l.Release()
	if l.Path() != filepath.Join(dir, HardwareFile) {
		t.Errorf("lock at %s, want in %s", l.Path(), dir)
	}
}

func TestHardwareNowhereToLock(t *testing.T) {
	t.Setenv("RUNTIME_DIRECTORY", filepath.Join(t.TempDir(), "missing"))
	var held *HeldError
	if _, err := Hardware("boardd run"); err == nil || errors.As(err, &held) {
		t.Fatalf("Hardware with no directory to hold the lock: %v, want an error that is not HeldError", err)
	}
	if err := CheckHardware(); err != nil {
		t.Errorf("CheckHardware with no lock file: %v, want nil", err)
	}
}

func TestStateLock(t *testing.T) {
	dir := t.TempDir()
	a, err := State(dir, "boardd run")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	var held *HeldError
	if _, err := State(dir, "boardd run"); !errors.As(err, &held) || held.Path != filepath.Join(dir, StateFile) {
		t.Fatalf("second State: %v, want held, at %s", err, filepath.Join(dir, StateFile))
	}
}
