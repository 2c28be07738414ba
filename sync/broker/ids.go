package broker

import (
	"sync"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// idGuard works around a mochi-mqtt v2.7.9 bug. mochi keeps one table of
// packet ids per client for both directions, though MQTT gives each
// direction its own ids. So when a client's SUBSCRIBE or UNSUBSCRIBE
// carries the id of a QoS 1 message the broker has in flight to that
// client, mochi refuses it with 0x91 "packet identifier in use", and a
// client's QoS 1 PUBLISH with such an id erases the broker's record of its
// own message. Both clients and brokers count ids up from 1, so a display
// that subscribes to a few topics one after another while retained
// messages pour in hits this at once.
//
// The guard moves the broker's colliding in-flight message aside while
// mochi handles the client's packet and puts it back afterwards. A
// client's packets are handled one at a time, so its acknowledgement of
// the message cannot arrive in between.
type idGuard struct {
	mqtt.HookBase
	mu    sync.Mutex
	aside map[*mqtt.Client]packets.Packet
}

func newIDGuard() *idGuard { return &idGuard{aside: map[*mqtt.Client]packets.Packet{}} }

// ID implements mqtt.Hook.
func (g *idGuard) ID() string { return "boardd-packet-ids" }

// Provides implements mqtt.Hook.
func (g *idGuard) Provides(b byte) bool {
	return b == mqtt.OnPacketRead || b == mqtt.OnPacketProcessed || b == mqtt.OnDisconnect
}

// OnPacketRead moves a colliding in-flight message aside.
func (g *idGuard) OnPacketRead(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	switch {
	case pk.FixedHeader.Type == packets.Subscribe, pk.FixedHeader.Type == packets.Unsubscribe:
	case pk.FixedHeader.Type == packets.Publish && pk.FixedHeader.Qos == 1:
	default:
		return pk, nil
	}
	out, ok := cl.State.Inflight.Get(pk.PacketID)
	if !ok || out.FixedHeader.Type != packets.Publish {
		return pk, nil // free, or inbound QoS 2 state that mochi handles itself
	}
	cl.State.Inflight.Delete(pk.PacketID)
	g.mu.Lock()
	g.aside[cl] = out
	g.mu.Unlock()
	return pk, nil
}

// OnPacketProcessed puts the message back.
func (g *idGuard) OnPacketProcessed(cl *mqtt.Client, _ packets.Packet, _ error) { g.restore(cl) }

// OnDisconnect puts the message back when mochi gave up on the packet
// (a malformed one ends the connection before OnPacketProcessed), so a
// persistent session still resends it.
func (g *idGuard) OnDisconnect(cl *mqtt.Client, _ error, _ bool) { g.restore(cl) }

func (g *idGuard) restore(cl *mqtt.Client) {
	g.mu.Lock()
	out, ok := g.aside[cl]
	delete(g.aside, cl)
	g.mu.Unlock()
	if !ok {
		return
	}
	if _, taken := cl.State.Inflight.Get(out.PacketID); !taken {
		cl.State.Inflight.Set(out)
	}
}
