package event

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Unit is what a round places: one player (FFA) or a team of two
// (Teams), by its members' player ids. ID is the unit's own id (the
// player's in FFA, the team's first player's in Teams is fine: any id
// unique in the event).
type Unit struct {
	ID      int64
	Members []int64
}

// Table is one board of a round: Seats[i] is the player at Colours[i];
// Units are the units at the table (four players, or two teams: the
// first at Red and Yellow, the second at Blue and Green).
type Table struct {
	Seats [4]int64
	Units []int64
}

// Pairing is a round: its tables in order (table 1 goes to the event's
// first board) and the units that sit out (byes).
type Pairing struct {
	Tables []Table
	Byes   []int64
}

// History is what an event's earlier rounds did, as pairing weighs it:
// how often each player sat at each colour, how often each two units
// met, and each unit's byes. Add each round to it.
type History struct {
	colours map[int64]*[4]int
	met     map[[2]int64]int
	byes    map[int64]int
}

// NewHistory returns an empty history.
func NewHistory() *History {
	return &History{colours: map[int64]*[4]int{}, met: map[[2]int64]int{}, byes: map[int64]int{}}
}

func pair2(a, b int64) [2]int64 {
	if a > b {
		a, b = b, a
	}
	return [2]int64{a, b}
}

// Add records a played round.
func (h *History) Add(p Pairing) {
	for _, t := range p.Tables {
		for c, pl := range t.Seats {
			h.counts(pl)[c]++
		}
		for i := range t.Units {
			for j := i + 1; j < len(t.Units); j++ {
				h.met[pair2(t.Units[i], t.Units[j])]++
			}
		}
	}
	for _, u := range p.Byes {
		h.byes[u]++
	}
}

func (h *History) counts(player int64) *[4]int {
	c := h.colours[player]
	if c == nil {
		c = new([4]int)
		h.colours[player] = c
	}
	return c
}

// Colours returns how often the player sat at each colour.
func (h *History) Colours(player int64) [4]int { return *h.counts(player) }

// Met returns how often units a and b met.
func (h *History) Met(a, b int64) int { return h.met[pair2(a, b)] }

// Byes returns the unit's byes.
func (h *History) Byes(unit int64) int { return h.byes[unit] }

// The cost of a pairing, in tiers (each weighs more than everything the
// tiers below it can add up to in one round):
const (
	// costBye: a bye for a unit with more byes than the fewest any unit
	// has, per bye more.
	costBye = 100_000_000
	// costSpread: a player whose colour counts would differ by more
	// than one, per count beyond one.
	costSpread = 1_000_000
	// costMet: two units meeting again, times the square of the times
	// they met before (so a third meeting costs four times a second).
	costMet = 1000
	// costByeRank: among the units with the fewest byes, the bye goes to
	// the lowest in the standings: per place above the lowest.
	costByeRank = 10
	// costColour: the colour's count so far (the least-played colour is
	// preferred even where the spread stays within one).
	costColour = 1
)

// Pair pairs a round of an event of kind over units (in entry order)
// after the rounds in h. scores are the units' standings so far (higher
// is better; missing is 0): the bye goes to the lowest. The same input
// and seed give the same pairing.
//
// The method: every unit gets a slot (a seat at a table, or a bye), and
// the pairing is the assignment of least cost (see the cost tiers
// above: byes rotated, colour counts within one, repeated opponents, the
// bye to the lowest, the least-played colour). It is found by local
// search: from a random assignment, swap any two units while a swap
// lowers the cost; repeat from several random starts (their number
// shrinks as the field grows) and keep the cheapest, the first found
// among equals. In Teams a team's two players take the side's two
// colours in the order that costs less.
func Pair(kind string, units []Unit, h *History, scores map[int64]float64, seed uint64) (Pairing, error) {
	if err := CheckKind(kind); err != nil {
		return Pairing{}, err
	}
	k := 4 / UnitSize(kind) // units a table
	if len(units) < k {
		return Pairing{}, fmt.Errorf("%d %s: a board needs %d", len(units), unitWord(kind, len(units)), k)
	}
	if len(units) > MaxUnits {
		return Pairing{}, fmt.Errorf("%d %s: at most %d", len(units), unitWord(kind, len(units)), MaxUnits)
	}
	seen := map[int64]bool{}
	for _, u := range units {
		if len(u.Members) != UnitSize(kind) {
			return Pairing{}, fmt.Errorf("unit %d has %d players, want %d", u.ID, len(u.Members), UnitSize(kind))
		}
		if seen[u.ID] {
			return Pairing{}, fmt.Errorf("unit %d twice", u.ID)
		}
		seen[u.ID] = true
	}
	if h == nil {
		h = NewHistory()
	}
	s := newSearch(kind, units, h, scores, seed)
	best := s.run()
	return s.pairing(best), nil
}

func unitWord(kind string, n int) string {
	w := "player"
	if kind == Teams {
		w = "team"
	}
	if n != 1 {
		w += "s"
	}
	return w
}

// search is one Pair.
type search struct {
	kind     string
	units    []Unit
	h        *History
	k        int // units a table
	tables   int
	rng      *rand.Rand
	byeRank  []int   // per unit index: places above the lowest eligible
	minByes  int     // the fewest byes any unit has
	sides    [][]int // the colours of each of a table's k slots
	restarts int
}

func newSearch(kind string, units []Unit, h *History, scores map[int64]float64, seed uint64) *search {
	s := &search{kind: kind, units: units, h: h, k: 4 / UnitSize(kind), rng: rand.New(rand.NewPCG(seed, 0x6576656e74))}
	s.tables = len(units) / s.k
	if kind == Teams {
		s.sides = [][]int{{0, 2}, {1, 3}}
	} else {
		s.sides = [][]int{{0}, {1}, {2}, {3}}
	}
	s.minByes = -1
	for _, u := range units {
		if b := h.Byes(u.ID); s.minByes < 0 || b < s.minByes {
			s.minByes = b
		}
	}
	// The bye order: lowest score first, then the later entry.
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := scores[units[a].ID], scores[units[b].ID]
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return b - a
	})
	s.byeRank = make([]int, len(units))
	for r, i := range order {
		s.byeRank[i] = r
	}
	s.restarts = max(4, 1600/len(units))
	return s
}

// slotCost is what unit u costs at slot j of a table (a side's colours),
// and the order of its members that costs that.
func (s *search) slotCost(u, j int) (int, bool) {
	cols := s.sides[j]
	m := s.units[u].Members
	if len(cols) == 1 {
		return s.colourCost(m[0], cols[0]), false
	}
	a := s.colourCost(m[0], cols[0]) + s.colourCost(m[1], cols[1])
	b := s.colourCost(m[1], cols[0]) + s.colourCost(m[0], cols[1])
	if b < a {
		return b, true
	}
	return a, false
}

func (s *search) colourCost(player int64, c int) int {
	n := s.h.Colours(player)
	n[c]++
	lo, hi := n[0], n[0]
	for _, v := range n[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	cost := (n[c] - 1) * costColour
	if hi-lo > 1 {
		cost += (hi - lo - 1) * costSpread
	}
	return cost
}

func (s *search) tableCost(slots []int) int {
	c := 0
	for j, u := range slots {
		sc, _ := s.slotCost(u, j)
		c += sc
		for _, v := range slots[j+1:] {
			m := s.h.Met(s.units[u].ID, s.units[v].ID)
			c += m * m * costMet
		}
	}
	return c
}

func (s *search) byeCost(u int) int {
	return (s.h.Byes(s.units[u].ID)-s.minByes)*costBye + s.byeRank[u]*costByeRank
}

// cost of the part (a table, or one bye) that position i belongs to.
func (s *search) partCost(pos []int, i int) int {
	n := s.tables * s.k
	if i >= n {
		return s.byeCost(pos[i])
	}
	t := i / s.k
	return s.tableCost(pos[t*s.k : (t+1)*s.k])
}

func (s *search) total(pos []int) int {
	c := 0
	for t := 0; t < s.tables; t++ {
		c += s.tableCost(pos[t*s.k : (t+1)*s.k])
	}
	for i := s.tables * s.k; i < len(pos); i++ {
		c += s.byeCost(pos[i])
	}
	return c
}

func (s *search) part(i int) int {
	if n := s.tables * s.k; i >= n {
		return s.tables + (i - n)
	}
	return i / s.k
}

// climb swaps units while a swap lowers the cost.
func (s *search) climb(pos []int) int {
	cost := s.total(pos)
	n := s.tables * s.k
	for improved := true; improved; {
		improved = false
		for i := range pos {
			for j := i + 1; j < len(pos); j++ {
				if i >= n && j >= n {
					break // two byes: nothing changes
				}
				pi, pj := s.part(i), s.part(j)
				before := s.partCost(pos, i)
				if pi != pj {
					before += s.partCost(pos, j)
				}
				pos[i], pos[j] = pos[j], pos[i]
				after := s.partCost(pos, i)
				if pi != pj {
					after += s.partCost(pos, j)
				}
				if after < before {
					cost += after - before
					improved = true
				} else {
					pos[i], pos[j] = pos[j], pos[i]
				}
			}
		}
	}
	return cost
}

func (s *search) run() []int {
	var best []int
	bestCost := 0
	for r := 0; r < s.restarts; r++ {
		pos := s.rng.Perm(len(s.units))
		c := s.climb(pos)
		if best == nil || c < bestCost {
			best, bestCost = pos, c
		}
	}
	return best
}

func (s *search) pairing(pos []int) Pairing {
	var p Pairing
	for t := 0; t < s.tables; t++ {
		var tb Table
		for j, u := range pos[t*s.k : (t+1)*s.k] {
			tb.Units = append(tb.Units, s.units[u].ID)
			m := s.units[u].Members
			if _, swap := s.slotCost(u, j); swap {
				m = []int64{m[1], m[0]}
			}
			for i, c := range s.sides[j] {
				tb.Seats[c] = m[i]
			}
		}
		p.Tables = append(p.Tables, tb)
	}
	for _, u := range pos[s.tables*s.k:] {
		p.Byes = append(p.Byes, s.units[u].ID)
	}
	return p
}
