// Package pgn4 reads and writes chess.com's PGN4, the game record format of
// four-player chess, as text: tags, rounds of slots, comments. It knows
// notation, not rules: whether a move is legal is for the rules engine
// (Replay plays a parsed game through it; Parse, ParseMove and WriteTo
// never look at a position).
//
// A game looks like this:
//
//	[Variant "FFA"]
//	[RuleVariants "DeadKingWalking EnPassant PromoteTo=D"]
//	[StartFen4 "4PC"]
//	[Red "alice"]
//
//	1. h2-h3 .. b4-d4 .. i13-i12 .. m10-l10
//	2. Qg1-j4 .. b7-c7 .. h13-h11 .. Bn9-m10 {[%clk 0:00:58]}
//	…
//	15. Qa11xRa9+# .. d11-d10 .. Bn6xBg13
//	…
//	55. R
//
// # Rounds and slots
//
// Each round ("15.") is one line holding one slot per seat still taking
// turns, in turn order (Red, Blue, Yellow, Green, skipping seats that are
// out), separated by " .. ". A seat that is out has no slot in later
// rounds: above, Red mates Blue in round 15, so round 15 already has only
// Red, Yellow and Green. The last round of a game may be short.
//
// # Tokens
//
// A slot is a move in long algebraic form:
//
//	[piece] from ('-' | 'x' [captured piece] | '~') to ['=' promotion] ['+'…] ['#'…] [R|T|S]
//
// The piece letter is K, Q, R, B, N (or D, a one-point queen); a pawn has
// none. A capture may name the captured piece ("Qg1xQn8", "Bg14xKk10#");
// a captured pawn or grey (dead) piece is not named ("k11xl10"). '='
// names the promotion piece (D, the one-point queen of FFA, or Q, R, B,
// N). Each '+' is a king newly in check (up to three), '#' a king
// checkmated (up to two, "##"). Squares are files a–n and ranks 1–14.
// '~' is boardd's mark for the four-player chess essay's partner pawn swap
// ("e5~f6": the pawn changes places with its partner's pawn instead of
// capturing it); chess.com has no such move.
// Castling is "O-O" or "O-O-O" with the same marks. A trailing R or T
// means the seat resigned or flagged on its turn and, under
// DeadKingWalking, its walking king then made the move ("Ke12-e13T";
// rules.Game.LeaveAndWalk); where no king walks on (Teams, FFA without
// DeadKingWalking) it is the move, then the resignation. A trailing S
// ("Rh4xKh12#S") is chess.com's annotation of the move.
//
// A slot may also hold a lone R (resigned), T (time-out), S (the seat had
// no move and is out: chess.com writes it for a walking king with nowhere
// to go or a stalemated seat) or # (checkmated); "R#" and "T#" are a
// resignation or time-out after which the seat's king stands mated.
// In chess.com's FFA exports a checkmate shows as '#' on the mating move
// and the mated seat's slot simply disappears; a lone # is accepted (other
// PGN4 writers use it) but none of the real games in testdata has one.
//
// chess.com also writes status tokens after the game has ended: the
// stalemate that ends an FFA game with two players left still gives the
// stalemated seat its S ("95. Qd8-d9+ .. S"). Replay reads lone S, #, R
// and T after the end when nothing but such tokens follows and the end
// bears each out (S a seat the last turn stalemated, # one it checkmated,
// R or T a seat still in the game, which changes nothing and is noted),
// and an R or T written after the move that ended the game
// ("Rk11-a11+#R"); a move after the end stops the replay at the first
// token past it.
//
// # Comments and variations
//
// Comments in braces follow the slot they annotate and are kept; a
// "[%clk h:mm:ss]" comment sets the slot's clock. Variations in
// parentheses are skipped with a Warning; ';' comments run to the end of
// the line and are dropped. Several games may follow one another: a tag
// after movetext starts the next game.
package pgn4

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Tag is one header line: [Name "Value"].
type Tag struct{ Name, Value string }

// Game is one PGN4 game as written.
type Game struct {
	// Tags are the header lines in file order.
	Tags []Tag
	// Rounds is the movetext.
	Rounds []Round
	// Result is a trailing result token ("1-0", "0-1", "1/2-1/2", "*") if
	// the movetext has one; chess.com puts the result in its Result tag.
	Result string
}

// Round is one numbered line of the movetext.
type Round struct {
	// Number is the round number as written ("15." is 15).
	Number int
	// Slots holds one slot per seat that has a turn in this round, in
	// turn order, starting with whoever moves first in the round: seats
	// that are out have no slot. A parsed round has one to four slots.
	Slots []Slot
}

// Slot is one seat's turn within a round.
type Slot struct {
	// Text is the token exactly as written.
	Text string
	// Move is the token parsed.
	Move Move
	// Comments are the brace comments after the token, without braces.
	Comments []string
	// Clock is the time left from a [%clk h:mm:ss] comment, if HasClock.
	Clock    time.Duration
	HasClock bool
}

// Warning is something a reader should know but that did not stop parsing.
type Warning struct {
	Line int
	Msg  string
}

// String formats the warning as "line N: message".
func (w Warning) String() string { return fmt.Sprintf("line %d: %s", w.Line, w.Msg) }

// Error is a syntax error with its position.
type Error struct {
	Line, Col int
	Msg       string
}

// Error formats the error as "line N col M: message"; the message names
// the offending token and what was expected.
func (e *Error) Error() string { return fmt.Sprintf("line %d col %d: %s", e.Line, e.Col, e.Msg) }

// Get returns the value of tag name, or "".
func (g *Game) Get(name string) string {
	v, _ := g.Lookup(name)
	return v
}

// Lookup returns the value of tag name and whether the tag is present.
func (g *Game) Lookup(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// Set changes tag name's value, adding the tag at the end if absent.
func (g *Game) Set(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// maxInput bounds what Parse reads (a long game is a few kB).
const maxInput = 16 << 20

// ParseString reads exactly one game.
func ParseString(s string) (*Game, []Warning, error) {
	games, warns, err := Parse(strings.NewReader(s))
	if err != nil {
		return nil, warns, err
	}
	switch len(games) {
	case 0:
		return nil, warns, &Error{Line: 1, Col: 1, Msg: "no game found"}
	case 1:
		return games[0], warns, nil
	}
	return nil, warns, &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("%d games found, want one", len(games))}
}

// Parse reads every game in r. Games are separated by their tag blocks.
func Parse(r io.Reader) ([]*Game, []Warning, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > maxInput {
		return nil, nil, &Error{Line: 1, Col: 1, Msg: "input larger than 16 MiB"}
	}
	p := &parser{src: data, line: 1, col: 1}
	return p.run()
}

type parser struct {
	src       []byte
	pos       int
	line, col int
	games     []*Game
	warns     []Warning
	cur       *Game
	inMoves   bool // the current game has movetext
	slotOpen  bool // a ".." or round number opened a slot that has no token yet
	dotsLine  int  // line of the last ".."
	depth     int  // variation nesting
	varLine   int
	lastSlot  *Slot
}

// dangling warns about a ".." that no move followed (at the end of a
// round, before a result or a tag); the round itself is kept.
func (p *parser) dangling() {
	if p.cur == nil || !p.slotOpen || len(p.cur.Rounds) == 0 || len(p.cur.Rounds[len(p.cur.Rounds)-1].Slots) == 0 {
		return
	}
	p.warns = append(p.warns, Warning{Line: p.dotsLine, Msg: "'..' with no move after it ignored"})
	p.slotOpen = false
}

func (p *parser) errf(format string, a ...any) error {
	return &Error{Line: p.line, Col: p.col, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) next() byte {
	c := p.src[p.pos]
	p.pos++
	if c == '\n' {
		p.line++
		p.col = 1
	} else {
		p.col++
	}
	return c
}

func (p *parser) game() *Game {
	if p.cur == nil {
		p.cur = &Game{}
		p.games = append(p.games, p.cur)
		p.inMoves, p.slotOpen, p.lastSlot = false, false, nil
	}
	return p.cur
}

func (p *parser) run() ([]*Game, []Warning, error) {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF || c == 0xBB || c == 0xBF:
			p.next() // whitespace and a UTF-8 byte-order mark
		case c == '[' && p.depth == 0:
			if err := p.tag(); err != nil {
				return nil, p.warns, err
			}
		case c == '{':
			line := p.line
			text, err := p.comment()
			if err != nil {
				return nil, p.warns, err
			}
			switch {
			case p.depth > 0: // part of a skipped variation
			case p.lastSlot != nil:
				p.lastSlot.Comments = append(p.lastSlot.Comments, text)
				if d, ok := clock(text); ok {
					p.lastSlot.Clock, p.lastSlot.HasClock = d, true
				}
			default:
				p.warns = append(p.warns, Warning{Line: line, Msg: fmt.Sprintf("comment {%s} dropped: it follows no move", abbrev(text))})
			}
		case c == ';':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.next()
			}
		case c == '(':
			if p.depth == 0 {
				p.varLine = p.line
			}
			p.depth++
			p.next()
		case c == ')':
			if p.depth == 0 {
				return nil, p.warns, p.errf("')' without '('")
			}
			p.depth--
			p.next()
			if p.depth == 0 {
				p.warns = append(p.warns, Warning{Line: p.varLine, Msg: "variation skipped (lines " + strconv.Itoa(p.varLine) + "-" + strconv.Itoa(p.line) + ")"})
			}
		default:
			line, col := p.line, p.col
			start := p.pos
			for p.pos < len(p.src) && !strings.ContainsRune(" \t\r\n{}()[];", rune(p.src[p.pos])) {
				p.next()
			}
			if p.pos == start {
				return nil, p.warns, p.errf("unexpected %q", p.src[p.pos])
			}
			if p.depth > 0 {
				continue
			}
			w := ".." // the commonest word, without allocating
			if b := p.src[start:p.pos]; string(b) != w {
				w = string(b)
			}
			if err := p.word(w, line, col); err != nil {
				return nil, p.warns, err
			}
		}
	}
	if p.depth > 0 {
		return nil, p.warns, &Error{Line: p.varLine, Col: 1, Msg: "variation '(' is never closed"}
	}
	p.dangling()
	for _, g := range p.games {
		if n := len(g.Rounds); n > 0 && len(g.Rounds[n-1].Slots) == 0 {
			return nil, p.warns, &Error{Line: p.line, Col: p.col, Msg: fmt.Sprintf("round %d has no move", g.Rounds[n-1].Number)}
		}
	}
	return p.games, p.warns, nil
}

func (p *parser) tag() error {
	if p.inMoves {
		p.dangling()
		p.cur = nil // a tag after movetext starts the next game
	}
	g := p.game()
	line := p.line
	p.next() // '['
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] != ' ' && p.src[p.pos] != '"' && p.src[p.pos] != ']' && p.src[p.pos] != '\n' {
		p.next()
	}
	name := string(p.src[start:p.pos])
	if name == "" {
		return p.errf("tag without a name")
	}
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.next()
	}
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return &Error{Line: line, Col: p.col, Msg: fmt.Sprintf("tag %s: want a quoted value, like [%s \"…\"]", name, name)}
	}
	p.next()
	var val bytes.Buffer
	for {
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' {
			return &Error{Line: line, Col: p.col, Msg: fmt.Sprintf("tag %s: the value's closing quote is missing", name)}
		}
		c := p.next()
		if c == '\\' && p.pos < len(p.src) && (p.src[p.pos] == '"' || p.src[p.pos] == '\\') {
			val.WriteByte(p.next())
			continue
		}
		if c == '"' {
			break
		}
		val.WriteByte(c)
	}
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.next()
	}
	if p.pos >= len(p.src) || p.src[p.pos] != ']' {
		return &Error{Line: line, Col: p.col, Msg: fmt.Sprintf("tag %s: want ']' after the value", name)}
	}
	p.next()
	g.Tags = append(g.Tags, Tag{Name: name, Value: val.String()})
	return nil
}

func (p *parser) comment() (string, error) {
	line := p.line
	p.next() // '{'
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] != '}' {
		p.next()
	}
	if p.pos >= len(p.src) {
		return "", &Error{Line: line, Col: 1, Msg: "comment '{' is never closed"}
	}
	text := string(p.src[start:p.pos])
	p.next()
	return strings.TrimSpace(text), nil
}

func (p *parser) word(w string, line, col int) error {
	at := func(format string, a ...any) error {
		return &Error{Line: line, Col: col, Msg: fmt.Sprintf(format, a...)}
	}
	g := p.game()
	switch {
	case w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*":
		p.dangling()
		g.Result = w
		p.inMoves = true
		return nil
	case len(w) > 0 && w[0] >= '0' && w[0] <= '9' && strings.Contains(w, ".") && !strings.HasSuffix(w, ".") && isDigits(w[:strings.IndexByte(w, '.')]):
		// "12.h2-h3": a round number without the space before its move.
		i := strings.IndexByte(w, '.')
		for i < len(w) && w[i] == '.' {
			i++
		}
		if err := p.word(w[:i], line, col); err != nil {
			return err
		}
		return p.word(w[i:], line, col+i)
	case strings.HasSuffix(w, ".") && isDigits(strings.TrimRight(w, ".")):
		n, err := strconv.Atoi(strings.TrimRight(w, "."))
		if err != nil || n < 1 || n > 100000 {
			return at("round number %q out of range", w)
		}
		if k := len(g.Rounds); k > 0 && len(g.Rounds[k-1].Slots) == 0 {
			return at("round %d has no move", g.Rounds[k-1].Number)
		}
		p.dangling()
		g.Rounds = append(g.Rounds, Round{Number: n, Slots: make([]Slot, 0, 4)}) // at most four slots: one allocation
		p.inMoves, p.slotOpen, p.lastSlot = true, true, nil
		return nil
	case w == "..":
		if len(g.Rounds) == 0 {
			return at("'..' before the first round number")
		}
		if p.slotOpen {
			return at("'..' where a move was expected")
		}
		p.slotOpen, p.dotsLine = true, line
		return nil
	}
	if len(g.Rounds) == 0 {
		return at("%q: movetext must start with a round number like \"1.\"", w)
	}
	if !p.slotOpen {
		return at("%q: want '..' between two moves of a round", w)
	}
	m, err := ParseMove(w)
	if err != nil {
		return at("%v", err)
	}
	r := &g.Rounds[len(g.Rounds)-1]
	if len(r.Slots) == 4 {
		return at("%q: round %d already has four moves", w, r.Number)
	}
	r.Slots = append(r.Slots, Slot{Text: w, Move: m})
	p.lastSlot = &r.Slots[len(r.Slots)-1]
	p.slotOpen = false
	return nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// clock reads "[%clk h:mm:ss]" (seconds may have a fraction) from a comment.
func clock(c string) (time.Duration, bool) {
	i := strings.Index(c, "[%clk ")
	if i < 0 {
		return 0, false
	}
	rest := c[i+6:]
	j := strings.IndexByte(rest, ']')
	if j < 0 {
		return 0, false
	}
	parts := strings.Split(strings.TrimSpace(rest[:j]), ":")
	if len(parts) > 3 {
		return 0, false
	}
	var d time.Duration
	for k, part := range parts {
		whole, frac, hasFrac := strings.Cut(part, ".")
		if !isDigits(whole) || len(whole) > 4 || (hasFrac && (k < len(parts)-1 || !isDigits(frac) || len(frac) > 9)) {
			return 0, false // only digits: no signs, exponents, NaN or huge values
		}
		n, _ := strconv.Atoi(whole)
		d = d*60 + time.Duration(n)*time.Second
		if hasFrac {
			f, _ := strconv.Atoi(frac + strings.Repeat("0", 9-len(frac)))
			d += time.Duration(f)
		}
	}
	return d, true
}

// WriteTo writes the game in chess.com's layout: one tag per line, a blank
// line, then one round per line with " .. " between slots, each slot's
// comments in braces after it, and the Result token (if any) on a line of
// its own. A game read from a file in that layout is written back byte for
// byte.
//
// Slots are written as they were read (Text), or from Move when Text is
// empty or is not a valid token. What the format cannot hold is replaced
// so that the output always reads back: a newline in a tag value or a '}'
// in a comment becomes a space or ')', a tag name's spaces, quotes and
// brackets become '_', and other control characters and U+2028/U+2029 in
// tags and comments are written as a visible \uXXXX.
func (g *Game) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var n int64
	put := func(s string) {
		k, _ := bw.WriteString(s)
		n += int64(k)
	}
	for _, t := range g.Tags {
		v := escapeControls(tagValueEscaper.Replace(t.Value))
		put("[" + tagName(t.Name) + " \"" + v + "\"]\n")
	}
	if len(g.Tags) > 0 {
		put("\n")
	}
	var num [20]byte
	for _, r := range g.Rounds {
		put(string(strconv.AppendInt(num[:0], int64(r.Number), 10)))
		put(".")
		for i, s := range r.Slots {
			if i > 0 {
				put(" ..")
			}
			text := s.Text
			if _, err := ParseMove(text); err != nil {
				text = s.Move.String()
			}
			put(" ")
			put(text)
			for _, c := range s.Comments {
				put(" {")
				put(escapeControls(strings.ReplaceAll(c, "}", ")")))
				put("}")
			}
		}
		put("\n")
	}
	if g.Result != "" {
		put(g.Result + "\n")
	}
	return n, bw.Flush()
}

var tagValueEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ")

// tagName makes name readable as a tag name: not empty, and without the
// characters that end one.
func tagName(name string) string {
	if name == "" {
		return "_"
	}
	return escapeControls(tagNameEscaper.Replace(name)) // byte-wise: other bytes, even invalid UTF-8, stay as they are
}

// escapeControls writes control characters (C0, DEL, C1) and U+2028,
// U+2029 as a visible \uXXXX, so no game file carries a terminal escape
// or a line break where none belongs (boardd's internal/printable refuses
// them in what it takes in; rules imports nothing of ours).
func escapeControls(s string) string {
	bad := func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }
	if !strings.ContainsFunc(s, bad) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if bad(r) {
			fmt.Fprintf(&b, `\u%04X`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

var tagNameEscaper = strings.NewReplacer(" ", "_", `"`, "_", "]", "_", "\n", "_")

// String returns the game as WriteTo writes it.
func (g *Game) String() string {
	var b strings.Builder
	g.WriteTo(&b)
	return b.String()
}

// abbrev shortens a comment for a warning.
func abbrev(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
