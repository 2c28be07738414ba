package chess4pgn

import (
	"math/rand"
	"testing"

	"boardd/rules"
)

// chess4Start is Chess4's array in FEN4, written from the set-up table of
// shared/seeds/chess4-rules.txt ("the chess pieces are placed on the game
// board with all the Kings at the left of their Queens"):
//
//	White  pawns rank M (boardd 2)   K N7 = g1   Q N8 = h1
//	Silver pawns file 2 (boardd b)   K G1 = a8   Q H1 = a7
//	Black  pawns rank B (boardd 13)  K A7 = g14  Q A8 = h14
//	Gold   pawns file 13 (boardd m)  K H14 = n7  Q G14 = n8
//
// That is chess.com's classic array with Red's king and queen swapped.
const chess4Start = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-" +
	"x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/" +
	"x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/" +
	"x,x,x,8,x,x,x/" +
	"bR,bP,10,gP,gR/" +
	"bN,bP,10,gP,gN/" +
	"bB,bP,10,gP,gB/" +
	"bK,bP,10,gP,gQ/" +
	"bQ,bP,10,gP,gK/" +
	"bB,bP,10,gP,gB/" +
	"bN,bP,10,gP,gN/" +
	"bR,bP,10,gP,gR/" +
	"x,x,x,8,x,x,x/" +
	"x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/" +
	"x,x,x,rR,rN,rB,rK,rQ,rB,rN,rR,x,x,x"

// chess4Variant is a stand-in for the chess4 variant (written elsewhere):
// chess.com FFA's movement and capture rules (everyone against everyone;
// a mated player is out and its pieces stay on the board, grey, as in
// Chess4's Method 1) on Chess4's array, with promotion to any of Q, R, B, N
// so that every promotion letter is exercised, and no walking kings. Its promotion zone is
// FFA's 8th rank, not Chess4's: that does not matter for the notation.
func chess4Variant(t testing.TB) *rules.Variant {
	t.Helper()
	v, err := rules.NewFFA("classic")
	if err != nil {
		t.Fatal(err)
	}
	v.Name = "chess4-test"
	v.Start = chess4Start
	v.Promotions = []rules.Kind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight}
	v.PromotedWorthOne = false
	// A player who resigns is out, as a mated one is (Method 1), rather
	// than leaving a walking king.
	v.Options.DeadKingWalking = false
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	return v
}

// randomGame plays a seeded random legal game on v, captures preferred,
// with an occasional resignation or time-out, for at most plies turns.
func randomGame(t testing.TB, v *rules.Variant, seed int64, plies int) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	for ply := 0; ply < plies; ply++ {
		if _, over := g.Result(); over {
			break
		}
		if rng.Intn(150) == 0 {
			s := rules.Seat(rng.Intn(rules.NumSeats))
			if st := g.Status(s); st == rules.Playing || st == rules.Walking {
				if rng.Intn(2) == 0 {
					_, err = g.Resign(s)
				} else {
					_, err = g.Timeout(s)
				}
				if err != nil {
					t.Fatal(err)
				}
				continue
			}
		}
		moves := g.LegalMoves()
		m := moves[rng.Intn(len(moves))]
		if rng.Intn(10) < 7 {
			p := g.Position()
			var caps []rules.Move
			for _, x := range moves {
				if p.At(x.To()).IsPiece() || x.IsEnPassant() || x.Promotion() != rules.NoKind {
					caps = append(caps, x)
				}
			}
			if len(caps) > 0 {
				m = caps[rng.Intn(len(caps))]
			}
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}
