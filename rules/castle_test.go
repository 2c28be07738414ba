package rules

import "testing"

// "Pieces move the same way as in regular chess and castling and en
// passant captures are also the same." Kingside is the short side (the
// rook three squares from the king): the king moves two squares toward
// the rook and the rook lands on the square the king crossed. Blue and
// Green have king and queen swapped in the modern array, so their short
// side points the other way than in the classic array.
func TestCastlingAllSeatsBothArrays(t *testing.T) {
	tests := []struct {
		start              string
		seat               Seat
		king               string
		shortTo, shortRook string // king's and rook's landing squares
		longTo, longRook   string
	}{
		{"modern", Red, "h1", "j1", "i1", "f1", "g1"},
		{"modern", Blue, "a7", "a5", "a6", "a9", "a8"},
		{"modern", Yellow, "g14", "e14", "f14", "i14", "h14"},
		{"modern", Green, "n8", "n10", "n9", "n6", "n7"},
		{"classic", Red, "h1", "j1", "i1", "f1", "g1"},
		{"classic", Blue, "a8", "a10", "a9", "a6", "a7"},
		{"classic", Yellow, "g14", "e14", "f14", "i14", "h14"},
		{"classic", Green, "n7", "n5", "n6", "n9", "n8"},
	}
	for _, tt := range tests {
		t.Run(tt.start+"/"+tt.seat.String(), func(t *testing.T) {
			v, err := NewTeams(tt.start)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParseFEN4(v, v.Start)
			if err != nil {
				t.Fatal(err)
			}
			// Clear everything between the seat's king and rooks.
			corners := v.Seats[tt.seat].RookHomes
			for _, c := range v.cells {
				q := squareOf(int(c))
				onLine := (v.along[tt.seat] == 1 && q.Rank() == corners[0].Rank()) || (v.along[tt.seat] == stride && q.File() == corners[0].File())
				pc := p.board[c]
				if onLine && pc.Seat() == tt.seat && pc.Kind() != King && pc.Kind() != Rook {
					p.board[c] = NoPiece
				}
			}
			p.rebuildLists()
			p.turn = tt.seat
			got := map[string]string{}
			for _, m := range p.LegalMoves(nil) {
				if c, short := m.IsCastle(); c {
					_, rt := m.RookSquares()
					key := "long"
					if short {
						key = "short"
					}
					if m.From().String() != tt.king {
						t.Errorf("castling from %s, want %s", m.From(), tt.king)
					}
					got[key] = m.To().String() + "/" + rt.String()
				}
			}
			if got["short"] != tt.shortTo+"/"+tt.shortRook || got["long"] != tt.longTo+"/"+tt.longRook {
				t.Errorf("castling = %v, want short %s/%s long %s/%s", got, tt.shortTo, tt.shortRook, tt.longTo, tt.longRook)
			}
			// Castle short and check the board, then undo.
			for _, m := range p.LegalMoves(nil) {
				if c, short := m.IsCastle(); c && short {
					before := p.FEN4()
					u := p.Make(m)
					if p.At(sqMust(tt.shortTo)) != MakePiece(tt.seat, King) || p.At(sqMust(tt.shortRook)) != MakePiece(tt.seat, Rook) {
						t.Errorf("after O-O: %s", p.FEN4())
					}
					if k, q := p.CanCastle(tt.seat); k || q {
						t.Error("castling rights kept after castling")
					}
					p.Unmake(m, u)
					if p.FEN4() != before {
						t.Errorf("unmake did not restore:\n%s\n%s", before, p.FEN4())
					}
				}
			}
		})
	}
}

// The king's origin, crossed and destination squares must not be
// attacked; a partner's piece does not attack (Teams).
func TestCastlingThroughAttack(t *testing.T) {
	v := teams(t)
	base := "R-0,0,0,0-1,0,0,0-1,0,0,0-0,0,0,0-0-"
	board := func(extra string) string {
		return fenOf(t, "R", "rK:h1 rR:k1 rR:d1 bK:a7 yK:g14 gK:n8 "+extra)[len("R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-"):]
	}
	tests := []struct {
		name, extra string
		short, long bool
	}{
		{"free", "", true, true},
		{"crossed square attacked by Blue", "bR:i9", false, true},
		{"destination attacked by Green", "gB:g4", false, true},
		{"king in check", "gR:h9", false, false},
		{"partner's rook is harmless", "yR:i9", true, true},
		{"long side: b-file-like square occupied", "rN:e1", true, false},
		{"long side: only the rook's crossing square attacked", "bR:e9", true, true},
	}
	for _, tt := range tests {
		p, err := ParseFEN4(v, base+board(tt.extra))
		if err != nil {
			t.Fatal(err)
		}
		short, long := false, false
		for _, m := range p.LegalMoves(nil) {
			if c, s := m.IsCastle(); c {
				if s {
					short = true
				} else {
					long = true
				}
			}
		}
		if short != tt.short || long != tt.long {
			t.Errorf("%s: short %v long %v, want %v %v", tt.name, short, long, tt.short, tt.long)
		}
	}
}
