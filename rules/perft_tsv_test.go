package rules

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftRow struct {
	name, fen string
	counts    []uint64
}

func loadPerftTSV(t *testing.T) []perftRow {
	t.Helper()
	f, err := os.Open("testdata/perft-teams.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 {
			t.Fatalf("bad row %q", sc.Text())
		}
		r := perftRow{name: cols[0], fen: cols[1]}
		for _, c := range cols[2:6] {
			n, err := strconv.ParseUint(c, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			r.counts = append(r.counts, n)
		}
		rows = append(rows, r)
	}
	if len(rows) != 20 {
		t.Fatalf("read %d rows, want 20", len(rows))
	}
	return rows
}

// TestPerftReferencePositions pins every row of the reference table
// (Teams rules, 20 random positions with castling, en passant, promotion
// and checks) at depths 1-3, and depth 4 unless -short.
func TestPerftReferencePositions(t *testing.T) {
	v, err := NewTeams("modern")
	if err != nil {
		t.Fatal(err)
	}
	maxDepth := 4
	if testing.Short() {
		maxDepth = 3
	}
	for _, r := range loadPerftTSV(t) {
		t.Run(r.name, func(t *testing.T) {
			p, err := ParseFEN4(v, r.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d := 1; d <= maxDepth; d++ {
				if got := p.Perft(d, true); got != r.counts[d-1] {
					t.Errorf("perft(%d) = %d, want %d", d, got, r.counts[d-1])
				}
			}
		})
	}
}
