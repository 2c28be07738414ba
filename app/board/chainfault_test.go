package board

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"boardd/configs"
	"boardd/referee"
	"boardd/sensors/sim"
)

// The whole daemon with switches that stop reading (the simulated board's
// break, as a cut 74HC165 chain): one sensor_fault on the stream, the
// web state's sensor_fault and the whole board in the fault colour; mended,
// one sensor_ok and the board as before.
func TestRunRaisesAndClearsAnUnreadableChain(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "127.0.0.1:0"
	d, err := Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	waitFor := func(what string, within time.Duration, ok func(referee.State) bool) {
		t.Helper()
		for end := time.Now().Add(within); !ok(d.Live.State()); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%s: not within %v", what, within)
			}
		}
	}
	webState := func() referee.State {
		t.Helper()
		res, err := http.Get("http://" + d.WebAddr + "/api/state")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var st referee.State
		if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st
	}

	sim.Step{Op: sim.OpBreak}.Apply(d.SimBoard, nil)
	waitFor("the sensor fault", 10*time.Second, func(st referee.State) bool { return st.SensorFault != "" })
	if st := webState(); !strings.Contains(st.SensorFault, "cannot read its switches") || !strings.Contains(st.SensorFault, "script said break") {
		t.Errorf("web state's sensor_fault %q", st.SensorFault)
	}
	if lit := d.Live.Lights().Squares; len(lit) != 160 || lit["h1"] != "#00c8c8" {
		t.Errorf("%d squares lit, h1 %q: want the whole board in the fault colour", len(lit), lit["h1"])
	}

	if m := get(t, "http://"+d.WebAddr+"/metrics"); !strings.Contains(m, "\nboardd_switches_unreadable 1\n") {
		t.Errorf("metrics while blind:\n%s", m)
	}

	sim.Step{Op: sim.OpMend}.Apply(d.SimBoard, nil)
	waitFor("the fault cleared", 10*time.Second, func(st referee.State) bool { return st.SensorFault == "" })
	if st := webState(); st.SensorFault != "" || st.Status != "playing" {
		t.Errorf("after mending: status %s, sensor_fault %q", st.Status, st.SensorFault)
	}
	if m := get(t, "http://"+d.WebAddr+"/metrics"); !strings.Contains(m, "\nboardd_switches_unreadable 0\n") {
		t.Errorf("metrics after mending:\n%s", m)
	}
	backlog, _, cancel, err := d.Live.Subscribe(1)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	var kinds []string
	for _, m := range backlog {
		if m.Kind == referee.MsgSensorFault || m.Kind == referee.MsgSensorOK {
			kinds = append(kinds, m.Kind)
		}
	}
	if strings.Join(kinds, " ") != "sensor_fault sensor_ok" {
		t.Errorf("fault messages %v, want one sensor_fault and one sensor_ok", kinds)
	}
}

// get answers a GET's body.
func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}
