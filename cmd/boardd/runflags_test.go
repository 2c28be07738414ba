package main

import (
	"flag"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/configs"
)

func TestRunFlagsOverrideTheConfig(t *testing.T) {
	t.Setenv("STATE_DIRECTORY", "")
	for _, tc := range []struct {
		args   []string
		check  func(configs.Daemon) bool
		errHas string
	}{
		{args: []string{"--web", "127.0.0.1:9090", "--mqtt", "127.0.0.1:1999", "--state", "club-state", "--variant", "ffa"},
			check: func(c configs.Daemon) bool {
				return c.Web.Listen == "127.0.0.1:9090" && c.MQTT.Embedded.Listen == "127.0.0.1:1999" && c.StateDir == "club-state" && c.Game.Variant == "ffa"
			}},
		{args: []string{"--mqtt", "off", "--web", "off"}, check: func(c configs.Daemon) bool { return c.MQTT.Disabled && c.Web.Listen == "off" }},
		{args: []string{}, check: func(c configs.Daemon) bool { return c.Web.Listen == "127.0.0.1:8080" }},
		{args: []string{"--variant", "fischer"}, errHas: "--variant fischer"},
		{args: []string{"--mqtt", "nowhere"}, errHas: "mqtt.embedded.listen"},
		// The flags go through the checks of the file (issue 28: a state
		// directory config check refused was taken from --state).
		{args: []string{"--state", "/proc/boardd"}, errHas: `state_dir: "/proc/boardd" is on /proc, the kernel's proc file system`},
		{args: []string{"--state", "/sys/boardd"}, errHas: "(from --board, --web, --mqtt, --state, --variant, --hub or --hub-ca/--hub-cert/--hub-key)"},
		{args: []string{"--board", "club-2"}, check: func(c configs.Daemon) bool { return c.Board == "club-2" }},
		{args: []string{"--board", "club/2"}, errHas: `board: "club/2": want a short id`},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		o := runFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		cfg := configs.Defaults()
		err := o.apply(&cfg)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%v: error %v, want one naming %q", tc.args, err, tc.errHas)
			}
			continue
		}
		if err != nil || !tc.check(cfg) {
			t.Errorf("%v: %v, config %+v", tc.args, err, cfg)
		}
	}
}

// A busy port stops boardd run before it writes or logs anything, and the
// error names the flag and the config key.
func TestRunReportsABusyPortFirst(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	state := filepath.Join(t.TempDir(), "state")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--web", busy.Addr().String(), "--mqtt", "off"}, "web.listen " + busy.Addr().String() + ": the address is in use"},
		{[]string{"--web", "off", "--mqtt", busy.Addr().String()}, "choose another address with --mqtt ADDR or the config key mqtt.embedded.listen"},
	} {
		code, out, errOut := runCmd(append([]string{"run", "--stdin=false", "--draw=false", "--state", state}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
		if _, err := os.Stat(state); err == nil {
			t.Errorf("%v: the state directory was created before the port was checked", tc.args)
		}
	}
}
