package systest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemdUnit checks systemd/boardd.service with systemd-analyze
// verify (with ExecStart pointed at this test binary, which exists) and
// the settings the board depends on.
func TestSystemdUnit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "systemd", "boardd.service"))
	if err != nil {
		t.Fatal(err)
	}
	unit := string(data)
	for _, want := range []string{"Type=notify", "WatchdogSec=", "Restart=on-failure", "StartLimitIntervalSec=0", "StateDirectory=boardd",
		"After=network-online.target time-sync.target", "SystemCallFilter=@system-service",
		"ExecStart=/usr/bin/boardd run --config /etc/boardd/boardd.yaml --stdin=false"} {
		if !strings.Contains(unit, want) {
			t.Errorf("the unit lacks %s", want)
		}
	}
	for _, line := range strings.Split(unit, "\n") {
		for _, hides := range []string{"PrivateDevices=", "DevicePolicy=", "DeviceAllow=", "ProtectClock="} {
			// ProtectClock=yes implies DeviceAllow=char-rtc (systemd 247):
			// an allow-list without the board's devices.
			if strings.HasPrefix(line, hides) {
				t.Errorf("%s would hide /dev/gpiochip*, /dev/spidev* and /dev/i2c-* from the board", line)
			}
		}
		if strings.HasPrefix(line, "SupplementaryGroups=") {
			t.Errorf("%s: a group missing on the machine (Ubuntu, DietPi) fails the unit with 216/GROUP", line)
		}
	}
	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("systemd-analyze is missing: .ci/run must install systemd")
		}
		t.Skip("systemd-analyze is not installed")
	}
	self, err := filepath.Abs(boarddBin)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "boardd.service")
	os.WriteFile(path, []byte(strings.ReplaceAll(unit, "/usr/bin/boardd", self)), 0o644)
	out, err := exec.Command(tool, "verify", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
