package mqtt

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"boardd/referee"
)

// snapshots publishes the retained state and lights: on every change the
// board signals (at most every stateInterval) and, unchanged or not, when
// kicked (after a (re)connect). It runs until the Mirror stops.
func (m *Mirror) snapshots() {
	defer m.wg.Done()
	sig, cancel := m.src.Changed()
	defer cancel()
	var last time.Time
	var retry <-chan time.Time
	for {
		force := false
		select {
		case <-m.ctx.Done():
			return
		case _, ok := <-sig:
			if !ok {
				sig = nil // the board stopped signalling; kicks still work
				continue
			}
		case <-m.kick:
			force = true
		case <-retry:
			retry = nil
		}
		if d := time.Until(last.Add(stateInterval)); d > 0 && !m.sleep(d) {
			return
		}
		select { // whatever arrived while waiting is covered by this round
		case <-m.kick:
			force = true
		default:
		}
		select {
		case <-sig:
		default:
		}
		last = time.Now()
		if !m.isOpen() {
			continue // onConnect kicks when the connection is back
		}
		if err := m.publishSnapshot(m.ctx, force); err != nil && m.ctx.Err() == nil {
			m.log.Debug("mqtt: state not published; trying again", "error", err)
			retry = time.After(time.Second)
		}
	}
}

// publishSnapshot publishes the board's state and lights, retained, when
// they changed since the last publication or when force is set.
func (m *Mirror) publishSnapshot(ctx context.Context, force bool) error {
	m.snapMu.Lock()
	defer m.snapMu.Unlock()
	st := m.src.State()
	if status := m.status(st); force || status != m.lastStatus {
		m.lastStatus = ""
		if err := m.send(ctx, m.t.status, true, []byte(status)); err != nil {
			return err
		}
		m.lastStatus = status
	}
	state, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if force || !bytes.Equal(state, m.lastState) {
		m.lastState = nil
		if err := m.send(ctx, m.t.state, true, state); err != nil {
			return err
		}
		m.lastState = state
	}
	lights, err := json.Marshal(m.src.Lights())
	if err != nil {
		return err
	}
	if force || !bytes.Equal(lights, m.lastLights) {
		m.lastLights = nil
		if err := m.send(ctx, m.t.leds, true, lights); err != nil {
			return err
		}
		m.lastLights = lights
	}
	return nil
}

// status is the status payload for the board's state: paused while it
// cannot write to its disk, sensor_fault while it cannot read its
// switches, online otherwise.
func (m *Mirror) status(st referee.State) string {
	switch {
	case st.Status == "paused":
		return StatusPaused
	case st.SensorFault != "":
		return StatusSensorFault
	}
	return StatusOnline
}
