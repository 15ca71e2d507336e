package syntax_test

import (
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/benchinput"
	"github.com/skillscript/skillc/syntax"
)

// benchParseBig times syntax.Parse alone of the 14,000-line benchmark
// skill (issue 17): the parse share of lint's CheckBig.
func benchParseBig(b *testing.B, src []byte) {
	b.Helper()
	if _, ds := syntax.Parse("big.skill.md", src); ds.HasErrors() {
		b.Fatalf("input has errors: %v", ds)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchinput.StartCPU()
	for i := 0; i < b.N; i++ {
		syntax.Parse("big.skill.md", src)
	}
	cpu.Report(b)
}

// BenchmarkParseBig parses the shared generator's big.skill.md; it skips
// when ../shared is absent.
func BenchmarkParseBig(b *testing.B) { benchParseBig(b, benchinput.Shared(b, "big.skill.md")) }

// BenchmarkParseBigOwn parses the in-repository skill of the same shape.
func BenchmarkParseBigOwn(b *testing.B) { benchParseBig(b, benchinput.Big(14000)) }

// BenchmarkParseLoopOwn parses the loop skill of the whole-process
// benchmark (issue 25): one 110 kB string literal, a scan inside quotes.
func BenchmarkParseLoopOwn(b *testing.B) { benchParseBig(b, benchinput.Loop(20000)) }
