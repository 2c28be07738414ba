package broker

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mochi-mqtt/server/v2/packets"
)

var mqttAttack = flag.Duration("mqtt-attack", 0, "measure password guessing against the embedded broker for this long (for example 60s); the figures go in the README")

// countWrong counts the wrong passwords the broker checked.
type countWrong struct {
	slog.Handler
	n *atomic.Int64
}

func (c countWrong) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "mqtt broker: wrong user name or password" {
		c.n.Add(1)
	}
	return nil
}

func (c countWrong) Enabled(context.Context, slog.Level) bool { return true }

// TestMQTTGuessing is a measurement, not a check: raw CONNECTs with wrong
// passwords from 8 loopback addresses, 4 connections each, as fast as the
// broker answers.
func TestMQTTGuessing(t *testing.T) {
	if *mqttAttack == 0 {
		t.Skip("a measurement: run with -mqtt-attack=60s")
	}
	var checked atomic.Int64
	b := start(t, Config{Log: slog.New(countWrong{slog.DiscardHandler, &checked})})
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
	t.Logf("%v: %d wrong CONNECTs sent from 8 addresses, %d checked = %.1f guesses/min",
		*mqttAttack, sent.Load(), checked.Load(), float64(checked.Load())/mqttAttack.Minutes())
}
