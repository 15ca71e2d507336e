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

// TestAppendInLoop: a list $append grows in a loop (kept unboxed between
// appends, sized for the iterations left) reads whole inside and after
// the loop, and a copy taken with $set does not see later appends.
func TestAppendInLoop(t *testing.T) {
	src := `# Skill: grow
# Status: Draft
run:
    $set ACC = []
    $set TXT = ""
    foreach I in [1, 2, 3, 4, 5]:
        $append ACC ${I}
        $append TXT "${I},"
        if ${ACC|length} == 4:
            emit(text="four: ${ACC}")
        foreach J in ["a", "b"]:
            $append ACC "${I}${J}"
    $set SNAP = ${ACC}
    $append ACC "z"
    emit(text="${ACC|length} ${TXT} ${SNAP|length}")
    emit(text="${ACC}")
    emit(text="${SNAP}")
default: run
`
	f, ds := syntax.Parse("grow.skill.md", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	res, err := (&eval.Runner{}).Run(context.Background(), f, check.Check(f), nil)
	if err != nil || res.Failed() {
		t.Fatalf("%v %+v", err, res.Errors)
	}
	want := []string{
		`four: [1,"1a","1b",2]`,
		"16 1,2,3,4,5, 15",
		`[1,"1a","1b",2,"2a","2b",3,"3a","3b",4,"4a","4b",5,"5a","5b","z"]`,
		`[1,"1a","1b",2,"2a","2b",3,"3a","3b",4,"4a","4b",5,"5a","5b"]`,
	}
	got := res.Emissions
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("emissions %q, want %q", got, want)
	}
}
