package configs

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// checkKeys walks the YAML document against the type it is read into and
// answers the first unknown key or value of the wrong kind in a person's
// words ("web: unknown key titel (did you mean title?)", "sensors.rate:
// "fast": want a number"), where yaml would say "field titel not found in
// type configs.Web" or "cannot unmarshal !!str into float64".
func checkKeys(file string, n *yaml.Node, t reflect.Type, path string) error {
	bad := func(at *yaml.Node, key, format string, a ...any) error {
		return &Error{File: file, Line: at.Line, Key: key, Msg: fmt.Sprintf(format, a...)}
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Tag == "!!null" {
		return nil // key: (nothing) leaves the default
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Duration]() {
		var d time.Duration
		if n.Kind != yaml.ScalarNode || n.Decode(&d) != nil {
			return bad(n, path, "%s: want a duration such as 400ms, 10s or 10m", describe(n))
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return bad(n, path, "%s: want a section of indented key: value lines", describe(n))
		}
		fields := map[string]reflect.StructField{}
		var names []string
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			fields[name] = f
			names = append(names, name)
		}
		if group := map[reflect.Type]string{reflect.TypeFor[Sensors](): "sensors", reflect.TypeFor[LEDs](): "leds"}[t]; group != "" { // and the drivers' sections
			types := sectionTypes(group)
			for _, name := range slices.Sorted(maps.Keys(types)) {
				fields[name] = reflect.StructField{Name: name, Type: types[name]}
				names = append(names, name)
			}
		}
		var errs []error // every unknown key of the section
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f, ok := fields[k.Value]
			if !ok {
				errs = append(errs, bad(k, path, "unknown key %s (%s)", k.Value, suggest(k.Value, names)))
				continue
			}
			errs = append(errs, checkKeys(file, v, f.Type, join(path, k.Value)))
		}
		return problems(errs)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return bad(n, path, "%s: want indented name: value lines", describe(n))
		}
		var errs []error
		for i := 0; i+1 < len(n.Content); i += 2 {
			errs = append(errs, checkKeys(file, n.Content[i+1], t.Elem(), join(path, n.Content[i].Value)))
		}
		return problems(errs)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return bad(n, path, "%s: want a list ([a, b] or lines starting with '- ')", describe(n))
		}
		var errs []error
		for i, e := range n.Content {
			errs = append(errs, checkKeys(file, e, t.Elem(), fmt.Sprintf("%s[%d]", path, i+1)))
		}
		return problems(errs)
	default:
		if n.Kind != yaml.ScalarNode {
			return bad(n, path, "%s: want a single value", describe(n))
		}
		v := reflect.New(t)
		whole := t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64
		if err := n.Decode(v.Interface()); err != nil || whole && n.Tag != "!!int" {
			want := map[reflect.Kind]string{reflect.Bool: "true or false", reflect.Float64: "a number",
				reflect.String: "text"}[t.Kind()]
			if whole {
				want = "a whole number"
			}
			return bad(n, path, "%s: want %s", describe(n), want)
		}
	}
	return nil
}

// describe names what a node holds, for an error.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a section"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// suggest names the known key closest to a misspelt one, or lists them.
func suggest(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(strings.ToLower(key), k); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return "did you mean " + best + "?"
	}
	known = slices.Sorted(slices.Values(known))
	return "known keys here: " + strings.Join(known, ", ")
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
