package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// TestReservedShape: the first-byte and length test in front of
// lang.Reserved never changes its answer.
func TestReservedShape(t *testing.T) {
	words := lang.ReservedWords()
	if len(words) < 10 {
		t.Fatalf("only %d reserved words", len(words))
	}
	names := []string{"", "A", "a", "ACC0", "x_y", strings.Repeat("i", 40)}
	for _, w := range words {
		names = append(names, w, strings.ToUpper(w), w[:len(w)-1], w+"s", "_"+w)
	}
	for _, n := range names {
		if got, want := reservedShape().has(n), lang.Reserved(n); got != want {
			t.Errorf("reservedShape().has(%q) = %v, lang.Reserved says %v", n, got, want)
		}
	}
}

// TestIndexLists: the index holds, for every testdata skill, exactly the
// ops and references a filter over info.Ops and info.Refs finds, in the
// same order.
func TestIndexLists(t *testing.T) {
	files, _ := filepath.Glob("../testdata/lint/*/*.skill.md")
	more, _ := filepath.Glob("../testdata/corpus/*/*/*.skill.md")
	files = append(files, more...)
	if len(files) < 100 {
		t.Fatalf("only %d files", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntaxParse(src)
		info := checkFile(f)
		x := newState(f, info).idx()
		var argOps []ast.Stmt
		named := map[string][]*ast.CallStmt{}
		var names []string
		for _, op := range info.Ops {
			switch s := op.Stmt.(type) {
			case *ast.CallStmt:
				argOps = append(argOps, s)
				if s.Name != nil {
					if named[s.Name.Name] == nil {
						names = append(names, s.Name.Name)
					}
					named[s.Name.Name] = append(named[s.Name.Name], s)
				}
			case *ast.DispatchStmt:
				argOps = append(argOps, s)
			}
		}
		if !sameList(x.argOps, argOps) {
			t.Fatalf("%s: argOps differ", path)
		}
		if len(x.groups) != len(names) {
			t.Fatalf("%s: %d call groups, want %d", path, len(x.groups), len(names))
		}
		for i, g := range x.groups {
			if g.name != names[i] || !sameList(g.calls, named[g.name]) || !sameList(x.callsNamed(g.name), named[g.name]) {
				t.Fatalf("%s: call group %d (%s) differs", path, i, g.name)
			}
		}
		refs := func(keep func(r *check.Ref) bool) []*check.Ref {
			var out []*check.Ref
			for _, r := range info.Refs {
				if keep(r) {
					out = append(out, r)
				}
			}
			return out
		}
		for name, c := range map[string]struct{ got, want []*check.Ref }{
			"filtered":   {x.filtered, refs(func(r *check.Ref) bool { return len(r.Subst.Filters) > 0 })},
			"pathed":     {x.pathed, refs(func(r *check.Ref) bool { return len(r.Subst.Path) > 0 })},
			"legacy":     {x.legacyRefs, refs(func(r *check.Ref) bool { return r.Subst.Legacy })},
			"unresolved": {x.unresolved, refs(unresolved)},
			"inDispatch": {x.inDispatch, refs(func(r *check.Ref) bool { _, ok := opStmt(r).(*ast.DispatchStmt); return ok })},
		} {
			if !sameList(c.got, c.want) {
				t.Fatalf("%s: %s references differ", path, name)
			}
		}
		if got := x.callsNamedAny("file_read", "file_write"); len(got) != len(named["file_read"])+len(named["file_write"]) {
			t.Fatalf("%s: callsNamedAny found %d calls", path, len(got))
		}
	}
}

func sameList[T comparable](a, b []T) bool {
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
