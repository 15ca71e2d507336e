package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/syntax"
)

// TestLoopScopeFresh: each foreach iteration starts with a fresh loop
// scope (the evaluator reuses one scope, emptied per iteration): a name
// the body bound in one iteration is unbound in the next, and the loop
// variable is the current item.
func TestLoopScopeFresh(t *testing.T) {
	src := `# Skill: fresh
# Status: Draft
run:
    foreach I in ["a", "b", "c"]:
        emit(text="${I}:${SEEN|fallback:\"unset\"}")
        $set SEEN = "${I}"
default: run
`
	f, ds := syntax.Parse("fresh.skill.md", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	res, err := (&eval.Runner{}).Run(context.Background(), f, check.Check(f), nil)
	if err != nil || res.Failed() {
		t.Fatalf("%v %+v", err, res.Errors)
	}
	if got, want := strings.Join(res.Emissions, " "), "a:unset b:unset c:unset"; got != want {
		t.Fatalf("emissions %q, want %q", got, want)
	}
}
