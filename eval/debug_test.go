package eval_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/syntax"
)

// debugRecorder records every point a Debugger sees, with the variables
// visible at statements.
type debugRecorder struct {
	seen []string
	vars map[int][]eval.Var
}

func (d *debugRecorder) Stop(p *eval.Point) error {
	target := ""
	if p.Target != nil {
		target = p.Target.Name.Name
	}
	d.seen = append(d.seen, fmt.Sprintf("%s %d %s:%d", p.Kind, p.Depth, target, p.Line))
	if p.Kind == eval.PointStmt {
		d.vars[p.Line] = p.Vars()
	}
	return nil
}

// The Debugger is stopped at the skill, each target and each statement in
// run order; Vars sorts loop, input and bound variables and masks the
// secret-derived one; a Debugger error stops the run fatally.
func TestDebuggerPoints(t *testing.T) {
	src := "# Skill: dbg\n# Status: Approved\n# Vars: L=[1, 2]\n\nfirst:\n    $set A = \"x\"\n    foreach I in ${L}:\n        emit(text=\"${I}\")\n\nsecond: first\n    emit(text=\"${A}\")\n\ndefault: second\n"
	f, diags := syntax.Parse("dbg.skill.md", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	d := &debugRecorder{vars: map[int][]eval.Var{}}
	r := eval.Runner{Debug: d}
	res, err := r.Run(context.Background(), f, nil, nil)
	if err != nil || res.Failed() {
		t.Fatalf("run: %v %+v", err, res.Errors)
	}
	want := "skill 0 :0|target 0 first:5|op 0 first:6|op 0 first:7|op 0 first:8|op 0 first:8|target 0 second:10|op 0 second:11|done 0 :0"
	if got := strings.Join(d.seen, "|"); got != want {
		t.Errorf("points:\n got %s\nwant %s", got, want)
	}
	if got := fmt.Sprint(d.vars[8]); got != "[{I loop 2} {L var [1 2]} {A bound x}]" {
		t.Errorf("vars at line 8 (second iteration) = %s", got)
	}
	if got := fmt.Sprint(d.vars[11]); !strings.Contains(got, "{first.output output 1\n2}") {
		t.Errorf("vars at line 11 = %q, want first's output", got)
	}

	stop := stopAt{line: 7}
	r = eval.Runner{Debug: &stop}
	res, _ = r.Run(context.Background(), f, nil, nil)
	if !res.Failed() || res.Errors[0].Kind != eval.KindCancelled || len(res.Emissions) != 0 {
		t.Errorf("a Debugger error: %+v", res)
	}
}

type stopAt struct{ line int }

func (s *stopAt) Stop(p *eval.Point) error {
	if p.Line == s.line {
		return fmt.Errorf("stopped at line %d", p.Line)
	}
	return nil
}

// Point.Cond and Point.Render evaluate in the scope of the point.
func TestDebuggerEvaluate(t *testing.T) {
	src := "# Skill: ev\n# Status: Approved\n# Vars: N=3\n\nrun:\n    $set W = \"w\"\n    emit(text=\"${W}\")\n\ndefault: run\n"
	f, _ := syntax.Parse("ev.skill.md", []byte(src))
	cond := parseFirst(t, "# Skill: c\n\nt:\n    if ${N} > 2:\n        emit(text=\"x\")\n\ndefault: t\n").(*ast.IfStmt).Clauses[0].Cond
	text := parseFirst(t, "# Skill: c\n\nt:\n    $set Q = \"\"\"${W}-${N}\"\"\"\n\ndefault: t\n").(*ast.SetStmt).Value.(*ast.StringLit).Value
	var gotCond bool
	var gotText string
	r := eval.Runner{Debug: debugFunc(func(p *eval.Point) error {
		if p.Kind == eval.PointStmt && p.Line == 7 {
			gotCond, _ = p.Cond(cond)
			gotText, _ = p.Render(text)
		}
		return nil
	})}
	if _, err := r.Run(context.Background(), f, nil, nil); err != nil {
		t.Fatal(err)
	}
	if !gotCond || gotText != "w-3" {
		t.Errorf("Cond = %v, Render = %q", gotCond, gotText)
	}
}

type debugFunc func(p *eval.Point) error

func (f debugFunc) Stop(p *eval.Point) error { return f(p) }

func parseFirst(t *testing.T, src string) ast.Stmt {
	t.Helper()
	f, diags := syntax.Parse("x.skill.md", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return f.Targets[0].Body.Stmts[0]
}
