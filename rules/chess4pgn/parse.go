package chess4pgn

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"boardd/rules"
	"boardd/rules/square"
)

// Header is one "[ Key "Value" ]" line.
type Header struct{ Key, Value string }

// Game is a Chess4 game as written: its headers and its turns.
type Game struct {
	// Headers in file order.
	Headers []Header
	// Lead holds the comments before the first turn.
	Lead []string
	// Turns are the colours' turns in order, round by round.
	Turns []Turn
}

// Turn is one colour's line in a round.
type Turn struct {
	// Round is the round number; Colour the colour whose turn it is
	// (from the line's place in the round).
	Round  int
	Colour rules.Seat
	// Token is the move as written ("Nk3", "o-o-w", "0").
	Token string
	// Skip marks the "0" placeholder: the colour does not move.
	Skip bool
	// From and To come from a "{ J1 > K3 }" comment (square.None without).
	From, To square.Square
	// ColourNote is the colour named by a "{ Silver }" comment, or NoSeat.
	ColourNote rules.Seat
	// Comments are the turn's other comments, in order, without braces
	// ("Silver resigns").
	Comments []string
	// Line is the token's line in the file.
	Line int
}

// Get returns a header's value ("" when absent); keys compare
// case-insensitively.
func (g *Game) Get(key string) string {
	for _, h := range g.Headers {
		if strings.EqualFold(h.Key, key) {
			return h.Value
		}
	}
	return ""
}

// Names returns the player names of the White, Silver, Black and Gold
// headers, indexed by seat.
func (g *Game) Names() [rules.NumSeats]string {
	var n [rules.NumSeats]string
	for s, c := range Colours {
		n[s] = g.Get(c)
	}
	return n
}

// ParseError is a syntax error: where and what.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

var (
	fromToRe = regexp.MustCompile(`^\s*([A-Na-n])\s*([0-9]{1,2})\s*>\s*([A-Na-n])\s*([0-9]{1,2})\s*$`)
	scoreRe  = regexp.MustCompile(`^(\*|1-0|0-1|1/2-1/2|[0-9/]+-[0-9/]+-[0-9/]+-[0-9/]+)$`)
)

// Parse reads one game in Chess4 notation.
func Parse(text string) (*Game, error) {
	p := &parser{s: text, line: 1}
	return p.run()
}

type parser struct {
	s    string
	i    int
	line int
}

func (p *parser) errf(format string, a ...any) error {
	return &ParseError{Line: p.line, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) run() (*Game, error) {
	g := &Game{}
	round, slot := 0, 0 // the current round and the next colour's index in it
	for {
		p.space()
		if p.i >= len(p.s) {
			return g, nil
		}
		switch c := p.s[p.i]; {
		case c == '[':
			if round > 0 {
				return nil, p.errf("header after the first round")
			}
			h, err := p.header()
			if err != nil {
				return nil, err
			}
			g.Headers = append(g.Headers, h)
		case c == '{':
			line := p.line
			body, err := p.comment()
			if err != nil {
				return nil, err
			}
			if len(g.Turns) == 0 {
				g.Lead = append(g.Lead, strings.TrimSpace(body))
				continue
			}
			if err := attach(&g.Turns[len(g.Turns)-1], body, line); err != nil {
				return nil, err
			}
		case c == ';':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			line := p.line
			tok := p.word()
			if n, ok := roundNumber(tok); ok {
				if n != round+1 {
					return nil, p.errf("round %q: expected round %d", tok, round+1)
				}
				if round > 0 && slot == 0 {
					return nil, p.errf("round %d has no moves", round)
				}
				round, slot = n, 0
				continue
			}
			if round == 0 {
				if scoreRe.MatchString(tok) {
					continue // a result before any move
				}
				return nil, p.errf("%q before the first round number \"1.\"", tok)
			}
			if slot == len(order) {
				if scoreRe.MatchString(tok) {
					continue // a result token after the last round
				}
				return nil, p.errf("round %d: %q is a fifth move (one line per colour, four per round)", round, tok)
			}
			if scoreRe.MatchString(tok) {
				continue // a result token ends the movetext
			}
			g.Turns = append(g.Turns, Turn{Round: round, Colour: order[slot], Token: tok, Skip: tok == "0",
				From: square.None, To: square.None, ColourNote: rules.NoSeat, Line: line})
			slot++
		}
	}
}

// attach files a comment with the turn it follows.
func attach(t *Turn, body string, line int) error {
	if m := fromToRe.FindStringSubmatch(body); m != nil {
		from, err := Square(m[1] + m[2])
		if err != nil {
			return &ParseError{Line: line, Msg: fmt.Sprintf("round %d, %s: { %s }: %v", t.Round, Colours[t.Colour], strings.TrimSpace(body), err)}
		}
		to, err := Square(m[3] + m[4])
		if err != nil {
			return &ParseError{Line: line, Msg: fmt.Sprintf("round %d, %s: { %s }: %v", t.Round, Colours[t.Colour], strings.TrimSpace(body), err)}
		}
		if t.From != square.None {
			return &ParseError{Line: line, Msg: fmt.Sprintf("round %d, %s: a second from/to comment", t.Round, Colours[t.Colour])}
		}
		t.From, t.To = from, to
		return nil
	}
	if s, ok := colourByName(strings.TrimSpace(body)); ok {
		t.ColourNote = s
		return nil
	}
	t.Comments = append(t.Comments, strings.TrimSpace(body))
	return nil
}

// roundNumber reads "12." (or "12...").
func roundNumber(tok string) (int, bool) {
	d := strings.TrimRight(tok, ".")
	if d == tok || d == "" || len(d) > 6 {
		return 0, false
	}
	n, err := strconv.Atoi(d)
	if err != nil || n < 1 || d[0] == '+' {
		return 0, false
	}
	return n, true
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\n':
			p.line++
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return
		}
		p.i++
	}
}

// word reads a token up to white space or a brace.
func (p *parser) word() string {
	j := p.i
	for p.i < len(p.s) && !strings.ContainsRune(" \t\r\n\f\v{}[];", rune(p.s[p.i])) {
		p.i++
	}
	if p.i == j { // a stray '}' or ']'
		p.i++
	}
	return p.s[j:p.i]
}

// comment reads "{ … }" and returns what is between the braces.
func (p *parser) comment() (string, error) {
	start := p.line
	j := p.i + 1
	for k := j; k < len(p.s); k++ {
		switch p.s[k] {
		case '\n':
			p.line++
		case '}':
			p.i = k + 1
			return p.s[j:k], nil
		}
	}
	p.line = start
	return "", p.errf("comment '{' is never closed")
}

// header reads "[ Key "Value" ]".
func (p *parser) header() (Header, error) {
	p.i++ // '['
	p.blank()
	j := p.i
	for p.i < len(p.s) && !strings.ContainsRune(" \t\"]\n", rune(p.s[p.i])) {
		p.i++
	}
	key := p.s[j:p.i]
	if key == "" {
		return Header{}, p.errf("header without a name")
	}
	p.blank()
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return Header{}, p.errf("header %s: want a quoted value", key)
	}
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.s) || p.s[p.i] == '\n' {
			return Header{}, p.errf("header %s: the value's quote is never closed", key)
		}
		c := p.s[p.i]
		p.i++
		if c == '\\' && p.i < len(p.s) && (p.s[p.i] == '"' || p.s[p.i] == '\\') {
			b.WriteByte(p.s[p.i])
			p.i++
			continue
		}
		if c == '"' {
			break
		}
		b.WriteByte(c)
	}
	p.blank()
	if p.i >= len(p.s) || p.s[p.i] != ']' {
		return Header{}, p.errf("header %s: want ']' after the value", key)
	}
	p.i++
	return Header{Key: key, Value: b.String()}, nil
}

// blank skips spaces and tabs within a line.
func (p *parser) blank() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

var detectRe = regexp.MustCompile(`(?m)^\[\s*(White|Silver|Black|Gold|Date-Started)\s+"|\{\s*[A-Na-n][0-9]{1,2}\s*>\s*[A-Na-n][0-9]{1,2}\s*\}`)

// Detect reports whether text looks like Chess4 notation rather than
// PGN4: a White, Silver, Black, Gold or Date-Started header, or a
// "{ M7 > K7 }" comment.
func Detect(text string) bool { return detectRe.MatchString(text) }
