package pgn4

import (
	"math/rand/v2"
	"strings"
	"testing"

	"boardd/rules"
)

// TestResolve reads the forms a move arrives in: replayed PGN4 tokens,
// remote seats' and engines' bare squares (the king's squares castle),
// and the refusals, each saying why.
func TestResolve(t *testing.T) {
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	castle := "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,3,rK,2,rR,x,x,x"
	promo := "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/bR,bP,10,gP,gR/bN,bP,1,rP,8,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x"
	tests := []struct {
		name, fen, token, want, bad string
	}{
		{name: "squares", token: "h2-h4", want: "h2-h4"},
		{name: "pgn4 with piece letter", token: "Nj1-i3", want: "j1-i3"},
		{name: "pgn4 check mark ignored", token: "Nj1-i3+", want: "j1-i3"},
		{name: "castle by king squares", fen: castle, token: "h1-j1", want: "h1-j1"},
		{name: "castle in pgn4", fen: castle, token: "O-O", want: "h1-j1"},
		{name: "queenside castle in pgn4", fen: castle, token: "O-O-O", want: "h1-f1"},
		{name: "promotion by default a queen", fen: promo, token: "d10-d11", want: "d10-d11=Q"},
		{name: "underpromotion", fen: promo, token: "d10-d11=N", want: "d10-d11=N"},
		{name: "blocked pawn", token: "h2-h5", bad: "h2"},
		{name: "no castling at the start", token: "O-O", bad: "castle"},
		{name: "not a move", token: "R", bad: "not a move"},
		{name: "not a token", token: "zz", bad: "zz"},
		{name: "resign is not a move", token: "R", bad: "not a move on the board"},
		{name: "written letter must match", token: "Bj1-i3", bad: "names a B but j1 holds Red's N"},
		{name: "bare squares of a knight", token: "j1-i3", want: "j1-i3"},
		{name: "capture and mate marks not checked", fen: promo, token: "d10xd11+#", want: "d10-d11=Q"},
		{name: "promotion to a king refused", fen: promo, token: "d10-d11=K", bad: "promote"},
		{name: "a swap mark names only swaps", token: "h2~h3", bad: "not a legal move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := rules.NewGame(v, tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Resolve(g, tc.token)
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("Resolve(%q) = %v, %v; want an error naming %q", tc.token, m, err, tc.bad)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.token, err)
			}
			if got := m.String(); got != tc.want {
				t.Errorf("Resolve(%q) = %s, want %s", tc.token, got, tc.want)
			}
		})
	}
}

// TestResolveAmongPseudoLegal: a caller may widen the list (the referee
// reads a seat's announced move among the pseudo-legal ones, moves that
// leave the mover's own king in check included); the game's own list
// refuses the same token and says why.
func TestResolveAmongPseudoLegal(t *testing.T) {
	v, err := rules.NewVariant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for turn := 0; turn < 400; turn++ {
		if _, over := g.Result(); over {
			break
		}
		p := g.Position()
		for _, m := range p.PseudoLegal(nil) {
			if p.IsLegal(m) {
				continue
			}
			got, err := ResolveAmong(p, p.PseudoLegal(nil), m.String())
			if err != nil || got != m {
				t.Fatalf("%s among the pseudo-legal moves of %s = %v, %v; want %v", m, p.FEN4(), got, err, m)
			}
			if _, err := Resolve(g, m.String()); err == nil || !strings.Contains(err.Error(), "check") {
				t.Fatalf("Resolve(%s) in %s: %v, want a refusal naming the check", m, p.FEN4(), err)
			}
			return
		}
		legal := g.LegalMoves()
		if _, err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no game position had a pseudo-legal move the rules refuse")
}
