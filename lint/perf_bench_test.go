package lint

import (
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/benchinput"
)

// benchCheck is `skillc check` of one file without the CLI around it:
// parse, check and every rule (lint.Check).
func benchCheck(b *testing.B, src []byte) {
	b.Helper()
	if _, _, ds := Check("big.skill.md", src, nil, Options{}); ds.HasErrors() {
		b.Fatalf("input has errors: %v", ds)
	}
	lines := strings.Count(string(src), "\n")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchinput.StartCPU()
	for i := 0; i < b.N; i++ {
		Check("big.skill.md", src, nil, Options{})
	}
	cpu.Report(b)
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkCheckBig checks the shared generator's big.skill.md (about
// 14,000 lines, 1,077 chained targets); it skips when ../shared is absent.
func BenchmarkCheckBig(b *testing.B) { benchCheck(b, benchinput.Shared(b, "big.skill.md")) }

// BenchmarkCheckBigOwn checks the in-repository skill of the same shape
// and size, so the measurement exists without ../shared.
func BenchmarkCheckBigOwn(b *testing.B) { benchCheck(b, benchinput.Big(14000)) }

// benchRules times only the rule phase of lint.Check (every rule, the
// suppressions and the final sort) on a file parsed and checked once
// before the loop.
func benchRules(b *testing.B, src []byte) {
	b.Helper()
	f, parsed := syntaxParse(src)
	info := checkFile(f)
	if ds := lint(f, info, nil, Options{}, parsed); ds.HasErrors() {
		b.Fatalf("input has errors: %v", ds)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := benchinput.StartCPU()
	for i := 0; i < b.N; i++ {
		lint(f, info, nil, Options{}, parsed)
	}
	cpu.Report(b)
}

// BenchmarkRulesBig is the rule phase of BenchmarkCheckBig.
func BenchmarkRulesBig(b *testing.B) { benchRules(b, benchinput.Shared(b, "big.skill.md")) }

// BenchmarkRulesBigOwn is the rule phase of BenchmarkCheckBigOwn.
func BenchmarkRulesBigOwn(b *testing.B) { benchRules(b, benchinput.Big(14000)) }
