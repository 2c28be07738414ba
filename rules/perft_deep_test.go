package rules

import (
	"flag"
	"testing"
)

var deepPerft = flag.Bool("perft.deep", false, "also run the long perft depths (start positions to depth 6)")

// TestPerftDeep pins the start-position counts of the reference table at
// depths 5 and 6 for both arrays and both modes. It runs only with
// -perft.deep (about a minute on two cores).
func TestPerftDeep(t *testing.T) {
	if !*deepPerft {
		t.Skip("long perft depths: run with go test ./rules -run PerftDeep -perft.deep")
	}
	tests := []struct {
		variant, start string
		d5, d6         uint64
	}{
		{"teams", "modern", 3452310, 77430383},
		{"teams", "classic", 3730168, 87378518},
		{"ffa", "modern", 3452310, 77430383},
		{"ffa", "classic", 3730168, 87378518},
	}
	for _, tt := range tests {
		t.Run(tt.variant+"/"+tt.start, func(t *testing.T) {
			v, err := NewVariant(tt.variant, tt.start)
			if err != nil {
				t.Fatal(err)
			}
			p, _ := ParseFEN4(v, v.Start)
			if got := p.Perft(5, true); got != tt.d5 {
				t.Errorf("perft(5) = %d, want %d", got, tt.d5)
			}
			if got := p.Perft(6, true); got != tt.d6 {
				t.Errorf("perft(6) = %d, want %d", got, tt.d6)
			}
		})
	}
}

// TestPerftFFAMatchesTeamsEarly: "FFA equals Teams through depth 6" from
// the start; the default run checks depths 1-4 of both arrays in FFA.
func TestPerftFFAStart(t *testing.T) {
	for _, tc := range []struct {
		start string
		want  []uint64
	}{
		{"modern", []uint64{20, 395, 7800, 152050}},
		{"classic", []uint64{20, 399, 7960, 158402}},
	} {
		v, _ := NewFFA(tc.start)
		p, _ := ParseFEN4(v, v.Start)
		for d, w := range tc.want {
			if got := p.Perft(d+1, d%2 == 0); got != w {
				t.Errorf("ffa %s perft(%d) = %d, want %d", tc.start, d+1, got, w)
			}
		}
	}
}

// The other chess.com presets (Teams) from the reference table, depth 1-4:
// kings per seat R/B/Y/G with the queen on the other central square.
func TestPerftPresets(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want []uint64
	}{
		{"by (4PCb): kings h1 a7 h14 n7", presetFEN("h1", "a7", "h14", "n7"), []uint64{20, 395, 7880, 155226}},
		{"byg (4PCn): kings h1 a7 h14 n8", presetFEN("h1", "a7", "h14", "n8"), []uint64{20, 395, 7880, 155210}},
		{"rg (4PCrg): kings g1 a8 g14 n8", presetFEN("g1", "a8", "g14", "n8"), []uint64{20, 395, 7880, 155226}},
	}
	v := teams(t)
	for _, tt := range tests {
		p, err := ParseFEN4(v, tt.fen)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for d, w := range tt.want {
			if got := p.Perft(d+1, true); got != w {
				t.Errorf("%s: perft(%d) = %d, want %d", tt.name, d+1, got, w)
			}
		}
	}
}

// presetFEN places each seat's king on the given square of its central
// pair and the queen on the other.
func presetFEN(r, b, y, g string) string {
	// row returns the pieces for the pair's first and second square.
	row := func(king, first string) (string, string) {
		if king == first {
			return "K", "Q"
		}
		return "Q", "K"
	}
	r1, r2 := row(r, "h1")  // h1, g1
	b1, b2 := row(b, "a7")  // a7, a8
	y1, y2 := row(y, "h14") // h14, g14
	g1, g2 := row(g, "n7")  // n7, n8
	return "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-" +
		"x,x,x,yR,yN,yB,y" + y2 + ",y" + y1 + ",yB,yN,yR,x,x,x/" +
		"x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/" +
		"bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/" +
		"b" + b2 + ",bP,10,gP,g" + g2 + "/" +
		"b" + b1 + ",bP,10,gP,g" + g1 + "/" +
		"bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/" +
		"x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/" +
		"x,x,x,rR,rN,rB,r" + r2 + ",r" + r1 + ",rB,rN,rR,x,x,x"
}
