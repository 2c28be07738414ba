package main

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
	for _, want := range []string{"Type=notify", "WatchdogSec=", "Restart=on-failure", "StartLimitIntervalSec=0", "StateDirectory=boardd", "SupplementaryGroups=gpio spi i2c",
		"ExecStart=/usr/local/bin/boardd run --config /etc/boardd/boardd.yaml --stdin=false"} {
		if !strings.Contains(unit, want) {
			t.Errorf("the unit lacks %s", want)
		}
	}
	for _, line := range strings.Split(unit, "\n") {
		if strings.HasPrefix(line, "PrivateDevices=") || strings.HasPrefix(line, "DevicePolicy=") {
			t.Errorf("%s would hide /dev/gpiochip*, /dev/spidev* and /dev/i2c-* from the board", line)
		}
	}
	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("systemd-analyze is missing: .ci/run must install systemd")
		}
		t.Skip("systemd-analyze is not installed")
	}
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "boardd.service")
	os.WriteFile(path, []byte(strings.ReplaceAll(unit, "/usr/local/bin/boardd", self)), 0o644)
	out, err := exec.Command(tool, "verify", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
