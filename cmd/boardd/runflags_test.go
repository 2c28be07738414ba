package main

import (
	"context"
	"flag"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/daemon"

	"boardd/frontend/termview"
	"boardd/internal/testio"

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

// boardd run on a terminal draws the board, whose turn it is and the
// LEDs' colours, as boardd sim does.
func TestRunShowsTheBoardOnATerminal(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "off"
	d, err := daemon.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var out testio.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go termview.Show(ctx, d.Live, &out, true)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "Red to move") {
		if time.Now().After(deadline) {
			t.Fatalf("no board drawn:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "rK") || !strings.Contains(out.String(), " a  b  c  d ") {
		t.Errorf("no pieces drawn:\n%s", out.String())
	}
	d.SimBoard.Lift(sqr(t, "h2"))
	green := "\x1b[48;2;0;160;0m" // a destination, as the LEDs light it
	for !strings.Contains(out.String(), green) {
		if time.Now().After(deadline) {
			t.Fatalf("no destination drawn after lifting h2:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
