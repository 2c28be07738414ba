package mqtt

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"boardd/referee"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// benchSubscriber connects a reader to the events of board b1 and sends
// each Seq it receives to ch.
func benchSubscriber(b *testing.B, url string, ch chan<- uint64) paho.Client {
	opts, err := ClientOptions(url, readerUser.Name, readerUser.Password, TLS{})
	if err != nil {
		b.Fatal(err)
	}
	c := paho.NewClient(opts.SetClientID(fmt.Sprintf("bench-%d", clientSeq.Add(1))))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		b.Fatalf("connect: %v", tok.Error())
	}
	tok := c.Subscribe(Topic("", "b1", TopicEvents), 1, func(_ paho.Client, msg paho.Message) {
		var m referee.Message
		if json.Unmarshal(msg.Payload(), &m) == nil {
			ch <- m.Seq
		}
	})
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		b.Fatalf("subscribe: %v", tok.Error())
	}
	b.Cleanup(func() { c.Disconnect(0) })
	return c
}

// reportLatency reports the median and 99th percentile of ds.
func reportLatency(b *testing.B, ds []time.Duration) {
	slices.Sort(ds)
	q := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) }
	b.ReportMetric(q(0.50), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
}

// BenchmarkEventDelivery measures one message from the board's stream,
// through the Mirror (publish, wait for PUBACK) and the embedded broker,
// to a subscriber, all over loopback.
func BenchmarkEventDelivery(b *testing.B) {
	e := newEmbedded(b)
	board := newFakeBoard("b1")
	got := make(chan uint64, 16)
	benchSubscriber(b, e.url(), got)
	startMirror(b, e.url(), board, "b1")
	ds := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m := board.emit(referee.MsgMove, "move")
		for seq := range got {
			if seq == m.Seq {
				break
			}
		}
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	reportLatency(b, ds)
}

// BenchmarkFanout50 measures one message reaching all of 50 subscribers
// of the board's events through the embedded broker.
func BenchmarkFanout50(b *testing.B) {
	const subscribers = 50
	e := newEmbedded(b)
	board := newFakeBoard("b1")
	chans := make([]chan uint64, subscribers)
	for i := range chans {
		chans[i] = make(chan uint64, 16)
		benchSubscriber(b, e.url(), chans[i])
	}
	startMirror(b, e.url(), board, "b1")
	ds := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m := board.emit(referee.MsgMove, "move")
		var wg sync.WaitGroup
		for _, ch := range chans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for seq := range ch {
					if seq == m.Seq {
						return
					}
				}
			}()
		}
		wg.Wait()
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	reportLatency(b, ds)
}
