package main

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"boardd/referee"
	"boardd/sensors"
)

// metrics counts what /metrics reports (Prometheus text format 0.0.4).
type metrics struct {
	start                              time.Time
	moves, illegal, outOfTurn, ambigu  atomic.Uint64
	games, takebacks, faults, sensorEv atomic.Uint64
	scanErrors                         atomic.Uint64
}

func newMetrics() *metrics { return &metrics{start: time.Now()} }

// message counts a message of the board's stream (a Live sink).
func (m *metrics) message(msg referee.Message) error {
	switch msg.Kind {
	case referee.MsgMove:
		m.moves.Add(1)
	case referee.MsgIllegal:
		m.illegal.Add(1)
	case referee.MsgOutOfTurn:
		m.outOfTurn.Add(1)
	case referee.MsgAmbiguous:
		m.ambigu.Add(1)
	case referee.MsgGameStart:
		m.games.Add(1)
	case referee.MsgTakeback:
		m.takebacks.Add(1)
	}
	return nil
}

// sensorEvent counts a debounced switch event.
func (m *metrics) sensorEvent(e sensors.Event) {
	switch e.Kind {
	case sensors.Fault:
		m.faults.Add(1)
	case sensors.Lift, sensors.Place:
		m.sensorEv.Add(1)
	}
}

func (m *metrics) handler(d *boardDaemon) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		out := func(name, kind, help string, v any) {
			fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %v\n", name, help, name, kind, name, v)
		}
		up := time.Since(m.start).Seconds()
		out("boardd_uptime_seconds", "gauge", "Seconds since the daemon started.", fmt.Sprintf("%.0f", up))
		if d.scanner != nil {
			scans := d.scanner.Scans()
			out("boardd_scans_total", "counter", "Switch scans completed.", scans)
			out("boardd_scan_rate_hz", "gauge", "Average scans per second since start.", fmt.Sprintf("%.1f", float64(scans)/max(up, 1)))
			out("boardd_debounce_rejections_total", "counter", "Raw switch changes that did not last the debounce.", d.scanner.Rejected())
			out("boardd_sensor_faults", "gauge", "Switches marked faulty now.", d.scanner.Faults().Len())
			unreadable, _ := d.scanner.Unreadable()
			out("boardd_switches_unreadable", "gauge", "1 while the switches cannot be read (a broken 74HC165 chain).", map[bool]int{true: 1}[unreadable])
		}
		out("boardd_sensor_events_total", "counter", "Debounced lifts and places.", m.sensorEv.Load())
		out("boardd_sensor_faults_total", "counter", "Switch faults raised.", m.faults.Load())
		out("boardd_scan_errors_total", "counter", "Scans that failed (the driver is retried).", m.scanErrors.Load())
		out("boardd_games_total", "counter", "Games started.", m.games.Load())
		out("boardd_moves_total", "counter", "Moves played on the board.", m.moves.Load())
		out("boardd_illegal_total", "counter", "Board positions no legal move explained.", m.illegal.Load())
		out("boardd_out_of_turn_total", "counter", "Moves by the wrong seat.", m.outOfTurn.Load())
		out("boardd_ambiguous_total", "counter", "Board positions more than one move explained.", m.ambigu.Load())
		out("boardd_takebacks_total", "counter", "Turns taken back.", m.takebacks.Load())
		if d.live != nil {
			paused := 0
			if d.live.State().Status == "paused" {
				paused = 1
			}
			out("boardd_storage_paused", "gauge", "1 while the board is paused because its disk cannot be written.", paused)
		}
		if d.mirror != nil {
			s := d.mirror.Stats()
			connected := 0
			if s.Connected {
				connected = 1
			}
			out("boardd_mqtt_connected", "gauge", "1 while the MQTT connection is up.", connected)
			out("boardd_mqtt_queue_depth", "gauge", "Events not yet acknowledged by the broker.", s.Queue)
			out("boardd_mqtt_published_total", "counter", "Events acknowledged by the broker.", s.Published)
			out("boardd_mqtt_reconnects_total", "counter", "MQTT reconnections.", s.Reconnects)
		}
		if d.broker != nil {
			a := d.broker.AuthCounts()
			out("boardd_broker_auth_failed_total", "counter", "CONNECTs to the embedded broker with a wrong user name or password.", a.Failed)
			out("boardd_broker_auth_refused_total", "counter", "CONNECTs refused unchecked: the address failed too recently.", a.Refused)
		}
		if d.webSrv != nil {
			s := d.webSrv.Stats()
			out("boardd_web_event_streams", "gauge", "Event streams open now.", s.Streams)
			out("boardd_web_logins_failed_total", "counter", "Web logins with a wrong password.", s.Logins.Failed)
			out("boardd_web_logins_refused_total", "counter", "Web logins refused unchecked: the address failed too recently.", s.Logins.Refused)
		}
	})
}
