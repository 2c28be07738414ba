package engine

import (
	"context"
	"testing"

	"boardd/rules"
)

// BenchmarkSearch searches fixed depths from the start of Teams and FFA and
// reports the search speed in nodes per second (make + evaluation +
// legal-move generation per node).
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct {
		variant string
		depth   int
	}{{"teams", 5}, {"ffa", 5}} {
		b.Run(c.variant, func(b *testing.B) {
			v := loadVariant(b, c.variant)
			g, err := rules.NewGame(v, "")
			if err != nil {
				b.Fatal(err)
			}
			e := New(Options{Level: 5, Depth: c.depth, NoTimeLimit: true, HashMB: 16})
			var nodes int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.tt.clear()
				r, err := e.Think(context.Background(), g)
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
