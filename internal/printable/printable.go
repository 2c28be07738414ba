// Package printable keeps control characters out of the text boardd takes
// from outside (commands' tags, names and moves, config values) and out of
// what it writes for people (index.tsv, `boardd games list`): a C0 or C1
// control (NUL, ESC, DEL, …) or a Unicode line or paragraph separator
// (U+2028, U+2029) could cut a record in two, or recolour or rewrite a
// terminal.
package printable

import (
	"fmt"
	"strings"
	"unicode"
)

// Bad reports whether r is a character text fields refuse: a C0 or C1
// control, DEL, or U+2028 / U+2029.
func Bad(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// Check answers nil for text without Bad characters, else an error that
// names the first one and where it is, for example
// `contains the control character U+001B at character 1: text must be printable (no control characters, tabs or line breaks)`.
func Check(s string) error {
	i := 0
	for _, r := range s {
		i++
		if Bad(r) {
			return fmt.Errorf("contains the control character %U at character %d: text must be printable (no control characters, tabs or line breaks)", r, i)
		}
	}
	return nil
}

// Escape writes each Bad character of s as a visible \uXXXX; when s holds
// one, its backslashes are doubled too, so an escape typed as text reads
// differently from one Escape wrote. Text without Bad characters comes back
// as it is.
func Escape(s string) string {
	if !strings.ContainsFunc(s, Bad) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case Bad(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
