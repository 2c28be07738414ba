package board

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/configs"
)

// Issue 28, item 9: generated passwords are printed at the start that
// makes them, never again (the output of later starts goes to the
// journal); /metrics is for the owner.
func TestPasswordsPrintedOnceMetricsForOwner(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.Web.Listen = "127.0.0.1:0"
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	run := func() (string, *Daemon) {
		t.Helper()
		var out bytes.Buffer
		d, err := Start(context.Background(), cfg, &out, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), d
	}
	first, d := run()
	webPW, _ := os.ReadFile(filepath.Join(cfg.StateDir, "web-password"))
	mqttPW, _ := os.ReadFile(filepath.Join(cfg.StateDir, "mqtt-password"))
	for name, pw := range map[string][]byte{"web": webPW, "mqtt": mqttPW} {
		if p := strings.TrimSpace(string(pw)); p == "" || !strings.Contains(first, p) {
			t.Errorf("first start: the new %s password is not printed:\n%s", name, first)
		}
	}

	// /metrics: from this machine yes; from another address only logged
	// in or with the web password.
	metrics := func(from, pass string) int {
		t.Helper()
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext}}
		req, _ := http.NewRequest("GET", "http://"+d.WebAddr+"/metrics", nil)
		if pass != "" {
			req.SetBasicAuth("prometheus", pass)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		from, pass string
		want       int
	}{
		{"127.0.0.1", "", 200},
		{"127.0.0.2", "", 401},
		{"127.0.0.3", "wrong", 401},
		{"127.0.0.4", strings.TrimSpace(string(webPW)), 200},
	} {
		if got := metrics(tc.from, tc.pass); got != tc.want {
			t.Errorf("/metrics from %s with password %q: %d, want %d", tc.from, tc.pass, got, tc.want)
		}
	}
	d.Close()

	second, d2 := run()
	defer d2.Close()
	for name, pw := range map[string][]byte{"web": webPW, "mqtt": mqttPW} {
		if p := strings.TrimSpace(string(pw)); strings.Contains(second, p) {
			t.Errorf("second start printed the %s password again:\n%s", name, second)
		}
	}
	if !strings.Contains(second, filepath.Join(cfg.StateDir, "web-password")) {
		t.Errorf("second start does not say where the web password is:\n%s", second)
	}
}
