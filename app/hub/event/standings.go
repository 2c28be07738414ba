package event

import (
	"cmp"
	"encoding/csv"
	"io"
	"math"
	"slices"
	"strconv"
)

// Game is a game of the event as the standings count it: its round,
// who sat where, and its result (nil while it has none: playing,
// abandoned, or not yet linked; such a game does not count).
type Game struct {
	Round  int
	Table  Table
	Result *Result
}

// Result is how a game ended, as the board (or the director's
// correction) says: the seats that won (none in a drawn Teams game) and,
// in FFA, the four seats' points (Red, Blue, Yellow, Green).
type Result struct {
	Winners []string `json:"winners"`
	Points  []int    `json:"points,omitempty"`
}

// Bye is a unit sitting out a round.
type Bye struct {
	Round int
	Unit  int64
}

// Standing is a unit's line of the standings.
type Standing struct {
	// Rank is the place; Shared is set when the unit is tied with a
	// neighbour on everything the standings count (both get the
	// better rank).
	Rank   int    `json:"rank"`
	Shared bool   `json:"shared,omitempty"`
	Unit   int64  `json:"unit"`
	Name   string `json:"name"`
	Games  int    `json:"games"`
	Byes   int    `json:"byes"`

	// FFA: Points are the game points the board scored plus the byes';
	// Firsts the games won (first place); SB the Sonneborn-Berger-like
	// sum: for every game, the event points of each opponent finished
	// behind, half for one finished level.
	Points int     `json:"points"`
	Firsts int     `json:"firsts"`
	SB     float64 `json:"sb"`

	// Teams: match points (2 a win or a bye, 1 a draw), the games won,
	// drawn, lost, the match points scored against the teams level on
	// match points (HeadToHead) and, as SB, the match points of the
	// teams beaten plus half those of the teams drawn with.
	MatchPoints int `json:"match_points"`
	Wins        int `json:"wins"`
	Draws       int `json:"draws"`
	Losses      int `json:"losses"`
	HeadToHead  int `json:"head_to_head"`
}

// ByePoints is what a bye scores in FFA: the unit's mean game points
// over the games it played in the event (0 before its first game),
// rounded to the nearest whole point, so a bye neither helps nor hurts.
// In Teams a bye is a won match: 2 match points.
func ByePoints(played []int) int {
	if len(played) == 0 {
		return 0
	}
	sum := 0
	for _, p := range played {
		sum += p
	}
	return int(math.Round(float64(sum) / float64(len(played))))
}

// Standings ranks the units of an event of kind from its games and
// byes; names names the units.
//
// FFA: by points, then first places, then SB (see Standing). Teams: by
// match points, then head-to-head among the teams level on match
// points, then SB, then wins. Units level on all of them share a rank
// and are listed by name.
func Standings(kind string, units []Unit, names map[int64]string, games []Game, byes []Bye) []Standing {
	idx := map[int64]int{}
	rows := make([]Standing, len(units))
	unitOf := map[int64]int64{} // player → unit
	for i, u := range units {
		idx[u.ID] = i
		rows[i] = Standing{Unit: u.ID, Name: names[u.ID]}
		for _, m := range u.Members {
			unitOf[m] = u.ID
		}
	}
	for _, b := range byes {
		if i, ok := idx[b.Unit]; ok {
			rows[i].Byes++
		}
	}
	counted := games[:0:0]
	for _, g := range games {
		if g.Result != nil {
			counted = append(counted, g)
		}
	}
	if kind == Teams {
		teamStandings(rows, idx, counted)
	} else {
		ffaStandings(rows, idx, unitOf, counted)
	}
	return rows
}

func ffaStandings(rows []Standing, idx map[int64]int, unitOf map[int64]int64, games []Game) {
	played := make([][]int, len(rows))
	for _, g := range games {
		pts := seatPoints(g.Result)
		firsts := winnerSeats(g.Result, pts)
		for c, pl := range g.Table.Seats {
			i, ok := idx[unitOf[pl]]
			if !ok {
				continue
			}
			rows[i].Games++
			rows[i].Points += pts[c]
			played[i] = append(played[i], pts[c])
			if firsts[c] {
				rows[i].Firsts++
			}
		}
	}
	for i := range rows {
		rows[i].Points += rows[i].Byes * ByePoints(played[i])
	}
	// SB needs everyone's totals.
	for _, g := range games {
		pts := seatPoints(g.Result)
		for c, pl := range g.Table.Seats {
			i, ok := idx[unitOf[pl]]
			if !ok {
				continue
			}
			for o, opp := range g.Table.Seats {
				j, ok := idx[unitOf[opp]]
				if o == c || !ok {
					continue
				}
				switch {
				case pts[c] > pts[o]:
					rows[i].SB += float64(rows[j].Points)
				case pts[c] == pts[o]:
					rows[i].SB += float64(rows[j].Points) / 2
				}
			}
		}
	}
	rank(rows, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Firsts, a.Firsts), cmp.Compare(b.SB, a.SB))
	})
}

// seatPoints are a result's four points (zeros when it has none).
func seatPoints(r *Result) [4]int {
	var p [4]int
	copy(p[:], r.Points)
	return p
}

// winnerSeats are the seats the result names as winners, or, when it
// names none, the seats with the most points.
func winnerSeats(r *Result, pts [4]int) [4]bool {
	var w [4]bool
	if len(r.Winners) > 0 {
		for _, name := range r.Winners {
			if c := slices.Index(Colours[:], name); c >= 0 {
				w[c] = true
			}
		}
		return w
	}
	top := slices.Max(pts[:])
	for c := range pts {
		w[c] = pts[c] == top
	}
	return w
}

// sideWon says which side of a Teams game won: 0 (Red and Yellow), 1
// (Blue and Green), or -1 for a draw.
func sideWon(r *Result) int {
	for _, name := range r.Winners {
		switch name {
		case "Red", "Yellow":
			return 0
		case "Blue", "Green":
			return 1
		}
	}
	return -1
}

func teamStandings(rows []Standing, idx map[int64]int, games []Game) {
	type match struct{ a, b, won int } // row indexes; won: 0 a, 1 b, -1 draw
	var ms []match
	for _, g := range games {
		if len(g.Table.Units) != 2 {
			continue
		}
		a, okA := idx[g.Table.Units[0]]
		b, okB := idx[g.Table.Units[1]]
		if !okA || !okB {
			continue
		}
		ms = append(ms, match{a, b, sideWon(g.Result)})
	}
	for i := range rows {
		rows[i].MatchPoints = 2 * rows[i].Byes
	}
	for _, m := range ms {
		rows[m.a].Games++
		rows[m.b].Games++
		switch m.won {
		case 0:
			rows[m.a].Wins++
			rows[m.b].Losses++
			rows[m.a].MatchPoints += 2
		case 1:
			rows[m.b].Wins++
			rows[m.a].Losses++
			rows[m.b].MatchPoints += 2
		default:
			rows[m.a].Draws++
			rows[m.b].Draws++
			rows[m.a].MatchPoints++
			rows[m.b].MatchPoints++
		}
	}
	for _, m := range ms {
		level := rows[m.a].MatchPoints == rows[m.b].MatchPoints
		switch m.won {
		case 0:
			rows[m.a].SB += float64(rows[m.b].MatchPoints)
			if level {
				rows[m.a].HeadToHead += 2
			}
		case 1:
			rows[m.b].SB += float64(rows[m.a].MatchPoints)
			if level {
				rows[m.b].HeadToHead += 2
			}
		default:
			rows[m.a].SB += float64(rows[m.b].MatchPoints) / 2
			rows[m.b].SB += float64(rows[m.a].MatchPoints) / 2
			if level {
				rows[m.a].HeadToHead++
				rows[m.b].HeadToHead++
			}
		}
	}
	rank(rows, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.MatchPoints, a.MatchPoints), cmp.Compare(b.HeadToHead, a.HeadToHead),
			cmp.Compare(b.SB, a.SB), cmp.Compare(b.Wins, a.Wins))
	})
}

// rank sorts rows by better (ties by name) and numbers them, rows equal
// by better sharing the rank.
func rank(rows []Standing, better func(a, b Standing) int) {
	slices.SortStableFunc(rows, func(a, b Standing) int {
		return cmp.Or(better(a, b), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Unit, b.Unit))
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && better(rows[i-1], rows[i]) == 0 {
			rows[i].Rank = rows[i-1].Rank
			rows[i].Shared, rows[i-1].Shared = true, true
		}
	}
}

// WriteCSV writes the standings of an event of kind as CSV with a
// header line (a shared rank is written "3=").
func WriteCSV(w io.Writer, kind string, rows []Standing) error {
	cw := csv.NewWriter(w)
	head := []string{"rank", "player", "points", "firsts", "sb", "games", "byes"}
	if kind == Teams {
		head = []string{"rank", "team", "match_points", "wins", "draws", "losses", "head_to_head", "sb", "games", "byes"}
	}
	cw.Write(head)
	for _, r := range rows {
		rk := strconv.Itoa(r.Rank)
		if r.Shared {
			rk += "="
		}
		sb := strconv.FormatFloat(r.SB, 'f', -1, 64)
		line := []string{rk, r.Name, strconv.Itoa(r.Points), strconv.Itoa(r.Firsts), sb, strconv.Itoa(r.Games), strconv.Itoa(r.Byes)}
		if kind == Teams {
			line = []string{rk, r.Name, strconv.Itoa(r.MatchPoints), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws), strconv.Itoa(r.Losses),
				strconv.Itoa(r.HeadToHead), sb, strconv.Itoa(r.Games), strconv.Itoa(r.Byes)}
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}
