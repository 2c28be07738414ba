package board

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	_ "boardd/app/drivers" // hc165, apa102
	"boardd/configs"
	"boardd/internal/statelock"
)

func lockTestConfig(t *testing.T) configs.Daemon {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "off"
	t.Setenv("RUNTIME_DIRECTORY", t.TempDir())
	return cfg
}

// Issue 27: a second boardd run on the same state directory started and
// shared it; the stream's seq went backwards. The second is refused,
// naming the directory and the first's pid, and writes nothing there.
func TestSecondDaemonOnOneStateDirIsRefused(t *testing.T) {
	cfg := lockTestConfig(t)
	first, err := Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	files := listState(cfg.StateDir)

	_, err = Start(context.Background(), cfg, io.Discard, io.Discard)
	if err == nil {
		t.Fatal("a second daemon on the same state directory started")
	}
	for _, want := range []string{cfg.StateDir, "process " + strconv.Itoa(os.Getpid()), "boardd run, board 1", "stop that one first", "--state DIR"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	if after := listState(cfg.StateDir); len(after) != len(files) {
		t.Errorf("the refused start changed the state directory: %v, then %v", files, after)
	}
	if first.Live.State().Status == "" {
		t.Error("the first daemon stopped answering")
	}

	// Once the first is closed, the directory is free again.
	first.Close()
	again, err := Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatalf("start after the first closed: %v", err)
	}
	again.Close()
}

// A start that fails after taking the lock lets it go and leaves no
// directory it made.
func TestFailedStartReleasesTheLock(t *testing.T) {
	cfg := lockTestConfig(t)
	cfg.StateDir = filepath.Join(cfg.StateDir, "new")
	cfg.Game.Variant = "no-such-variant" // fails in NewLive, after the lock
	if _, err := Start(context.Background(), cfg, io.Discard, io.Discard); err == nil {
		t.Fatal("started with an unknown variant")
	}
	if _, err := os.Stat(cfg.StateDir); !os.IsNotExist(err) {
		t.Errorf("the failed start left %s: %v", cfg.StateDir, err)
	}
	os.MkdirAll(cfg.StateDir, 0o755)
	l, err := statelock.State(cfg.StateDir, "test")
	if err != nil {
		t.Fatalf("the failed start kept the lock: %v", err)
	}
	l.Release()
}

// Issue 29: a daemon on real hardware holds the hardware lock, so boardd
// sensors and boardd doctor see it; one refused by a holder says who.
func TestHardwareLock(t *testing.T) {
	cfg := lockTestConfig(t)
	if UsesHardware(cfg) {
		t.Fatal("the simulated board with no LEDs uses hardware")
	}
	d, err := Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := statelock.CheckHardware(); err != nil {
		t.Errorf("a simulated board holds the hardware lock: %v", err)
	}
	d.Close()

	hw := lockTestConfig(t)
	hw.Sensors.Driver = "hc165"
	if !UsesHardware(hw) {
		t.Fatal("hc165 does not use hardware")
	}
	led := lockTestConfig(t)
	led.LEDs.Driver = "apa102"
	if !UsesHardware(led) {
		t.Fatal("apa102 LEDs do not use hardware")
	}

	other, err := statelock.Hardware("boardd sensors")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	_, err = Start(context.Background(), hw, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "(boardd sensors)") || !strings.Contains(err.Error(), "in use by process") {
		t.Fatalf("start while boardd sensors holds the hardware: %v", err)
	}
	if err := statelock.Check(filepath.Join(hw.StateDir, statelock.StateFile)); err != nil {
		t.Errorf("the refused start kept the state directory's lock: %v", err)
	}
}

// config check of the packaged config by a user who is not boardd: the
// service's directory is not this user's to judge; boardd run by that
// user is refused at the lock, saying whose the directory is.
func TestOthersStateDir(t *testing.T) {
	mine := t.TempDir()
	fi, _ := os.Stat(mine)
	if othersDir(fi) {
		t.Errorf("%s, made by this user, is another's", mine)
	}
	if os.Geteuid() == 0 {
		theirs := filepath.Join(t.TempDir(), "theirs")
		os.Mkdir(theirs, 0o750)
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		fi, _ = os.Stat(theirs)
		if !othersDir(fi) {
			t.Errorf("%s, owned by uid 65534, is not another's", theirs)
		}
	}
	err := stateLockError("/var/lib/boardd", &os.PathError{Op: "open", Path: "/var/lib/boardd/boardd.lock", Err: syscall.EACCES})
	if !strings.Contains(err.Error(), "not writable by this user") || !strings.Contains(err.Error(), "--state DIR") {
		t.Errorf("permission refusal: %v", err)
	}
}
