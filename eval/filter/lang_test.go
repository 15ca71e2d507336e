package filter

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"github.com/skillscript/skillc/internal/leaf/lang"
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

// TestImplementationsAreCatalogued: every case of the dispatch switches
// (apply, arity) names a catalogued filter, so nothing runs that the
// linter would flag as unknown. The switches are read from the source.
func TestImplementationsAreCatalogued(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "filter.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := lang.Filters()
	slices.Sort(want)
	for _, fn := range []string{"apply", "arity"} {
		got := caseLabels(f, fn)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s handles %v, the catalog lists %v", fn, got, want)
		}
	}
}

// TestArityMatchesCatalog: the argument shape the implementation enforces
// is the one the catalog documents.
func TestArityMatchesCatalog(t *testing.T) {
	for _, d := range lang.FilterDocs() {
		if takesArg, known := arity(d.Name); !known || takesArg != d.TakesArg {
			t.Errorf("arity(%s) = %v, %v; the catalog says takes an argument: %v", d.Name, takesArg, known, d.TakesArg)
		}
	}
}

// caseLabels returns the string case labels of the switches in function fn.
func caseLabels(f *ast.File, fn string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		decl, ok := n.(*ast.FuncDecl)
		if !ok || decl.Name.Name != fn {
			return true
		}
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						out = append(out, s)
					}
				}
			}
			return true
		})
		return false
	})
	return out
}
