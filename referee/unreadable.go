package referee

import (
	"boardd/leds"
	"boardd/rules"
	"boardd/sensors"
)

// This file is the board's answer to switches it cannot read (the
// scanner's Unreadable fault: a broken 74HC165 chain, a dead I²C bus):
// the players are told once, the board shows it, the clocks stop, and it
// all clears once the switches read well again. The scanner holds the
// fault through flicker, so each transition is one message; the scans of
// a flickering chain that do read well are genuine (their check byte
// passed), so a move they show is still played, with the clocks held.

// switchesUnreadable handles the scanner's Unreadable fault: one
// sensor_fault message with no square, State.SensorFault, the whole board
// in Palette.Fault, the running clock stopped.
func (l *Live) switchesUnreadable(e sensors.Event) {
	if l.unreadable != "" {
		return
	}
	why := "the switch hardware does not answer"
	if e.Err != nil {
		why = e.Err.Error()
	}
	l.unreadable = "the board cannot read its switches, so moves may not be seen and the clocks are stopped; it goes on by itself once they read well again (" + why + ")"
	l.holdClockWhileBlind()
	l.log.Error("switches unreadable", "err", e.Err)
	l.emit(Message{Kind: MsgSensorFault, Text: l.unreadable})
	l.publishState()
}

// holdClockWhileBlind stops the running clock while the switches cannot
// be read: after the fault begins, and after a move read in a good scan
// of a flickering chain (which starts the next seat's clock).
func (l *Live) holdClockWhileBlind() {
	if l.unreadable != "" && l.clocks != nil && l.clocks.Running() != rules.NoSeat && l.storeErr == nil {
		l.clocks.Pause(l.cfg.Now())
		l.blindHeld = true
	}
}

// switchesRestored ends the Unreadable fault: one sensor_ok message, the
// clock that was stopped runs again.
func (l *Live) switchesRestored() {
	if l.unreadable == "" {
		return
	}
	l.unreadable = ""
	if _, over := l.ref.Game().Result(); l.blindHeld && !over {
		if l.storeErr != nil {
			l.clockHeld = true // the storage pause restarts it
		} else {
			l.clocks.Start(l.ref.Game().Turn(), l.cfg.Now())
		}
	}
	l.blindHeld = false
	l.log.Info("switches read well again")
	l.emit(Message{Kind: MsgSensorOK, Text: "the switches read well again: the game goes on"})
	l.publishState()
}

// showUnreadable overlays the Unreadable fault on a snapshot and its LED
// frame (from publishState): every square in Palette.Fault.
func (l *Live) showUnreadable(st *State, f *leds.Frame) {
	if l.unreadable == "" {
		return
	}
	st.SensorFault = l.unreadable
	for _, q := range l.ref.Game().Variant().Geometry.Playable.Squares() {
		f.Set(q, l.ref.Palette.Fault)
	}
}
