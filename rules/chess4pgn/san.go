package chess4pgn

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// san is a move token read: a castling or a piece move.
type san struct {
	castle, long bool
	castleBy     rules.Seat // the colour letter of a castling, or NoSeat
	kind         rules.Kind
	fromLetter   byte // origin rank letter, 0 when not written
	fromNumber   int  // origin file number, 0 when not written
	capture      bool
	to           square.Square
	promo        rules.Kind
	marks        string // the check and mate marks as written
}

var (
	sanRe    = regexp.MustCompile(`^([KQRBN])?([a-n])?(1[0-4]|[1-9])?(x)?([a-n])(1[0-4]|[1-9])(?:=?([QRBN]))?([#+][#+wsbg]*)?$`)
	castleRe = regexp.MustCompile(`^[oO]-[oO](-[oO])?(?:-([wsbgWSBG]))?([#+][#+wsbg]*)?$`)
	markRe   = regexp.MustCompile(`^(\+{1,3}|#|(#[wsbg]+)?(##[wsbg]+|###)?)$`)
)

// parseSAN reads a move token.
func parseSAN(tok string) (san, error) {
	s := san{castleBy: rules.NoSeat, to: square.None}
	if m := castleRe.FindStringSubmatch(tok); m != nil {
		s.castle, s.long, s.marks = true, m[1] != "", m[3]
		if m[2] != "" {
			s.castleBy, _ = colourByLetter(m[2][0])
		}
		return s, checkMarks(s.marks)
	}
	m := sanRe.FindStringSubmatch(tok)
	if m == nil {
		return s, fmt.Errorf("not a move: want a pawn move like k7 or gxk7, a piece move like Nk3 or Qf3xb7, o-o-w, o-o-o-s or 0")
	}
	s.kind = rules.Pawn
	if m[1] != "" {
		s.kind, _ = rules.KindFromLetter(m[1][0])
	}
	if m[2] != "" {
		s.fromLetter = m[2][0]
	}
	if m[3] != "" {
		s.fromNumber, _ = strconv.Atoi(m[3])
	}
	s.capture = m[4] != ""
	to, err := Square(m[5] + m[6])
	if err != nil {
		return s, err
	}
	s.to = to
	if m[7] != "" {
		if s.kind != rules.Pawn {
			return s, fmt.Errorf("only a pawn promotes")
		}
		s.promo, _ = rules.KindFromLetter(m[7][0])
	}
	s.marks = m[8]
	return s, checkMarks(s.marks)
}

func checkMarks(marks string) error {
	if !markRe.MatchString(marks) {
		return fmt.Errorf("marks %q: want '#' and the letters of the colours checked, then '##' and those mated (\"#g##bw\"), or '###'", marks)
	}
	return nil
}

// isCapture reports whether m takes a piece in p.
func isCapture(p *rules.Position, m rules.Move) bool {
	if c, _ := m.IsCastle(); c {
		return false
	}
	return m.IsEnPassant() || p.At(m.To()).IsPiece()
}

// acrossLetter reports whether the coordinate across a pawn's path is the
// rank letter (pawns going east or west) rather than the file number.
func acrossLetter(v *rules.Variant, s rules.Seat) bool {
	f := v.Seats[s].Forward
	return f == rules.East || f == rules.West
}

// sanText writes m, one of the legal moves in p, without marks.
func sanText(p *rules.Position, legal []rules.Move, m rules.Move) string {
	pc := p.At(m.From())
	if c, short := m.IsCastle(); c {
		if short {
			return "o-o-" + string(ColourLetter(pc.Seat()))
		}
		return "o-o-o-" + string(ColourLetter(pc.Seat()))
	}
	var b strings.Builder
	kind := pc.Kind()
	if kind != rules.Pawn {
		b.WriteByte(kind.Letter())
	}
	capture := isCapture(p, m)
	var others []square.Square
	for _, x := range legal {
		if c, _ := x.IsCastle(); c || x.To() != m.To() || x.From() == m.From() || p.At(x.From()).Kind() != kind {
			continue
		}
		others = append(others, x.From())
	}
	sameLetter, sameNumber := false, false
	for _, o := range others {
		sameLetter = sameLetter || letterOf(o) == letterOf(m.From())
		sameNumber = sameNumber || numberOf(o) == numberOf(m.From())
	}
	letter, number := false, false
	switch {
	case kind == rules.Pawn && capture:
		// Like "exd5": the origin coordinate across the pawn's path,
		// and the other one too if that is not enough.
		if acrossLetter(p.Variant(), pc.Seat()) {
			letter, number = true, sameLetter
		} else {
			number, letter = true, sameNumber
		}
	case len(others) == 0:
	case !sameLetter:
		letter = true
	case !sameNumber:
		number = true
	default:
		letter, number = true, true
	}
	if letter {
		b.WriteByte(letterOf(m.From()))
	}
	if number {
		b.WriteString(strconv.Itoa(numberOf(m.From())))
	}
	if capture {
		b.WriteByte('x')
	}
	b.WriteString(Name(m.To()))
	if k := m.Promotion(); k != rules.NoKind {
		b.WriteByte('=')
		b.WriteByte(k.Letter())
	}
	return b.String()
}

// matches reports whether the token s describes m, a legal move in p.
func (s san) matches(p *rules.Position, m rules.Move) bool {
	c, short := m.IsCastle()
	if s.castle || c {
		return s.castle && c && s.long == !short && (s.castleBy == rules.NoSeat || s.castleBy == p.At(m.From()).Seat())
	}
	if m.To() != s.to || p.At(m.From()).Kind() != s.kind {
		return false
	}
	if s.fromLetter != 0 && s.fromLetter != letterOf(m.From()) {
		return false
	}
	if s.fromNumber != 0 && s.fromNumber != numberOf(m.From()) {
		return false
	}
	if s.capture && !isCapture(p, m) {
		return false
	}
	if s.promo != rules.NoKind {
		return m.Promotion() == s.promo
	}
	// No promotion written: the variant's default piece.
	pr := p.Variant().Promotions
	return m.Promotion() == rules.NoKind || (len(pr) > 0 && m.Promotion() == pr[0])
}

var kindNames = map[rules.Kind]string{rules.Pawn: "pawn", rules.Knight: "knight", rules.Bishop: "bishop", rules.Rook: "rook", rules.Queen: "queen", rules.King: "king"}

// resolve finds the one legal move the token s describes, for colour.
func (s san) resolve(p *rules.Position, legal []rules.Move, colour rules.Seat) (rules.Move, error) {
	var found []rules.Move
	for _, m := range legal {
		if s.matches(p, m) {
			found = append(found, m)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	if s.castle {
		side := "king's side (o-o)"
		if s.long {
			side = "queen's side (o-o-o)"
		}
		if len(found) == 0 {
			return 0, fmt.Errorf("%s cannot castle on the %s now", Colours[colour], side)
		}
		return 0, fmt.Errorf("castling on the %s is ambiguous", side)
	}
	name := kindNames[s.kind]
	if len(found) > 1 {
		var from []string
		for _, m := range found {
			from = append(from, upperName(m.From()))
		}
		return 0, fmt.Errorf("ambiguous: %ss on %s can reach %s; add the origin's letter or number", name, strings.Join(from, " and "), Name(s.to))
	}
	where := ""
	switch {
	case s.fromLetter != 0 && s.fromNumber != 0:
		where = " on " + strings.ToUpper(string(s.fromLetter)+strconv.Itoa(s.fromNumber))
	case s.fromLetter != 0:
		where = " on rank " + strings.ToUpper(string(s.fromLetter))
	case s.fromNumber != 0:
		where = " on file " + strconv.Itoa(s.fromNumber)
	}
	if s.capture && !p.At(s.to).IsPiece() {
		// maybe en passant, but nothing matched
		return 0, fmt.Errorf("no %s %s%s can capture on %s", Colours[colour], name, where, Name(s.to))
	}
	return 0, fmt.Errorf("no %s %s%s can reach %s", Colours[colour], name, where, Name(s.to))
}
