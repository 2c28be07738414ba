package pgn4

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestZZHangHunt(t *testing.T) {
	if os.Getenv("HANGHUNT") == "" {
		t.Skip()
	}
	var seeds []string
	for _, d := range []string{"ffa", "teams", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "games", d, "*.pgn4"))
		for _, p := range files {
			data, _ := os.ReadFile(p)
			seeds = append(seeds, string(data))
		}
	}
	alpha := "[]{}() .\n\"\\#+-xRTSO=0123456789abcdefghijklmnopQKBND%clk:;\xef\xbb\xbf\r\t"
	rng := rand.New(rand.NewSource(1))
	deadline := time.Now().Add(20 * time.Second)
	n := 0
	for time.Now().Before(deadline) {
		b := []byte(seeds[rng.Intn(len(seeds))])
		if rng.Intn(2) == 0 && len(b) > 200 {
			i := rng.Intn(len(b) - 100)
			b = b[i : i+rng.Intn(100)]
		}
		for k := rng.Intn(6); k >= 0; k-- {
			if len(b) == 0 {
				b = append(b, alpha[rng.Intn(len(alpha))])
				continue
			}
			i := rng.Intn(len(b))
			switch rng.Intn(3) {
			case 0:
				b[i] = alpha[rng.Intn(len(alpha))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			case 2:
				b = append(b[:i], append([]byte{alpha[rng.Intn(len(alpha))]}, b[i:]...)...)
			}
		}
		s := string(b)
		done := make(chan struct{})
		go func() {
			defer close(done)
			games, _, err := Parse(strings.NewReader(s))
			if err != nil {
				return
			}
			for _, g := range games {
				out := g.String()
				again, _, err := Parse(strings.NewReader(out))
				if err != nil || len(again) != 1 || again[0].String() != out {
					t.Errorf("round trip: %q -> %q (%v)", s, out, err)
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			os.WriteFile("/tmp/hang/input", b, 0o644)
			t.Fatalf("hang on %q", s)
		}
		n++
	}
	t.Logf("%d inputs", n)
}
