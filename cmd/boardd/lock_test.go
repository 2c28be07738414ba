package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"boardd/app/doctor"
	"boardd/configs"
	"boardd/internal/statelock"
)

// asMain makes the test binary boardd itself: a test starts it with
// this variable set and boardd's arguments.
const asMain = "BOARDD_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// startBoardd runs boardd with args as a child process until it has said
// where its state is (it is then running).
func startBoardd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMain+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "state:") {
			go io.Copy(io.Discard, out)
			return cmd
		}
	}
	cmd.Wait()
	t.Fatalf("boardd %v did not start: %s", args, stderr.String())
	return nil
}

// Issue 27: a second boardd run on one state directory is refused with
// the directory and the first's pid; once the first is killed with
// SIGKILL (no chance to clean up), a new one starts.
func TestRunRefusesASecondOnOneStateDir(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	args := []string{"run", "--state", state, "--web", "off", "--mqtt", "off", "--stdin=false", "--draw=false"}
	first := startBoardd(t, args...)

	code, _, stderr := runCmd(args...)
	if code != 1 {
		t.Fatalf("second boardd run: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"state_dir " + state + " is in use by process " + strconv.Itoa(first.Process.Pid), "boardd run", "sudo systemctl stop boardd", "--state DIR"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("second boardd run says %q; want %q in it", stderr, want)
		}
	}

	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	if data, _ := os.ReadFile(filepath.Join(state, "boardd.lock")); !strings.HasPrefix(string(data), strconv.Itoa(first.Process.Pid)+" ") {
		t.Fatalf("the killed board's lock file holds %q: the test shows no stale lock", data)
	}
	startBoardd(t, args...) // the stale lock file blocks nothing
}

// Issue 29: boardd sensors and boardd doctor opened the SPI port and
// latch the running service scans. While the daemon holds the hardware
// lock, boardd sensors is refused and the doctor skips its live read,
// both saying to stop the service first; simulated switches need no lock.
func TestHardwareCommandsRefuseWhileTheDaemonHoldsIt(t *testing.T) {
	t.Setenv("RUNTIME_DIRECTORY", t.TempDir())
	daemonLock, err := statelock.Hardware("boardd run, board 1")
	if err != nil {
		t.Fatal(err)
	}
	defer daemonLock.Release()
	holder := "process " + strconv.Itoa(os.Getpid()) + " (boardd run, board 1)"

	for _, driver := range []string{"hc165", "gpiomatrix", "mcp23017"} {
		code, _, stderr := runCmd("sensors", "--driver", driver, "--once")
		if code != 1 || !strings.Contains(stderr, holder) || !strings.Contains(stderr, "sudo systemctl stop boardd") || !strings.Contains(stderr, "web display") {
			t.Errorf("sensors --driver %s while the daemon runs: exit %d, %q", driver, code, stderr)
		}
	}
	if code, out, stderr := runCmd("sensors", "--driver", "sim", "--once"); code != 0 {
		t.Errorf("sensors --driver sim while the daemon runs: exit %d, %s%s", code, out, stderr)
	}

	cfg := configs.Defaults()
	cfg.Sensors.Driver = "hc165"
	live, busy, release := doctorLive(cfg)
	release()
	if live != nil || busy == nil || busy.Level != doctor.Warn || !strings.Contains(busy.Msg, holder) || !strings.Contains(busy.Fix, "sudo systemctl stop boardd") {
		t.Errorf("doctor's live read while the daemon runs: live %v, finding %+v", live != nil, busy)
	}
	cfg.Sensors.Driver = "sim"
	if live, busy, release := doctorLive(cfg); live != nil || busy != nil {
		t.Errorf("doctor on a simulated board: live %v, finding %+v", live != nil, busy)
	} else {
		release()
	}

	// The daemon stopped: the doctor takes the lock for its read.
	daemonLock.Release()
	cfg.Sensors.Driver = "hc165"
	live, busy, release = doctorLive(cfg)
	if live == nil || busy != nil {
		t.Fatalf("doctor with the hardware free: live %v, finding %+v", live != nil, busy)
	}
	if err := statelock.CheckHardware(); err == nil {
		t.Error("the doctor reads the switches without holding the hardware lock")
	}
	release()
	if err := statelock.CheckHardware(); err != nil {
		t.Errorf("the doctor kept the hardware lock: %v", err)
	}
}

// boardd sensors --listen opens the same unauthenticated control port as
// sensors.listen: loopback or a Unix socket only.
func TestSensorsListenOnlyOnThisMachine(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:7165", ":7165", "10.0.0.5:7165", "[::]:7165"} {
		code, _, stderr := runCmd("sensors", "--once", "--listen", addr)
		if code != 2 || !strings.Contains(stderr, "the control port has no password") {
			t.Errorf("sensors --listen %s: exit %d, %q", addr, code, stderr)
		}
	}
}
