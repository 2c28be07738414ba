package systest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// boarddBin is the boardd binary TestMain builds for the tests that run
// commands or the daemon as a process.
var boarddBin string

// TestMain builds boardd once into a temporary directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "boardd-systest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	boarddBin = filepath.Join(dir, "boardd")
	if out, err := exec.Command("go", "build", "-o", boarddBin, "boardd/cmd/boardd").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building boardd for the system tests: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runCmd runs boardd with args (standard input empty) and returns its
// exit code and output.
func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	cmd := exec.Command(boarddBin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		code, e = -1, *bytes.NewBufferString(err.Error())
	}
	return code, o.String(), e.String()
}
