package rules

import "testing"

func TestPerftStartQuick(t *testing.T) {
	for _, tc := range []struct {
		variant, start string
		want           []uint64
	}{
		{"teams", "modern", []uint64{20, 395, 7800, 152050}},
		{"teams", "classic", []uint64{20, 399, 7960, 158402}},
	} {
		v, err := NewVariant(tc.variant, tc.start)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseFEN4(v, v.Start)
		if err != nil {
			t.Fatal(err)
		}
		for d, w := range tc.want {
			if got := p.Perft(d+1, true); got != w {
				t.Errorf("%s %s perft(%d) = %d, want %d", tc.variant, tc.start, d+1, got, w)
			}
		}
	}
}
