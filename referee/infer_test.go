package referee

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"boardd/rules"
	"boardd/rules/essay"
	"boardd/rules/square"
)

func sq(name string) square.Square {
	s, err := square.Parse(name)
	if err != nil {
		panic(err)
	}
	return s
}

// trace reads "-e4 +e5": '-' lifts, '+' places; "-e4@120" happened 120
// ms after a fixed start (without it, the time is not known).
func trace(s string) []Touch {
	var out []Touch
	for i := 0; i < len(s); {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			break
		}
		j := i + 1
		for j < len(s) && s[j] != ' ' {
			j++
		}
		name, at, timed := strings.Cut(s[i+1:j], "@")
		t := Touch{Square: sq(name), Lift: s[i] == '-'}
		if timed {
			ms, err := strconv.Atoi(at)
			if err != nil {
				panic(err)
			}
			t.At = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
		}
		out = append(out, t)
		i = j
	}
	return out
}

// replay applies a trace to an occupancy, as the switches would end up.
func replay(occ square.Set, tr []Touch) square.Set {
	for _, t := range tr {
		if t.Lift {
			occ.Remove(t.Square)
		} else {
			occ.Add(t.Square)
		}
	}
	return occ
}

func TestInfer(t *testing.T) {
	teams, _ := rules.NewTeams("modern")
	ffa, _ := rules.NewFFA("modern")
	start, _ := rules.ParseFEN4(teams, teams.Start)
	place := func(v *rules.Variant, turn rules.Seat, text string) *rules.Position {
		p, err := rules.ParsePlacement(v, turn, text)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	two := place(teams, rules.Red, "rK:h1 rQ:e4 bK:a7 bR:e8 bN:h7 yK:g14 gK:n8")
	castle, _ := rules.ParseFEN4(teams, "R-0,0,0,0-1,0,0,0-1,0,0,0-0,0,0,0-0-x,x,x,3,yK,4,x,x,x/x,x,x,8,x,x,x/x,x,x,8,x,x,x/14/14/14/bK,13/13,gK/14/14/14/x,x,x,8,x,x,x/x,x,x,8,x,x,x/x,x,x,rR,3,rK,2,rR,x,x,x")
	ep := place(teams, rules.Red, "rK:h1 rP:e2 bK:a7 bP:d4 yK:g14 gK:n8")
	tests := []struct {
		name  string
		p     *rules.Position
		pre   string // moves made first, as "e2-e4"
		trace string
		kind  VerdictKind
		move  string // the move's squares, for Moved and OutOfTurn
	}{
		{"plain move", start, "", "-h2 +h3", Moved, "h2-h3"},
		{"lifted and put back", start, "", "-h2 +h2", NoChange, ""},
		{"slid across a square", start, "", "-h2 +h3 -h3 +h4", Moved, "h2-h4"},
		{"neighbour nudged and set back", start, "", "-g2 +g2 -h2 +h3", Moved, "h2-h3"},
		{"capture, victim lifted first", two, "", "-e8 -e4 +e8", Moved, "e4-e8"},
		{"capture, mover lifted first", two, "", "-e4 -h7 +h7", Moved, "e4-h7"},
		{"capture too quick for the victim's switch", two, "", "-e4", Ambiguous, ""},
		{"castling, king first", castle, "", "-h1 +j1 -k1 +i1", Moved, "h1-j1"},
		{"castling, rook first", castle, "", "-k1 +i1 -h1 +j1", Moved, "h1-j1"},
		{"castling long", castle, "", "-d1 -h1 +f1 +g1", Moved, "h1-f1"},
		{"en passant by a perpendicular pawn", ep, "e2-e4", "-d4 +e3 -e4", Moved, "d4-e3"},
		{"out of turn", start, "", "-b7 +c7", OutOfTurn, "b7-c7"},
		{"illegal", start, "", "-h2 +h5", Illegal, ""},
		{"teams promotion: a choice", place(teams, rules.Red, "rK:h1 rP:e10 bK:a7 yK:g14 gK:n8"), "", "-e10 +e11", Promotion, ""},
		{"two quick moves before the board was quiet", start, "", "-h2 +h4 -b7 +c7", Moved, "h2-h4"},
		{"ffa promotion: queen only", place(ffa, rules.Red, "rK:h1 rP:e7 bK:a7 yK:g14 gK:n8"), "", "-e7 +e8", Moved, "e7-e8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.p.Clone()
			if tt.pre != "" {
				m, err := p.FindMove(sq(tt.pre[:2]), sq(tt.pre[3:]), rules.NoKind)
				if err != nil {
					t.Fatal(err)
				}
				p.Make(m)
			}
			tr := trace(tt.trace)
			obs := Observation{Trace: tr, Final: replay(p.Occupancy(), tr)}
			v := Infer(p, p.LegalMoves(nil), obs)
			if v.Kind != tt.kind {
				t.Fatalf("verdict %v, want %v (%+v)", v.Kind, tt.kind, v)
			}
			if tt.move != "" && v.Move.From().String()+"-"+v.Move.To().String() != tt.move {
				t.Errorf("move %v, want %s", v.Move, tt.move)
			}
			if tt.name == "two quick moves before the board was quiet" && (len(v.Then) != 1 || v.Then[0].String() != "b7-c7") {
				t.Errorf("then %v, want b7-c7", v.Then)
			}
			switch tt.kind {
			case Promotion:
				if len(v.Candidates) != 4 || v.Candidates[0].Promotion() != rules.Queen {
					t.Errorf("promotion candidates %v, want Q R B N", v.Candidates)
				}
			case Ambiguous:
				if len(v.Candidates) != 2 {
					t.Errorf("candidates %v, want the two captures", v.Candidates)
				}
			case Illegal:
				if !v.Extra.Has(sq("h5")) || !v.Missing.Has(sq("h2")) {
					t.Errorf("extra %v missing %v", v.Extra, v.Missing)
				}
			case OutOfTurn:
				if v.Seat != rules.Blue {
					t.Errorf("seat %v", v.Seat)
				}
			}
		})
	}
}

func BenchmarkInferCapture(b *testing.B) {
	v, _ := rules.NewTeams("modern")
	p, _ := rules.ParsePlacement(v, rules.Red, "rK:h1 rQ:e4 bK:a7 bR:e8 bN:h7 yK:g14 gK:n8")
	tr := trace("-e8 -e4 +e8")
	obs := Observation{Trace: tr, Final: replay(p.Occupancy(), tr)}
	moves := p.LegalMoves(nil)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Infer(p, moves, obs)
	}
}

// Castling rook-first, for Blue (king and queen swapped on its side).
func BenchmarkInferCastle(b *testing.B) {
	v, _ := rules.NewTeams("modern")
	placed, err := rules.ParsePlacement(v, rules.Blue, "rK:h1 bK:a7 bR:a4 bR:a11 bP:b4 bP:b5 bP:b6 bP:b7 bP:b8 yK:g14 gK:n8")
	if err != nil {
		b.Fatal(err)
	}
	// The same position with every castling right.
	p, err := rules.ParseFEN4(v, strings.Replace(placed.FEN4(), "B-0,0,0,0-0,0,0,0-0,0,0,0-", "B-0,0,0,0-1,1,1,1-1,1,1,1-", 1))
	if err != nil {
		b.Fatal(err)
	}
	moves := p.LegalMoves(nil)
	var castle rules.Move
	for _, m := range moves {
		if c, _ := m.IsCastle(); c {
			castle = m
			break
		}
	}
	if castle == 0 {
		b.Fatal("no castling in the position")
	}
	rf, rt := castle.RookSquares()
	tr := []Touch{{Square: rf, Lift: true}, {Square: rt}, {Square: castle.From(), Lift: true}, {Square: castle.To()}}
	obs := Observation{Trace: tr, Final: replay(p.Occupancy(), tr)}
	if v := Infer(p, moves, obs); v.Kind != Moved || v.Move != castle {
		b.Fatalf("inferred %+v, want %v", v, castle)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Infer(p, moves, obs)
	}
}

// The four-player chess essay's partner pawn swap: "a Pawn may move in the
// manner it would normally move in to capture a Pawn belonging to its
// partner's team, but instead of being captured, that Pawn will either
// exchange places with the "capturing" Pawn, being placed on the square
// from which it started its move, or, in the case of en passant capture,
// simply remain undisturbed without moving." The exchange leaves both
// squares occupied: the reed switches end as they began, and only the
// trace (both squares empty at one moment) shows the move.
func TestInferPawnSwap(t *testing.T) {
	swap, _ := rules.NewTeams("modern") // partners Red+Yellow, as in the essay's partnership game
	swap.SetHookOptions(essay.Options{PartnerPawnSwap: true})
	if err := swap.Compile(); err != nil {
		t.Fatal(err)
	}
	plain, _ := rules.NewTeams("modern")
	const pieces = "rK:h1 rP:h5 yP:i6 bK:a7 yK:g14 gK:n8"
	tests := []struct {
		name  string
		v     *rules.Variant
		trace string
		kind  VerdictKind
	}{
		{"two hands: both lifted, each set on the other's square", swap, "-h5 -i6 +i6 +h5", Moved},
		{"one hand: the partner's pawn set aside first", swap, "-i6 -h5 +i6 +h5", Moved},
		{"the mover's pawn lifted first, the partner's put down first", swap, "-h5 -i6 +h5 +i6", Moved},
		{"each lifted and put back in turn: nothing happened", swap, "-h5 +h5 -i6 +i6", NoChange},
		{"without the rule the same trace is nothing", plain, "-h5 -i6 +i6 +h5", NoChange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := rules.ParsePlacement(tt.v, rules.Red, pieces)
			if err != nil {
				t.Fatal(err)
			}
			tr := trace(tt.trace)
			obs := Observation{Trace: tr, Final: replay(p.Occupancy(), tr)}
			if obs.Final != p.Occupancy() {
				t.Fatal("a swap's trace must end with the occupancy it began with")
			}
			v := Infer(p, p.LegalMoves(nil), obs)
			if v.Kind != tt.kind {
				t.Fatalf("verdict %v, want %v (%+v)", v.Kind, tt.kind, v)
			}
			if tt.kind == Moved {
				if sw, _ := v.Move.IsSwap(); !sw || v.Move.String() != "h5-i6" {
					t.Errorf("move %v (swap %v), want the swap h5~i6", v.Move, sw)
				}
			}
		})
	}
}

// A swap made as a quick reply, before the board was quiet after the
// previous move, changes no switch: the trace after the first move shows
// it, and Infer returns it as the move that followed.
func TestInferPawnSwapQuickReply(t *testing.T) {
	v, _ := rules.NewTeams("modern")
	v.SetHookOptions(essay.Options{PartnerPawnSwap: true})
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(v, rules.Red, "rK:h1 rP:e2 bP:e7 gP:f8 bK:a7 yK:g14 gK:n8")
	if err != nil {
		t.Fatal(err)
	}
	tr := trace("-e2 +e3 -f8 -e7 +f8 +e7") // Red e2-e3, then Blue e7~f8 at once
	obs := Observation{Trace: tr, Final: replay(p.Occupancy(), tr)}
	got := Infer(p, p.LegalMoves(nil), obs)
	if got.Kind != Moved || got.Move.String() != "e2-e3" || len(got.Then) != 1 || got.Then[0].String() != "e7-f8" {
		t.Fatalf("verdict %+v, want e2-e3 then the swap e7~f8", got)
	}
	if sw, _ := got.Then[0].IsSwap(); !sw {
		t.Errorf("then %v is not the swap", got.Then[0])
	}
}
