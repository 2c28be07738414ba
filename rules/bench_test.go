package rules

import "testing"

// BenchmarkPerft measures perft(4) from the modern start (152,050 leaves),
// with bulk counting at the last ply and with every leaf move made.
// Leaves per second are reported as Mleaves/s.
func BenchmarkPerft(b *testing.B) {
	for _, bc := range []struct {
		name string
		bulk bool
	}{{"bulk", true}, {"make-every-leaf", false}} {
		b.Run(bc.name, func(b *testing.B) {
			v := teams(b)
			p, _ := ParseFEN4(v, v.Start)
			var leaves uint64
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				leaves += p.Perft(4, bc.bulk)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

// BenchmarkPerftDeep measures perft(5) from the modern start (3,452,310
// leaves, bulk-counted), whose last ply is closer in kind to the nodes of
// boardd perft --depth 7 than BenchmarkPerft's; its profile is the one
// worth reading for the hot path.
func BenchmarkPerftDeep(b *testing.B) {
	v := teams(b)
	p, _ := ParseFEN4(v, v.Start)
	var leaves uint64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		leaves += p.Perft(5, true)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// BenchmarkPerftMidgame runs perft(3) over the 20 reference positions
// (castling, en passant, promotions, checks), bulk-counted.
func BenchmarkPerftMidgame(b *testing.B) {
	v := teams(b)
	var ps []*Position
	for _, r := range loadPerftTSV(&testing.T{}) {
		p, err := ParseFEN4(v, r.fen)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	var leaves uint64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, p := range ps {
			leaves += p.Perft(3, true)
		}
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// BenchmarkLegalMoves generates the legal moves of each of the 20
// reference positions into a reused buffer (ns/op is per position).
func BenchmarkLegalMoves(b *testing.B) {
	v := teams(b)
	var ps []*Position
	for _, r := range loadPerftTSV(&testing.T{}) {
		p, _ := ParseFEN4(v, r.fen)
		ps = append(ps, p)
	}
	buf := make([]Move, 0, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = ps[i%len(ps)].LegalMoves(buf[:0])
	}
}

// BenchmarkCopyMake is perft(4) from the start with copy-make (copy the
// position, make the move on the copy) instead of make/unmake, bulk-counted
// like BenchmarkPerft/bulk, to compare the two designs; the engine uses
// make/unmake.
func BenchmarkCopyMake(b *testing.B) {
	v := teams(b)
	p, _ := ParseFEN4(v, v.Start)
	var leaves uint64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		leaves += copyMakePerft(p, 4)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

func copyMakePerft(p *Position, depth int) uint64 {
	var buf [256]Move
	if depth == 1 {
		return uint64(p.CountLegal(buf[:0]))
	}
	moves := p.LegalMoves(buf[:0])
	var n uint64
	for _, m := range moves {
		q := *p
		u := q.Make(m)
		if u.kingCap {
			n++
			continue
		}
		n += copyMakePerft(&q, depth-1)
	}
	return n
}
