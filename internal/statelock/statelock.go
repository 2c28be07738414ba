// Package statelock keeps two processes off one thing: a state directory
// two daemons would both write, or the board's hardware two commands
// would both scan. A Lock is an exclusive flock(2) on a lock file, held
// until Release or until the process ends: the kernel drops the lock of a
// process that dies, however it dies (kill -9, a power cut's reboot), so
// a lock file left behind never blocks the next start. The holder writes
// its pid and command into the file, so the one refused can say who holds
// it. The file itself is never removed (removing a locked file lets a
// third process lock a new file of the same name).
package statelock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Lock is a held lock on one file.
type Lock struct {
	f    *os.File
	path string
}

// HeldError is the answer when another process holds the lock.
type HeldError struct {
	Path string // the lock file
	PID  int    // the holder's pid; 0 if it did not say
	What string // the holder's own words ("boardd run"), if any
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s is held by %s", e.Path, e.Holder())
}

// Holder names the holding process: "process 1234 (boardd run)", or
// "another process" when the file does not say.
func (e *HeldError) Holder() string {
	if e.PID == 0 {
		return "another process"
	}
	if e.What != "" {
		return fmt.Sprintf("process %d (%s)", e.PID, e.What)
	}
	return fmt.Sprintf("process %d", e.PID)
}

// Acquire takes the lock on path, creating the file if need be, without
// waiting: a lock another process holds is a *HeldError. what (such as
// "boardd run") is written into the file with this process's pid. A file
// this process may only read (another user's, in a shared directory) is
// locked all the same; it then cannot say who holds it.
func Acquire(path, what string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	writable := err == nil
	if errors.Is(err, os.ErrPermission) {
		if rf, rerr := os.Open(path); rerr == nil {
			f, err = rf, nil
		} // else the permission error says it best
	}
	if err != nil {
		return nil, fmt.Errorf("lock file %s: %w", path, err)
	}
	if err := flock(f); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, readHolder(path)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if writable {
		// Readable by all whatever the umask (the unit's is 0027): a
		// command run by another user must be able to look (Check).
		f.Chmod(0o644)
		// Ours now: say who holds it (a failed write only loses the name).
		if f.Truncate(0) == nil {
			f.WriteAt([]byte(fmt.Sprintf("%d %s\n", os.Getpid(), oneLine(what))), 0)
		}
	}
	return &Lock{f: f, path: path}, nil
}

// Check reports whether another process holds the lock on path, without
// taking it for longer than the look: nil when nobody holds it (or the
// file does not exist), a *HeldError when someone does. It needs only to
// read the file, so a user who could not take the lock can still look.
func Check(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("lock file %s: %w", path, err)
	}
	defer f.Close()
	if err := flock(f); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return readHolder(path)
		}
		return fmt.Errorf("locking %s: %w", path, err)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return nil
}

// Path is the lock file.
func (l *Lock) Path() string { return l.path }

// Release empties the file and lets the lock go. Releasing twice, or a
// nil Lock, does nothing.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)    // no pid left behind to mislead; fails harmlessly when read-only
	err := l.f.Close() // closing the last descriptor drops the flock
	l.f = nil
	return err
}

func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// readHolder reads the pid and words the holder wrote.
func readHolder(path string) *HeldError {
	e := &HeldError{Path: path}
	data, err := os.ReadFile(path)
	if err != nil {
		return e
	}
	pid, what, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
	if n, err := strconv.Atoi(pid); err == nil && n > 0 {
		e.PID, e.What = n, what
	}
	return e
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// StateFile is the name of the lock file in a state directory: the one
// process writing the directory holds it (State).
const StateFile = "boardd.lock"

// State takes the lock of the state directory dir for what ("boardd
// run"); a second writer gets a *HeldError naming the first.
func State(dir, what string) (*Lock, error) {
	return Acquire(filepath.Join(dir, StateFile), what)
}
