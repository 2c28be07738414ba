// Package printable keeps control and invisible characters out of the
// text boardd takes from outside (commands' tags, names and moves, board
// ids, config values) and out of what it writes for people (index.tsv,
// `boardd games list`): a C0 or C1 control (NUL, ESC, DEL, …) or a Unicode
// line or paragraph separator (U+2028, U+2029) could cut a record in two,
// or recolour or rewrite a terminal; a bidi override, embedding or isolate
// (U+202A–U+202E, U+2066–U+2069) shows text in another order than it is
// stored ("Ann" + U+202E + "nniw" reads "Annwinn" but sorts and matches
// as something else), and other invisible format characters (zero-width
// space, word joiner, byte order mark, soft hyphen, tag characters, …)
// make two names that look the same differ.
package printable

import (
	"fmt"
	"strings"
	"unicode"
)

// Bad reports whether r is a character text fields refuse: a C0 or C1
// control, DEL, U+2028 / U+2029, or an invisible format character
// (Unicode category Cf, and the invisible fillers U+115F, U+1160, U+3164
// and U+FFA0). Allowed, because real names need them: the zero-width
// non-joiner and joiner (U+200C, U+200D: Persian and Indic scripts, emoji
// sequences) and the visible prepended marks of Arabic and other scripts
// that Unicode also files as Cf (U+0600–U+0605, U+06DD, U+070F, U+0890,
// U+0891, U+08E2, U+110BD, U+110CD). Variation selectors (emoji
// presentation) are not format characters and are allowed.
func Bad(r rune) bool {
	switch {
	case unicode.IsControl(r), r == '\u2028', r == '\u2029':
		return true
	case r == '\u200C', r == '\u200D', visibleFormat(r):
		return false
	case unicode.Is(unicode.Cf, r):
		return true
	}
	switch r {
	case '\u115F', '\u1160', '\u3164', '\uFFA0':
		return true
	}
	return false
}

// visibleFormat reports the format characters that are drawn (Unicode's
// prepended concatenation marks).
func visibleFormat(r rune) bool {
	return r >= 0x0600 && r <= 0x0605 || r == 0x06DD || r == 0x070F || r == 0x0890 || r == 0x0891 ||
		r == 0x08E2 || r == 0x110BD || r == 0x110CD
}

// kind names what sort of Bad character r is, for an error message.
func kind(r rune) string {
	switch {
	case r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069:
		return "the bidi override, embedding or isolate"
	case r == '\u200E' || r == '\u200F' || r == '\u061C':
		return "the bidi mark"
	}
	return "the invisible character"
}

// names are the Bad characters an error names in words.
var names = map[rune]string{
	0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
	0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK", 0x061C: "ARABIC LETTER MARK",
	0x200B: "ZERO WIDTH SPACE", 0x2060: "WORD JOINER", 0xFEFF: "ZERO WIDTH NO-BREAK SPACE (byte order mark)",
	0x00AD: "SOFT HYPHEN", 0x180E: "MONGOLIAN VOWEL SEPARATOR", 0x3164: "HANGUL FILLER",
}

// Check answers nil for text without Bad characters, else an error that
// names the first one and where it is, for example
// `contains the control character U+001B at character 1: text must be printable (no control characters, tabs or line breaks)`
// or `contains the bidi override, embedding or isolate U+202E (RIGHT-TO-LEFT OVERRIDE) at character 4: …`.
func Check(s string) error {
	i := 0
	for _, r := range s {
		i++
		if !Bad(r) {
			continue
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("contains the control character %U at character %d: text must be printable (no control characters, tabs or line breaks)", r, i)
		}
		name := ""
		if n, ok := names[r]; ok {
			name = " (" + n + ")"
		}
		return fmt.Errorf("contains %s %U%s at character %d: text must be printable (no control characters, line breaks, bidi overrides or other invisible characters)", kind(r), r, name, i)
	}
	return nil
}

// Escape writes each Bad character of s as a visible \uXXXX (\UXXXXXXXX
// above U+FFFF); when s holds one, its backslashes are doubled too, so an
// escape typed as text reads differently from one Escape wrote. Text
// without Bad characters comes back as it is.
func Escape(s string) string {
	if !strings.ContainsFunc(s, Bad) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case Bad(r) && r > 0xFFFF:
			fmt.Fprintf(&b, `\U%08X`, r)
		case Bad(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
