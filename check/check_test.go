package check_test

import (
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/syntax"
)

func mustCheck(t *testing.T, src string) *check.Info {
	t.Helper()
	f, ds := syntax.Parse("t.skill.md", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("parse errors: %v", ds)
	}
	return check.Check(f)
}

func names(ts []*ast.Target) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name.Name)
	}
	return strings.Join(out, " ")
}

func TestRunOrderWalksBackFromGoal(t *testing.T) {
	info := mustCheck(t, `# Skill: g
report: fetch, enrich
    emit(text="r")
enrich: needs: fetch
    emit(text="e")
fetch:
    emit(text="f")
unused:
    emit(text="u")
default: report
`)
	if got := names(info.Graph.Order); got != "fetch enrich report" {
		t.Errorf("order = %q, want dependencies first", got)
	}
	if info.Graph.Reachable[info.Targets["unused"]] {
		t.Error("unused target should not be reachable from the goal")
	}
	if info.Graph.Goal != info.Targets["report"] {
		t.Error("goal should be report")
	}
	if deps := info.Graph.Dependents(info.Targets["fetch"]); len(deps) != 2 {
		t.Errorf("fetch has %d dependents, want 2", len(deps))
	}
}

func TestCyclesAndMissingDeps(t *testing.T) {
	info := mustCheck(t, `# Skill: c
a: b
    emit(text="a")
b: c
    emit(text="b")
c: a, ghost
    emit(text="c")
default: a
`)
	if len(info.Graph.Cycles) != 1 || names(info.Graph.Cycles[0]) != "a b c" {
		t.Fatalf("cycles = %v, want one cycle a b c", info.Graph.Cycles)
	}
	if len(info.Graph.Missing) != 1 || info.Graph.Missing[0].Name.Name != "ghost" || info.Graph.Missing[0].From.Name.Name != "c" {
		t.Errorf("missing = %+v, want ghost from c", info.Graph.Missing)
	}
}

func TestDuplicateTargets(t *testing.T) {
	info := mustCheck(t, "# Skill: d\nt:\n    emit(text=\"1\")\nt:\n    emit(text=\"2\")\ndefault: t\n")
	if len(info.Dups) != 1 || info.Targets["t"] == info.Dups[0] {
		t.Errorf("dups = %v: the second t is the duplicate", info.Dups)
	}
}

// refByName returns the references to name in source order.
func refByName(info *check.Info, name string) []*check.Ref {
	var out []*check.Ref
	for _, r := range info.Refs {
		if r.Name() == name {
			out = append(out, r)
		}
	}
	return out
}

func TestScopes(t *testing.T) {
	info := mustCheck(t, `# Skill: s
# Vars: ITEMS=[a, b], WHO=world
# Requires: user-var:city -> CITY (fallback: nowhere)

${LATER} ${CITY}

t:
    $set ACC = []
    foreach IT in ${ITEMS}:
        $set LOCAL = "${IT}"
        $append ACC ${LOCAL}
        $ llm prompt="${WHO}" -> PER
    emit(text="${LOCAL} ${PER} ${IT} ${ACC} ${t.output} ${NOW.x}")
    $set LATER = "x"
    $ svc.do thing=${MISSING|fallback:"none"} -> R
else:
    emit(text="${ERROR_CONTEXT.message}")
default: t
`)
	declared := func(name string, want ...bool) {
		t.Helper()
		refs := refByName(info, name)
		if len(refs) != len(want) {
			t.Fatalf("%s: %d refs, want %d", name, len(refs), len(want))
		}
		for i, r := range refs {
			if r.Declared() != want[i] {
				t.Errorf("%s ref %d: declared=%v, want %v", name, i, r.Declared(), want[i])
			}
		}
	}
	declared("LATER", true)         // skill-level $set, used in the template above it
	declared("CITY", true)          // # Requires: binding
	declared("IT", true, false)     // iterator: visible only in its loop
	declared("LOCAL", true, false)  // $set inside foreach is loop-local
	declared("PER", false)          // so is an op binding inside foreach
	declared("ACC", true)           // the accumulator is declared outside the loop
	declared("ERROR_CONTEXT", true) // ambient inside else:
	declared("NOW", true)           // ambient
	declared("t", true)             // ${t.output}
	if r := refByName(info, "MISSING"); len(r) != 1 || r[0].Declared() || !r[0].HasFallback {
		t.Errorf("MISSING: want an undeclared reference rescued by |fallback")
	}
	// $append binds in the scope that owns the accumulator (the target), not the loop.
	for _, b := range info.Binds {
		if b.Kind == check.BindAppend && b.Scope != info.Root {
			t.Errorf("$append ACC bound in a %v scope, want the skill scope", b.Scope.Kind)
		}
	}
}

func TestOpsAtEveryDepth(t *testing.T) {
	info := mustCheck(t, `# Skill: o
t:
    if ${A}:
        foreach X in ${L}:
            emit(text="deep")
    else:
        emit(text="else branch")
else:
    emit(text="handler")
default: t
`)
	var deep, handler *check.Op
	for _, op := range info.Ops {
		c, ok := op.Stmt.(*ast.CallStmt)
		if !ok {
			continue
		}
		switch v := c.Args[0].Value.(*ast.StringLit).Value.Plain(); v {
		case "deep":
			deep = op
		case "handler":
			handler = op
		}
	}
	if deep == nil || len(deep.Loops) != 1 || deep.Conds != 1 || deep.InElse {
		t.Errorf("deep op: %+v", deep)
	}
	if handler == nil || !handler.InElse {
		t.Errorf("handler op: %+v", handler)
	}
	if len(info.Ops) != 5 {
		t.Errorf("%d ops, want 5 (if, foreach, two emits, the handler)", len(info.Ops))
	}
}

func TestHeaderFacts(t *testing.T) {
	info := mustCheck(t, `# Skill: h
# Status: approved
# Type: data
# Autonomous: true
# Requires: secret.API_KEY
# Returns: A, B

Hello
`)
	if info.Status != "Approved" || info.SkillType != "data" || !info.Autonomous {
		t.Errorf("status %q type %q autonomous %v", info.Status, info.SkillType, info.Autonomous)
	}
	if info.Secrets["API_KEY"] == nil || len(info.Returns) != 2 {
		t.Errorf("secrets %v returns %v", info.Secrets, info.Returns)
	}
}
