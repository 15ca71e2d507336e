package check

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/testsupport/benchinput"
	"github.com/skillscript/skillc/internal/testsupport/testcorpus"
	"github.com/skillscript/skillc/syntax"
)

// TestCheckMatchesReference compares Check with the plain builder it
// replaced (refCheck, reference_test.go) on every skill under testdata,
// the shared corpus when present, and the generated benchmark inputs:
// the same bindings, references, ops, scopes and graph, fact for fact.
func TestCheckMatchesReference(t *testing.T) {
	files := testcorpus.SkillFiles(t, filepath.Join(testcorpus.Root(t), "testdata"))
	if dir, ok := testcorpus.SharedIfPresent(t, "corpus"); ok {
		files = append(files, testcorpus.SkillFiles(t, dir)...)
	} else {
		t.Logf("shared corpus not found at %s; comparing on the own corpus only", dir)
	}
	n := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.Parse(p, src)
		if err := sameInfo(Check(f), refCheck); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		n++
	}
	for name, src := range map[string][]byte{
		"Big(14000)": benchinput.Big(14000),
		"Loop(50)":   benchinput.Loop(50),
		"Trivial":    benchinput.Trivial(),
		"ManyNames":  manyNames(20),
		"Tangle":     tangle(60),
	} {
		f, _ := syntax.Parse(name, src)
		if err := sameInfo(Check(f), refCheck); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		n++
	}
	// a tree not in source order (targets reversed): the lookups by
	// position fall back to scans and the facts still agree
	f, _ := syntax.Parse("tangle", tangle(60))
	slices.Reverse(f.Targets)
	if err := sameInfo(Check(f), refCheck); err != nil {
		t.Errorf("reversed tangle: %v", err)
	}
	t.Logf("%d files compared", n+1)
}

// manyNames is a skill whose loop, nested loop and else: scopes each bind
// n names (more than a scope lists before it switches to a map), set and
// appended more than once, and referenced inside and outside the scope.
func manyNames(n int) []byte {
	var b strings.Builder
	b.WriteString("# Skill: many\n# Vars: L=[1, 2]\n\nt:\n    $set ACC = []\n    foreach IT in ${L}:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "        $set V%d = \"${IT} ${V%d}\"\n", i, max(i-1, 0))
		fmt.Fprintf(&b, "        $append ACC ${V%d}\n", i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "        $set V%d = \"again ${V%d}\"\n", i, i)
		}
	}
	b.WriteString("        foreach J in ${L}:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "            $set W%d = \"${J} ${V%d} ${W%d}\"\n", i, i, i)
	}
	b.WriteString("    emit(text=\"${V1} ${W2} ${ACC}\")\nelse:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    $ llm prompt=\"${ERROR_CONTEXT.message} ${E%d}\" -> E%d\n", i, i)
	}
	b.WriteString("    emit(text=\"${E3}\")\ndefault: t\n")
	return []byte(b.String())
}

// tangle is a skill of n targets whose needs form many cycles (self
// loops included), name missing targets and repeat target names, with a
// goal in the middle.
func tangle(n int) []byte {
	var b strings.Builder
	b.WriteString("# Skill: tangle\n\n")
	x := uint32(7)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "t%d:", i%(n-5)) // the last five reuse names
		for k := 0; k < 3; k++ {
			x = x*1103515245 + 12345
			switch d := int(x>>16) % (n + 4); {
			case d >= n:
				fmt.Fprintf(&b, " ghost%d", d)
			default:
				fmt.Fprintf(&b, " t%d", d)
			}
			if k < 2 {
				b.WriteString(",")
			}
		}
		fmt.Fprintf(&b, "\n    emit(text=\"%d\")\n", i)
	}
	fmt.Fprintf(&b, "default: t%d\n", n/2)
	return []byte(b.String())
}

// FuzzCheckMatchesReference: on any input the parser accepts (with or
// without errors), Check and the reference builder agree.
func FuzzCheckMatchesReference(f *testing.F) {
	for _, p := range testcorpus.SkillFiles(f, filepath.Join(testcorpus.Root(f), "testdata", "corpus")) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := syntax.Parse("fuzz.skill.md", src)
		if err := sameInfo(Check(file), refCheck); err != nil {
			t.Fatal(err)
		}
	})
}

// sameInfo reports the first difference between got and want. Facts that
// are pointers into the check result (scopes, bindings, ops) are compared
// by position: the i-th binding of got must correspond to the i-th of
// want, and so on.
func sameInfo(got *Info, ref func(*ast.File) (*Info, *refFacts)) error {
	want, facts := ref(got.File)
	c := &infoCmp{
		scopes: map[*Scope]*Scope{},
		gotB:   index(got.Binds), wantB: index(want.Binds),
		gotO: index(got.Ops), wantO: index(want.Ops),
	}
	if err := c.scope(got.Root, want.Root); err != nil {
		return fmt.Errorf("Root: %v", err)
	}
	if len(got.Binds) != len(want.Binds) {
		return fmt.Errorf("%d bindings, want %d", len(got.Binds), len(want.Binds))
	}
	for i, g := range got.Binds {
		w := want.Binds[i]
		if g.Name != w.Name || g.Kind != w.Kind || g.Ident != w.Ident || g.Node != w.Node || g.Value != w.Value || g.Target != w.Target {
			return fmt.Errorf("binding %d: %+v, want %+v", i, *g, *w)
		}
		if err := c.scope(g.Scope, w.Scope); err != nil {
			return fmt.Errorf("binding %d (%s) scope: %v", i, g.Name, err)
		}
	}
	if len(got.Ops) != len(want.Ops) {
		return fmt.Errorf("%d ops, want %d", len(got.Ops), len(want.Ops))
	}
	for i, g := range got.Ops {
		w := want.Ops[i]
		if g.Stmt != w.Stmt || g.Target != w.Target || g.InElse != w.InElse || g.Conds != w.Conds || !reflect.DeepEqual(g.Loops, w.Loops) {
			return fmt.Errorf("op %d: %+v, want %+v", i, *g, *w)
		}
		if err := c.scope(g.Scope, w.Scope); err != nil {
			return fmt.Errorf("op %d scope: %v", i, err)
		}
	}
	for s, w := range facts.opOf {
		if !c.sameOp(got.OpOf(s), w) {
			return fmt.Errorf("OpOf(%T at %d) differs", s, s.Pos())
		}
	}
	if len(got.Refs) != len(want.Refs) {
		return fmt.Errorf("%d refs, want %d", len(got.Refs), len(want.Refs))
	}
	for i, g := range got.Refs {
		w := want.Refs[i]
		if g.Subst != w.Subst || g.Context != w.Context || g.Target != w.Target || g.Ambient != w.Ambient ||
			g.TargetOf != w.TargetOf || g.HasFallback != w.HasFallback || !c.sameOp(g.Op, w.Op) {
			return fmt.Errorf("ref %d (%s): %+v, want %+v", i, g.Name(), *g, *w)
		}
		if err := c.scope(g.Scope, w.Scope); err != nil {
			return fmt.Errorf("ref %d (%s) scope: %v", i, g.Name(), err)
		}
		if err := c.binds(g.Bindings, w.Bindings); err != nil {
			return fmt.Errorf("ref %d (%s) bindings: %v", i, g.Name(), err)
		}
	}
	// every scope reached above: the same bindings by name
	for g, w := range c.scopes {
		if g == nil {
			continue
		}
		wb := facts.scopes[w]
		if n := len(g.few) + len(g.many); n != len(wb) {
			return fmt.Errorf("scope at %v binds %d names, want %d", nodePos(g.Node), n, len(wb))
		}
		if g.many != nil && len(g.few) > 0 {
			return fmt.Errorf("scope at %v has both a list and a map", nodePos(g.Node))
		}
		for name, bs := range wb {
			if err := c.binds(g.Local(name), bs); err != nil {
				return fmt.Errorf("scope at %v, name %s: %v", nodePos(g.Node), name, err)
			}
		}
		if len(c.scopes)*len(facts.scopes[want.Root]) > 100000 {
			continue // Names is linear in the visible names; skip the quadratic check on the largest inputs
		}
		var visible []string
		seen := map[string]bool{}
		for sc := w; sc != nil; sc = sc.Parent {
			for name := range facts.scopes[sc] {
				if !seen[name] {
					seen[name] = true
					visible = append(visible, name)
				}
			}
		}
		names := g.Names()
		slices.Sort(names)
		slices.Sort(visible)
		if !slices.Equal(names, visible) {
			return fmt.Errorf("scope at %v: Names() = %v, want %v", nodePos(g.Node), names, visible)
		}
	}
	for _, p := range []struct {
		what      string
		got, want any
	}{
		{"Targets", got.Targets, want.Targets},
		{"Dups", got.Dups, want.Dups},
		{"Graph", got.Graph, want.Graph},
		{"Declared", got.Declared, want.Declared},
		{"Secrets", got.Secrets, want.Secrets},
		{"Returns", got.Returns, want.Returns},
		{"Status", got.Status, want.Status},
		{"Autonomous", got.Autonomous, want.Autonomous},
		{"SkillType", got.SkillType, want.SkillType},
	} {
		if !reflect.DeepEqual(p.got, p.want) {
			return fmt.Errorf("%s: %v, want %v", p.what, p.got, p.want)
		}
	}
	return nil
}

type infoCmp struct {
	scopes      map[*Scope]*Scope
	gotB, wantB map[*Binding]int
	gotO, wantO map[*Op]int
}

func index[T any](xs []*T) map[*T]int {
	m := make(map[*T]int, len(xs))
	for i, x := range xs {
		m[x] = i
	}
	return m
}

func nodePos(n ast.Node) any {
	if n == nil {
		return "nil"
	}
	return n.Pos()
}

// scope pairs g with w (recursively through the parents), failing when
// they differ in kind or node or when g was paired with another scope.
func (c *infoCmp) scope(g, w *Scope) error {
	if g == nil || w == nil {
		if g != w {
			return fmt.Errorf("nil scope on one side")
		}
		return nil
	}
	if p, ok := c.scopes[g]; ok {
		if p != w {
			return fmt.Errorf("scope at %v paired with two scopes", nodePos(g.Node))
		}
		return nil
	}
	if g.Kind != w.Kind || g.Node != w.Node {
		return fmt.Errorf("scope kind %v node %v, want kind %v node %v", g.Kind, nodePos(g.Node), w.Kind, nodePos(w.Node))
	}
	c.scopes[g] = w
	return c.scope(g.Parent, w.Parent)
}

func (c *infoCmp) binds(g, w []*Binding) error {
	if len(g) != len(w) {
		return fmt.Errorf("%d bindings, want %d", len(g), len(w))
	}
	for i := range g {
		gi, ok1 := c.gotB[g[i]]
		wi, ok2 := c.wantB[w[i]]
		if !ok1 || !ok2 || gi != wi {
			return fmt.Errorf("binding %d is #%d (listed %v), want #%d (listed %v)", i, gi, ok1, wi, ok2)
		}
	}
	return nil
}

func (c *infoCmp) sameOp(g, w *Op) bool {
	if g == nil || w == nil {
		return g == w
	}
	gi, ok1 := c.gotO[g]
	wi, ok2 := c.wantO[w]
	return ok1 && ok2 && gi == wi
}
