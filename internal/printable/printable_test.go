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
