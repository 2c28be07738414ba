// Package variants loads rule systems from their YAML definitions
// (configs/variants/*.yaml) into rules.Variant values: the board, seats,
// turn order, partnerships, pawn directions and promotion zones, start
// arrays and options. The file is the data; what data cannot say lives in
// a hook, in the rules file named after the variant or in a variant
// package of its own (configs/variants/stevenson.yaml →
// rules/stevenson; see the rules package's doc), which Variant.Compile
// picks from the data. The loader links in the shipped variant packages
// (rules/shipped).
//
// Errors name the file, the line and the key, and say what is expected:
//
//	teams.yaml: line 12: seats.red.pawns: "up" is not north, east, south or west
package variants

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"boardd/internal/yamlpos"
	"boardd/rules"
	_ "boardd/rules/shipped" // the variant packages' hooks
	"boardd/rules/square"

	"go.yaml.in/yaml/v3"
)

// Definition is one loaded variant file.
type Definition struct {
	// Name is the variant's short name ("teams").
	Name string
	// Description is a one-line summary.
	Description string
	// Source names the rules text in shared/seeds the variant follows.
	Source string
	// Starts lists the start arrays by name, the default first.
	Starts []string
	// SeatNames are the rules text's names for the seats (the essay's
	// White, Red, Yellow, Black), for displays; empty means Red, Blue,
	// Yellow, Green.
	SeatNames [rules.NumSeats]string

	file   string
	raw    def
	root   *yaml.Node
	starts map[string]string
}

type def struct {
	Name              string             `yaml:"name"`
	SeatNames         map[string]string  `yaml:"seat_names"`
	Description       string             `yaml:"description"`
	Source            string             `yaml:"source"`
	Mode              string             `yaml:"mode"`
	Board             yaml.Node          `yaml:"board"`
	TurnOrder         []string           `yaml:"turn_order"`
	Partners          [][]string         `yaml:"partners"`
	PartnersGiveCheck bool               `yaml:"partners_give_check"`
	CapturePartners   bool               `yaml:"capture_partners"`
	Seats             map[string]seatDef `yaml:"seats"`
	Promotion         []string           `yaml:"promotion"`
	PromotedWorthOne  bool               `yaml:"promoted_worth_one"`
	Castling          bool               `yaml:"castling"`
	DoubleStep        bool               `yaml:"double_step"`
	EnPassant         bool               `yaml:"en_passant"`
	KingCaptureGreys  bool               `yaml:"king_capture_greys"`
	OrdinaryKings     bool               `yaml:"ordinary_kings"`
	KingCaptureRemove bool               `yaml:"king_capture_removes_army"`
	Starts            yaml.Node          `yaml:"starts"`
	Options           optionsDef         `yaml:"options"`
	// Opponents: who captures and checks whom, where not everyone but
	// partners (blocking double chess).
	Opponents [][]string `yaml:"opponents"`
	// A variant's own rules (pawn_leap, no_king_capture, …) are not here:
	// each hook reads its keys (rules.ReadHookOptions, through source).
}

type seatDef struct {
	Pawns       string   `yaml:"pawns"`
	DoubleStep  []string `yaml:"double_step"`
	Promotion   []string `yaml:"promotion"`
	RookCorners []string `yaml:"rook_corners"`
	Reverse     []string `yaml:"reverse"` // Verney: where a pawn turns back
	Resume      []string `yaml:"resume"`  // Verney: where a reversed pawn goes forward again
}

type boardDef struct {
	Name     string   `yaml:"name"`
	Files    int      `yaml:"files"`
	Ranks    int      `yaml:"ranks"`
	Rows     []string `yaml:"rows"`
	Barriers []string `yaml:"barriers"`
}

type optionsDef struct {
	DeadKingWalking     bool `yaml:"dead_king_walking"`
	ClaimWin            bool `yaml:"claim_win"`
	MateAtOnce          bool `yaml:"mate_at_once"`
	StalemateScoresSelf bool `yaml:"stalemate_scores_self"`
	CheapQueenChecks    bool `yaml:"cheap_queen_checks"`
	DrawByAgreement     bool `yaml:"draw_by_agreement"`
}

// Error is a problem in a variant file, with its position.
type Error = yamlpos.Error

// Parse reads one variant file. It checks everything, including building
// the variant from each of its start arrays, so a Definition that parses
// always yields a Variant.
func Parse(file string, data []byte) (*Definition, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(root.Content) == 0 {
		return nil, &Error{File: file, Msg: "the file is empty: want a variant definition (name, mode, board, seats, …)"}
	}
	d := &Definition{file: file, root: root.Content[0]}
	// Not strict here: the hooks' keys are known only once they read them
	// (Variant checks every key, knownKeys).
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&d.raw); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			return nil, &Error{File: file, Msg: strings.TrimPrefix(te.Errors[0], "yaml: ") + " (check the key's spelling and the value's type)"}
		}
		return nil, &Error{File: file, Msg: err.Error()}
	}
	r := &d.raw
	if r.Name == "" {
		return nil, d.errAt("name", "missing: every variant needs a short name")
	}
	d.Name, d.Description, d.Source = r.Name, r.Description, r.Source
	for name, label := range r.SeatNames {
		s, ok := seatByName[name]
		if !ok {
			return nil, d.errAt("seat_names", "%q is not red, blue, yellow or green", name)
		}
		d.SeatNames[s] = label
	}
	d.starts = map[string]string{}
	if r.Starts.Kind != yaml.MappingNode || len(r.Starts.Content) == 0 {
		return nil, d.errAt("starts", "want at least one named start position in FEN4, like modern: \"R-0,0,0,0-…\"")
	}
	for i := 0; i+1 < len(r.Starts.Content); i += 2 {
		k, v := r.Starts.Content[i], r.Starts.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return nil, &Error{File: file, Line: v.Line, Key: "starts." + k.Value, Msg: "want a FEN4 string"}
		}
		d.Starts = append(d.Starts, k.Value)
		d.starts[k.Value] = v.Value
	}
	for _, s := range d.Starts {
		if _, err := d.Variant(s); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Catalog loads every *.yaml file of fsys (for example configs.Variants),
// sorted by name. Two files with the same name are an error.
func Catalog(fsys fs.FS) ([]*Definition, error) {
	files, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		if files, err = fs.Glob(fsys, "variants/*.yaml"); err != nil {
			return nil, err
		}
	}
	var out []*Definition
	seen := map[string]string{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		d, err := Parse(path.Base(f), data)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[d.Name]; dup {
			return nil, &Error{File: path.Base(f), Key: "name", Msg: fmt.Sprintf("%q is already defined in %s", d.Name, prev)}
		}
		seen[d.Name] = path.Base(f)
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Find returns the definition named name from a catalog.
func Find(cat []*Definition, name string) (*Definition, error) {
	var names []string
	for _, d := range cat {
		if d.Name == name {
			return d, nil
		}
		names = append(names, d.Name)
	}
	return nil, fmt.Errorf("unknown variant %q: want one of %s", name, strings.Join(names, ", "))
}

// errAt makes an error at the node of a dotted key path ("seats.red.pawns").
func (d *Definition) errAt(key, format string, a ...any) error {
	return &Error{File: d.file, Line: yamlpos.LineOf(d.root, key), Key: key, Msg: fmt.Sprintf(format, a...)}
}

var seatByName = map[string]rules.Seat{"red": rules.Red, "blue": rules.Blue, "yellow": rules.Yellow, "green": rules.Green}

var kindByName = map[string]rules.Kind{"queen": rules.Queen, "rook": rules.Rook, "bishop": rules.Bishop, "knight": rules.Knight, "king": rules.King, "pawn": rules.Pawn}

var dirByName = map[string]rules.Dir{"north": rules.North, "east": rules.East, "south": rules.South, "west": rules.West}

// Variant builds the rules for one of the definition's start arrays ("" for
// the default, the first listed).
func (d *Definition) Variant(start string) (*rules.Variant, error) {
	if start == "" {
		start = d.Starts[0]
	}
	fen, ok := d.starts[start]
	if !ok {
		return nil, fmt.Errorf("variant %s has no start %q: want one of %s", d.Name, start, strings.Join(d.Starts, ", "))
	}
	r := &d.raw
	v := &rules.Variant{Name: r.Name, Start: fen}
	mode, ok := rules.ModeByKey(r.Mode)
	if !ok {
		keys := rules.ModeKeys()
		return nil, d.errAt("mode", "%q is not %s or %s", r.Mode, strings.Join(keys[:len(keys)-1], ", "), keys[len(keys)-1])
	}
	v.Mode = mode
	g, err := d.geometry()
	if err != nil {
		return nil, err
	}
	v.Geometry = g
	if len(r.TurnOrder) == 0 {
		return nil, d.errAt("turn_order", "missing: list the seats in the order they move, like [red, blue, yellow, green]")
	}
	for _, name := range r.TurnOrder {
		s, ok := seatByName[name]
		if !ok {
			return nil, d.errAt("turn_order", "%q is not red, blue, yellow or green", name)
		}
		v.Order = append(v.Order, s)
	}
	team := map[rules.Seat]int{}
	for i, group := range r.Partners {
		for _, name := range group {
			s, ok := seatByName[name]
			if !ok {
				return nil, d.errAt("partners", "%q is not red, blue, yellow or green", name)
			}
			if _, dup := team[s]; dup {
				return nil, d.errAt("partners", "%s is in two partnerships", name)
			}
			team[s] = i + 1
		}
	}
	for a := rules.Seat(0); a < rules.NumSeats; a++ {
		for b := rules.Seat(0); b < rules.NumSeats; b++ {
			partner := a != b && team[a] != 0 && team[a] == team[b]
			v.CanCapture[a][b] = a != b && (!partner || r.CapturePartners)
			v.Checks[a][b] = a != b && (!partner || r.PartnersGiveCheck)
		}
	}
	if err := d.opponents(v); err != nil {
		return nil, err
	}
	for _, name := range []string{"red", "blue", "yellow", "green"} {
		s := seatByName[name]
		sd, ok := r.Seats[name]
		if !ok {
			return nil, d.errAt("seats", "missing seat %s (every seat needs pawns, double_step, promotion, rook_corners)", name)
		}
		key := "seats." + name
		dir, ok := dirByName[sd.Pawns]
		if !ok {
			return nil, d.errAt(key+".pawns", "%q is not north, east, south or west", sd.Pawns)
		}
		sr := rules.SeatRules{Forward: dir, RookHomes: [2]square.Square{square.None, square.None}}
		if sr.DoubleStep, err = d.squares(g, key+".double_step", sd.DoubleStep); err != nil {
			return nil, err
		}
		if sr.Promotion, err = d.squares(g, key+".promotion", sd.Promotion); err != nil {
			return nil, err
		}
		if sr.Reverse, err = d.squares(g, key+".reverse", sd.Reverse); err != nil {
			return nil, err
		}
		if sr.Resume, err = d.squares(g, key+".resume", sd.Resume); err != nil {
			return nil, err
		}
		if len(sd.RookCorners) > 2 {
			return nil, d.errAt(key+".rook_corners", "at most two rook corners")
		}
		for i, c := range sd.RookCorners {
			q, err := square.Parse(c)
			if err != nil || !g.Has(q) {
				return nil, d.errAt(key+".rook_corners", "%q is not a square of the board", c)
			}
			sr.RookHomes[i] = q
		}
		v.Seats[s] = sr
	}
	for name := range r.Seats {
		if _, ok := seatByName[name]; !ok {
			return nil, d.errAt("seats."+name, "%q is not red, blue, yellow or green", name)
		}
	}
	for _, k := range r.Promotion {
		kind, ok := kindByName[k]
		if !ok || kind == rules.Pawn || (kind == rules.King && !r.OrdinaryKings) {
			return nil, d.errAt("promotion", "%q is not queen, rook, bishop or knight (king only where kings are ordinary pieces)", k)
		}
		v.Promotions = append(v.Promotions, kind)
	}
	v.PromotedWorthOne = r.PromotedWorthOne
	v.Castling, v.DoubleStep, v.EnPassant = r.Castling, r.DoubleStep, r.EnPassant
	v.KingCaptureGreys = r.KingCaptureGreys
	v.OrdinaryKings = r.OrdinaryKings
	v.KingCaptureRemovesArmy = r.KingCaptureRemove
	o := r.Options
	v.Options = rules.Options{DeadKingWalking: o.DeadKingWalking, ClaimWin: o.ClaimWin, MateAtOnce: o.MateAtOnce,
		StalemateScoresSelf: o.StalemateScoresSelf, CheapQueenChecks: o.CheapQueenChecks, DrawByAgreement: o.DrawByAgreement}
	src := &source{d: d, g: g, used: map[string]bool{}}
	for s, t := range team {
		src.team[s] = uint8(t)
	}
	if err := rules.ReadHookOptions(v, src); err != nil {
		return nil, err
	}
	if err := d.knownKeys(src.used); err != nil {
		return nil, err
	}
	if err := v.Compile(); err != nil {
		return nil, &Error{File: d.file, Msg: err.Error()}
	}
	if _, err := rules.ParseFEN4(v, fen); err != nil {
		return nil, d.errAt("starts."+start, "%v", err)
	}
	return v, nil
}

// geometry reads board: a named board ("cross14", "center8": the cross
// board's central 8×8, d4–k11) or a mapping with files, ranks, rows (top
// rank first; '.' a square, anything else none) and barriers ("e4|e5").
func (d *Definition) geometry() (*rules.Geometry, error) {
	n := &d.raw.Board
	if n.Kind == yaml.ScalarNode {
		return namedBoard(n.Value, d)
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errAt("board", "want cross14, center8, or a mapping with files, ranks and rows")
	}
	var b boardDef
	if err := n.Decode(&b); err != nil {
		return nil, d.errAt("board", "%v", err)
	}
	if b.Files < 1 || b.Files > square.MaxFiles || b.Ranks < 1 || b.Ranks > square.MaxRanks {
		return nil, d.errAt("board", "files and ranks must be 1 to 16")
	}
	if len(b.Rows) != b.Ranks {
		return nil, d.errAt("board.rows", "%d rows, want one per rank (%d), top rank first", len(b.Rows), b.Ranks)
	}
	var play square.Set
	for i, row := range b.Rows {
		if len(row) != b.Files {
			return nil, d.errAt("board.rows", "row %d has %d characters, want %d", i+1, len(row), b.Files)
		}
		for f := 0; f < b.Files; f++ {
			if row[f] == '.' {
				play.Add(square.At(f, b.Ranks-1-i))
			}
		}
	}
	var bars []rules.Barrier
	for _, bs := range b.Barriers {
		a, c, ok := strings.Cut(bs, "|")
		qa, err1 := square.Parse(strings.TrimSpace(a))
		qc, err2 := square.Parse(strings.TrimSpace(c))
		if !ok || err1 != nil || err2 != nil {
			return nil, d.errAt("board.barriers", "%q: want two adjacent squares like \"e4|e5\"", bs)
		}
		bars = append(bars, rules.Barrier{A: qa, B: qc})
	}
	name := b.Name
	if name == "" {
		name = d.raw.Name
	}
	g, err := rules.NewGeometry(name, b.Files, b.Ranks, play, bars)
	if err != nil {
		return nil, d.errAt("board", "%v", err)
	}
	return g, nil
}

func namedBoard(name string, d *Definition) (*rules.Geometry, error) {
	switch name {
	case "cross14":
		return rules.Cross14(), nil
	case "center8":
		var s square.Set
		for r := 3; r <= 10; r++ {
			for f := 3; f <= 10; f++ {
				s.Add(square.At(f, r))
			}
		}
		return rules.NewGeometry("center8", 14, 14, s, nil)
	}
	return nil, d.errAt("board", "%q is not a known board: want cross14, center8, or a mapping with files, ranks and rows", name)
}

// squares reads a list of square specs: "rank 2", "file b" or a square
// name; ranks and files keep only the board's squares.
func (d *Definition) squares(g *rules.Geometry, key string, specs []string) (square.Set, error) {
	var out square.Set
	for _, spec := range specs {
		f := strings.Fields(spec)
		switch {
		case len(f) == 2 && f[0] == "rank":
			r, err := strconv.Atoi(f[1])
			if err != nil || r < 1 || r > g.Ranks {
				return out, d.errAt(key, "%q: rank must be 1 to %d", spec, g.Ranks)
			}
			for x := 0; x < g.Files; x++ {
				if q := square.At(x, r-1); g.Has(q) {
					out.Add(q)
				}
			}
		case len(f) == 2 && f[0] == "file" && len(f[1]) == 1:
			x := int(f[1][0]) - 'a'
			if x < 0 || x >= g.Files {
				return out, d.errAt(key, "%q: file must be a to %c", spec, 'a'+g.Files-1)
			}
			for y := 0; y < g.Ranks; y++ {
				if q := square.At(x, y); g.Has(q) {
					out.Add(q)
				}
			}
		case len(f) == 1 && strings.Contains(f[0], "-"):
			a, b, _ := strings.Cut(f[0], "-")
			qa, err1 := square.Parse(a)
			qb, err2 := square.Parse(b)
			if err1 != nil || err2 != nil || qa.File() > qb.File() || qa.Rank() > qb.Rank() {
				return out, d.errAt(key, "%q: want a rectangle from its lower-left to its upper-right square, like \"m1-p4\"", spec)
			}
			for x := qa.File(); x <= qb.File(); x++ {
				for y := qa.Rank(); y <= qb.Rank(); y++ {
					if q := square.At(x, y); g.Has(q) {
						out.Add(q)
					}
				}
			}
		case len(f) == 1:
			q, err := square.Parse(f[0])
			if err != nil || !g.Has(q) {
				return out, d.errAt(key, "%q is not a square of the board (or \"rank N\", \"file x\")", spec)
			}
			out.Add(q)
		default:
			return out, d.errAt(key, "%q: want \"rank N\", \"file x\" or a square name", spec)
		}
	}
	return out, nil
}

// Fits reports whether the variant's board fits on a board with the given
// squares (the physical board's sensors), and if not, why. The board must
// have every square the variant plays on, and no square beyond the
// variant's grid: a 14×14 cross game does not fit the 16×16 board (its
// squares would not line up with the board's), nor a 16×16 game the
// cross. A variant on part of its grid (Stevenson's central 8×8 of the
// cross) fits the board of that grid.
func Fits(v *rules.Variant, board square.Set) (bool, string) {
	missing := v.Geometry.Playable.AndNot(board)
	if missing.Len() > 0 {
		return false, fmt.Sprintf("needs a %d×%d board (%d squares this board does not have)", v.Geometry.Files, v.Geometry.Ranks, missing.Len())
	}
	files, ranks, beyond := 0, 0, 0
	for _, q := range board.Squares() {
		files, ranks = max(files, q.File()+1), max(ranks, q.Rank()+1)
		if q.File() >= v.Geometry.Files || q.Rank() >= v.Geometry.Ranks {
			beyond++
		}
	}
	if beyond > 0 {
		return false, fmt.Sprintf("needs a %d×%d board; this board is %d×%d (%d squares beyond the variant's board)", v.Geometry.Files, v.Geometry.Ranks, files, ranks, beyond)
	}
	return true, ""
}

// opponents reads opponents: [[a, b], …]. With opponents, the listed pairs, and only they, capture and give check
// to each other; every other seat's pieces are blocks to them (blocking
// double chess: "the White men may only capture Black pieces, and
// vice-versa … As well, only White may give check to Black").
func (d *Definition) opponents(v *rules.Variant) error {
	r := &d.raw
	if len(r.Opponents) > 0 {
		v.CanCapture = [rules.NumSeats][rules.NumSeats]bool{}
		v.Checks = [rules.NumSeats][rules.NumSeats]bool{}
	}
	for _, pair := range r.Opponents {
		if len(pair) != 2 {
			return d.errAt("opponents", "%v: want pairs of seats, like [red, yellow]", pair)
		}
		a, ok1 := seatByName[pair[0]]
		b, ok2 := seatByName[pair[1]]
		if !ok1 || !ok2 || a == b {
			return d.errAt("opponents", "%v: want two different seats of red, blue, yellow, green", pair)
		}
		v.CanCapture[a][b], v.CanCapture[b][a] = true, true
		v.Checks[a][b], v.Checks[b][a] = true, true
	}
	return nil
}

// source is a variant file as the hooks read their own options from it
// (rules.OptionSource); used records the keys they read.
type source struct {
	d    *Definition
	g    *rules.Geometry
	team [rules.NumSeats]uint8
	used map[string]bool
}

// node returns the value at a dotted key, or nil, and marks the key used.
func (s *source) node(key string) *yaml.Node {
	s.used[key] = true
	n := s.d.root
	for _, part := range strings.Split(key, ".") {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

// Bool reads the true or false at key.
func (s *source) Bool(key string) (bool, error) {
	n := s.node(key)
	if n == nil {
		return false, nil
	}
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		return false, s.Errorf(key, "%q: want true or false", n.Value)
	}
	return b, nil
}

// Seats reads a list of seat names at key.
func (s *source) Seats(key string) ([]rules.Seat, error) {
	n := s.node(key)
	if n == nil {
		return nil, nil
	}
	var names []string
	if err := n.Decode(&names); err != nil {
		return nil, s.Errorf(key, "want a list of seats, like [red, yellow]")
	}
	var out []rules.Seat
	for _, name := range names {
		seat, ok := seatByName[name]
		if !ok {
			return nil, s.Errorf(key, "%q is not red, blue, yellow or green", name)
		}
		out = append(out, seat)
	}
	return out, nil
}

// SeatSquares reads each seat's squares at seats.SEAT.key.
func (s *source) SeatSquares(key string) ([rules.NumSeats]square.Set, error) {
	var out [rules.NumSeats]square.Set
	for _, name := range []string{"red", "blue", "yellow", "green"} {
		seat := seatByName[name]
		k := "seats." + name + "." + key
		n := s.node(k)
		if n == nil {
			continue
		}
		var specs []string
		if err := n.Decode(&specs); err != nil {
			return out, s.Errorf(k, "want a list of squares, like [m1-p4]")
		}
		set, err := s.d.squares(s.g, k, specs)
		if err != nil {
			return out, err
		}
		out[seat] = set
	}
	return out, nil
}

// Partnerships numbers each seat's partnership as partners: lists them.
func (s *source) Partnerships() [rules.NumSeats]uint8 { return s.team }

// Errorf makes an error at key.
func (s *source) Errorf(key, format string, a ...any) error { return s.d.errAt(key, format, a...) }

// knownKeys checks that every key of the file is one the loader or a hook
// reads (used: the hooks' keys), at the top level, under options and
// under each seat.
func (d *Definition) knownKeys(used map[string]bool) error {
	check := func(n *yaml.Node, prefix string, t reflect.Type) error {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		known := map[string]bool{}
		for i := 0; i < t.NumField(); i++ {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			known[name] = true
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !known[k.Value] && !used[prefix+k.Value] {
				return &Error{File: d.file, Line: k.Line, Key: prefix + k.Value,
					Msg: fmt.Sprintf("field %s not found: neither the loader nor a linked-in variant package reads it (check the key's spelling and the value's type; a variant's own key needs its package listed in rules/shipped)", k.Value)}
			}
		}
		return nil
	}
	if err := check(d.root, "", reflect.TypeOf(def{})); err != nil {
		return err
	}
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		k, n := d.root.Content[i], d.root.Content[i+1]
		switch k.Value {
		case "options":
			if err := check(n, "options.", reflect.TypeOf(optionsDef{})); err != nil {
				return err
			}
		case "seats":
			for j := 0; n.Kind == yaml.MappingNode && j+1 < len(n.Content); j += 2 {
				if err := check(n.Content[j+1], "seats."+n.Content[j].Value+".", reflect.TypeOf(seatDef{})); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
