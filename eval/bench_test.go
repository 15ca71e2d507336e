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

func benchSkill(b *testing.B, src string) {
	b.Helper()
	f, diags := syntax.Parse("bench.skill.md", []byte(src))
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	info := check.Check(f)
	r := &eval.Runner{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := r.Run(context.Background(), f, info, nil)
		if err != nil || res.Failed() {
			b.Fatalf("%v %+v", err, res.Errors)
		}
	}
}

// BenchmarkForeach100k is the per-op overhead: a 100,000-iteration foreach
// whose body is a $set, a filter chain and an emit (three ops per
// iteration). Divide ns/op by 300,000 for the cost of one op.
func BenchmarkForeach100k(b *testing.B) {
	items := make([]string, 100000)
	for i := range items {
		items[i] = fmt.Sprintf(`{"id": "item-%d", "n": %d}`, i, i)
	}
	src := "# Skill: bench\n# Status: Approved\n\nrun:\n" +
		"    $set ITEMS = [" + strings.Join(items, ", ") + "]\n" +
		"    foreach IT in ${ITEMS}:\n" +
		"        $set ID = \"${IT.id}\"\n" +
		"        emit(text=\"${ID|trim|url} ${IT.n|fallback:\\\"0\\\"}\")\n" +
		"\ndefault: run\n"
	benchSkill(b, src)
}

// BenchmarkSubstitution measures rendering a string with several
// substitutions, paths and filter chains (one emit per iteration of 1,000).
func BenchmarkSubstitution(b *testing.B) {
	src := `# Skill: subst
# Status: Approved
# Vars: LOC="Asheville, NC", LOG="a\nb\nc\nd"

run:
    $set W = {"area": [{"name": "Valdese"}], "items": [{"id": "1"}, {"id": "2"}]}
    foreach I in ` + "[" + strings.Repeat(`"x", `, 999) + `"x"]` + `:
        emit(text="${W.area.0.name} ${LOC|url} ${LOG|tail:\"2\"|trim} ${W.items|pluck:\"id\"|length} ${MISSING|fallback:\"-\"}")

default: run
`
	benchSkill(b, src)
}

// BenchmarkConditions measures condition evaluation: 1,000 iterations of
// an if/elif chain with equality, numeric and membership tests.
func BenchmarkConditions(b *testing.B) {
	src := `# Skill: conds
# Status: Approved
# Vars: SEEN=["a", "b", "c"], N=7

run:
    foreach I in ` + "[" + strings.Repeat(`"z", `, 999) + `"a"]` + `:
        if ${I} in ${SEEN} and ${N} > 5:
            $set HIT = "yes"
        elif ${I|trim} == "q" or not ${N}:
            $set HIT = "no"

default: run
`
	benchSkill(b, src)
}
