package statelock

import (
	"errors"
	"os"
	"path/filepath"
)

// HardwareFile is the name of the lock file that marks the board's
// switch and LED hardware in use.
const HardwareFile = "boardd-hardware.lock"

// HardwareDirs are the directories the hardware lock may live in, first
// choice first: $RUNTIME_DIRECTORY alone when set (systemd's
// RuntimeDirectory=, /run/boardd under the packaged unit; tests set it
// to a directory of their own), else /run/boardd, then the temporary
// directory for a board started by hand by a user who cannot write
// /run/boardd.
func HardwareDirs() []string {
	if dir := os.Getenv("RUNTIME_DIRECTORY"); dir != "" {
		return []string{dir}
	}
	return []string{runDir, os.TempDir()}
}

// runDir is the packaged unit's RuntimeDirectory=.
const runDir = "/run/boardd"

// Hardware takes the hardware lock for what ("boardd run", "boardd
// sensors") in the first of HardwareDirs that will hold it. A lock
// another process holds in any of them is a *HeldError; a directory that
// does not exist or cannot be written is passed over. When none can hold
// the lock the error says why, and the caller decides whether to go on.
func Hardware(what string) (*Lock, error) {
	if err := CheckHardware(); err != nil {
		return nil, err
	}
	var errs []error
	for _, dir := range HardwareDirs() {
		if dir == runDir {
			// Where the service looks (its /tmp is private): made here
			// when the service is stopped and this process may (root).
			os.Mkdir(dir, 0o755)
		}
		l, err := Acquire(filepath.Join(dir, HardwareFile), what)
		var held *HeldError
		if err == nil || errors.As(err, &held) {
			return l, err
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// CheckHardware reports the process holding the hardware lock in any of
// HardwareDirs (a *HeldError), or nil when none does.
func CheckHardware() error {
	for _, dir := range HardwareDirs() {
		var held *HeldError
		if err := Check(filepath.Join(dir, HardwareFile)); errors.As(err, &held) {
			return err
		}
	}
	return nil
}
