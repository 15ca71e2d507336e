package filter

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"github.com/skillscript/skillc/internal/lang"
)

// TestCatalogEntriesAreImplemented: every filter the catalog (which the
// linter and the language server use) lists runs here, with the argument
// shape the catalog gives it.
func TestCatalogEntriesAreImplemented(t *testing.T) {
	for _, d := range lang.FilterDocs() {
		c := Call{Name: d.Name, Arg: "1", HasArg: d.TakesArg}
		_, err := apply("3", c)
		if e, ok := err.(*Error); ok {
			t.Errorf("catalogued filter %s has no implementation: %v", d.Name, e)
		}
		if d.TakesArg {
			if Check([]Call{{Name: d.Name}}) == nil {
				t.Errorf("%s without its argument passed Check", d.Name)
			}
		} else if Check([]Call{{Name: d.Name, Arg: "x", HasArg: true}}) == nil {
			t.Errorf("%s with an argument passed Check", d.Name)
		}
	}
	if _, err := apply("x", Call{Name: "nope"}); err == nil {
		t.Error("apply ran a filter the catalog does not know")
	}
}

// TestImplementationsAreCatalogued: every case of apply's dispatch switch
// names a catalogued filter, so nothing runs that the linter would flag
// as unknown. The switch is read from the source.
func TestImplementationsAreCatalogued(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "filter.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var impl []string
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "apply" {
			return true
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						impl = append(impl, s)
					}
				}
			}
			return true
		})
		return false
	})
	want := lang.Filters()
	slices.Sort(impl)
	slices.Sort(want)
	if !slices.Equal(impl, want) {
		t.Errorf("apply implements %v, the catalog lists %v", impl, want)
	}
}
