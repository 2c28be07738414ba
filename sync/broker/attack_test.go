package broker

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/packets"
)

var mqttAttack = flag.Duration("mqtt-attack", 0, "measure password guessing against the embedded broker for this long (for example 60s); the figures go in docs/performance.md")

// TestMQTTGuessing is a measurement, not a check: raw CONNECTs with wrong
// passwords from 8 loopback addresses, 4 connections each, as fast as the
// broker answers.
func TestMQTTGuessing(t *testing.T) {
	if *mqttAttack == 0 {
		t.Skip("a measurement: run with -mqtt-attack=60s")
	}
	b := start(t, Config{})
	ctx, stop := context.WithTimeout(context.Background(), *mqttAttack)
	defer stop()
	var sent atomic.Int64
	var wg sync.WaitGroup
	for a := 2; a <= 9; a++ {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(fmt.Sprintf("127.0.0.%d", a))}, Timeout: time.Second}
		for th := range 4 {
			wg.Go(func() {
				for i := 0; ctx.Err() == nil; i++ {
					conn, err := d.DialContext(ctx, "tcp", b.Addr())
					if err != nil {
						continue
					}
					pk := packets.Packet{
						FixedHeader:     packets.FixedHeader{Type: packets.Connect},
						ProtocolVersion: 4,
						Connect: packets.ConnectParams{
							ProtocolName: []byte("MQTT"), Clean: true, Keepalive: 30,
							ClientIdentifier: fmt.Sprintf("guess-%d-%d", a, th),
							UsernameFlag:     true, Username: []byte("board"),
							PasswordFlag: true, Password: fmt.Appendf(nil, "guess-%d", i),
						},
					}
					var buf bytes.Buffer
					pk.ConnectEncode(&buf)
					conn.Write(buf.Bytes())
					conn.SetReadDeadline(time.Now().Add(time.Second))
					conn.Read(make([]byte, 4))
					conn.Close()
					sent.Add(1)
				}
			})
		}
	}
	wg.Wait()
	n := b.auth.failures.Counts()
	t.Logf("%v: %d wrong CONNECTs sent from 8 addresses, %d checked = %.1f guesses/min (%d refused unchecked)",
		*mqttAttack, sent.Load(), n.Failed, float64(n.Failed)/mqttAttack.Minutes(), n.Refused)
}
