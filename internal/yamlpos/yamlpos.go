// Package yamlpos gives errors in YAML files a position: the file, the line
// and the dotted key, as every boardd loader reports them:
//
//	boardd.yaml: line 3: sensors.driver: "usb": want sim, hc165, gpiomatrix, mcp23017
package yamlpos

import (
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
