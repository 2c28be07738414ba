package printable

import (
	"strings"
	"testing"
)

func TestCheckAndEscape(t *testing.T) {
	for _, tc := range []struct {
		in, escaped, err string
	}{
		{"Ann", "Ann", ""},
		{"Åsa Øster 北京 ♔", "Åsa Øster 北京 ♔", ""},
		{`back\slash`, `back\slash`, ""},
		{"Ann\x00Evil", `Ann\u0000Evil`, "U+0000 at character 4"},
		{"\x1b[31mRED", `\u001B[31mRED`, "U+001B at character 1"},
		{"tab\there", `tab\u0009here`, "U+0009 at character 4"},
		{"two\nlines", `two\u000Alines`, "U+000A"},
		{"cr\r", `cr\u000D`, "U+000D"},
		{"del\x7f", `del\u007F`, "U+007F"},
		{"c1\u0085next", `c1\u0085next`, "U+0085"},
		{"csi\u009b31m", `csi\u009B31m`, "U+009B"},
		{"line\u2028sep", `line\u2028sep`, "U+2028"},
		{"para\u2029sep", `para\u2029sep`, "U+2029"},
		{"both\\\x1b", `both\\\u001B`, "U+001B at character 6"},
		// Bidi overrides, embeddings, isolates and marks.
		{"Ann\u202Ennaw", `Ann\u202Ennaw`, "bidi override, embedding or isolate U+202E (RIGHT-TO-LEFT OVERRIDE) at character 4"},
		{"\u202Aemb", `\u202Aemb`, "U+202A (LEFT-TO-RIGHT EMBEDDING) at character 1"},
		{"\u202Bemb", `\u202Bemb`, "U+202B (RIGHT-TO-LEFT EMBEDDING)"},
		{"pop\u202C", `pop\u202C`, "U+202C (POP DIRECTIONAL FORMATTING)"},
		{"\u202Dover", `\u202Dover`, "U+202D (LEFT-TO-RIGHT OVERRIDE)"},
		{"iso\u2066x\u2069", `iso\u2066x\u2069`, "U+2066 (LEFT-TO-RIGHT ISOLATE) at character 4"},
		{"\u2067rtl", `\u2067rtl`, "U+2067 (RIGHT-TO-LEFT ISOLATE)"},
		{"\u2068fsi", `\u2068fsi`, "U+2068 (FIRST STRONG ISOLATE)"},
		{"\u2069pdi", `\u2069pdi`, "U+2069 (POP DIRECTIONAL ISOLATE)"},
		{"mark\u200F", `mark\u200F`, "bidi mark U+200F (RIGHT-TO-LEFT MARK)"},
		{"\u200Emark", `\u200Emark`, "bidi mark U+200E"},
		{"alm\u061C", `alm\u061C`, "bidi mark U+061C"},
		// Other invisible characters.
		{"A\u200Bnn", `A\u200Bnn`, "invisible character U+200B (ZERO WIDTH SPACE) at character 2"},
		{"\uFEFFAnn", `\uFEFFAnn`, "U+FEFF"},
		{"An\u00ADn", `An\u00ADn`, "U+00AD (SOFT HYPHEN)"},
		{"wj\u2060", `wj\u2060`, "U+2060 (WORD JOINER)"},
		{"inv\u2062isible", `inv\u2062isible`, "U+2062"},
		{"\u3164", `\u3164`, "U+3164 (HANGUL FILLER)"},
		{"half\uFFA0", `half\uFFA0`, "U+FFA0"},
		{"tag\U000E0041", `tag\U000E0041`, "U+E0041"},
		{"mvs\u180E", `mvs\u180E`, "U+180E"},
		{"ilf\uFFF9", `ilf\uFFF9`, "U+FFF9"},
		// What real names need stays allowed.
		{"\u0645\u062D\u0645\u062F\u200C\u0631\u0636\u0627", "\u0645\u062D\u0645\u062F\u200C\u0631\u0636\u0627", ""}, // Persian with a ZWNJ
		{"\u0915\u094D\u200D\u0937", "\u0915\u094D\u200D\u0937", ""},                                                 // Devanagari with a ZWJ
		{"Ann \U0001F469\u200D\U0001F4BB", "Ann \U0001F469\u200D\U0001F4BB", ""},                                     // an emoji sequence
		{"\u2764\uFE0F Bob", "\u2764\uFE0F Bob", ""},                                                                 // a variation selector
		{"\u0601\u0661\u0662", "\u0601\u0661\u0662", ""},                                                             // a visible Arabic sign
		{"\u05E9\u05DC\u05D5\u05DD abc", "\u05E9\u05DC\u05D5\u05DD abc", ""},                                         // right-to-left letters themselves
	} {
		if got := Escape(tc.in); got != tc.escaped {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.escaped)
		}
		err := Check(tc.in)
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Check(%q) = %v, want an error with %q", tc.in, err, tc.err)
		}
		if strings.ContainsFunc(Escape(tc.in), Bad) {
			t.Errorf("Escape(%q) still holds a control character", tc.in)
		}
	}
}
