package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/testsupport/benchinput"
)

// manyTargets is a skill of n one-line targets, each needing the one
// before (issue 17: 100,000 targets took 7.6 s and 193 MB).
func manyTargets(n int) []byte {
	var b strings.Builder
	b.WriteString("# Skill: many\n# Status: Draft\n\n")
	for i := 0; i < n; i++ {
		if i == 0 {
			b.WriteString("t0:\n")
		} else {
			fmt.Fprintf(&b, "t%d: t%d\n", i, i-1)
		}
		fmt.Fprintf(&b, "    emit(text=\"%d\")\n", i)
	}
	fmt.Fprintf(&b, "default: t%d\n", n-1)
	return []byte(b.String())
}

// dollarLine is a skill whose one emit holds a line of size bytes made of
// unclosed "${" (issue 17: 1 MB took 7.1 s, 2 MB 15 s).
func dollarLine(size int) []byte {
	return []byte("# Skill: d\n# Status: Draft\nrun:\n    emit(text=\"" + strings.Repeat("${", size/2) + "\")\ndefault: run\n")
}

// varsList is a skill whose # Vars: header declares a JSON list of n
// numbers.
func varsList(n int) []byte {
	nums := make([]string, n)
	for i := range nums {
		nums[i] = fmt.Sprint(i)
	}
	return []byte("# Skill: v\n# Status: Draft\n# Vars: L=[" + strings.Join(nums, ",") + "]\nrun:\n    emit(text=\"${L|length}\")\ndefault: run\n")
}

// benchSizes runs check (parse, check, every rule) over gen(size) for each
// size, so that ns/op across sizes shows whether the cost is linear.
func benchSizes(b *testing.B, sizes []int, unit string, gen func(int) []byte) {
	for _, n := range sizes {
		src := gen(n)
		b.Run(fmt.Sprintf("%s=%d", unit, n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu := benchinput.StartCPU()
			for i := 0; i < b.N; i++ {
				Check("p.skill.md", src, nil, Options{})
			}
			cpu.Report(b)
		})
	}
}

// BenchmarkManyTargets: a skill of 12,500 to 100,000 targets.
func BenchmarkManyTargets(b *testing.B) {
	benchSizes(b, []int{12500, 25000, 50000, 100000}, "targets", manyTargets)
}

// BenchmarkDollarLine: one line of 128 KB to 2 MB of "${".
func BenchmarkDollarLine(b *testing.B) {
	benchSizes(b, []int{128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20}, "bytes", dollarLine)
}

// BenchmarkVarsList: a # Vars: header with a 125,000 to 1,000,000-element
// JSON list.
func BenchmarkVarsList(b *testing.B) {
	benchSizes(b, []int{125000, 250000, 500000, 1000000}, "elems", varsList)
}
