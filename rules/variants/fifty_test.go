package variants

import (
	"strconv"
	"strings"
	"testing"

	"boardd/rules"
	"boardd/rules/blocking"
)

// The 50-move rule, as every rules text names it and no text counts it:
// chess.com "The game is a draw in case of stalemate, insufficient
// material, three-fold repetition or the 50-move rule"; Chess4 "The
// traditional rules of Chess apply when playing Chess4"; Verney "THE Rules
// of Four-handed Chess are in every way similar to those of the ordinary
// game". Chess's rule is 50 moves by each player without a pawn move or
// capture, and the essay's modified rule counts it the same way for four
// ("for the 50 moves involved, there must not be a Pawn move or capture by
// all four players"). boardd counts each seat's own moves, so a seat that
// leaves shortens nobody's count: a mate after 40 quiet moves each is no
// draw; the others draw when each of them has made 50.

// withClock returns g's position with the half-move clock set to n plies,
// as a FEN4.
func withClock(t *testing.T, g *rules.Game, n int) string {
	t.Helper()
	f := strings.SplitN(g.Position().FEN4(), "-", 7)
	if len(f) != 7 {
		t.Fatalf("FEN4 %s", g.Position().FEN4())
	}
	f[5] = strconv.Itoa(n)
	return strings.Join(f, "-")
}

// playQuiet plays one quiet move for the seat to move: no capture, no
// pawn move, no new check, no change of the status of a seat not in
// check, and a position not
// seen before (so that no repetition ends the game).
func playQuiet(t *testing.T, g *rules.Game, seen map[uint64]bool) rules.Record {
	t.Helper()
	p := g.Position()
	var status [rules.NumSeats]rules.Status
	var checked [rules.NumSeats]bool
	for s := range status {
		status[s] = g.Status(rules.Seat(s))
		checked[s] = p.InCheck(rules.Seat(s))
	}
	for _, m := range g.LegalMoves() {
		if p.At(m.To()).IsPiece() || p.At(m.From()).Kind() == rules.Pawn {
			continue
		}
		ok := false
		err := g.LookAhead(m, func() {
			q := g.Position()
			ok = !seen[q.Hash()]
			for s := rules.Seat(0); s < rules.NumSeats; s++ {
				// a seat already mated may go out (Chess4: when the
				// mating player's turn begins); nobody else changes
				ok = ok && (checked[s] || g.Status(s) == status[s] && !q.InCheck(s))
			}
		})
		if err != nil || !ok {
			continue
		}
		rec, err := g.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		seen[g.Position().Hash()] = true
		return rec
	}
	t.Fatalf("%s has no quiet move: %s", g.Turn(), g.Position().FEN4())
	return rules.Record{}
}

func TestFiftyMovesAfterAMate(t *testing.T) {
	// The Red seat's Rk11-a11 mates the Blue seat's king on a4 (the rook on
	// b10 holds b4 and b5): a quiet move, Red's 41st with the clock at 160
	// (40 moves by each seat).
	const mate = "rK:i2 rR:k11 rR:b10 bK:a4 bR:e12 yK:g14 yR:j12 gK:n7 gR:l5"
	tests := []struct {
		variant string
		// after the mate, the seats still playing and the plies until
		// each of them has made its 50th move
		left  []rules.Seat
		plies int
	}{
		// FFA: the mate puts Blue out at once.
		{"ffa", []rules.Seat{rules.Red, rules.Yellow, rules.Green}, 29},
		{"ffa-text", []rules.Seat{rules.Red, rules.Yellow, rules.Green}, 29},
		// Chess4: Blue, mated at its turn, waits (its turn passes) and is
		// out when Red's next turn begins.
		{"chess4", []rules.Seat{rules.Red, rules.Yellow, rules.Green}, 29},
		// Method 2: Red takes Blue's army over and plays it on Blue's
		// turns; those are not Red's own turns, and the seats still
		// playing for themselves count their own (Y41 G41, then nine
		// rounds of four).
		{"chess4-m2", []rules.Seat{rules.Red, rules.Yellow, rules.Green}, 2 + 9*4},
		// Verney: Blue's army turns inert and misses its turns.
		{"verney", []rules.Seat{rules.Red, rules.Yellow, rules.Green}, 29},
	}
	for _, tt := range tests {
		t.Run(tt.variant, func(t *testing.T) {
			v := variantNamed(t, tt.variant)
			g0 := crossGame(t, v, "R", "0,0,0,0", mate)
			g, err := rules.NewGame(v, withClock(t, g0, 160))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[uint64]bool{g.Position().Hash(): true}
			playCross(t, g, "k11", "a11")
			for i := 0; ; i++ {
				if res, over := g.Result(); over {
					if i != tt.plies || res.Reason != "50-move rule" {
						t.Fatalf("ended after %d plies past the mate (%s), want the 50-move rule after %d: %s", i, res.Reason, tt.plies, g.Position().FEN4())
					}
					break
				}
				if i == tt.plies {
					t.Fatalf("not drawn %d plies after the mate: %s", i, g.Position().FEN4())
				}
				playQuiet(t, g, seen)
			}
			for s := rules.Seat(0); s < rules.NumSeats; s++ {
				playing := g.Status(s) == rules.Playing
				want := false
				for _, l := range tt.left {
					want = want || l == s
				}
				if playing != want {
					t.Errorf("%s is %s at the end", s, g.Status(s))
				}
			}
		})
	}
}

// Every variant whose game layer has the 50-move rule (all but blocking
// double, whose rule draws one individual game: TestBlockingFiftyMoves),
// in random games with seats leaving on the way (mates, stalemates,
// resignations, time-outs): the game ends by the 50-move rule exactly when
// every seat still taking turns has made 50 moves since the last pawn move
// or capture, counted here from the moves as they are played. A seat that
// has missed turns (it could not move) is not waited for.
func TestFiftyMoveRuleEveryVariant(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	for _, d := range catalog(t) {
		v, err := d.Variant("")
		if err != nil {
			t.Fatal(err)
		}
		if v.Mode == blocking.Double {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			rng := newRand(27)
			drawn := 0
			for i := 0; i < games; i++ {
				g, err := rules.NewGame(v, "")
				if err != nil {
					t.Fatal(err)
				}
				var count [rules.NumSeats]int
				var last [rules.NumSeats]int // the ply of each seat's last move
				for ply := 1; ply <= 3000; ply++ {
					if _, over := g.Result(); over {
						break
					}
					s := g.Turn()
					var rec rules.Record
					switch moves := g.LegalMoves(); {
					case g.Status(s) == rules.Playing && rng.Intn(600) == 0:
						if rec, err = g.Resign(s); err != nil {
							t.Fatal(err)
						}
					case g.Status(s) == rules.Playing && rng.Intn(600) == 0:
						if rec, err = g.Timeout(s); err != nil {
							t.Fatal(err)
						}
					default:
						if rec, err = g.Play(moves[rng.Intn(len(moves))]); err != nil {
							t.Fatal(err)
						}
						last[rec.Seat] = ply
						if g.Position().HalfMoveClock() == 0 {
							count = [rules.NumSeats]int{}
						} else {
							count[rec.Seat]++
						}
					}
					all, short := true, []string(nil)
					for _, e := range v.Order {
						if st := g.Status(e); st != rules.Playing && st != rules.Walking {
							continue
						}
						if count[e] < 50 {
							all = false
							if ply-last[e] <= len(v.Order) {
								short = append(short, e.String()+" "+strconv.Itoa(count[e]))
							}
						}
					}
					res, over := g.Result()
					fifty := over && res.Reason == "50-move rule"
					switch {
					case fifty && len(short) > 0:
						t.Fatalf("game %d ply %d: drawn by the 50-move rule with %s moves: %s", i, ply, strings.Join(short, ", "), g.Position().FEN4())
					case !over && all:
						t.Fatalf("game %d ply %d: every seat has made 50 quiet moves %v, and the game goes on: %s", i, ply, count, g.Position().FEN4())
					}
					if fifty {
						drawn++
					}
				}
			}
			t.Logf("%d of %d games drawn by the 50-move rule", drawn, games)
		})
	}
}

// A position set up with its half-move clock running: the plies before it
// are shared among the seats taking turns there. FFA with Yellow and Green
// out and the clock at 98: Red and Blue have made 49 quiet moves each, and
// the game is drawn when both have made their 50th.
func TestFiftyMovesFromAClock(t *testing.T) {
	v := variantNamed(t, "ffa")
	g0 := crossGame(t, v, "R", "0,0,1,1", "rK:h1 rR:k11 bK:a7 bR:d9 yK:g14 gK:n8")
	g, err := rules.NewGame(v, withClock(t, g0, 98))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{g.Position().Hash(): true}
	playQuiet(t, g, seen) // Red's 50th
	if res, over := g.Result(); over {
		t.Fatalf("drawn after Red's 50th move, Blue has 49: %+v", res)
	}
	playQuiet(t, g, seen) // Blue's 50th
	if res, over := g.Result(); !over || res.Reason != "50-move rule" {
		t.Fatalf("after both made 50: %+v over=%v", res, over)
	}
}
