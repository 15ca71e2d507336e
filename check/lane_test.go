package check

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
	"github.com/skillscript/skillc/syntax"
)

// TestLaneMatchesCheck checks every target of every skill under testdata
// with Lane against the whole file's facts (the target in place of
// itself): its references resolve to the same bindings (as sets: Lane
// adds the target's bindings after the others'), ambient names and
// targets as Check's, its ops are the whole check's ops of that target,
// the skill's bindings keep their order, and the base is not changed.
func TestLaneMatchesCheck(t *testing.T) {
	files := testcorpus.SkillFiles(t, filepath.Join(testcorpus.Root(t), "testdata"))
	if len(files) == 0 {
		t.Fatal("no skills")
	}
	var targets int
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.Parse(p, src)
		base := Check(f)
		before := snapshotRoot(base.Root)
		for _, tg := range f.Targets {
			targets++
			info := Lane(f, tg, tg, base)
			if !slices.Equal(bindKeys(info.Binds), bindKeys(base.Binds)) {
				t.Fatalf("%s target at %d: bindings out of order", p, tg.Pos().Offset())
			}
			var want []*Ref
			for _, r := range base.Refs {
				if r.Target == tg {
					want = append(want, r)
				}
			}
			if len(info.Refs) != len(want) {
				t.Fatalf("%s target at %d: %d references, want %d", p, tg.Pos().Offset(), len(info.Refs), len(want))
			}
			for i, r := range info.Refs {
				w := want[i]
				if r.Subst != w.Subst || r.Ambient != w.Ambient || r.TargetOf != w.TargetOf || r.HasFallback != w.HasFallback ||
					r.Context != w.Context || !sameBindings(r.Bindings, w.Bindings) {
					t.Fatalf("%s: reference %q at %d resolves differently: %+v, want %+v", p, r.Name(), r.Subst.Pos().Offset(), r, w)
				}
			}
			var ops []ast.Stmt
			for _, op := range base.Ops {
				if op.Target == tg {
					ops = append(ops, op.Stmt)
				}
			}
			var got []ast.Stmt
			for _, op := range info.Ops {
				got = append(got, op.Stmt)
			}
			if !slices.Equal(got, ops) {
				t.Fatalf("%s target at %d: ops differ", p, tg.Pos().Offset())
			}
		}
		if after := snapshotRoot(base.Root); !slices.Equal(before, after) {
			t.Fatalf("%s: Lane changed the base's skill scope", p)
		}
	}
	t.Logf("%d targets of %d skills", targets, len(files))
}

// bindKey is what identifies a binding across two checks of one tree
// (Lane makes its own Binding values for the target it checks).
type bindKey struct {
	id   *ast.Ident
	kind BindKind
	node ast.Node
}

func bindKeys(bs []*Binding) []bindKey {
	out := make([]bindKey, len(bs))
	for i, b := range bs {
		out[i] = bindKey{b.Ident, b.Kind, b.Node}
	}
	return out
}

// sameBindings reports whether a and b hold the same bindings.
func sameBindings(a, b []*Binding) bool {
	ka, kb := bindKeys(a), bindKeys(b)
	if len(ka) != len(kb) {
		return false
	}
	for _, x := range ka {
		if !slices.Contains(kb, x) {
			return false
		}
	}
	return true
}

// snapshotRoot lists the bindings of a scope's names, to see it unchanged.
func snapshotRoot(s *Scope) []*Binding {
	var out []*Binding
	for _, n := range slices.Sorted(func(yield func(string) bool) {
		s.EachName(func(n string) { yield(n) })
	}) {
		out = append(out, nil)
		out = append(out, s.Local(n)...)
	}
	return out
}
