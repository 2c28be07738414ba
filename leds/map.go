package leds

import (
	"bytes"
	"fmt"
	"strings"

	"boardd/rules/square"

	"go.yaml.in/yaml/v3"
)

// Map says which LED index lights which square. The zero Map lights
// nothing.
type Map struct {
	index [square.MaxFiles * square.MaxRanks]int16 // LED index + 1; 0 = none
	n     int
}

// Len returns the number of LEDs the map uses.
func (m *Map) Len() int { return m.n }

// Index returns the LED under square s, or -1.
func (m *Map) Index(s square.Square) int {
	if !s.Valid() {
		return -1
	}
	return int(m.index[s]) - 1
}

// FromOrder builds a map from the squares in strip order: order[i] is the
// square over LED i.
func FromOrder(order []square.Square) (*Map, error) {
	m := &Map{n: len(order)}
	for i, s := range order {
		if !s.Valid() {
			return nil, fmt.Errorf("LED %d: not a square", i)
		}
		if m.index[s] != 0 {
			return nil, fmt.Errorf("LED %d: square %s already has LED %d", i, s, m.index[s]-1)
		}
		m.index[s] = int16(i + 1)
	}
	return m, nil
}

// Serpentine is one strip across the whole grid: rank 1 from file a to the
// right, rank 2 back from the right, and so on, skipping squares that are
// not on the board (the cross board's corners).
func Serpentine(board square.Set) *Map {
	var order []square.Square
	for r := 0; r < square.MaxRanks; r++ {
		row := rowSquares(board, r)
		if r%2 == 1 {
			reverse(row)
		}
		order = append(order, row...)
	}
	m, _ := FromOrder(order)
	return m
}

// Arms is the board wired as strips chained in this order: Red's arm
// (ranks 1–3 of the cross), Blue's (files a–c), Yellow's (ranks 12–14),
// Green's (files l–n), then the central 8×8; each runs serpentine,
// starting at its lowest rank (or, for the side arms, its lowest file)
// from the left. On the 16×16 board (square.Full) the arms are 4 deep
// (Red e1–l4, Blue a5–d12, Yellow e13–l16, Green m5–p12) and four more
// strips follow the centre: the corner fortresses a1–d4, m1–p4, a13–d16
// and m13–p16, each serpentine from its lowest rank.
func Arms(board square.Set) *Map {
	w := 0
	for _, q := range board.Squares() {
		w = max(w, q.File()+1, q.Rank()+1)
	}
	d := max((w-8)/2, 0) // arm depth: 3 on the cross, 4 on 16×16
	mid := func(i int) bool { return i >= d && i < w-d }
	var order []square.Square
	part := func(in func(s square.Square) bool, byFile bool) {
		lines := 0
		for i := 0; i < square.MaxRanks; i++ {
			var line []square.Square
			for j := 0; j < square.MaxFiles; j++ {
				s := square.At(j, i)
				if byFile {
					s = square.At(i, j)
				}
				if board.Has(s) && in(s) {
					line = append(line, s)
				}
			}
			if len(line) == 0 {
				continue
			}
			if lines%2 == 1 {
				reverse(line)
			}
			lines++
			order = append(order, line...)
		}
	}
	part(func(s square.Square) bool { return s.Rank() < d && mid(s.File()) }, false)
	part(func(s square.Square) bool { return s.File() < d && mid(s.Rank()) }, true)
	part(func(s square.Square) bool { return s.Rank() >= w-d && mid(s.File()) }, false)
	part(func(s square.Square) bool { return s.File() >= w-d && mid(s.Rank()) }, true)
	part(func(s square.Square) bool { return mid(s.File()) && mid(s.Rank()) }, false)
	// The corners: empty on the cross, the fortresses on 16×16.
	low, high := func(i int) bool { return i < d }, func(i int) bool { return i >= w-d }
	for _, c := range [][2]func(int) bool{{low, low}, {high, low}, {low, high}, {high, high}} {
		part(func(s square.Square) bool { return c[0](s.File()) && c[1](s.Rank()) }, false)
	}
	m, _ := FromOrder(order)
	return m
}

func rowSquares(board square.Set, r int) []square.Square {
	var row []square.Square
	for f := 0; f < square.MaxFiles; f++ {
		if s := square.At(f, r); board.Has(s) {
			row = append(row, s)
		}
	}
	return row
}

func reverse(s []square.Square) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// ParseMap reads a LED map from YAML, for the given board squares and
// strip length. Either a standard layout:
//
//	layout: serpentine        # or: arms
//
// or the squares in strip order, one list entry per LED ("-" for an LED
// under no square):
//
//	order: [d1, e1, f1, …]
//
// Every square of the board must have exactly one LED. strip is the
// strip's length (0: the map's own, for a strip built to fit it). Errors
// name the file, the line and what is wrong.
func ParseMap(file string, data []byte, board square.Set, strip int) (*Map, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %v", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping with layout: serpentine|arms or order: [squares…]", file)
	}
	var def struct {
		Layout string   `yaml:"layout"`
		Order  []string `yaml:"order"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&def); err != nil {
		return nil, fmt.Errorf("%s: %v", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	top := root.Content[0]
	lineOf := func(key string) int {
		for i := 0; i+1 < len(top.Content); i += 2 {
			if top.Content[i].Value == key {
				return top.Content[i+1].Line
			}
		}
		return top.Line
	}
	var m *Map
	var ledLines []int // the line of each LED's entry, for an order list
	switch {
	case def.Layout != "" && def.Order != nil:
		return nil, fmt.Errorf("%s: line %d: give layout or order, not both", file, lineOf("order"))
	case def.Layout == "serpentine":
		m = Serpentine(board)
	case def.Layout == "arms":
		m = Arms(board)
	case def.Layout != "":
		return nil, fmt.Errorf("%s: line %d: layout %q: want serpentine or arms", file, lineOf("layout"), def.Layout)
	default:
		var seq *yaml.Node
		for i := 0; i+1 < len(top.Content); i += 2 {
			if top.Content[i].Value == "order" {
				seq = top.Content[i+1]
			}
		}
		if seq == nil || seq.Kind != yaml.SequenceNode {
			return nil, fmt.Errorf("%s: want layout: serpentine|arms or order: [squares…]", file)
		}
		m = &Map{n: len(seq.Content)}
		for i, item := range seq.Content {
			ledLines = append(ledLines, item.Line)
			if item.Value == "-" {
				continue
			}
			s, err := square.Parse(item.Value)
			if err != nil || !board.Has(s) {
				return nil, fmt.Errorf("%s: line %d: LED %d: %q is not a square of the board", file, item.Line, i, item.Value)
			}
			if m.index[s] != 0 {
				return nil, fmt.Errorf("%s: line %d: LED %d: square %s already has LED %d", file, item.Line, i, s, m.index[s]-1)
			}
			m.index[s] = int16(i + 1)
		}
	}
	if strip > 0 && m.n > strip {
		line := lineOf("layout")
		if ledLines != nil {
			line = ledLines[strip]
		}
		return nil, fmt.Errorf("%s: line %d: the map uses %d LEDs but the strip has %d: LED index %d out of range", file, line, m.n, strip, strip)
	}
	var missing []string
	for _, s := range board.Squares() {
		if m.index[s] == 0 {
			missing = append(missing, s.String())
		}
	}
	if len(missing) > 0 {
		if len(missing) > 8 {
			missing = append(missing[:8], fmt.Sprintf("… (%d in all)", len(missing)))
		}
		return nil, fmt.Errorf("%s: line %d: no LED for %s", file, lineOf("order"), strings.Join(missing, " "))
	}
	return m, nil
}
