package shipped

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// variantPackages returns the variant packages shipped.go links in
// ("boardd/rules/stevenson").
func variantPackages(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "shipped.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		out = append(out, p)
	}
	if len(out) == 0 {
		t.Fatal("shipped.go imports no variant package")
	}
	return out
}

// coreFiles parses the core's Go files (package rules, tests included).
func coreFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob("../*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no core files in ..: %v", err)
	}
	out := map[string]*ast.File{}
	for _, n := range names {
		f, err := parser.ParseFile(token.NewFileSet(), n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = f
	}
	return out
}

// TestCoreImportsNoVariant: the core builds without any variant package,
// so removing one from shipped.go (or the package itself) leaves the core
// and its tests whole ("the core compiles and its tests pass with any one
// variant removed").
func TestCoreImportsNoVariant(t *testing.T) {
	pkgs := variantPackages(t)
	for name, f := range coreFiles(t) {
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, v := range pkgs {
				if p == v {
					t.Errorf("%s imports the variant package %s: the core knows variants only through Hook", name, v)
				}
			}
		}
	}
}

// TestCoreNamesNoVariant: no identifier or string of the core's non-test
// files names a shipped variant package (comments may cite a rules text).
func TestCoreNamesNoVariant(t *testing.T) {
	pkgs := variantPackages(t)
	for name, f := range coreFiles(t) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var text string
			switch x := n.(type) {
			case *ast.Ident:
				text = x.Name
			case *ast.BasicLit:
				text = x.Value
			default:
				return true
			}
			for _, v := range pkgs {
				if strings.Contains(strings.ToLower(text), path.Base(v)) {
					t.Errorf("%s names the variant %s (%q): the core knows variants only through Hook", name, path.Base(v), text)
				}
			}
			return true
		})
	}
}
