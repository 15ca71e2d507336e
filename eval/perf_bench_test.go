package eval_test

import (
	"context"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/internal/testsupport/benchinput"
	"github.com/skillscript/skillc/syntax"
)

// benchLoop runs a parsed and checked loop skill of iters iterations and
// reports the cost per iteration (ns/iter, allocs/iter).
func benchLoop(b *testing.B, src []byte, iters int) {
	b.Helper()
	f, diags := syntax.Parse("loop.skill.md", src)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	info := check.Check(f)
	r := &eval.Runner{}
	res, err := r.Run(context.Background(), f, info, nil)
	if err != nil || res.Failed() {
		b.Fatalf("%v %+v", err, res.Errors)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchinput.StartCPU()
	for i := 0; i < b.N; i++ {
		if _, err := r.Run(context.Background(), f, info, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu.Report(b)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(iters), "ns/iter")
}

// BenchmarkLoop runs the shared generator's loop.skill.md (a 20,000-item
// foreach doing $set, if/else and $append); it skips without ../shared.
func BenchmarkLoop(b *testing.B) { benchLoop(b, benchinput.Shared(b, "loop.skill.md"), 20000) }

// BenchmarkLoopOwn runs the in-repository loop of the same shape.
func BenchmarkLoopOwn(b *testing.B) { benchLoop(b, benchinput.Loop(20000), 20000) }
