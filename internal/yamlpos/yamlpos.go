// Package yamlpos gives errors in YAML files a position: the file, the line
// and the dotted key, as every boardd loader reports them:
//
//	boardd.yaml: line 3: sensors.driver: "usb": want sim, hc165, gpiomatrix, mcp23017
package yamlpos

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a YAML file, with its position.
type Error struct {
	File string
	Line int    // 0 when unknown
	Key  string // dotted path, "" when the problem is the whole file
	Msg  string
}

func (e *Error) Error() string {
	s := e.File
	if e.Line > 0 {
		s += ": line " + strconv.Itoa(e.Line)
	}
	if e.Key != "" {
		s += ": " + e.Key
	}
	return s + ": " + e.Msg
}

// LineOf finds the line of the value at a dotted key path ("seats.red.pawns")
// below n, or of the deepest key found on the way (0 without a document).
func LineOf(n *yaml.Node, key string) int {
	if n == nil {
		return 0
	}
	line := n.Line
	for _, part := range strings.Split(key, ".") {
		if n.Kind != yaml.MappingNode {
			return line
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				n, line, found = n.Content[i+1], n.Content[i+1].Line, true
				break
			}
		}
		if !found {
			return line
		}
	}
	return line
}

// Syntax is a YAML parser's error (err) in data, read from file, in a
// person's words: its line in Line, and, where a line is indented with a
// tab, which line and that YAML allows only spaces there (the parser
// says "found character that cannot start any token").
func Syntax(file string, data []byte, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{File: file, Msg: msg}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(n); err == nil {
				e.Line, e.Msg = line, after
			}
		}
	}
	lines := strings.Split(string(data), "\n")
	tabbed := func(i int) bool {
		l := lines[i]
		return strings.Contains(l[:len(l)-len(strings.TrimLeft(l, " \t"))], "\t")
	}
	at := -1
	if e.Line > 0 && e.Line <= len(lines) && tabbed(e.Line-1) {
		at = e.Line - 1
	} else {
		for i := range lines {
			if tabbed(i) {
				at = i
				break
			}
		}
	}
	if at >= 0 {
		if e.Line == at+1 {
			e.Msg += ": the line is indented with a tab; YAML allows only spaces there: indent with spaces"
		} else {
			e.Msg += fmt.Sprintf(" (line %d is indented with a tab; YAML allows only spaces there: indent with spaces)", at+1)
		}
	}
	return e
}
