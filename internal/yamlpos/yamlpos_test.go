package yamlpos

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A YAML error names its line; a tab used for indentation is said as
// such, on its own line when the parser stopped elsewhere.
func TestSyntax(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		line       int
	}{
		{"a: 1\nb:\n\tc: 2\n", "f.yaml: line 3: found character that cannot start any token: the line is indented with a tab; YAML allows only spaces there: indent with spaces", 3},
		{"a:\n  b: 1\n\t  c: 2\n", "(line 3 is indented with a tab; YAML allows only spaces there: indent with spaces)", 2},
		{"a: [\n", "f.yaml: line 1: did not find expected node content", 1},
		{"a:\tx\nb: [\n", "did not find expected node content", 2},
	} {
		var n yaml.Node
		err := yaml.Unmarshal([]byte(tc.text), &n)
		if err == nil {
			t.Fatalf("%q parsed", tc.text)
		}
		e := Syntax("f.yaml", []byte(tc.text), err)
		if !strings.Contains(e.Error(), tc.want) || e.Line != tc.line {
			t.Errorf("%q: %q (line %d), want %q at line %d", tc.text, e.Error(), e.Line, tc.want, tc.line)
		}
		if !strings.Contains(tc.text, "\n\t") && strings.Contains(e.Error(), "tab") {
			t.Errorf("%q: a tab that is not indentation blamed: %v", tc.text, e)
		}
	}
}
