package shipped

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
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

// variantWords returns, for each shipped variant package, the words that
// name it: the package's name, its hook types (those that embed
// rules.HookBase) and the IDs they return ("russian-fortress").
func variantWords(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, pkg := range variantPackages(t) {
		name := path.Base(pkg)
		words := []string{name}
		files, err := filepath.Glob(filepath.Join("..", name, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files of %s in ../%s: %v", pkg, name, err)
		}
		for _, fn := range files {
			if strings.HasSuffix(fn, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), fn, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						ts, ok := sp.(*ast.TypeSpec)
						if !ok {
							continue
						}
						if st, ok := ts.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								if sel, ok := fl.Type.(*ast.SelectorExpr); ok && len(fl.Names) == 0 && sel.Sel.Name == "HookBase" {
									words = append(words, ts.Name.Name)
								}
							}
						}
					}
				case *ast.FuncDecl:
					if d.Name.Name != "ID" || d.Recv == nil || d.Body == nil {
						continue
					}
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
							if lit, ok := r.Results[0].(*ast.BasicLit); ok {
								id, _ := strconv.Unquote(lit.Value)
								words = append(words, id)
							}
						}
						return true
					})
				}
			}
		}
		out[pkg] = words
	}
	return out
}

// TestCoreNamesNoVariant: no identifier or string of the core's non-test
// files names a shipped variant: its package, its hook type or its hook's
// ID (comments may cite a rules text).
func TestCoreNamesNoVariant(t *testing.T) {
	words := variantWords(t)
	for pkg, ws := range words {
		if len(ws) < 3 {
			t.Errorf("%s: found no hook type embedding rules.HookBase with an ID (words %q)", pkg, ws)
		}
	}
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
			for pkg, ws := range words {
				for _, w := range ws {
					if strings.Contains(strings.ToLower(text), strings.ToLower(w)) {
						t.Errorf("%s names the variant %s (%q, %q): the core knows variants only through Hook", name, path.Base(pkg), text, w)
					}
				}
			}
			return true
		})
	}
}

// TestCoreWithoutEachVariant removes each shipped variant in turn, as a
// board built without it would: an overlay (go build -overlay) drops its
// line from shipped.go and deletes its package's files. The core, the
// shipped list and the loader must still build, and the core's tests
// (package rules) must still compile and pass.
func TestCoreWithoutEachVariant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the rules packages once per variant (run without -short)")
	}
	src, err := os.ReadFile("shipped.go")
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := filepath.Abs("shipped.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range variantPackages(t) {
		name := path.Base(pkg)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var kept []string
			dropped := false
			for _, line := range strings.Split(string(src), "\n") {
				if strings.Contains(line, strconv.Quote(pkg)) {
					dropped = true
					continue
				}
				kept = append(kept, line)
			}
			if !dropped {
				t.Fatalf("shipped.go has no line importing %q", pkg)
			}
			replace := map[string]string{}
			replace[shipped] = filepath.Join(dir, "shipped.go")
			if err := os.WriteFile(replace[shipped], []byte(strings.Join(kept, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			files, err := filepath.Glob(filepath.Join("..", name, "*"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no files of %s in ../%s: %v", pkg, name, err)
			}
			for _, f := range files {
				abs, err := filepath.Abs(f)
				if err != nil {
					t.Fatal(err)
				}
				replace[abs] = "" // deleted
			}
			ov, err := json.Marshal(map[string]any{"Replace": replace})
			if err != nil {
				t.Fatal(err)
			}
			overlay := filepath.Join(dir, "overlay.json")
			if err := os.WriteFile(overlay, ov, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"build", "-overlay", overlay, "boardd/rules", "boardd/rules/shipped", "boardd/rules/variants"},
				{"vet", "-overlay", overlay, "boardd/rules", "boardd/rules/shipped"},
				{"test", "-overlay", overlay, "-count=1", "-short", "boardd/rules"},
			} {
				if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
					t.Errorf("without %s, go %s: %v\n%s", pkg, strings.Join(args[:1], " "), err, out)
				}
			}
		})
	}
}
