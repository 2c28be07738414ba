// Package enroll keeps which board joined the club hub's own broker
// under which name: trust on first use. A board makes a key of its own
// on its first join and keeps it in its state directory; the hub keeps
// the name with the key's SHA-256 in its state directory (file
// hub-boards), and from then on only that key joins as that board
// (sync/broker's Enrollment). The tournament director releases a name
// (boardd hub forget NAME) for a board whose state directory was wiped
// or that replaces another.
//
// The file is read again whenever it changed, so a forget takes effect
// on a running hub; every change is a read, change and atomic rename
// under an exclusive lock on hub-boards.lock.
package enroll

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"boardd/sync/broker"
	"boardd/sync/mqtt"
)

// File is the name of the enrollments' file in the hub's state directory.
const File = "hub-boards"

// DefaultMax bounds the names kept (the hub's ingest takes at most as
// many boards).
const DefaultMax = 1000

// Board is an enrolled board.
type Board struct {
	Name string `json:"name"`
	// KeySHA256 is the hex SHA-256 of the board's key.
	KeySHA256 string `json:"key_sha256"`
	// Joined is when the name was enrolled.
	Joined time.Time `json:"joined"`
}

// Keys is the enrollments of one state directory; it implements
// broker.Enrollment. Safe for concurrent use, and with other processes
// on the same directory.
type Keys struct {
	path, lock string
	max        int
	now        func() time.Time

	mu    sync.Mutex
	by    map[string]Board
	stamp stamp // of the file the map was read from
}

type stamp struct {
	size int64
	mod  time.Time
	ino  uint64
}

var _ broker.Enrollment = (*Keys)(nil)

// Open reads the enrollments kept in dir (none yet is no error); max
// bounds the names (0: DefaultMax).
func Open(dir string, max int) (*Keys, error) {
	if max <= 0 {
		max = DefaultMax
	}
	k := &Keys{path: filepath.Join(dir, File), lock: filepath.Join(dir, File+".lock"), max: max, now: time.Now}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.reload(); err != nil {
		return nil, err
	}
	return k, nil
}

// Enroll implements broker.Enrollment.
func (k *Keys) Enroll(name, key string) error {
	if err := mqtt.CheckID("board", name); err != nil {
		return err
	}
	sum := hash(key)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.reload(); err != nil {
		return err
	}
	if b, ok := k.by[name]; ok {
		return match(b, sum)
	}
	return k.change(func(by map[string]Board) error {
		if b, ok := by[name]; ok { // enrolled by another process meanwhile
			return match(b, sum)
		}
		if len(by) >= k.max {
			return fmt.Errorf("the hub keeps %d boards already; release names with boardd hub forget", k.max)
		}
		by[name] = Board{Name: name, KeySHA256: sum, Joined: k.now().UTC().Truncate(time.Second)}
		return nil
	})
}

func match(b Board, sum string) error {
	if subtle.ConstantTimeCompare([]byte(b.KeySHA256), []byte(sum)) != 1 {
		return broker.ErrOtherKey
	}
	return nil
}

// Enrolled implements broker.Enrollment.
func (k *Keys) Enrolled(name string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	_ = k.reload() // on error the names known stay
	_, ok := k.by[name]
	return ok
}

// Forget releases name: the next board to join under it is its board.
// It reports whether the name was enrolled.
func (k *Keys) Forget(name string) (bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	found := false
	err := k.change(func(by map[string]Board) error {
		_, found = by[name]
		delete(by, name)
		return nil
	})
	return found, err
}

// List returns the enrolled boards by name.
func (k *Keys) List() ([]Board, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.reload(); err != nil {
		return nil, err
	}
	out := make([]Board, 0, len(k.by))
	for _, b := range k.by {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func hash(key string) string {
	s := sha256.Sum256([]byte(key))
	return hex.EncodeToString(s[:])
}

// reload reads the file when it changed since it was last read.
func (k *Keys) reload() error {
	st, err := statOf(k.path)
	if err != nil {
		return err
	}
	if k.by != nil && st == k.stamp {
		return nil
	}
	by, err := read(k.path)
	if err != nil {
		return err
	}
	k.by, k.stamp = by, st
	return nil
}

func statOf(path string) (stamp, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return stamp{}, nil
	}
	if err != nil {
		return stamp{}, fmt.Errorf("enrolled boards: %w", err)
	}
	s := stamp{size: fi.Size(), mod: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino = sys.Ino
	}
	return s, nil
}

// read reads the file: a JSON array of Board.
func read(path string) (map[string]Board, error) {
	by := map[string]Board{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return by, nil
	}
	if err != nil {
		return nil, fmt.Errorf("enrolled boards: %w", err)
	}
	var list []Board
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("enrolled boards: %s is not a list of boards (%v): move it away to enroll every board again", path, err)
	}
	for _, b := range list {
		by[b.Name] = b
	}
	return by, nil
}

// change reads the file under the lock, lets f change it, and writes it
// back (a temporary file renamed over it) when f answers nil.
func (k *Keys) change(f func(map[string]Board) error) error {
	lf, err := os.OpenFile(k.lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("enrolled boards: %w", err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("enrolled boards: lock %s: %w", k.lock, err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	by, err := read(k.path)
	if err != nil {
		return err
	}
	if err := f(by); err != nil {
		k.by = by
		return err
	}
	list := make([]Board, 0, len(by))
	for _, b := range by {
		list = append(list, b)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	data, _ := json.MarshalIndent(list, "", "  ")
	tmp := k.path + ".tmp"
	if err := writeSync(tmp, append(data, '\n')); err != nil {
		return fmt.Errorf("enrolled boards: %w", err)
	}
	if err := os.Rename(tmp, k.path); err != nil {
		return fmt.Errorf("enrolled boards: %w", err)
	}
	k.by = by
	k.stamp, _ = statOf(k.path)
	return nil
}

func writeSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
