package rules

import (
	"strings"
	"testing"
)

func teams(t testing.TB) *Variant {
	t.Helper()
	v, err := NewTeams("modern")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func ffa(t testing.TB) *Variant {
	t.Helper()
	v, err := NewFFA("modern")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The rules text's start position, written with counted corners and line
// breaks as the chess.com rules page shows it.
const rulesTextStart = `R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-
3,yR,yN,yB,yK,yQ,yB,yN,yR,3/
3,yP,yP,yP,yP,yP,yP,yP,yP,3/
14/
bR,bP,10,gP,gR/
bN,bP,10,gP,gN/
bB,bP,10,gP,gB/
bK,bP,10,gP,gQ/
bQ,bP,10,gP,gK/
bB,bP,10,gP,gB/
bN,bP,10,gP,gN/
bR,bP,10,gP,gR/
14/
3,rP,rP,rP,rP,rP,rP,rP,rP,3/
3,rR,rN,rB,rQ,rK,rB,rN,rR,3`

func TestFEN4BothCornerDialects(t *testing.T) {
	v := teams(t)
	counted, err := ParseFEN4(v, rulesTextStart)
	if err != nil {
		t.Fatal(err)
	}
	classic, err := ParseFEN4(v, StartClassic)
	if err != nil {
		t.Fatal(err)
	}
	// Same pieces, whichever dialect.
	for _, c := range v.cells {
		if counted.board[c] != classic.board[c] {
			t.Fatalf("dialects disagree on %s: %v vs %v", squareOf(int(c)), counted.board[c], classic.board[c])
		}
	}
	if !strings.Contains(counted.FEN4(), "3,yR,yN") || !strings.Contains(counted.FEN4(), "/14/") {
		t.Errorf("counted dialect not kept: %s", counted.FEN4())
	}
	if counted.Occupancy().Len() != 64 {
		t.Errorf("start occupancy = %d squares, want 64", counted.Occupancy().Len())
	}
}

func TestFEN4RoundTripReference(t *testing.T) {
	v := teams(t)
	fens := []string{StartModern, StartClassic}
	for _, r := range loadPerftTSV(t) {
		fens = append(fens, r.fen)
	}
	fens = append(fens,
		// dead pieces, points, eliminated seat, an unknown extra kept as written
		"G-0,1,0,0-0,0,0,0-0,0,0,0-12,3,40,7-17-{'enPassant':('','','',''),'royal':('d1','','',''),'lives':(1,2,3,4)}-x,x,x,yR,2,yK,2,yN,yR,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/dbR,13/14/14/dbK,12,gK/14/14/14/14/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,3,rK,4,x,x,x",
	)
	for _, f := range fens {
		p, err := ParseFEN4(v, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := p.FEN4(); got != f {
			t.Errorf("round trip changed the FEN4:\n in  %s\n out %s", f, got)
		}
	}
}

func TestFEN4Fields(t *testing.T) {
	v := teams(t)
	// p09 has two en-passant entries and mixed castling rights.
	p, err := ParseFEN4(v, "R-0,0,0,0-1,1,1,0-1,1,1,1-0,0,0,0-2-{'enPassant':('f3:f4','c5:d5','','')}-x,x,x,yR,yN,1,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yB,yP,yP,yP,yP,1,yP,x,x,x/x,x,x,1,yP,4,yP,1,x,x,x/bR,bP,9,gP,gR,1/bN,bP,10,gP,gN/bB,2,bP,8,gP,gB/bQ,bP,10,gP,gK/bK,1,bP,9,gP,gQ/bB,bP,9,gN,gP,gB/bN,2,bP,8,gP,1/bR,bP,1,rP,1,rP,6,gP,gR/x,x,x,8,x,x,x/x,x,x,1,rP,1,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x")
	if err != nil {
		t.Fatal(err)
	}
	if p.Turn() != Red || p.HalfMoveClock() != 2 {
		t.Errorf("turn %v clock %d", p.Turn(), p.HalfMoveClock())
	}
	if m, tt := p.EnPassant(Red); m.String() != "f3" || tt.String() != "f4" {
		t.Errorf("Red ep = %s:%s", m, tt)
	}
	if m, tt := p.EnPassant(Blue); m.String() != "c5" || tt.String() != "d5" {
		t.Errorf("Blue ep = %s:%s", m, tt)
	}
	if k, q := p.CanCastle(Green); k || !q {
		t.Errorf("Green castling = %v %v, want false true", k, q)
	}
	if got := p.KingSquare(Blue).String(); got != "a7" {
		t.Errorf("Blue king on %s", got)
	}
}

func TestFEN4Errors(t *testing.T) {
	v := teams(t)
	good := StartModern
	tests := []struct{ name, fen, want string }{
		{"empty", "", "empty"},
		{"few fields", "R-0,0,0,0-1,1,1,1", "fields"},
		{"bad turn", "Q" + good[1:], "turn"},
		{"three flags", strings.Replace(good, "R-0,0,0,0-", "R-0,0,0-", 1), "eliminated"},
		{"bad clock", strings.Replace(good, "0,0,0,0-0-x", "0,0,0,0-z-x", 1), "half-move"},
		{"short rank", strings.Replace(good, "bR,bP,10,gP,gR", "bR,bP,9,gP,gR", 1), "describes 13 files"},
		{"piece in corner", strings.Replace(good, "x,x,x,yR", "yQ,x,x,yR", 1), "not on the board"},
		{"x on square", strings.Replace(good, "bR,bP,10,gP,gR", "x,bP,10,gP,gR", 1), "is a square of the board"},
		{"bad piece", strings.Replace(good, "yR,yN", "yZ,yN", 1), "piece letter"},
		{"two kings", strings.Replace(good, "yQ,yB,yN,yR,x", "yK,yB,yN,yR,x", 1), "two kings"},
		{"bad ep", strings.Replace(good, "0-x,x,x,yR", "0-{'enPassant':('z9:h4','','','')}-x,x,x,yR", 1), "enPassant"},
		{"unclosed extras", strings.Replace(good, "0-x,x,x,yR", "0-{'enPassant':('','','','')-x,x,x,yR", 1), "closing"},
		{"mixed dialects", strings.Replace(good, "x,x,x,yR,yN", "3,yR,yN", 1), "mixes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFEN4(v, tt.fen)
			if err == nil {
				t.Fatalf("accepted %q", tt.fen)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func FuzzFEN4(f *testing.F) {
	f.Add(StartModern)
	f.Add(StartClassic)
	f.Add(rulesTextStart)
	f.Add("G-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-{'enPassant':('h3:h4','','','')}-14/14/14/14/14/14/14/14/14/14/14/14/14/3,rK,10")
	v, err := NewTeams("modern")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN4(v, s)
		if err != nil {
			return
		}
		// Whatever parses writes back to a FEN4 that parses to the same text.
		out := p.FEN4()
		q, err := ParseFEN4(v, out)
		if err != nil {
			t.Fatalf("re-parse of %q failed: %v", out, err)
		}
		if q.FEN4() != out {
			t.Fatalf("not stable: %q -> %q", out, q.FEN4())
		}
		p.LegalMoves(nil) // must not panic on any parsed position
	})
}

func TestParsePlacement(t *testing.T) {
	v := teams(t)
	p, err := ParsePlacement(v, Blue, "rK:h1 bK:a7 dgP:e5")
	if err != nil {
		t.Fatal(err)
	}
	if p.Turn() != Blue || p.At(sqMust("e5")) != MakePiece(Green, Pawn).WithDead() || p.KingSquare(Red).String() != "h1" {
		t.Errorf("position %s", p.FEN4())
	}
	for _, bad := range []string{"rK", "rK:a1", "rK:h1 rK:h2", "rZ:h1", "rK:h1 bQ:h1"} {
		if _, err := ParsePlacement(v, Red, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestSplitStart(t *testing.T) {
	tests := []struct{ in, array, fen string }{
		{"", "", ""},
		{"modern", "modern", ""},
		{"4PCo", "4PCo", ""},
		{StartClassic, "", StartClassic},
		{"R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-14/14", "", "R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-14/14"},
	}
	for _, tt := range tests {
		if a, f := SplitStart(tt.in); a != tt.array || f != tt.fen {
			t.Errorf("SplitStart(%.20q) = %q, %.20q; want %q, %.20q", tt.in, a, f, tt.array, tt.fen)
		}
	}
}

// "Pawns promote to 1-point queens on the 8th row" (chess.com, FFA): the
// one point must survive every way a position travels — FEN4 (written
// "rD", the letter of chess.com's "=D"), a game started from that FEN4,
// and a takeback. A queen promoted earlier and read back from FEN4 is
// worth 1 to its captor, an original queen 9.
func TestFEN4OnePointQueen(t *testing.T) {
	pieces := "rK:h1 rP:h7 bR:a8 bK:a5 yK:g14 gK:n9"
	g := newGameAt(t, ffa(t), "R", pieces)
	play(t, g, "h7-h8=D")
	fen := g.pos.FEN4()
	if !strings.Contains(fen, ",rD,") {
		t.Fatalf("FEN4 after h7-h8=D has no rD: %s", fen)
	}
	back, err := NewGame(ffa(t), fen)
	if err != nil {
		t.Fatal(err)
	}
	if back.pos.FEN4() != fen {
		t.Errorf("FEN4 round trip:\n got %s\nwant %s", back.pos.FEN4(), fen)
	}
	tests := []struct {
		name string
		g    *Game
		want int
	}{
		{"the game that promoted", g, 1},
		{"a game started from its FEN4", back, 1},
		{"an original queen", newGameAt(t, ffa(t), "B", "rK:h1 rQ:h8 bR:a8 bK:a5 yK:g14 gK:n9"), 9},
	}
	for _, tt := range tests {
		if rec := play(t, tt.g, "a8xh8"); rec.Gained[Blue] != tt.want {
			t.Errorf("%s: capturing the queen scored %d, want %d", tt.name, rec.Gained[Blue], tt.want)
		}
	}
	if err := g.Takeback(); err != nil {
		t.Fatal(err)
	}
	if g.pos.FEN4() != fen {
		t.Errorf("takeback: %s, want %s", g.pos.FEN4(), fen)
	}
	if rec := play(t, g, "a8xh8"); rec.Gained[Blue] != 1 {
		t.Errorf("after a takeback, capturing the one-point queen scored %d", rec.Gained[Blue])
	}
	// A variant whose promoted queens are full queens refuses the letter.
	_, err = NewGame(teams(t), strings.Replace(fen, "rD", "rQ", 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewGame(teams(t), fen); err == nil || !strings.Contains(err.Error(), "one-point queen (D) exists only") {
		t.Errorf("Teams read rD: %v", err)
	}
}
