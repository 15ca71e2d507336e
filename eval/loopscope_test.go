package eval_test

import (
	"context"
	"fmt"
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

// TestAppendAliasing: $append stores a copy of a list or object value, so
// appending to the source afterwards, or to a copy of the result, changes
// neither; the texts a loop renders (carved from shared chunks) keep their
// values after the loop, across many chunks and past the longest text a
// chunk takes.
func TestAppendAliasing(t *testing.T) {
	src := `# Skill: alias
# Status: Draft
run:
    $set INNER = ["a"]
    $set OBJ = {"k": "v"}
    $set OUT = []
    foreach K in [1, 2, 3]:
        $append OUT ${INNER}
        $append INNER "${K}"
    $append OUT ${OBJ}
    $set COPY = ${OUT}
    $append COPY "x"
    emit(text="${OUT}")
    emit(text="${INNER}")
    emit(text="${COPY|length} ${OUT|length}")
    $set JS = "[` + nums(3000) + `]"
    $ json_parse ${JS} -> NUMS
    $set TEXTS = []
    $set PAD = "` + strings.Repeat("p", 300) + `"
    foreach N in ${NUMS}:
        $set T = "t-${N}"
        $append TEXTS ${T}
        if ${N} == "2999":
            $append TEXTS "${PAD}${N}"
    emit(text="${TEXTS|length}")
    emit(text="${TEXTS}")
default: run
`
	f, ds := syntax.Parse("alias.skill.md", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	res, err := (&eval.Runner{}).Run(context.Background(), f, check.Check(f), nil)
	if err != nil || res.Failed() {
		t.Fatalf("%v %+v", err, res.Errors)
	}
	var texts []string
	for i := range 3000 {
		texts = append(texts, fmt.Sprintf("%q", fmt.Sprintf("t-%d", i)))
	}
	texts = append(texts, `"`+strings.Repeat("p", 300)+`2999"`)
	all := "[" + strings.Join(texts, ",") + "]"
	want := []string{
		`[["a"],["a","1"],["a","1","2"],{"k":"v"}]`,
		`["a","1","2","3"]`,
		"5 4",
		"3001",
		all,
	}
	if got := res.Emissions; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("emissions %.300q, want %.300q", got, want)
	}
}

func nums(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(i)
	}
	return strings.Join(s, ",")
}
