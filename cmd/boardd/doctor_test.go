package main

import (
	"bytes"
	"strings"
	"testing"
)

// boardd doctor --root on the fixture trees: the Pi 4 passes, the Pi 3
// fails with the config.txt lines to add.
func TestDoctorCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runDoctor([]string{"--root", "../../testdata/doctor/pi4"}, &out, &errb); err != nil {
		t.Fatalf("pi4: %v\n%s", err, out.String())
	}
	if !strings.HasPrefix(out.String(), "ok    model    Raspberry Pi 4 Model B Rev 1.4 (Pi 4)\n") {
		t.Errorf("pi4 output:\n%s", out.String())
	}
	out.Reset()
	err := runDoctor([]string{"--root", "../../testdata/doctor/pi3"}, &out, &errb)
	if err == nil || err.Error() != "2 check(s) failed: apply the fixes above and run boardd doctor again" {
		t.Errorf("pi3: %v", err)
	}
	if !strings.Contains(out.String(), "fix: add the line `core_freq=250` to /boot/config.txt, then run `sudo reboot`") {
		t.Errorf("pi3 output:\n%s", out.String())
	}
}

// The doctor refuses what boardd run and config check refuse (issue 28:
// one validation path), a time control beyond the dialog's bounds too.
func TestDoctorChecksTheConfigAsRunDoes(t *testing.T) {
	dir, write := fileWriter(t)
	path := write("boardd.yaml", "state_dir: "+dir+"/state\ngame:\n  clock: {base: 25h}\n")
	var out, errb bytes.Buffer
	runDoctor([]string{"--config", path}, &out, &errb)
	if !strings.Contains(out.String(), "FAIL  config   "+path+": line 3: game.clock: the base time 25h0m0s") {
		t.Errorf("doctor on a 25-hour clock:\n%s", out.String())
	}
}
