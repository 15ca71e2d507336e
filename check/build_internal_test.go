package check

import (
	"slices"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

func parse(t *testing.T, src string) *ast.File {
	t.Helper()
	f, ds := syntax.Parse("t.skill.md", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("parse errors: %v", ds)
	}
	return f
}

// TestRefsAnyNodeKind: refs is handed a node kind its switch does not list
// (an # Output: spec); the generic walk still records the substitutions
// under it, in order, with the fallback value as InFallback.
func TestRefsAnyNodeKind(t *testing.T) {
	f := parse(t, "# Skill: o\n# Output: file: ${DIR}/${NAME|default:\"${X}\"}.txt\n\nHello\n")
	var spec *ast.OutputSpec
	for _, h := range f.Headers {
		if len(h.Outputs) > 0 {
			spec = h.Outputs[0]
		}
	}
	if spec == nil {
		t.Fatal("no # Output: spec parsed")
	}
	info := &Info{File: f}
	b := &builder{info: info}
	root := b.newScope(ScopeFile, nil, f, 0)
	b.refs(spec, InOutput, root, nil, nil)
	b.refs(&ast.Fallback{Value: &ast.StringLit{Value: spec.Target}}, InOp, root, nil, nil)
	var got []string
	for _, r := range info.Refs {
		got = append(got, r.Name()+"/"+[...]string{InOutput: "out", InFallback: "fb"}[r.Context])
	}
	want := []string{"DIR/out", "NAME/out", "X/out", "DIR/fb", "NAME/fb", "X/fb"}
	if !slices.Equal(got, want) {
		t.Errorf("refs = %v, want %v", got, want)
	}
}

// TestOpOf: every statement finds its op (also when the ops are not in
// position order), and a statement of another file finds none.
func TestOpOf(t *testing.T) {
	src := "# Skill: s\nt:\n    $set A = 1\n    if ${A}:\n        foreach X in [1]:\n            emit(text=\"${X}\")\n    else:\n        $set B = 2\nelse:\n    emit(text=\"e\")\ndefault: t\n"
	info := Check(parse(t, src))
	if len(info.Ops) != 6 {
		t.Fatalf("%d ops, want 6", len(info.Ops))
	}
	for _, op := range info.Ops {
		if info.OpOf(op.Stmt) != op {
			t.Errorf("OpOf(%T at %d) is not its op", op.Stmt, op.Stmt.Pos())
		}
	}
	other := Check(parse(t, src))
	if op := info.OpOf(other.Ops[2].Stmt); op != nil {
		t.Errorf("a statement of another file has op %+v", op)
	}
	if info.OpOf(nil) != nil {
		t.Error("OpOf(nil) != nil")
	}
	shuffled := &Info{Ops: slices.Clone(info.Ops)}
	slices.Reverse(shuffled.Ops)
	for _, op := range info.Ops {
		if shuffled.OpOf(op.Stmt) != op {
			t.Errorf("out of order: OpOf(%T at %d) is not its op", op.Stmt, op.Stmt.Pos())
		}
	}
}
