package app_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// floors is the house as data: for each top-level folder of the module,
// the other folders its packages may import (a package may always import
// its own folder's packages). Imports point only down; internal/ holds
// leaves. docs/architecture.md ("The house") shows the same table.
var floors = map[string][]string{
	"cmd":      {"app", "sync", "referee", "sensors", "leds", "engine", "configs", "rules", "internal"},
	"app":      {"sync", "referee", "sensors", "leds", "engine", "configs", "rules", "internal"},
	"sync":     {"referee", "engine", "rules", "internal"},
	"referee":  {"sensors", "leds", "rules", "internal"},
	"sensors":  {"configs", "rules", "internal"},
	"leds":     {"configs", "rules", "internal"},
	"configs":  {"rules", "internal"},
	"engine":   {"rules"},
	"rules":    {"internal"}, // rules/variants' loader: internal/yamlpos
	"internal": nil,          // leaves
}

// folder is the top-level folder of pkg, a package of module mod ("" for
// a package outside it).
func folder(mod, pkg string) string {
	rest, ok := strings.CutPrefix(pkg, mod+"/")
	if !ok {
		return ""
	}
	top, _, _ := strings.Cut(rest, "/")
	return top
}

// violations lists every import in graph (package → the packages it
// imports) that floors does not allow, and every package of the module
// in a folder floors has no row for, as sentences saying what to do.
func violations(mod string, floors map[string][]string, graph map[string][]string) []string {
	var out []string
	for pkg, imports := range graph {
		from := folder(mod, pkg)
		allowed, ok := floors[from]
		if !ok {
			out = append(out, pkg+": folder "+from+"/ has no row in app/layout_test.go's floors; add one saying what it may import (and to docs/architecture.md's house)")
			continue
		}
		for _, imp := range imports {
			to := folder(mod, imp)
			if to == "" || to == from || slices.Contains(allowed, to) {
				continue
			}
			rule := from + "/ may import nothing of " + mod + "'s outside " + from + "/"
			if len(allowed) > 0 {
				rule = from + "/ may import only " + from + "/ and " + strings.Join(allowed, ", ")
			}
			out = append(out, pkg+" imports "+imp+": "+rule+"; move the package up or what it needs down")
		}
	}
	slices.Sort(out)
	return out
}

// TestLayoutCatchesWrongDirections checks the check on made-up graphs:
// each import the issue forbids is reported, and the allowed ones are not.
func TestLayoutCatchesWrongDirections(t *testing.T) {
	const m = "boardd"
	for _, tc := range []struct {
		name    string
		from    string
		imports []string
		want    string // a part of the one violation expected; "" for none
	}{
		{"a leaf imports the referee", "boardd/internal/pins", []string{"boardd/referee"}, "internal/pins imports boardd/referee"},
		{"a leaf imports sync", "boardd/internal/throttle", []string{"boardd/sync/broker"}, "internal/ may import nothing of boardd's outside internal/"},
		{"a leaf imports the application", "boardd/internal/printable", []string{"boardd/app/board"}, "imports boardd/app/board"},
		{"a leaf imports configs", "boardd/internal/yamlpos", []string{"boardd/configs"}, "imports boardd/configs"},
		{"a leaf imports a leaf", "boardd/internal/pi", []string{"boardd/internal/pins"}, ""},
		{"rules imports configs", "boardd/rules/variants", []string{"boardd/configs"}, "rules/ may import only rules/ and internal"},
		{"rules imports its own", "boardd/rules/pgn4", []string{"boardd/rules", "boardd/rules/square"}, ""},
		{"sensors imports the referee", "boardd/sensors/hc165", []string{"boardd/referee"}, "imports boardd/referee"},
		{"leds imports sync", "boardd/leds/ledreg", []string{"boardd/sync/web"}, "imports boardd/sync/web"},
		{"sensors imports the application", "boardd/sensors", []string{"boardd/app/drivers"}, "imports boardd/app/drivers"},
		{"referee imports sync", "boardd/referee", []string{"boardd/sync/archive"}, "imports boardd/sync/archive"},
		{"referee imports the application", "boardd/referee/handsim", []string{"boardd/app/catalog"}, "imports boardd/app/catalog"},
		{"sync imports the application", "boardd/sync/web", []string{"boardd/app/board"}, "imports boardd/app/board"},
		{"engine imports configs", "boardd/engine", []string{"boardd/configs"}, "engine/ may import only engine/ and rules"},
		{"engine imports a leaf", "boardd/engine/arena", []string{"boardd/internal/printable"}, "imports boardd/internal/printable"},
		{"the application imports cmd", "boardd/app/board", []string{"boardd/cmd/boardd"}, "imports boardd/cmd/boardd"},
		{"a folder without a row", "boardd/hub", []string{"boardd/referee"}, "folder hub/ has no row"},
		{"the application imports below", "boardd/app/board", []string{"boardd/sync/mqtt", "boardd/internal/lan", "boardd/app/catalog", "fmt"}, ""},
		{"outside the module", "boardd/internal/lan", []string{"net", "github.com/x/y"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := violations(m, floors, map[string][]string{tc.from: tc.imports})
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("reported %q, want nothing", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("reported %q, want one violation containing %q", got, tc.want)
			}
		})
	}
}

// TestLayout checks the program's real import graph (what go list says
// the module's packages import, tests left out: a test may reach upwards,
// as configs' tests import app/drivers for the real drivers) against
// floors: no package under internal/ imports anything of boardd's outside
// it, and every other folder imports only the floors below it.
func TestLayout(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Module.Path}} {{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "../...").Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list ../...: %v\n%s", err, msg)
	}
	graph := map[string][]string{}
	var mod string
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		mod = f[0]
		graph[f[1]] = f[2:]
	}
	for _, want := range []string{"internal/pins", "rules", "referee", "sync/mqtt", "app/board", "cmd/boardd"} {
		if _, ok := graph[mod+"/"+want]; !ok {
			t.Fatalf("go list ../... did not list %s/%s (%d packages): the check would see nothing", mod, want, len(graph))
		}
	}
	for _, v := range violations(mod, floors, graph) {
		t.Error(v)
	}
}
