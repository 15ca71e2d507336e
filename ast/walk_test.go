package ast_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

// order records the nodes a visitor sees, with nil for "children done".
type order struct{ seen []ast.Node }

func (o *order) Visit(n ast.Node) ast.Visitor {
	o.seen = append(o.seen, n)
	return o
}

// byChildren is the reference walk: recursion over ast.Children.
func byChildren(n ast.Node, out *[]ast.Node) {
	*out = append(*out, n)
	for _, c := range ast.Children(n) {
		byChildren(c, out)
	}
	*out = append(*out, nil)
}

// TestWalkersAgree: Walk, Inspect and All (which iterate children without
// slices) visit exactly the nodes ast.Children lists, in the same order,
// on the corpus and lint testdata skills.
func TestWalkersAgree(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*/*.skill.md")
	more, _ := filepath.Glob("../testdata/lint/*/*.skill.md")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("only %d corpus files", len(files))
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.Parse(p, src)
		var want []ast.Node
		byChildren(f, &want)

		var w order
		ast.Walk(&w, f)
		var insp []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			insp = append(insp, n)
			return true
		})
		var all []ast.Node
		for n := range ast.All(f) {
			all = append(all, n)
		}
		var wantPre []ast.Node
		for _, n := range want {
			if n != nil {
				wantPre = append(wantPre, n)
			}
		}
		for name, got := range map[string][]ast.Node{"Walk": w.seen, "Inspect": insp} {
			if !same(got, want) {
				t.Fatalf("%s: %s visits %d events, Children says %d (or the order differs)", p, name, len(got), len(want))
			}
		}
		if !same(all, wantPre) {
			t.Fatalf("%s: All yields %d nodes, Children says %d (or the order differs)", p, len(all), len(wantPre))
		}
	}
}

func same(a, b []ast.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
