package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"boardd/rules/square"
)

// FEN4, chess.com's position format, in both corner dialects (x tokens
// and counted corners), with boardd's extensions ('d' for a dead piece,
// 'v' for a reversed pawn, rD for FFA's one-point queen) and the extras
// block kept as written. A hook completes what a variant infers from a
// position just read (OnRead).

// extra is one entry of a FEN4 extras block ({'enPassant':(...), ...}),
// kept as written so that entries boardd does not interpret survive a
// round trip.
type extra struct{ key, value string }

// FEN4 is chess.com's position notation for four-player chess: seven or
// eight fields separated by '-':
//
//	turn - eliminated - castle kingside - castle queenside - points - half-move clock [- extras] - board
//
// for example the modern start:
//
//	R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,…
//
// The board lists ranks 14 down to 1, separated by '/', each a
// comma-separated row of piece tokens ("rK", "dgP" for a dead piece, "rD"
// for FFA's one-point queen: a promoted queen, written with the letter
// chess.com's PGN4 gives it in "=D"), runs
// of empty squares ("8") and "x" for a square that is not on the board.
// Older exports count the corners as empty squares instead ("3,yR,…,3",
// "14"); both dialects are read, and a position writes back in the
// dialect it was read in.

// ParseFEN4 reads a position of variant v from FEN4.
func ParseFEN4(v *Variant, fen string) (*Position, error) {
	p := &Position{v: v}
	fen = strings.TrimSpace(fen)
	if fen == "" {
		return nil, fmt.Errorf("FEN4 is empty: want turn-eliminated-castling-castling-points-clock-board")
	}
	fields := make([]string, 0, 8)
	rest := fen
	for len(fields) < 6 {
		i := strings.IndexByte(rest, '-')
		if i < 0 {
			return nil, fmt.Errorf("FEN4 %q: found %d of the 7 '-'-separated fields (turn-eliminated-castling-castling-points-clock-board)", short(fen), len(fields)+1)
		}
		fields = append(fields, rest[:i])
		rest = rest[i+1:]
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if strings.HasPrefix(rest, "{") {
		end := matchBrace(rest)
		if end < 0 {
			return nil, fmt.Errorf("FEN4 extras %q: no closing '}'", short(rest))
		}
		if err := p.parseExtras(rest[1:end]); err != nil {
			return nil, err
		}
		rest = strings.TrimLeft(rest[end+1:], " \t\r\n")
		if !strings.HasPrefix(rest, "-") {
			return nil, fmt.Errorf("FEN4: want '-' between the extras block and the board, found %q", short(rest))
		}
		rest = rest[1:]
	}
	switch strings.TrimSpace(fields[0]) {
	case "R":
		p.turn = Red
	case "B":
		p.turn = Blue
	case "Y":
		p.turn = Yellow
	case "G":
		p.turn = Green
	default:
		return nil, fmt.Errorf("FEN4 turn %q: want R, B, Y or G", fields[0])
	}
	flags := func(name, f string) ([NumSeats]int, error) {
		var out [NumSeats]int
		parts := strings.Split(strings.TrimSpace(f), ",")
		if len(parts) != NumSeats {
			return out, fmt.Errorf("FEN4 %s %q: want 4 comma-separated numbers (Red,Blue,Yellow,Green)", name, f)
		}
		for i, s := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 0 || n > 1_000_000 {
				return out, fmt.Errorf("FEN4 %s %q: %q is not a number", name, f, s)
			}
			out[i] = n
		}
		return out, nil
	}
	elim, err := flags("eliminated", fields[1])
	if err != nil {
		return nil, err
	}
	ck, err := flags("kingside castling", fields[2])
	if err != nil {
		return nil, err
	}
	cq, err := flags("queenside castling", fields[3])
	if err != nil {
		return nil, err
	}
	pts, err := flags("points", fields[4])
	if err != nil {
		return nil, err
	}
	for s := 0; s < NumSeats; s++ {
		if elim[s] > 1 || ck[s] > 1 || cq[s] > 1 {
			return nil, fmt.Errorf("FEN4: eliminated and castling flags must be 0 or 1")
		}
		p.out[s] = elim[s] == 1
		if ck[s] == 1 {
			p.castle[s] |= castleShort
		}
		if cq[s] == 1 {
			p.castle[s] |= castleLong
		}
		p.points[s] = pts[s]
	}
	hm, err := strconv.Atoi(strings.TrimSpace(fields[5]))
	if err != nil || hm < 0 {
		return nil, fmt.Errorf("FEN4 half-move clock %q: want a number of plies", fields[5])
	}
	p.halfmove = hm
	if err := p.parseBoard(rest); err != nil {
		return nil, err
	}
	if p.out[p.turn] {
		return nil, fmt.Errorf("FEN4: %s is to move but marked eliminated", p.turn)
	}
	p.readHeirs()
	if v.provides&(1<<OnRead) != 0 {
		for _, h := range v.hooks {
			if h.Provides(OnRead) {
				h.Read(p)
			}
		}
	}
	return p, nil
}

func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// matchBrace returns the index of the '}' closing s[0] == '{', honouring
// quotes, or -1.
func matchBrace(s string) int {
	end := -1
	walkTop(s, func(i int, c byte, depth int) bool {
		if c == '}' && depth == 1 {
			end = i
			return false
		}
		return true
	})
	return end
}

// splitTop splits s on sep outside quotes, parentheses and braces.
func splitTop(s string, sep byte) []string {
	var out []string
	start := 0
	walkTop(s, func(i int, c byte, depth int) bool {
		if c == sep && depth == 0 {
			out = append(out, s[start:i])
			start = i + 1
		}
		return true
	})
	return append(out, s[start:])
}

// walkTop calls visit with each byte of s outside quotes and the depth of
// parentheses, brackets and braces open before it, until visit returns
// false. It is the one place FEN4's extras are scanned for their nesting.
func walkTop(s string, visit func(i int, c byte, depth int) bool) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '\'' || c == '"' {
			quote = c
			continue
		}
		if !visit(i, c, depth) {
			return
		}
		switch c {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
		}
	}
}

func unquote(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1], true
	}
	return s, false
}

func (p *Position) parseExtras(body string) error {
	if strings.TrimSpace(body) == "" {
		return nil
	}
	for _, item := range splitTop(body, ',') {
		kv := splitTop(item, ':')
		if len(kv) < 2 {
			return fmt.Errorf("FEN4 extras entry %q: want 'key':value", short(item))
		}
		key, ok := unquote(kv[0])
		if !ok || key == "" {
			return fmt.Errorf("FEN4 extras entry %q: the key must be quoted", short(item))
		}
		val := strings.TrimSpace(strings.Join(kv[1:], ":"))
		if key == "enPassant" {
			if err := p.parseEnPassant(val); err != nil {
				return err
			}
		}
		p.extras = append(p.extras, extra{key: key, value: val})
	}
	return nil
}

func (p *Position) parseEnPassant(val string) error {
	if len(val) < 2 || val[0] != '(' || val[len(val)-1] != ')' {
		return fmt.Errorf("FEN4 enPassant %q: want a tuple of four entries ('m:t','','','')", short(val))
	}
	parts := splitTop(val[1:len(val)-1], ',')
	if len(parts) != NumSeats {
		return fmt.Errorf("FEN4 enPassant %q: want one entry per seat (4), found %d", short(val), len(parts))
	}
	for s, part := range parts {
		e, ok := unquote(part)
		if !ok {
			return fmt.Errorf("FEN4 enPassant entry %q: want a quoted 'skipped:pawn' pair or ''", part)
		}
		if e == "" {
			continue
		}
		ms, ts, found := strings.Cut(e, ":")
		if !found {
			return fmt.Errorf("FEN4 enPassant entry %q for %s: want 'skipped:pawn', like 'h3:h4'", e, Seat(s))
		}
		m, err1 := square.Parse(ms)
		t, err2 := square.Parse(ts)
		if err1 != nil || err2 != nil || !p.v.Geometry.Has(m) || !p.v.Geometry.Has(t) {
			return fmt.Errorf("FEN4 enPassant entry %q for %s: not two squares on the board", e, Seat(s))
		}
		p.ep[s] = epEntry{target: int16(cell(m)), pawn: int16(cell(t))}
	}
	return nil
}

func (p *Position) parseBoard(b string) error {
	g := p.v.Geometry
	b = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, b)
	b = strings.TrimSuffix(b, "/")
	rows := strings.Split(b, "/")
	if len(rows) != g.Ranks {
		return fmt.Errorf("FEN4 board: found %d ranks separated by '/', want %d", len(rows), g.Ranks)
	}
	for i := range p.board {
		p.board[i] = Wall
	}
	for _, c := range p.v.cells {
		p.board[c] = NoPiece
	}
	sawX, sawCounted := false, false
	for i, row := range rows {
		r := g.Ranks - 1 - i
		f := 0
		for _, tok := range strings.Split(row, ",") {
			where := fmt.Sprintf("FEN4 board rank %d", r+1)
			switch {
			case tok == "":
				return fmt.Errorf("%s: empty entry between commas", where)
			case tok == "x" || tok == "X":
				q := square.At(f, r)
				if f >= g.Files || g.Has(q) {
					return fmt.Errorf("%s: 'x' on %s, which is a square of the board", where, q)
				}
				sawX = true
				f++
			case tok[0] >= '0' && tok[0] <= '9':
				n, err := strconv.Atoi(tok)
				if err != nil || n < 1 || n > g.Files {
					return fmt.Errorf("%s: %q is not a count of empty squares (1-%d)", where, tok, g.Files)
				}
				for k := 0; k < n && f+k < g.Files; k++ {
					if !g.Has(square.At(f+k, r)) {
						sawCounted = true
					}
				}
				f += n
			default:
				pc, err := parsePiece(p.v, tok)
				if err != nil {
					return fmt.Errorf("%s: %v", where, err)
				}
				q := square.At(f, r)
				if f >= g.Files || !g.Has(q) {
					return fmt.Errorf("%s: piece %s stands on %s, which is not on the board", where, tok, q)
				}
				p.board[cell(q)] = pc
				if pc.Kind() == King {
					if p.king[pc.Seat()] != 0 {
						return fmt.Errorf("FEN4 board: %s has two kings (%s and %s)", pc.Seat(), squareOf(int(p.king[pc.Seat()])), q)
					}
					p.king[pc.Seat()] = int16(cell(q))
				}
				f++
			}
			if f > g.Files {
				return fmt.Errorf("FEN4 board rank %d: describes %d files, want %d", r+1, f, g.Files)
			}
		}
		if f != g.Files {
			return fmt.Errorf("FEN4 board rank %d: describes %d files, want %d", r+1, f, g.Files)
		}
	}
	if sawX && sawCounted {
		return fmt.Errorf("FEN4 board mixes 'x' corners with corners counted as empty squares")
	}
	p.counted = sawCounted
	// An entry's skipped square may be occupied (another seat moved onto
	// it while the entry lives); it simply cannot be taken en passant then.
	p.rebuildLists()
	return nil
}

// parsePiece reads one piece token of variant v: a seat letter and a
// piece letter, with 'd' (dead) and 'v' (reversed pawn) prefixes; 'D' is
// FFA's one-point (promoted) queen, which only a variant with
// PromotedWorthOne has.
func parsePiece(v *Variant, tok string) (Piece, error) {
	dead, reversed := false, false
	t := tok
	for len(t) > 2 && (t[0] == 'd' || t[0] == 'v') {
		dead, reversed = dead || t[0] == 'd', reversed || t[0] == 'v'
		t = t[1:]
	}
	if len(t) != 2 {
		return 0, fmt.Errorf("%q is not a piece (like rK, bQ, dyP, vrP), a count or x", tok)
	}
	var s Seat
	switch t[0] {
	case 'r':
		s = Red
	case 'b':
		s = Blue
	case 'y':
		s = Yellow
	case 'g':
		s = Green
	default:
		return 0, fmt.Errorf("%q: seat letter %q is not r, b, y or g", tok, t[0])
	}
	k, ok := KindFromLetter(t[1])
	if !ok {
		return 0, fmt.Errorf("%q: piece letter %q is not K, Q, R, B, N, P or D", tok, t[1])
	}
	pc := MakePiece(s, k)
	if t[1] == 'D' {
		if !v.PromotedWorthOne {
			return 0, fmt.Errorf("%q: a one-point queen (D) exists only in a variant whose promoted queens are worth one point (FFA), not in %s: write Q", tok, v.Name)
		}
		pc = pc.WithPromoted()
	}
	if reversed {
		if k != Pawn {
			return 0, fmt.Errorf("%q: only a pawn can be reversed (the 'v' prefix)", tok)
		}
		pc = pc.WithReversed()
	}
	if dead {
		pc = pc.WithDead()
	}
	return pc, nil
}

// FEN4 writes the position in chess.com's FEN4, in the corner dialect it
// was read in ('x' for positions built from scratch).
func (p *Position) FEN4() string {
	var b strings.Builder
	b.WriteByte("RBYG"[p.turn])
	writeFlags := func(f func(s int) int) {
		b.WriteByte('-')
		for s := 0; s < NumSeats; s++ {
			if s > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(f(s)))
		}
	}
	b2i := func(x bool) int {
		if x {
			return 1
		}
		return 0
	}
	writeFlags(func(s int) int { return b2i(p.out[s] || p.heir[s] != 0) }) // an inherited army's seat has no turn
	writeFlags(func(s int) int { return b2i(p.castle[s]&castleShort != 0) })
	writeFlags(func(s int) int { return b2i(p.castle[s]&castleLong != 0) })
	writeFlags(func(s int) int { return p.points[s] })
	b.WriteByte('-')
	b.WriteString(strconv.Itoa(p.halfmove))
	b.WriteByte('-')
	if ex := p.extrasText(); ex != "" {
		b.WriteString(ex)
		b.WriteByte('-')
	}
	g := p.v.Geometry
	for r := g.Ranks - 1; r >= 0; r-- {
		if r != g.Ranks-1 {
			b.WriteByte('/')
		}
		run, first := 0, true
		sep := func() {
			if !first {
				b.WriteByte(',')
			}
			first = false
		}
		flush := func() {
			if run > 0 {
				sep()
				b.WriteString(strconv.Itoa(run))
				run = 0
			}
		}
		for f := 0; f < g.Files; f++ {
			q := square.At(f, r)
			if !g.Has(q) {
				if p.counted {
					run++
				} else {
					flush()
					sep()
					b.WriteByte('x')
				}
				continue
			}
			pc := p.board[cell(q)]
			if pc == NoPiece {
				run++
				continue
			}
			flush()
			sep()
			var tok [4]byte
			b.Write(pc.appendToken(tok[:0])) // no allocation per piece
		}
		flush()
	}
	return b.String()
}

// extrasText renders the extras block: entries kept from the input in
// their order, with enPassant rewritten from the position's entries.
func (p *Position) extrasText() string {
	epText := ""
	any := false
	parts := make([]string, NumSeats)
	for s := 0; s < NumSeats; s++ {
		if e := p.ep[s]; e.target != 0 {
			parts[s] = "'" + squareOf(int(e.target)).String() + ":" + squareOf(int(e.pawn)).String() + "'"
			any = true
		} else {
			parts[s] = "''"
		}
	}
	epText = "(" + strings.Join(parts, ",") + ")"

	var items []string
	seenEP := false
	for _, e := range p.extras {
		if e.key == "enPassant" {
			seenEP = true
			items = append(items, "'enPassant':"+epText)
			continue
		}
		items = append(items, "'"+e.key+"':"+e.value)
	}
	if any && !seenEP {
		items = append([]string{"'enPassant':" + epText}, items...)
	}
	if len(items) == 0 {
		return ""
	}
	return "{" + strings.Join(items, ",") + "}"
}

// ParsePlacement builds a position of variant v from a list of pieces
// such as "rK:h1 rQ:d1 bK:a7" (seat letter, piece letter, square; a 'd'
// prefix for a dead piece), with turn to move, no castling rights and no
// en-passant entries. It is the quick way to set up a position by hand.
func ParsePlacement(v *Variant, turn Seat, text string) (*Position, error) {
	p := &Position{v: v, turn: turn}
	for i := range p.board {
		p.board[i] = Wall
	}
	for _, c := range v.cells {
		p.board[c] = NoPiece
	}
	for _, f := range strings.Fields(text) {
		tok, name, ok := strings.Cut(f, ":")
		if !ok {
			return nil, fmt.Errorf("placement %q: want piece:square, like rK:h1", f)
		}
		pc, err := parsePiece(v, tok)
		if err != nil {
			return nil, fmt.Errorf("placement %q: %v", f, err)
		}
		s, err := square.Parse(name)
		if err != nil || !v.Geometry.Has(s) {
			return nil, fmt.Errorf("placement %q: %q is not a square of the board", f, name)
		}
		if p.board[cell(s)] != NoPiece {
			return nil, fmt.Errorf("placement %q: %s is already occupied", f, s)
		}
		p.board[cell(s)] = pc
		if pc.Kind() == King && !pc.Dead() {
			if p.king[pc.Seat()] != 0 {
				return nil, fmt.Errorf("placement %q: %s has two kings", f, pc.Seat())
			}
			p.king[pc.Seat()] = int16(cell(s))
		}
	}
	if turn >= NumSeats {
		return nil, fmt.Errorf("placement: no seat to move")
	}
	p.rebuildLists()
	return p, nil
}
