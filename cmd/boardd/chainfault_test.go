package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"boardd/configs"
	"boardd/referee"
	"boardd/sensors"
	"boardd/sensors/hc165"
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
	d, err := startDaemon(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	waitFor := func(what string, within time.Duration, ok func(referee.State) bool) {
		t.Helper()
		for end := time.Now().Add(within); !ok(d.live.State()); time.Sleep(20 * time.Millisecond) {
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

	sim.Step{Op: sim.OpBreak}.Apply(d.simBoard, nil)
	waitFor("the sensor fault", 10*time.Second, func(st referee.State) bool { return st.SensorFault != "" })
	if st := webState(); !strings.Contains(st.SensorFault, "cannot read its switches") || !strings.Contains(st.SensorFault, "script said break") {
		t.Errorf("web state's sensor_fault %q", st.SensorFault)
	}
	if lit := d.live.Lights().Squares; len(lit) != 160 || lit["h1"] != "#00c8c8" {
		t.Errorf("%d squares lit, h1 %q: want the whole board in the fault colour", len(lit), lit["h1"])
	}

	if m := get(t, "http://"+d.WebAddr+"/metrics"); !strings.Contains(m, "\nboardd_switches_unreadable 1\n") {
		t.Errorf("metrics while blind:\n%s", m)
	}

	sim.Step{Op: sim.OpMend}.Apply(d.simBoard, nil)
	waitFor("the fault cleared", 10*time.Second, func(st referee.State) bool { return st.SensorFault == "" })
	if st := webState(); st.SensorFault != "" || st.Status != "playing" {
		t.Errorf("after mending: status %s, sensor_fault %q", st.Status, st.SensorFault)
	}
	if m := get(t, "http://"+d.WebAddr+"/metrics"); !strings.Contains(m, "\nboardd_switches_unreadable 0\n") {
		t.Errorf("metrics after mending:\n%s", m)
	}
	backlog, _, cancel, err := d.live.Subscribe(1)
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

// flakySource fails every third read with a chain error.
type flakySource struct{ n int }

func (s *flakySource) Bits() int { return 160 }
func (s *flakySource) Read(*sensors.Frame) error {
	s.n++
	if s.n%3 == 0 {
		return &hc165.ChainError{Chips: 20, Got: 0xff, From: 10}
	}
	return nil
}

// boardd doctor's live check reads many times, so a flickering chain
// fails it too, and the error still carries the chain's hint.
func TestDoctorReadsTheChainRepeatedly(t *testing.T) {
	err := readRepeatedly(&flakySource{}, 30, 0)
	var ce *hc165.ChainError
	if err == nil || !strings.HasPrefix(err.Error(), "10 of 30 reads failed, the first: hc165: chain check failed") || !errors.As(err, &ce) || ce.Chip() != 9 {
		t.Errorf("flickering chain: %v", err)
	}
	if err := readRepeatedly(&flakySource{}, 2, 0); err != nil {
		t.Errorf("two good reads: %v", err)
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
