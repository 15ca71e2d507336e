package check_test

import (
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/testsupport/benchinput"
	"github.com/skillscript/skillc/syntax"
)

// benchCheck times check.Check alone over src, parsed once outside the
// loop (issue 17: the fact builder's share of `skillc check`).
func benchCheck(b *testing.B, src []byte) {
	b.Helper()
	f, ds := syntax.Parse("big.skill.md", src)
	if ds.HasErrors() {
		b.Fatalf("input has errors: %v", ds)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchinput.StartCPU()
	for i := 0; i < b.N; i++ {
		check.Check(f)
	}
	cpu.Report(b)
}

// BenchmarkCheckBig checks the shared generator's big.skill.md (about
// 14,000 lines, 1,077 chained targets); it skips when ../shared is absent.
func BenchmarkCheckBig(b *testing.B) { benchCheck(b, benchinput.Shared(b, "big.skill.md")) }

// BenchmarkCheckBigOwn checks the in-repository skill of the same shape
// and size, so the measurement exists without ../shared.
func BenchmarkCheckBigOwn(b *testing.B) { benchCheck(b, benchinput.Big(14000)) }
