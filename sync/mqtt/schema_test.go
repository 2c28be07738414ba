package mqtt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"boardd/referee"
)

const schemaDir = "../../docs/schema"

// schemas loads docs/schema/*.json.
func schemas(t *testing.T) map[string]map[string]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s: %v", schemaDir, err)
	}
	out := map[string]map[string]any{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: not JSON: %v", f, err)
		}
		if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema is %v, want draft 2020-12", f, s["$schema"])
		}
		out[filepath.Base(f)] = s
	}
	return out
}

// resolve follows a $ref ("#/$defs/x" or "file.json#/$defs/x") and
// array items to the object schema a Go struct should match.
func resolve(t *testing.T, all map[string]map[string]any, file string, node map[string]any) (string, map[string]any) {
	t.Helper()
	for {
		if items, ok := node["items"].(map[string]any); ok {
			node = items
			continue
		}
		ref, ok := node["$ref"].(string)
		if !ok {
			return file, node
		}
		target, path, _ := strings.Cut(ref, "#")
		if target != "" {
			file = target
		}
		cur := any(all[file])
		for _, p := range strings.Split(strings.Trim(path, "/"), "/") {
			m, _ := cur.(map[string]any)
			cur = m[p]
		}
		next, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("%s: $ref %q leads nowhere", file, ref)
		}
		node = next
	}
}

// checkStruct compares a Go struct's JSON fields with an object schema:
// the same property names, required exactly where the field is not
// omitempty, and nested structs likewise.
func checkStruct(t *testing.T, all map[string]map[string]any, file string, schema map[string]any, typ reflect.Type) {
	t.Helper()
	props, _ := schema["properties"].(map[string]any)
	var goFields, goRequired []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		goFields = append(goFields, name)
		if !strings.Contains(opts, "omitempty") {
			goRequired = append(goRequired, name)
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeOf(time.Time{}) {
			p, ok := props[name].(map[string]any)
			if !ok {
				continue // reported below
			}
			nf, ns := resolve(t, all, file, p)
			checkStruct(t, all, nf, ns, ft)
		}
	}
	var schemaFields, schemaRequired []string
	for k := range props {
		schemaFields = append(schemaFields, k)
	}
	req, _ := schema["required"].([]any)
	for _, r := range req {
		schemaRequired = append(schemaRequired, r.(string))
	}
	for _, s := range [][]string{goFields, goRequired, schemaFields, schemaRequired} {
		sort.Strings(s)
	}
	if !slices.Equal(goFields, schemaFields) {
		t.Errorf("%s, %s: Go fields %v, schema properties %v", file, typ.Name(), goFields, schemaFields)
	}
	if !slices.Equal(goRequired, schemaRequired) {
		t.Errorf("%s, %s: Go fields without omitempty %v, schema requires %v", file, typ.Name(), goRequired, schemaRequired)
	}
	if schema["additionalProperties"] != false {
		t.Errorf("%s, %s: want additionalProperties false, so unknown fields show up", file, typ.Name())
	}
}

// The schemas in docs/schema match the Go types field for field, so the
// documentation cannot drift from the code.
func TestSchemasMatchTypes(t *testing.T) {
	all := schemas(t)
	for file, v := range map[string]any{
		"message.json": referee.Message{},
		"state.json":   referee.State{},
		"lights.json":  referee.Lights{},
		"command.json": referee.Command{},
		"reply.json":   referee.Reply{},
	} {
		s, ok := all[file]
		if !ok {
			t.Errorf("docs/schema/%s is missing", file)
			continue
		}
		checkStruct(t, all, file, s, reflect.TypeOf(v))
	}
}

// Payloads the Mirror publishes carry only properties their schema knows.
func TestPayloadsUseSchemaProperties(t *testing.T) {
	all := schemas(t)
	board := newFakeBoard("b1")
	board.moves(1)
	board.setLight("h3", "#00ff00")
	one := uint64(3)
	on := true
	samples := map[string]any{
		"message.json": referee.Message{Seq: 1, Kind: referee.MsgGameOver, Candidates: []string{"a"}, Tags: map[string]string{"Red": "Ann"},
			Clocks: []int64{1, 2, 3, 4}, Result: &referee.ResultInfo{Reason: "checkmate", Winners: []string{"Red"}}},
		"state.json":   board.State(),
		"lights.json":  board.Lights(),
		"command.json": referee.Command{ID: "x", From: &one, On: &on, Tags: map[string]string{"a": "b"}},
		"reply.json":   referee.Reply{Error: "no", Seq: 4},
	}
	for file, v := range samples {
		data, _ := json.Marshal(v)
		var m map[string]any
		json.Unmarshal(data, &m)
		props := all[file]["properties"].(map[string]any)
		for k := range m {
			if _, ok := props[k]; !ok {
				t.Errorf("%s: payload %s has %q, which the schema does not list", file, data, k)
			}
		}
		req, _ := all[file]["required"].([]any)
		for _, r := range req {
			if _, ok := m[r.(string)]; !ok {
				t.Errorf("%s: payload %s lacks required %q", file, data, r)
			}
		}
	}
}
