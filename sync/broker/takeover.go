package broker

import (
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// takeoverGuard works around a mochi-mqtt v2.7.9 race. When a client
// connects with the id of a connection mochi still holds (paho coming back
// after a dropped line, a collector restarted in the same process, a
// second device with the same id), mochi adds the new client to its table
// by id, and the old connection's clean-up, running at the same time,
// deletes that id from the table afterwards: the new client is then
// connected but unknown, hears no message it subscribed to, and
// Broker.Close waits for it for ever. Seen in about one test run in ten
// under the race detector.
//
// The guard ends the old connection itself, after the new client has
// authenticated and before mochi looks for the old session, and waits
// (two seconds at the most) until the old connection's clean-up has
// removed it. Only clean sessions are handled so: their state ends with
// the connection anyway. A persistent session's old connection is left
// to mochi, which does not delete it.
type takeoverGuard struct {
	mqtt.HookBase
	srv *mqtt.Server
}

// ID implements mqtt.Hook.
func (g *takeoverGuard) ID() string { return "boardd-session-takeover" }

// Provides implements mqtt.Hook.
func (g *takeoverGuard) Provides(b byte) bool { return b == mqtt.OnSessionEstablish }

// OnSessionEstablish ends an older clean-session connection with the same
// client id and waits until mochi has forgotten it.
func (g *takeoverGuard) OnSessionEstablish(cl *mqtt.Client, _ packets.Packet) {
	old, ok := g.srv.Clients.Get(cl.ID)
	if !ok || old == cl || !cleanSession(old) {
		return
	}
	_ = g.srv.DisconnectClient(old, packets.ErrSessionTakenOver) // [MQTT-3.1.4-3]
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if now, ok := g.srv.Clients.Get(cl.ID); !ok || now != old {
			return
		}
		time.Sleep(time.Millisecond)
	}
	g.srv.Log.Warn("an old connection with the same client id did not end in 2 s; mochi takes the session over", "client", cl.ID)
}

// cleanSession reports whether cl's session ends with its connection
// (MQTT 3: clean session; MQTT 5: session expiry 0), mochi's own test.
func cleanSession(cl *mqtt.Client) bool {
	if cl.Properties.ProtocolVersion == 5 {
		return cl.Properties.Props.SessionExpiryInterval == 0
	}
	return cl.Properties.Clean
}
